//! `sesstree log [REV]`: the path from the root to REV, newest first, like `git log`.

use std::borrow::Cow;
use std::io::Write;

use anyhow::Context as _;
use sesstree::gist::{Gist, NEAR, Resolver};
use sesstree::session::LoadOptions;
use sesstree::text::{FilterMode, sanitize_for_terminal};
use sesstree::view::{Labels, Placement, labels, write_json_row};
use sesstree::{Session, rev};

use super::{FilterArg, home, leave_to_exit, short_id, short_time, write_par};
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
    ///
    /// Rows are worked out only for the end of the path that is shown (with --reverse, its
    /// start) and the few entries before it whose tool calls they show, not for the whole
    /// file: `log -n 5` takes about as long as loading the file. A line that cannot be read
    /// further back fails `log`, but not `log -n`.
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
    // path that is shown are (see `window`).
    let session = match args.max_count {
        Some(_) => ctx.load()?,
        None => ctx.load_with(&LoadOptions { gists: true, home: home.clone() })?,
    };
    if session.is_empty() {
        return Ok(());
    }
    // `@` is undefined when the last record has no id: nothing to show.
    if args.rev == "@" && session.position()?.is_none() {
        return Ok(());
    }
    let target = rev::resolve(&session, &args.rev)?;
    let mode = FilterMode::from(args.filter);
    let labels = labels(&session);
    // Root first, so that tool calls are known before their results.
    let path = session.path_to_root(target);
    let read;
    let (stretch, gists): (&[u32], Vec<&Gist>) = match args.max_count {
        None => {
            let all = session.gists().context("the rows were not worked out while loading")?;
            (&path, path.iter().map(|&idx| &all[idx as usize]).collect())
        }
        Some(n) => {
            let at = At { session: &session, path: &path, target, labels: &labels, mode };
            let (range, gists) = window(&at, n, args.reverse, home.as_deref())?;
            read = gists;
            (&path[range], read.iter().collect())
        }
    };
    let mut resolver = Resolver::for_entries(stretch.len());
    let mut shown = Vec::new();
    for (&idx, &gist) in stretch.iter().zip(&gists) {
        if gist.is_unreadable() {
            return Err(session.unreadable(idx).into());
        }
        let text = resolver.text(gist);
        let label = labels.get(&idx);
        if gist.facts().shows(mode, idx == target, label.is_some()) {
            shown.push((idx, gist, text, label));
        }
    }
    // The newest `limit` rows, or the oldest with --reverse.
    let limit = args.max_count.unwrap_or(usize::MAX);
    let rows: Vec<_> = if args.reverse {
        shown.iter().take(limit).collect()
    } else {
        shown.iter().rev().take(limit).collect()
    };
    let mut out = stdout();
    if args.raw {
        // One line at a time: lines can be megabytes, and a batch of them would pile up.
        for &&(idx, ..) in &rows {
            out.write_all(&session.raw_line(idx)?)?;
            out.write_all(b"\n")?;
        }
    } else {
        write_par(&mut out, &rows, |&&(idx, gist, text, label), buf| {
            // A text too long to keep in the gist is read again, for the rows shown.
            let text = match text {
                Some(text) => Cow::Borrowed(text),
                None => Cow::Owned(session.row_text(idx, home.as_deref())?),
            };
            if ctx.json {
                let at = Placement { depth: 0, on_active_path: true, is_leaf: idx == target };
                write_json_row(buf, &session, idx, gist, label.map(|l| &l.1), &text, at);
            } else {
                let label = label.map(|l| l.0.as_str());
                buf.extend_from_slice(text_row(ctx, &session, idx, gist, label, &text).as_bytes());
            }
            buf.push(b'\n');
            Ok(())
        })?;
    }
    out.flush()?;
    leave_to_exit(session);
    Ok(())
}

/// The path `log` shows, and what decides which of its entries are shown.
struct At<'s> {
    session: &'s Session,
    /// Root first.
    path: &'s [u32],
    target: u32,
    labels: &'s Labels,
    mode: FilterMode,
}

