//! `sesstree checkout REV`: moves the leaf in the same file, as the agent's `/tree` navigation
//! does, optionally leaving a summary of the abandoned branch at the destination. Appends a
//! `branch_summary` (a summary, or the empty marker that persists a bare move) and, with
//! `--label`, a `label` entry.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use serde_json::{Map, Value, json};
use sesstree::format::Dialect;
use sesstree::hooks::{self, Hooks};
use sesstree::id::EntryId;
use sesstree::ops::checkout::{self, Navigation, Plan, Summary};
use sesstree::process::CancelToken;
use sesstree::summarize::{self, FileOps};
use sesstree::{Error, Session, rev, store};

use super::{DialectArg, HookArgs, cancel_on_interrupt, certain_dialect, short_id};
use crate::cli::{Ctx, complete, stdout, ui, write_json_line};

/// The examples of `--help` and the man page (EXAMPLES), each run by tests/cli/examples.rs.
const EXAMPLES: &str = r#"Examples:
  Go back to the entry labelled checkpoint-1, leaving a summary of the abandoned branch there:
    sesstree -f session.jsonl checkout checkpoint-1 --summary "Tried serde; the machine is offline."
  Edit the user request 5c07a3d4 again: its text is printed and the leaf moves to its parent:
    sesstree checkout 5c07a3d4
  Have a summarizer command write the summary of the abandoned entries:
    SESSTREE_SUMMARIZER='llm -m gpt-5' sesstree checkout @~4 --summarize
  Show what would be appended, as JSON, and write nothing:
    sesstree checkout 13c9 --dry-run --json"#;

/// Move the leaf to REV, as the agent's /tree navigation does
///
/// oh-my-pi's /branch and /rewind (since 18.1.3) rewind in place the same way.
///
/// A user message (or a custom message) as REV moves the leaf to its parent and prints the
/// message's text, ready to edit and send again; any other entry becomes the leaf. The move is
/// appended to the file: a branch_summary under the new leaf, holding the summary of the
/// abandoned branch when one is given, or an empty marker otherwise, so the agent resumes at
/// the new leaf. REV equal to the current leaf changes nothing ("Already at this point"), and
/// so does a user message whose parent is already the leaf (checking it out again): its text
/// is printed again, nothing is written.
///
/// Hooks: the executables session_before_tree (may cancel or supply the summary) and
/// session_tree (told after the move) in the hooks directory get the event as JSON on stdin.
/// A session_before_tree hook that fails, prints something that is not JSON, or runs past
/// --hook-timeout cancels the checkout (exit 7); nothing is written. session_tree runs after
/// the write: when it fails, the move stays and sesstree exits 1.
///
/// Locking: the file stays locked from loading it until the move is written, that is while
/// session_before_tree and the summarizer (which has no time limit) run. Other sesstree
/// writers wait for the lock up to 10 s and then exit 5, and a hook must not write the file
/// itself. The agents do not lock: if one appends meanwhile, nothing is written (exit 5) and
/// the summary made so far is lost. session_tree runs once the lock is released, so it may
/// run sesstree on the file.
#[derive(Debug, Default, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct CheckoutArgs {
    /// The entry to move to.
    #[arg(add = complete::rev())]
    pub rev: String,
    /// Summary of the abandoned branch, stored at the destination as given.
    #[arg(long, value_name = "TEXT", group = "summary_source")]
    pub summary: Option<String>,
    /// Read the summary from a file (`-` for standard input).
    #[arg(long, value_name = "FILE", group = "summary_source")]
    pub summary_file: Option<PathBuf>,
    /// Have the summarizer (or the session_before_tree hook) write the summary.
    #[arg(long, group = "summary_source")]
    pub summarize: bool,
    /// The command that summarizes: it reads the abandoned branch as a transcript plus
    /// instructions on stdin and prints the summary (run with `sh -c`, on Windows `cmd /C`).
    #[arg(long, value_name = "CMD", env = "SESSTREE_SUMMARIZER")]
    pub summarizer: Option<String>,
    /// Extra instructions for the summarizer, appended to the default ones.
    #[arg(long, value_name = "TEXT", requires = "summarize")]
    pub instructions: Option<String>,
    /// Use --instructions instead of the default instructions.
    #[arg(long, requires = "instructions")]
    pub replace_instructions: bool,
    /// Label the summary entry, or REV when there is no summary (trimmed as `label` trims it;
    /// a blank TEXT labels nothing).
    #[arg(long, value_name = "TEXT")]
    pub label: Option<String>,
    /// Print the entries that would be appended; write nothing and run no hooks.
    #[arg(long)]
    pub dry_run: bool,
    /// Whose session the file is (omp or pi), when neither its contents nor its directory
    /// say; refused when they say otherwise. It picks how the summarizer's summary lists the files
    /// (oh-my-pi's `<files>` block, pi's `<read-files>`/`<modified-files>`) and what the
    /// branch_summary's fromId names (pi: the leaf being left; oh-my-pi: the new leaf).
    #[arg(long, value_enum, value_name = "AGENT")]
    pub dialect: Option<DialectArg>,
    /// Hooks.
    #[command(flatten)]
    pub hooks: HookArgs,
}

