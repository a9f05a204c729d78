//! `sesstree name [TEXT]`: show or set the session's name, stored as the writing agent would
//! (FORMAT §10): title slot + `title_change` for oh-my-pi files, `session_info` for pi files.

use std::io::Write;

use serde_json::json;
use sesstree::naming::TitleSource;
use sesstree::ops;
use sesstree::ops::name::{self, Plan, Refusal, Request, Storage};

use crate::cli::args::{DialectArg, certain_dialect};
use crate::cli::{Ctx, fault, stdout, ui, write_json_line};

/// The examples of `--help` and the man page (EXAMPLES), each run by tests/cli/examples.rs.
const EXAMPLES: &str = r#"Examples:
  The name in effect, for a script or a prompt:
    sesstree -f session.jsonl name
  Who set it (user or auto):
    sesstree --json name | jq -r .source
  Rename the session:
    sesstree name "Add --json to tally stats"
  Name a session after its plan, as plan approval does (a name the user gave is kept):
    sesstree name --from-plan add-json-flag"#;

/// Show or set the session's name
///
/// Without TEXT, prints the name in effect, alone on its line, as `git config user.name` prints
/// a value: what `$(sesstree name)` gets is the name. With TEXT, sets it, then prints the name
/// in effect. Who set it (`user` or `auto`, null when the file does not say) is in --json.
///
/// The name is cleaned as the agent cleans it: control characters become spaces, runs of
/// spaces collapse, and the ends are trimmed. An `auto` name never replaces a `user` name:
/// such a request leaves the name as it is, says so on stderr, and exits 0. --from-plan does
/// what plan approval does: humanize the plan title (`fix-session-naming` → `Fix session
/// naming`) and apply it as `auto`, only when the session has no name yet.
///
/// oh-my-pi files get a `title_change` entry at the current leaf and a new 256-byte title slot
/// on the first line, patched in place (a file without one is rewritten once, safely, with one
/// in front; every other byte is kept). The slot holds at most about 170 bytes of the name;
/// the `title_change` entry holds all of it. pi files (no slot, and `session_info` entries or
/// pi-style fields) get a `session_info` entry; pi records no source, so a pi name counts as
/// the user's. A file that says nothing certain about its agent (no slot, and no entry type or
/// field only one agent writes) is left alone, with exit status 2, until --dialect says which
/// agent it is: pi refuses to open a file that starts with a title slot.
///
/// With --json: one {"name", "source", "changed", "id"} object (`id` is the new entry's).
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct NameArgs {
    /// The new name.
    pub text: Option<String>,
    /// Who sets the name.
    #[arg(long, value_enum, requires = "text", value_name = "SOURCE")]
    pub source: Option<SourceArg>,
    /// Name the session after a plan title, as plan approval does (only if it has no name).
    #[arg(long, value_name = "PLAN_TITLE", conflicts_with_all = ["text", "source"])]
    pub from_plan: Option<String>,
    /// A free-form `trigger` recorded in the `title_change` entry (oh-my-pi files).
    #[arg(long, value_name = "TEXT")]
    pub trigger: Option<String>,
    /// Store the name as this agent does, whatever the file looks like.
    #[arg(long, value_enum, value_name = "AGENT")]
    pub dialect: Option<DialectArg>,
    /// Print the line that would be appended, and write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

/// `--source`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SourceArg {
    /// Generated, not typed by the user; never replaces a user name.
    Auto,
    /// Chosen by the user (the default).
    User,
}

/// Runs `name`.
pub fn run(ctx: &Ctx, args: &NameArgs) -> anyhow::Result<()> {
    let (text, from_plan) = match (&args.text, &args.from_plan) {
        (Some(t), _) => (t.as_str(), false),
        (None, Some(p)) => (p.as_str(), true),
        (None, None) => {
            if args.trigger.is_some() || args.dry_run || args.dialect.is_some() {
                anyhow::bail!(sesstree::Error::Usage(
                    "--trigger, --dialect and --dry-run need a name to set (TEXT or --from-plan)"
                        .into(),
                ));
            }
            let session = ctx.load()?;
            return print(ctx, session.name(), false, None);
        }
    };
    let source = match args.source {
        Some(SourceArg::Auto) => TitleSource::Auto,
        _ => TitleSource::User,
    };
    let locked = ctx.lock()?;
    let session = locked.load()?;
    ctx.report(&session)?;
    let dialect = certain_dialect(&session, args.dialect)?;
    let request = Request { text, source, from_plan, trigger: args.trigger.as_deref(), dialect };
    let id = ctx.ids().entry_id(|c| ops::id_taken(&session, c));
    let rename = match name::plan(&session, request, &id, &ctx.clock()?.now_iso())? {
        Plan::Rename(r) => r,
        Plan::Refused(Refusal::Empty) if !from_plan => {
            anyhow::bail!(sesstree::Error::Usage(
                "the name is empty once control characters and spaces are removed".into(),
            ));
        }
        Plan::Refused(why) => {
            eprintln!("note: {}", refusal_note(&why));
            return print(ctx, session.name(), false, None);
        }
    };

    if args.dry_run {
        let mut out = stdout();
        // JSON escapes C0 controls only; the parent id from the file may hold C1 ones.
        writeln!(out, "{}", ui::show(&String::from_utf8_lossy(&rename.line)))?;
        out.flush()?;
        eprintln!("note: dry run; {}, nothing written", storage_note(&rename.storage));
        return Ok(());
    }
    fault::before_write();
    let line = std::slice::from_ref(&rename.line);
    match &rename.storage {
        Storage::Append => locked.append(&session, line)?,
        Storage::PatchSlot { slot } => locked.append_and_patch(&session, line, 0, slot)?,
        Storage::AddSlot { slot, keep_from } => {
            let tail = name::rewrite_tail(&session, &rename.line);
            locked.splice(&session, slot, *keep_from, &tail)?;
        }
    }
    if rename.in_effect.0 != rename.name {
        eprintln!(
            "note: the title slot holds the first {} characters of the name; the title_change entry holds all of it",
            rename.in_effect.0.chars().count()
        );
    }
    print(ctx, Some(rename.in_effect.clone()), true, Some(&rename.id))
}

/// Prints the name in effect: the name alone, or the JSON object with its source.
fn print(
    ctx: &Ctx,
    name: Option<(String, Option<TitleSource>)>,
    changed: bool,
    id: Option<&str>,
) -> anyhow::Result<()> {
    let mut out = stdout();
    if ctx.json {
        let (n, s) =
            name.as_ref().map_or((None, None), |(n, s)| (Some(n), s.map(TitleSource::as_str)));
        write_json_line(&mut out, &json!({"name": n, "source": s, "changed": changed, "id": id}))?;
    } else {
        match &name {
            Some((n, _)) => writeln!(out, "{}", ui::show(n))?,
            None => eprintln!("note: the session has no name"),
        }
    }
    out.flush()?;
    Ok(())
}

fn refusal_note(why: &Refusal) -> &'static str {
    match why {
        Refusal::Empty => "the plan title gives no name; the name is unchanged",
        Refusal::AlreadyNamed => "the session already has a name; a plan title does not replace it",
        Refusal::UserName => "an auto name never replaces a user name; the name is unchanged",
    }
}

fn storage_note(storage: &Storage) -> &'static str {
    match storage {
        Storage::Append => "would append this line",
        Storage::PatchSlot { .. } => "would append this line and patch the title slot in place",
        Storage::AddSlot { .. } => {
            "would add a title slot in front (a full rewrite) and append this line"
        }
    }
}
