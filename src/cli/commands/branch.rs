//! `sesstree fork REV` (alias `branch`): fork a new session file, as the agents' `/fork` does.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};
use sesstree::hooks;
use sesstree::id::EntryId;
use sesstree::ops::branch::{self, Fork};
use sesstree::process::CancelToken;
use sesstree::terminal::sanitize_keep_lines;
use sesstree::{Error, Session, rev, store};

use crate::cli::args::{DialectArg, HookArgs};
use crate::cli::signals::cancel_on_interrupt;
use crate::cli::{Ctx, complete, stdout, ui, write_json_line};

/// The examples of `--help` and the man page (EXAMPLES), each run by tests/cli/examples.rs.
const EXAMPLES: &str = r#"Examples:
  Fork the history before the user request 5c07a3d4 into a new file next to the source:
    sesstree branch -f session.jsonl 5c07a3d4
  Fork into a file of your choice:
    sesstree branch 13c9 -o retry.jsonl
  Fork everything up to and including the entry labelled checkpoint-1:
    sesstree branch --at checkpoint-1
  The new file's path, for a script:
    sesstree --json branch 5c07 | jq -r .path"#;

/// Fork a new session file from the history before a user message
///
/// As the agents' /fork (/branch in older versions): REV must be a user message. The new file
/// holds the path from the root to REV's parent; with --at REV, the path from the root to REV
/// itself, whatever its type (pi's fork at an entry). Label entries are left out and the
/// labels in effect on the kept entries are re-created as a fresh chain at the end; archive
/// records for entries not on the path are dropped; an entry whose parent was dropped is
/// re-linked to its nearest kept ancestor. Kept lines are copied byte for byte. The header gets
/// a new session id and `parentSession` (the source's absolute path, symlinks resolved). An
/// oh-my-pi file keeps its name (in the header, and in a title slot when the source has one);
/// a pi file gets no name, as pi 1.6 forks, and a compaction that kept entries from a dropped
/// label keeps them from the entry after it. The source file is never changed.
///
/// A file the agents would not write yet is not written: pi writes a session only once it
/// holds a user or assistant message. So a root user message of a file without a title slot
/// writes nothing (the new session starts empty: start it in the agent; with --json, `path` is
/// null), and a history without any such message in such a file is refused. With a title
/// slot, a root user message gives what oh-my-pi writes: the slot, the header and the
/// `title_change` of the carried name.
///
/// The new file goes next to the source as `<timestamp>_<session-id>.jsonl`, or to `-o PATH`.
///
/// Hooks: the executables session_before_branch (gets `{"type", "entryId"}`; may print
/// `{"cancel": true}`) and session_branch (gets `{"type", "previousSessionFile", "path"}` once
/// the file is written; `path` is null with `-o -`) in the hooks directory. A hook that fails,
/// prints something that is not JSON or runs too long cancels (exit 7) and nothing is written;
/// a failing session_branch hook exits 1, the new file staying.
///
/// Output: the user message's text (the editor prefill) on stdout, and `Branched to PATH` on
/// stderr; with --json one object `{"path", "sessionId", "parentSession", "editorText"}`
/// (`editorText` is null with --at; `path` and `sessionId` are null when nothing was
/// written). With `-o -` stdout carries the new file and nothing
/// else.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
#[command(group(clap::ArgGroup::new("source").required(true).args(["rev", "at"])))]
pub struct BranchArgs {
    /// The user message to branch at; the new file holds the history before it.
    #[arg(add = complete::rev())]
    pub rev: Option<String>,
    /// Fork the path from the root to REV inclusive, whatever REV's type (pi's fork at an
    /// entry).
    // `--through` was its name before pi named the position "at".
    #[arg(long, alias = "through", value_name = "REV", add = complete::rev())]
    pub at: Option<String>,
    /// Write the new file to PATH (`-` for standard output) instead of next to the source.
    #[arg(short = 'o', long = "output", value_name = "PATH")]
    pub output: Option<PathBuf>,
    /// Overwrite an existing file at PATH.
    #[arg(long)]
    pub force: bool,
    /// Fork as this agent does (pi: no name carried, compactions re-pointed past dropped
    /// labels), whatever the file looks like.
    #[arg(long, value_enum, value_name = "AGENT")]
    pub dialect: Option<DialectArg>,
    #[command(flatten)]
    pub hooks: HookArgs,
}

