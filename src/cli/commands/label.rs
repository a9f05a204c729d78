//! `sesstree label REV [TEXT]`: set or remove an entry's label, or list the labels in effect.
//! Writes one `label` entry at the current leaf (FORMAT §5); `--list` only reads.

use std::io::Write;

use serde_json::json;
use sesstree::ops::{self, label};
use sesstree::row::view::Viewer;
use sesstree::{Session, rev};

use crate::cli::args::{DialectArg, certain_dialect};
use crate::cli::signals::leave_to_exit;
use crate::cli::ui::{self, Role, home};
use crate::cli::{Ctx, complete, fault, stdout, write_json_line};

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
#[derive(Debug, Default, clap::Args)]
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

/// Does what `label` does, for the command or for the tree selector (which goes on after it):
/// gives back the session it loaded, if it did, for the caller to free or not.
pub fn set(ctx: &Ctx, args: &LabelArgs) -> anyhow::Result<Option<Session>> {
    if args.list || (args.rev.is_none() && args.text.is_none() && !args.clear) {
        list(ctx)?;
        return Ok(None);
    }
    let rev_text = args.rev.as_deref().unwrap_or("@");
    if args.text.is_none() && !args.clear {
        anyhow::bail!(sesstree::Error::Usage(
            "give the label TEXT, or --clear to remove it (--list shows the labels)".into(),
        ));
    }
    let text = if args.clear { None } else { label::normalize(args.text.as_deref()) };

    let locked = ctx.lock()?;
    let session = locked.load()?;
    ctx.report(&session)?;
    certain_dialect(&session, args.dialect)?;
    let target = rev::resolve(&session, rev_text)?;
    if let Some(text) = &text
        && let Some(why) = label::unusable(&session, text)
    {
        let message =
            format!("the label \"{}\" could never be used as a REV: {why}", ui::show(text));
        anyhow::bail!(sesstree::Error::Usage(message));
    }
    if let Some(text) = &text
        && !args.force
        && let Some(why) = label::id_like(&session, text)
    {
        let message = format!(
            "the label \"{}\" would be taken for an id: {why}; choose another name, or --force \
             to set it anyway (a REV that names both is then refused as ambiguous)",
            ui::show(text)
        );
        anyhow::bail!(sesstree::Error::Usage(message));
    }
    let mut ids = ctx.ids();
    let mut drawn: Vec<String> = Vec::new();
    let mut new_id = || {
        let id = ids.entry_id(|c| ops::id_taken(&session, c) || drawn.iter().any(|d| d == c));
        drawn.push(id.clone());
        id
    };
    let now = ctx.clock()?.now_iso();
    let id = new_id();
    let mut change =
        label::plan(&session, target, text.as_deref(), &id, &now, ops::leaf_id(&session))?;
    let mut lines = Vec::new();
    let mut moved_from = None;
    if !change.shared_with.is_empty() {
        let others: Vec<String> =
            change.shared_with.iter().map(|o| ui::show(o.as_str()).into_owned()).collect();
        if !args.force {
            let message = format!(
                "the label \"{}\" is already on {}; --force moves it here",
                ui::show(text.as_deref().unwrap_or_default()),
                others.join(", ")
            );
            anyhow::bail!(sesstree::Error::Usage(message));
        }
        // Cleared where it was, then set here: each entry under the one before it.
        let mut parent = change.parent.clone();
        for other in change.shared_with.clone() {
            let Some(idx) = session.lookup(&other) else { continue };
            let clear_id = new_id();
            let clear = label::plan(&session, idx, None, &clear_id, &now, parent.clone())?;
            lines.push(clear.line);
            parent = Some(sesstree::EntryId::new(clear_id));
        }
        let id = new_id();
        change = label::plan(&session, target, text.as_deref(), &id, &now, parent)?;
        moved_from = Some(others.join(", "));
    }
    lines.push(change.line.clone());

    let mut out = stdout();
    if args.dry_run {
        // JSON escapes C0 controls only; an id from the file may hold C1 ones.
        for line in &lines {
            writeln!(out, "{}", ui::show(&String::from_utf8_lossy(line)))?;
        }
        out.flush()?;
        return Ok(Some(session));
    }
    fault::before_write();
    locked.append(&session, &lines)?;

    if ctx.json {
        let value = json!({
            "id": change.id,
            "targetId": change.target.to_value(),
            "label": change.label,
        });
        write_json_line(&mut out, &value)?;
    } else {
        let target = ctx.style.paint(&ui::show(change.target.as_str()), Role::Id);
        let was = match &change.previous {
            Some(p) => format!("was \"{}\"", ui::show(p)),
            None => "it had none".to_owned(),
        };
        match &change.label {
            Some(l) => {
                let label = ctx.style.paint(&ui::show(l), Role::Label);
                let moved = moved_from.as_ref().map(|m| format!(", moved from {m}"));
                let moved = moved.unwrap_or_default();
                match &change.previous {
                    Some(_) => writeln!(out, "Labelled {target} \"{label}\" ({was}{moved})")?,
                    None if moved.is_empty() => writeln!(out, "Labelled {target} \"{label}\"")?,
                    None => writeln!(out, "Labelled {target} \"{label}\" ({})", &moved[2..])?,
                }
            }
            None => writeln!(out, "Removed the label of {target} ({was})")?,
        }
    }
    out.flush()?;
    ctx.note_other_file();
    Ok(Some(session))
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
