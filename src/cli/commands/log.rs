//! `sesstree log [REV]`: the path from the root to REV, newest first, like `git log`.

use std::io::Write;

use sesstree::rev;
use sesstree::text::{FilterMode, sanitize_for_terminal};
use sesstree::view::Viewer;

use super::{FilterArg, home, short_id, short_time};
use crate::cli::complete;
use crate::cli::ui::Role;
use crate::cli::{Ctx, stdout, write_json_line};

/// The examples of `--help` and the man page (EXAMPLES), each run by tests/cli/examples.rs.
const EXAMPLES: &str = r#"Examples:
  The path from the root to the current leaf, newest first:
    sesstree -f session.jsonl log
  The five latest user requests up to the entry labelled checkpoint-1:
    sesstree log -n 5 --filter user-only checkpoint-1
  The original lines from the root to the grandparent of the leaf, oldest first:
    sesstree log --raw --reverse @~2 | jq -c '{type, id}'"#;

/// Show the path from the root to REV (default `@`), newest first.
///
/// One entry per line: short id, type, time, [label] and the entry's one-line text. The filter
/// modes are those of `tree`, with REV counting as the leaf.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct LogArgs {
    /// The entry to show the path to.
    #[arg(default_value = "@", add = complete::rev())]
    pub rev: String,
    /// Oldest first.
    #[arg(long)]
    pub reverse: bool,
    /// Show at most N entries.
    #[arg(short = 'n', long = "max-count", value_name = "N")]
    pub max_count: Option<usize>,
    /// Which entries to show.
    #[arg(long, value_enum, default_value_t = FilterArg::Default)]
    pub filter: FilterArg,
    /// Print the original JSONL lines instead.
    #[arg(long)]
    pub raw: bool,
}

/// Runs `log`.
pub fn run(ctx: &Ctx, args: &LogArgs) -> anyhow::Result<()> {
    let session = ctx.load()?;
    if session.is_empty() {
        return Ok(());
    }
    // `@` is undefined when the last record has no id: nothing to show.
    if args.rev == "@" && session.position()?.is_none() {
        return Ok(());
    }
    let target = rev::resolve(&session, &args.rev)?;
    let mode = FilterMode::from(args.filter);
    let home = home();
    let mut viewer = Viewer::new(&session, home.as_deref());
    let mut shown = Vec::new();
    for idx in session.path_to_root(target) {
        let view = viewer.view(idx)?;
        if viewer.shows(&view, mode, Some(target)) {
            shown.push(view);
        }
    }
    if !args.reverse {
        shown.reverse();
    }
    let limit = args.max_count.unwrap_or(usize::MAX);
    let mut out = stdout();
    for view in shown.iter().take(limit) {
        if args.raw {
            out.write_all(&session.raw_line(view.idx)?)?;
            out.write_all(b"\n")?;
        } else if ctx.json {
            write_json_line(&mut out, &view.to_json(&session, 0, true, view.idx == target))?;
        } else {
            let r = session.record(view.idx);
            let id = r.id.as_ref().map_or("-", |i| i.as_str());
            let style = ctx.style;
            let mut line = format!(
                "{} {} {}",
                style.paint(&sanitize_for_terminal(short_id(id)), Role::Id),
                style.paint(&sanitize_for_terminal(r.kind.as_str()), Role::Kind),
                style.paint(
                    &sanitize_for_terminal(&short_time(
                        view.value.get("timestamp").and_then(|t| t.as_str())
                    )),
                    Role::Time
                ),
            );
            if let Some(label) = &view.label {
                line.push(' ');
                line.push_str(
                    &style.paint(&format!("[{}]", sanitize_for_terminal(label)), Role::Label),
                );
            }
            line.push(' ');
            line.push_str(&sanitize_for_terminal(&view.text));
            writeln!(out, "{line}")?;
        }
    }
    out.flush()?;
    Ok(())
}