/// Runs `branch`.
pub fn run(ctx: &Ctx, args: &BranchArgs) -> anyhow::Result<()> {
    let cancel = CancelToken::default();
    let hooks = args.hooks.hooks(&cancel, [hooks::SESSION_BEFORE_BRANCH, hooks::SESSION_BRANCH]);
    let file = ctx.file()?;
    if file.as_os_str() == "-" {
        anyhow::bail!(Error::Usage(
            "branch needs the session file's path; it cannot read standard input".into(),
        ));
    }
    let to_stdout = args.output.as_deref().is_some_and(|o| o.as_os_str() == "-");
    if to_stdout && ctx.json {
        anyhow::bail!(Error::Usage(
            "--json and -o - both write to standard output; give -o a path".into(),
        ));
    }
    let session = Session::load(file)?;
    // As the appending commands (`Locked::load`): refuse first, then warn.
    store::check_writable(&session)?;
    ctx.report(&session)?;

    let (idx, fork, editor_text) = match (&args.rev, &args.at) {
        (_, Some(at)) => {
            let idx = rev::resolve(&session, at)?;
            (idx, Fork::At(idx), None)
        }
        (Some(r), None) => {
            let idx = rev::resolve(&session, r)?;
            (idx, Fork::Before(idx), Some(branch::source_text(&session, idx)?))
        }
        (None, None) => unreachable!("clap requires REV or --at"),
    };
    let source = sesstree::platform::canonicalize(file).map_err(|e| Error::io(file, e))?;
    let parent_session = source.to_string_lossy();

    cancel_on_interrupt(&cancel);
    let mut fields = Map::new();
    let entry_id = session.record(idx).id.as_ref().map_or(Value::Null, EntryId::to_value);
    fields.insert("entryId".into(), entry_id);
    hooks.run_before(hooks::SESSION_BEFORE_BRANCH, fields)?;

    // `--dialect` is the new file's agent; else the source's, when its directory says it
    // and its contents do not (`branch::plan` reads those).
    let dialect = args.dialect.map(DialectArg::dialect).or_else(|| {
        session.certain_dialect().is_none().then(|| crate::cli::places().agent_of(file)).flatten()
    });
    let plan =
        branch::plan(&session, dialect, fork, &parent_session, &ctx.clock()?, &mut ctx.ids())?;
    if cancel.is_cancelled() {
        anyhow::bail!(Error::Cancelled("interrupted; nothing was written".into()));
    }
    let unwritable = plan.unwritable();
    if let Some(why) = &unwritable
        && !plan.root_prompt
    {
        anyhow::bail!(Error::Usage(format!("nothing was written: {why}")));
    }
    if to_stdout && unwritable.is_none() {
        let mut out = stdout();
        plan.write_to(&session, &mut out, Path::new("-"))?;
        out.flush()?;
        return after_hook(&hooks, &parent_session, None);
    }
    // The new file's path, unless nothing is written (a root prompt: the session starts empty).
    let target = match (&unwritable, &args.output) {
        (Some(_), _) => None,
        (None, Some(o)) => Some(std::path::absolute(o).map_err(|e| Error::io(o, e))?),
        (None, None) => {
            let dir = source.parent().unwrap_or(Path::new("/"));
            Some(dir.join(branch::file_name(plan.created_ms, &plan.session_id)))
        }
    };
    if let Some(target) = &target {
        // `-o` naming the source itself (or a hard link to it) is refused even with `--force`:
        // the source file is never touched.
        if store::same_file(target, &source) {
            anyhow::bail!(Error::Usage(format!(
                "{}: is the source session file; branch never overwrites it",
                target.display()
            )));
        }
        store::write_new_with(target, Some(&source), args.force, |out| {
            plan.write_to(&session, out, target)
        })?;
    }

    let mut out = stdout();
    if ctx.json {
        let value = serde_json::json!({
            "path": target.as_ref().map(|t| t.to_string_lossy()),
            "sessionId": target.as_ref().map(|_| &plan.session_id),
            "parentSession": parent_session,
            "editorText": editor_text,
        });
        write_json_line(&mut out, &value)?;
    } else {
        // The editor prefill, control characters made visible.
        if let Some(text) = editor_text.as_deref().filter(|t| !t.is_empty()) {
            let text = sanitize_keep_lines(text);
            out.write_all(text.as_bytes())?;
            if !text.ends_with('\n') {
                out.write_all(b"\n")?;
            }
        }
        match &target {
            Some(target) => {
                eprintln!("Branched to {}", ui::show(&target.to_string_lossy()));
                // Commands without -f take the directory's newest session: from now on that
                // may be the new file, which nothing else would tell.
                if crate::cli::newest_session().is_ok_and(|n| store::same_file(&n, target)) {
                    eprintln!(
                        "note: it is now this directory's newest session, which commands without \
                         -f use; -f {} names the one branched from",
                        ui::show(&file.to_string_lossy())
                    );
                }
            }
            None => eprintln!("note: {}", unwritable.unwrap_or_default()),
        }
    }
    out.flush()?;
    after_hook(&hooks, &parent_session, target.as_deref())
}

/// Runs `session_branch` once the new file is written (`None`: it went to stdout).
fn after_hook(hooks: &hooks::Hooks, previous: &str, path: Option<&Path>) -> anyhow::Result<()> {
    let mut fields = Map::new();
    fields.insert("previousSessionFile".into(), previous.into());
    let path = path.map_or(Value::Null, |p| p.to_string_lossy().into());
    fields.insert("path".into(), path);
    // Not a cancel: the new file is written and stays. Exit 1, so no script takes it for
    // "nothing happened".
    hooks
        .run(hooks::SESSION_BRANCH, fields)
        .map_err(|e| Error::Failed(format!("the branch was written, but {e}")))?;
    Ok(())
}