/// Runs `checkout`.
pub fn run(ctx: &Ctx, args: &CheckoutArgs) -> anyhow::Result<()> {
    let cancel = CancelToken::default();
    let hooks = match args.dry_run {
        true => Hooks::disabled(),
        false => args.hooks.hooks(&cancel, [hooks::SESSION_BEFORE_TREE, hooks::SESSION_TREE]),
    };
    if args.summarize
        && args.summarizer.is_none()
        && hooks.find(hooks::SESSION_BEFORE_TREE).is_none()
    {
        let why = if args.dry_run { " (hooks do not run with --dry-run)" } else { "" };
        anyhow::bail!(Error::Usage(format!(
            "summarization needs an active model: give --summarizer CMD, set SESSTREE_SUMMARIZER, or install a session_before_tree hook{why}"
        )));
    }
    let given = given_summary(args)?;

    let locked = if args.dry_run { None } else { Some(ctx.lock()?) };
    let session = match &locked {
        Some(l) => l.load()?,
        None => {
            // As label and name: a dry run refuses what the real run would.
            store::refuse_stdin(ctx.file()?)?;
            let s = Session::load(ctx.file()?)?;
            store::check_writable(&s)?;
            s
        }
    };
    ctx.report(&session)?;
    // The summary is text both agents read: when the file does not say, the readers' guess.
    let dialect = certain_dialect(&session, args.dialect)?.unwrap_or_else(|| session.dialect());
    let target = rev::resolve(&session, &args.rev)?;
    let nav = checkout::navigate(&session, target)?;
    if nav.noop {
        return report(ctx, &session, &nav, None, args);
    }
    // Only now: a Ctrl-C while waiting for the lock should still end sesstree at once.
    cancel_on_interrupt(&cancel);

    let wants_summary = args.summarize || given.is_some();
    // Payloads are parsed only when something reads them: large abandoned branches are common.
    let before_hook = hooks.find(hooks::SESSION_BEFORE_TREE).is_some();
    let entries = if wants_summary || before_hook {
        nav.entries.iter().map(|&i| session.value(i)).collect::<Result<Vec<_>, _>>()?
    } else {
        Vec::new()
    };
    let reply = if before_hook {
        let fields = checkout::preparation(&session, &nav, &entries, wants_summary);
        hooks.run_before(hooks::SESSION_BEFORE_TREE, fields)?
    } else {
        None
    };
    let hook_summary = reply.as_ref().and_then(|r| r.get("summary")).filter(|v| !v.is_null());
    let summary = if !wants_summary {
        None
    } else if entries.is_empty() && given.is_none() {
        // Nothing is abandoned only on a move down from the position (a move up abandons what is
        // below the target), or from a file without one.
        let why = match nav.old_leaf {
            Some(_) => "the move leaves nothing behind: the target is below the current position",
            None => "the move leaves nothing behind",
        };
        eprintln!("note: nothing to summarize ({why}); moving without a summary");
        None
    } else {
        Some(summary_of(args, given, hook_summary, &entries, dialect, &cancel)?)
    };

    let plan = checkout::plan(
        &session,
        &nav,
        summary.as_ref(),
        args.label.as_deref(),
        dialect,
        &mut ctx.ids(),
        &ctx.clock()?.now_iso(),
    )?;
    let Some(locked) = locked else { return report(ctx, &session, &nav, Some(&plan), args) };
    if cancel.is_cancelled() {
        anyhow::bail!(Error::Cancelled("interrupted; nothing was written".into()));
    }
    locked.append(&session, &plan.lines)?;
    // The move is on disk: session_tree may run sesstree on the file itself.
    drop(locked);
    report(ctx, &session, &nav, Some(&plan), args)?;
    ctx.note_other_file();

    let mut fields = Map::new();
    fields.insert("newLeafId".into(), id_value(&session, nav.new_leaf));
    fields.insert("oldLeafId".into(), id_value(&session, nav.old_leaf));
    fields.insert("summaryEntry".into(), plan.summary_entry.clone().unwrap_or(Value::Null));
    let from_extension =
        summary.as_ref().filter(|_| plan.summary_entry.is_some()).map(|s| s.from_extension);
    fields.insert("fromExtension".into(), from_extension.map_or(Value::Null, Value::Bool));
    // Not a cancel: the move is written and stays. Exit 1, so no script takes it for "nothing
    // happened".
    hooks
        .run(hooks::SESSION_TREE, fields)
        .map_err(|e| Error::Failed(format!("the checkout was written, but {e}")))?;
    Ok(())
}

