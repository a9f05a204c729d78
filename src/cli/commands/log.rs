//! `sesstree log [REV]`: the path from the root to REV, newest first, like `git log`.

use std::borrow::Cow;
use std::io::Write;

use sesstree::render::row::LogRow;
use sesstree::render::{JsonRow, Placement, write_rows};
use sesstree::rev;
use sesstree::row::gist::Gist;
use sesstree::row::listing::{Listing, Row};
use sesstree::row::text::FilterMode;
use sesstree::row::view::labels;
use sesstree::row::{Rows, read_text};
use sesstree::terminal::sanitize_for_terminal;

use crate::cli::args::FilterArg;
use crate::cli::complete;
use crate::cli::signals::leave_to_exit;
use crate::cli::time::zone;
use crate::cli::ui::{self, Role, home, short_id};
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
/// One entry per line: short id, type, time (in the local time zone with its offset; --utc for
/// UTC), [label] and the entry's one-line text, cut to the terminal's width on a terminal
/// (`COLUMNS` sets another; a pipe gets whole rows). Message text stops at 200 characters, as
/// in the agent's selector, and ends in `…` when it was longer (`show` has it whole). The filter modes are those of `tree`, with
/// REV counting as the leaf, except that `--filter all` shows every entry (also an assistant
/// turn that only called tools, which the selector hides), so that row N+1 is `REV~N`. When
/// rows are cut to a width, a last line says how many entries the filter hid. When the filter
/// hides REV, the newest row shown (its nearest ancestor) carries `"leafHidden": "REV's id"`
/// with --json, as in `tree --json`.
// This doc comment is clap's help text, shown as written: `[label]` is what a row prints, not a
// rustdoc link.
#[allow(rustdoc::broken_intra_doc_links)]
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct LogArgs {
    /// The entry to show the path to.
    #[arg(default_value = "@", add = complete::rev())]
    pub rev: String,
    /// Oldest first (with -n: the newest N, oldest first, as `git log -n N --reverse`).
    #[arg(long)]
    pub reverse: bool,
    /// Show at most N entries.
    ///
    /// Rows are worked out only for the end of the path that is shown (with --reverse, its
    /// start) and the few entries before it whose tool calls they show, not for the whole
    /// file: `log -n 5` takes about as long as loading the file, unless a tool result it
    /// shows answers a call far back or one never made (then the whole path is read). A line
    /// that cannot be read further back fails `log`, but not `log -n`.
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
    let home = home();
    // Every row of the file is worked out while it loads (its gist), so the path is not read
    // again; the filters need them for --raw too. With -n, only the rows at the end of the
    // path that is shown are (see `Listing::window`).
    let (session, all) = match args.max_count {
        Some(_) => (ctx.load()?, Vec::new()),
        None => ctx.load_with(&Rows::new(home.as_deref()))?,
    };
    if session.is_empty() {
        return Ok(());
    }
    // `@` is undefined when the last record has no id: nothing to show.
    if args.rev == "@" && session.position()?.is_none() {
        return Ok(());
    }
    let target = rev::resolve(&session, &args.rev)?;
    let labels = labels(&session);
    // Root first, so that tool calls are known before their results.
    let path = session.path_to_root(target);
    let listing =
        Listing { path: &path, target, labels: &labels, mode: FilterMode::from(args.filter) };
    let read;
    let (start, gists): (usize, Vec<&Gist>) = match args.max_count {
        None => (0, path.iter().map(|&idx| &all[idx as usize]).collect()),
        Some(n) => {
            let (start, gists) = listing.window(&session, n, home.as_deref())?;
            read = gists;
            (start, read.iter().collect())
        }
    };
    let mut shown = listing.rows(start, &gists).map_err(|idx| session.unreadable(idx))?;
    if !shown.iter().any(|row| row.idx == target) && !ctx.json {
        // Say where the log starts from, or the first row reads as the leaf.
        let r = session.record(target);
        let id = sanitize_for_terminal(short_id(r.id.as_ref().map_or("-", |i| i.as_str())));
        let (kind, mode) = (sanitize_for_terminal(r.kind.as_str()), listing.mode.as_str());
        eprintln!("note: {id} ({kind}) is hidden by the filter [{mode}]; --filter all shows it");
    }
    // The list of the path's gists is no longer read: its room goes back before the rows'
    // text is made.
    drop(gists);
    // The newest `-n` rows (as `git log -n`), newest first or, with --reverse, oldest first.
    if let Some(n) = args.max_count {
        shown.drain(..shown.len().saturating_sub(n));
    }
    // The entries the filter hid among those the rows cover: the whole path, or with -n the
    // part from the oldest row shown on.
    let covered = match (args.max_count, shown.first()) {
        (None, _) => path.len(),
        (Some(_), None) => 0,
        (Some(_), Some(oldest)) => {
            path.iter().rev().position(|&i| i == oldest.idx).map_or(0, |p| p + 1)
        }
    };
    let hidden = covered.saturating_sub(shown.len());
    if !args.reverse {
        shown.reverse();
    }
    // The row that stands for a REV the filter hides: the newest shown, its nearest ancestor.
    let stand_in = match shown.iter().any(|row| row.idx == target) {
        true => None,
        false if args.reverse => shown.last().map(|row| row.idx),
        false => shown.first().map(|row| row.idx),
    };
    let rows = &shown[..];
    let mut out = stdout();
    if args.raw {
        // One line at a time: lines can be megabytes, and a batch of them would pile up.
        for row in rows {
            out.write_all(&session.written_line(row.idx)?)?;
            out.write_all(b"\n")?;
        }
    } else {
        let width = if ctx.json { None } else { ui::width() };
        write_rows(
            &mut out,
            rows,
            |row| row.gist,
            |&Row { idx, gist, text }, buf| {
                let label = labels.get(&idx);
                // A text too long to keep in the gist is read again, for the rows shown.
                let text = match text {
                    Some(text) => Cow::Borrowed(text),
                    None => Cow::Owned(read_text(&session, idx, home.as_deref())?),
                };
                if ctx.json {
                    let at = Placement { depth: 0, on_active_path: true, is_leaf: idx == target };
                    let mut json =
                        JsonRow::of_gist(&session, idx, gist, label.map(|l| &l.1), &text, at);
                    json.leaf_hidden =
                        session.record(target).id.as_ref().filter(|_| stand_in == Some(idx));
                    json.write(buf);
                } else {
                    let label = label.map(|l| l.0.as_str());
                    let row = LogRow::of_gist(&session, idx, gist, label, &text);
                    row.write(buf, ctx.style, zone(), width);
                }
                buf.push(b'\n');
                anyhow::Ok(())
            },
        )?;
        // Rows fitted to a width are read, not parsed: they end by saying, once, that the
        // filter hid entries, as jj marks elided revisions (a pipe gets the rows alone).
        if let Some(width) = width
            && hidden > 0
        {
            let (n, mode) = (hidden, listing.mode.as_str());
            let entries = if n == 1 { "entry" } else { "entries" };
            let note = format!(
                "({n} {entries} hidden by the filter [{mode}]; --filter all shows every entry)"
            );
            writeln!(out, "{}", ctx.style.paint(&ui::fit(&note, width), Role::Dim))?;
        }
    }
    out.flush()?;
    leave_to_exit((session, all));
    Ok(())
}
