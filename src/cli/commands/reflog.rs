//! `sesstree reflog`: the moves and summaries a file holds, newest first, like `git reflog`.

use std::io::Write;

use serde_json::json;
use sesstree::EntryId;
use sesstree::format::entry::{Object, Payload, Summary};
use sesstree::format::{Kind, is_move_marker};
use sesstree::row::cut::{cut_chars, one_row};
use sesstree::terminal::sanitize_for_terminal;

use crate::cli::time::short_time;
use crate::cli::ui::{Role, short_id};
use crate::cli::{Ctx, stdout, write_json_line};

/// The examples of `--help` and the man page (EXAMPLES), each run by tests/cli/examples.rs.
const EXAMPLES: &str = r#"Examples:
  Every move the session holds, newest first:
    sesstree -f session.jsonl reflog
  Where the latest move came from (what `checkout -` goes back to):
    sesstree -f session.jsonl --json reflog -n 1 | jq -r .from"#;

/// Show the moves and branch summaries the file holds, newest first.
///
/// Each `checkout` leaves a `branch_summary` behind: with the summary of the branch it
/// abandoned, or empty (a move marker). One row each: its id, time, `checkout:` or `summary:`,
/// where the move came from (recorded by sesstree's `checkout`, not by the agents) and where
/// it went, and the summary's first words. `checkout -` goes back to where the latest move
/// came from.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct ReflogArgs {
    /// Show at most N moves.
    #[arg(short = 'n', long = "max-count", value_name = "N")]
    pub max_count: Option<usize>,
}

/// How much of a summary a row shows, in characters.
const SUMMARY_LIMIT: usize = 60;

/// Runs `reflog`.
pub fn run(ctx: &Ctx, args: &ReflogArgs) -> anyhow::Result<()> {
    let session = ctx.load()?;
    let moves = (0..session.records.len() as u32)
        .rev()
        .filter(|&i| session.records[i as usize].kind == Kind::BranchSummary)
        .take(args.max_count.unwrap_or(usize::MAX));
    let mut out = stdout();
    let text = |id: Option<&EntryId>| id.map(|id| id.as_str().to_owned());
    for idx in moves {
        let value = session.value(idx)?;
        let none = Object::default();
        let entry = match Payload::from_value(&value) {
            Payload::BranchSummary(s) => s,
            _ => Summary { summary: None, members: none },
        };
        let id = text(session.record(idx).id.as_ref()).unwrap_or_else(|| "-".into());
        let timestamp = entry.members.text("timestamp").map(|t| t.decode());
        // What it carries: a summary, or nothing for a move marker.
        let summary = (!is_move_marker(entry.summary)).then(|| {
            one_row(&entry.summary.and_then(|s| s.text()).map(|t| t.decode()).unwrap_or_default())
        });
        let details = entry.members.member("details").and_then(|d| d.object());
        let from = match details.and_then(|d| d.member("from")) {
            None => None,
            Some(from) if from.is_null() => None,
            Some(from) => Some(match from.text() {
                Some(id) => id.decode().into_owned(),
                None => from.to_value().to_string(),
            }),
        };
        // Where it went: its parent, or none for a move to before the first entry.
        let to = text(session.parent(idx).and_then(|p| session.record(p).id.as_ref()));
        if ctx.json {
            let kind = if summary.is_some() { "summary" } else { "checkout" };
            let row = json!({
                "id": id,
                "timestamp": timestamp,
                "kind": kind,
                "from": from,
                "to": to,
                "summary": summary,
            });
            write_json_line(&mut out, &row)?;
            continue;
        }
        let style = ctx.style;
        let mut line = style.paint(&sanitize_for_terminal(short_id(&id)), Role::Id);
        line.push(' ');
        let time = short_time(timestamp.as_deref());
        line.push_str(&style.paint(&sanitize_for_terminal(&time), Role::Time));
        line.push_str(if summary.is_some() { " summary: " } else { " checkout: " });
        let to = to.as_deref().map_or("root", short_id);
        let moved = match &from {
            Some(from) => format!("moving from {} to {to}", short_id(from)),
            None => format!("moving to {to}"),
        };
        line.push_str(&sanitize_for_terminal(&moved));
        if let Some(summary) = &summary {
            let head = cut_chars(summary, SUMMARY_LIMIT);
            let more = if head.len() < summary.len() { "…" } else { "" };
            line.push_str(&format!(": {}{more}", sanitize_for_terminal(head)));
        }
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    Ok(())
}
