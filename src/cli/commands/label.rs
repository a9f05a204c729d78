//! `sesstree label REV [TEXT]`: set or remove an entry's label, or list the labels in effect.
//! Writes one `label` entry at the current leaf (FORMAT §5); `--list` only reads.

use std::io::Write;

use serde_json::json;
use sesstree::Session;
use sesstree::ops::label;
use sesstree::row::view::Viewer;

use crate::cli::args::DialectArg;
use crate::cli::signals::leave_to_exit;
use crate::cli::ui::{self, Role, home};
use crate::cli::write::{self, LabelRequest};
use crate::cli::{Ctx, complete, stdout, write_json_line};

/// The examples of `--help` and the man page (EXAMPLES), each run by tests/cli/examples.rs.
const EXAMPLES: &str = r#"Examples:
  Label the current leaf "reviewed":
    sesstree -f session.jsonl label @ reviewed
  Remove the label checkpoint-1 (a label is a REV):
    sesstree label checkpoint-1 --clear
  The labels in effect, one per line:
    sesstree label --list --json | jq -r .label
  Show the line that would label the parent of the leaf, and write nothing:
    sesstree label --dry-run @^ before-refactor"#;

/// Set, remove or list entry labels
///
/// Sets the label of REV by appending a `label` entry whose parent is the current leaf, as the
/// agent's tree selector does; the leaf moves onto the new entry, while @ stays where it was
/// (it steps over label entries at the end of the path). TEXT is trimmed; an empty TEXT, or
/// --clear, removes the label (the entry then has no `label` field). A label is a REV:
/// `sesstree log checkpoint-1`; one that could never be (`@`, `-`, an entry's id, control
/// characters) is refused. A label that is the start of an entry's id (4 characters or more),
/// or looks like one (4 or more lower-case hex digits only), is refused unless --force:
/// `checkout fa60` must not move to the entry labelled fa60 when the user meant the id
/// fa60d15c; a REV that names both a label and an id is refused as ambiguous (exit 4). A label
/// already on another entry is refused too, unless --force, which moves it (the other entry's
/// label is cleared first).
///
/// Without REV and TEXT, or with --list, prints the labels in effect whose entry exists, in the order the agent keeps them
/// (the order in which entries first got their label): LABEL, a tab, the entry's id and its
/// one-line text. With --json: one {"targetId", "label"} object per line, the label as the JSON
/// value it was written as.
///
/// Setting prints what was done; with --json one {"id", "targetId", "label"} object, where
/// `id` is the new entry and `label` is null when the label was removed.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct LabelArgs {
    /// The entry to label (without REV and TEXT: list the labels, as `git tag` does).
    #[arg(add = complete::rev())]
    pub rev: Option<String>,
    /// The label (trimmed; empty removes it).
    pub text: Option<String>,
    /// Remove the label of REV.
    #[arg(long, conflicts_with = "text")]
    pub clear: bool,
    /// List the labels in effect instead.
    #[arg(long, conflicts_with_all = ["rev", "text", "clear", "dry_run"])]
    pub list: bool,
    /// Print the line that would be appended, and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Move the label here when another entry carries it, or set a label that is or looks
    /// like the start of an id (without it, both are refused).
    #[arg(long, conflicts_with = "clear")]
    pub force: bool,
    /// Whose session the file is (omp or pi), when neither its contents nor its directory
    /// say; refused when they say otherwise. Nothing `label` writes differs between them.
    #[arg(long, value_enum, value_name = "AGENT", conflicts_with = "list")]
    pub dialect: Option<DialectArg>,
}

/// Runs `label`, then exits.
pub fn run(ctx: &Ctx, args: &LabelArgs) -> anyhow::Result<()> {
    leave_to_exit(set(ctx, args)?);
    Ok(())
}

/// Does what `label` does: lists the labels, or sets or removes one ([`write::label`]) and
/// gives back the session it loaded.
fn set(ctx: &Ctx, args: &LabelArgs) -> anyhow::Result<Option<Session>> {
    if args.list || (args.rev.is_none() && args.text.is_none() && !args.clear) {
        list(ctx)?;
        return Ok(None);
    }
    let rev = args.rev.as_deref().unwrap_or("@");
    if args.text.is_none() && !args.clear {
        anyhow::bail!(sesstree::Error::Usage(
            "give the label TEXT, or --clear to remove it (--list shows the labels)".into(),
        ));
    }
    let text = if args.clear { None } else { label::normalize(args.text.as_deref()) };
    let request = LabelRequest {
        rev,
        label: text.as_deref(),
        force: args.force,
        dialect: args.dialect,
        dry_run: args.dry_run,
    };
    write::label(ctx, request).map(Some)
}

/// `label --list`: a reading command, so it also reads standard input.
fn list(ctx: &Ctx) -> anyhow::Result<()> {
    let session = ctx.load()?;
    if session.is_empty() {
        return Ok(());
    }
    let home = home();
    let mut viewer = Viewer::new(&session, home.as_deref());
    let mut out = stdout();
    for (idx, target, value) in label::list(&session) {
        if ctx.json {
            write_json_line(&mut out, &json!({"targetId": target.to_value(), "label": value}))?;
            continue;
        }
        let text = ui::id_text(&value);
        let one_line = match viewer.view_in_context(idx) {
            Ok(view) => view.text,
            Err(e) => {
                // The entry's line changed since it was read: still list the label.
                ui::warn_lines(&session.path, [(session.record(idx).line, &*e.to_string())]);
                String::new()
            }
        };
        writeln!(
            out,
            "{}\t{} {}",
            ctx.style.paint(&ui::show(&text), Role::Label),
            ctx.style.paint(&ui::show(target.as_str()), Role::Id),
            ui::show(&one_line)
        )?;
    }
    out.flush()?;
    Ok(())
}