/// The summary of a non-empty abandoned branch, from the first source that has one:
/// `--summary`/`--summary-file`, the `session_before_tree` hook, the summarizer.
fn summary_of(
    args: &CheckoutArgs,
    given: Option<String>,
    hook_summary: Option<&Value>,
    entries: &[Value],
    dialect: Dialect,
    cancel: &CancelToken,
) -> anyhow::Result<Summary> {
    if let Some(text) = given {
        let details = Some(FileOps::collect(entries).details());
        return Ok(Summary { text, details, from_extension: false });
    }
    if let Some(h) = hook_summary {
        return from_hook(h);
    }
    let Some(cmd) = &args.summarizer else {
        anyhow::bail!(Error::Usage(
            "summarization needs an active model: the session_before_tree hook gave no summary; give --summarizer CMD or set SESSTREE_SUMMARIZER".into(),
        ));
    };
    let instructions =
        summarize::instructions(args.instructions.as_deref(), args.replace_instructions);
    if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        // The summarizer may take a while; said only when one runs.
        eprintln!("Summarizing the abandoned branch… (Ctrl-C cancels)");
    }
    let (text, details) = summarize::run(cmd, cancel, entries, &instructions, dialect)?;
    Ok(Summary { text, details: Some(details), from_extension: false })
}

/// `--summary` or the contents of `--summary-file`.
fn given_summary(args: &CheckoutArgs) -> anyhow::Result<Option<String>> {
    if let Some(text) = &args.summary {
        return Ok(Some(text.clone()));
    }
    let Some(path) = &args.summary_file else { return Ok(None) };
    let text = match path.as_os_str() == "-" {
        true => std::io::read_to_string(std::io::stdin()),
        false => std::fs::read_to_string(path),
    };
    let text = text.map_err(|e| Error::io(path, e))?;
    // An editor ends the file with a newline; it is not part of the summary.
    Ok(Some(text.trim_end().to_string()))
}

/// A hook's `{"summary": "...", "details": ...}`.
fn from_hook(value: &Value) -> anyhow::Result<Summary> {
    let text = value.get("summary").and_then(Value::as_str).ok_or_else(|| {
        Error::Cancelled(
            "the session_before_tree hook's summary must be {\"summary\": TEXT, \"details\": ...}; nothing was written".into(),
        )
    })?;
    let details = value.get("details").filter(|d| !d.is_null()).cloned();
    Ok(Summary { text: text.to_string(), details, from_extension: true })
}

