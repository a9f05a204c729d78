//! `sesstree log [REV]`: the path from the root to REV, newest first, like `git log`.

use std::io::Write;

use sesstree::json::Json;
use sesstree::text::{FilterMode, sanitize_for_terminal};
use sesstree::view::{EntryView, render_all};
use sesstree::{Session, rev};

use super::{FilterArg, home, short_id, short_time};
use crate::cli::complete;
use crate::cli::ui::Role;
use crate::cli::{Ctx, stdout};

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
    let limit = args.max_count.unwrap_or(usize::MAX);
    // Rows are read root first, so tool calls are known before their results (on every core,
    // see `render_all`), and rendered right away: only the text of shown rows is kept, never
    // the entries.
    let path = session.path_to_root(target);
    let rendered = render_all(&session, home.as_deref(), &path, |viewer, view| {
        if !viewer.shows(view, mode, Some(target)) {
            return Ok(None);
        }
        let mut text = if args.raw {
            return Ok(Some(Shown::Raw(view.idx)));
        } else if ctx.json {
            view.to_json_line(&session, 0, true, view.idx == target)
        } else {
            text_row(ctx, &session, view)
        };
        // Rows are kept until the whole path is read: no spare capacity.
        text.shrink_to_fit();
        Ok(Some(Shown::Text(text)))
    })?;
    let shown: Vec<Shown> = rendered.into_iter().flatten().collect();
    // The newest `limit` rows, or the oldest with --reverse.
    let rows: Box<dyn Iterator<Item = &Shown>> = if args.reverse {
        Box::new(shown.iter().take(limit))
    } else {
        Box::new(shown.iter().rev().take(limit))
    };
    let mut out = stdout();
    for row in rows {
        match row {
            Shown::Raw(idx) => out.write_all(&session.raw_line(*idx)?)?,
            Shown::Text(text) => out.write_all(text.as_bytes())?,
        }
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(())
}

/// A row waiting to be printed.
enum Shown {
    /// `--raw`: the record's line, read back when printed.
    Raw(u32),
    /// The rendered row (text or JSON), without its newline.
    Text(String),
}

/// One entry as a text row: short id, type, time, `[label]`, one-line text.
fn text_row(ctx: &Ctx, session: &Session, view: &EntryView) -> String {
    let r = session.record(view.idx);
    let id = r.id.as_ref().map_or("-", |i| i.as_str());
    let style = ctx.style;
    let time = short_time(view.value.get("timestamp").and_then(|t| t.as_str()));
    let label = view.label.as_deref().map(|l| format!("[{}]", sanitize_for_terminal(l)));
    let (id, kind) = (sanitize_for_terminal(short_id(id)), sanitize_for_terminal(r.kind.as_str()));
    let (time, text) = (sanitize_for_terminal(&time), sanitize_for_terminal(&view.text));
    // Room for the whole row with its colours, so it is written without growing; the caller
    // gives back what is left over.
    let rest = id.len() + kind.len() + time.len() + label.as_ref().map_or(0, String::len);
    let mut line = String::with_capacity(rest + text.len() + 64);
    style.paint_into(&mut line, &id, Role::Id);
    line.push(' ');
    style.paint_into(&mut line, &kind, Role::Kind);
    line.push(' ');
    style.paint_into(&mut line, &time, Role::Time);
    if let Some(label) = &label {
        line.push(' ');
        style.paint_into(&mut line, label, Role::Label);
    }
    line.push(' ');
    line.push_str(&text);
    line
}