impl At<'_> {
    /// Whether the entry at `idx`, of gist `gist`, is shown.
    fn shows(&self, idx: u32, gist: &Gist) -> bool {
        gist.facts().shows(self.mode, idx == self.target, self.labels.contains_key(&idx))
    }
}

/// `log -n N` on a file loaded without rows: the stretch of the path whose rows give the `N`
/// rows shown exactly as `log` shows them, and their gists, read from their lines. That is the
/// end of the path (its start, with `--reverse`) holding `N` shown rows, and before them the
/// entries whose calls their tool results show (a call is a few entries before its result).
/// The stretch starts at `N` + 64 entries and doubles until it is enough, up to the whole
/// path; an unreadable row in it ends the search, and is reported as `log` reports it.
fn window(
    at: &At<'_>,
    n: usize,
    reverse: bool,
    home: Option<&str>,
) -> anyhow::Result<(std::ops::Range<usize>, Vec<Gist>)> {
    let len = at.path.len();
    let mut size = n.saturating_add(NEAR).min(len);
    // The gists of `path[start..end]`.
    let (mut start, mut end) = if reverse { (0, 0) } else { (len, len) };
    let mut gists = Vec::new();
    loop {
        if reverse {
            let more = at.session.gists_of(&at.path[end..size], home)?;
            gists.extend(more);
            end = size;
        } else {
            let mut older = at.session.gists_of(&at.path[len - size..start], home)?;
            older.append(&mut gists);
            gists = older;
            start = len - size;
        }
        if size == len || enough(at, start..end, &gists, n, reverse) {
            return Ok((start..end, gists));
        }
        size = size.saturating_mul(2).min(len);
    }
}

/// Whether the gists of `path[range]` give the `n` rows `log` shows (see [`window`]).
fn enough(
    at: &At<'_>,
    range: std::ops::Range<usize>,
    gists: &[Gist],
    n: usize,
    reverse: bool,
) -> bool {
    if n == 0 || gists.iter().any(Gist::is_unreadable) {
        return true;
    }
    let stretch = &at.path[range];
    let shown: Vec<usize> =
        (0..stretch.len()).filter(|&p| at.shows(stretch[p], &gists[p])).collect();
    if reverse {
        // From the root on: every call is read before its result.
        return shown.len() >= n;
    }
    // The oldest of the newest `n` rows shown.
    let Some(&first) = shown.len().checked_sub(n).and_then(|k| shown.get(k)) else {
        return false;
    };
    // Every tool result shown finds its call before it in the stretch.
    let mut calls = std::collections::HashSet::new();
    for (pos, gist) in gists.iter().enumerate() {
        if pos >= first
            && let Some(id) = gist.answers()
            && !calls.contains(id)
            && at.shows(stretch[pos], gist)
        {
            return false;
        }
        calls.extend(gist.calls().map(|(id, _)| id));
    }
    true
}

/// One entry as a text row: short id, type, time, `[label]`, one-line text.
fn text_row(
    ctx: &Ctx,
    session: &Session,
    idx: u32,
    gist: &Gist,
    label: Option<&str>,
    text: &str,
) -> String {
    let mut line = String::with_capacity(text.len() + 64);
    let r = session.record(idx);
    let id = r.id.as_ref().map_or("-", |i| i.as_str());
    let style = ctx.style;
    let time = short_time(gist.timestamp().as_str());
    style.paint_into(&mut line, &sanitize_for_terminal(short_id(id)), Role::Id);
    line.push(' ');
    style.paint_into(&mut line, &sanitize_for_terminal(r.kind.as_str()), Role::Kind);
    line.push(' ');
    style.paint_into(&mut line, &sanitize_for_terminal(&time), Role::Time);
    if let Some(label) = label {
        line.push(' ');
        style.paint_into(&mut line, &format!("[{}]", sanitize_for_terminal(label)), Role::Label);
    }
    line.push(' ');
    line.push_str(&sanitize_for_terminal(text));
    line
}