fn id_value(session: &Session, idx: Option<u32>) -> Value {
    idx.and_then(|i| session.record(i).id.as_ref()).map_or(Value::Null, EntryId::to_value)
}

fn id_text(session: &Session, idx: Option<u32>) -> String {
    match idx.and_then(|i| session.record(i).id.as_ref()) {
        Some(id) => ui::show(short_id(id.as_str())).into_owned(),
        None => "a new root".to_string(),
    }
}

/// The `--json` object of SPEC §5.
fn json_result(session: &Session, nav: &Navigation, plan: Option<&Plan>, dry_run: bool) -> Value {
    let ids = |list: &[u32]| list.iter().map(|&i| id_value(session, Some(i))).collect::<Vec<_>>();
    json!({
        "oldLeafId": id_value(session, nav.old_leaf),
        "newLeafId": id_value(session, nav.new_leaf),
        "editorText": nav.editor_text,
        "commonAncestorId": id_value(session, nav.common_ancestor),
        "entriesToSummarize": ids(&nav.entries),
        "summaryEntry": plan.and_then(|p| p.summary_entry.clone()),
        "appended": plan.map_or(Vec::new(), |p| p.appended.iter().map(EntryId::to_value).collect()),
        "appendedEntries": plan.map_or(Vec::new(), |p| p.entries.clone()),
        "noop": nav.noop,
        "dryRun": dry_run,
    })
}

/// What a checkout prints: the `--json` object, or on stdout the editor text (the lines it
/// would append, for a dry run) and a status line on stderr. No plan: nothing to move.
fn report(
    ctx: &Ctx,
    session: &Session,
    nav: &Navigation,
    plan: Option<&Plan>,
    args: &CheckoutArgs,
) -> anyhow::Result<()> {
    let mut out = stdout();
    if ctx.json {
        write_json_line(&mut out, &json_result(session, nav, plan, args.dry_run))?;
        out.flush()?;
        return Ok(());
    }
    let to = id_text(session, nav.new_leaf);
    match plan {
        None => {
            // `checkout U` again: the leaf stays, and the prefill is given again.
            write_prefill(&mut out, nav.editor_text.as_deref())?;
            out.flush()?;
            let hint = match args.label {
                Some(_) => " (nothing written; `sesstree label` sets a label)",
                None => "",
            };
            eprintln!("Already at this point{hint}");
        }
        Some(plan) if args.dry_run => {
            for line in &plan.lines {
                writeln!(out, "{}", ui::show(&String::from_utf8_lossy(line)))?;
            }
            out.flush()?;
            eprintln!("dry run: would move the leaf to {to}; nothing was written");
        }
        Some(plan) => {
            write_prefill(&mut out, nav.editor_text.as_deref())?;
            out.flush()?;
            let appended: Vec<String> = plan
                .entries
                .iter()
                .zip(&plan.appended)
                .map(|(e, id)| {
                    let kind = e["type"].as_str().unwrap_or("?");
                    format!("{kind} {}", ui::show(short_id(id.as_str())))
                })
                .collect();
            let from = nav.old_leaf.map(|_| format!("from {} ", id_text(session, nav.old_leaf)));
            let from = from.unwrap_or_default();
            let appended = appended.join(", ");
            eprintln!("Moved {from}to {to}; appended {appended} (`checkout -` goes back)");
        }
    }
    Ok(())
}

/// The editor prefill on stdout. It is meant to be captured (`> draft.txt`) exactly; only a
/// terminal gets it with control characters escaped.
fn write_prefill(out: &mut impl Write, text: Option<&str>) -> std::io::Result<()> {
    let Some(text) = text else { return Ok(()) };
    if std::io::stdout().is_terminal() {
        out.write_all(sesstree::terminal::sanitize_keep_lines(text).as_bytes())?;
    } else {
        out.write_all(text.as_bytes())?;
    }
    if !text.is_empty() && !text.ends_with('\n') {
        out.write_all(b"\n")?;
    }
    Ok(())
}
