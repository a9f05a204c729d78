//! `sesstree diff [REV1] REV2`: what two branches did differently, from their common ancestor.

use std::borrow::Cow;
use std::io::Write;

use serde_json::{Value, json};
use sesstree::context::{build, path_values, render};
use sesstree::diff::{Side, Split, Summary, split, summarize, unified};
use sesstree::render::row::LogRow;
use sesstree::row::gist::NEAR;
use sesstree::row::listing::Listing;
use sesstree::row::text::FilterMode;
use sesstree::row::view::{Labels, labels};
use sesstree::row::{read_gists, read_text};
use sesstree::{Session, rev};

use crate::cli::args::FilterArg;
use crate::cli::exit::{Exit, Silent};
use crate::cli::signals::leave_to_exit;
use crate::cli::time::zone;
use crate::cli::ui::{self, Role, Style, home, short_id};
use crate::cli::{Ctx, complete, file_rev, stdout, write_json_line};

/// The examples of `--help` and the man page (EXAMPLES), each run by tests/cli/examples.rs.
const EXAMPLES: &str = r#"Examples:
  What the abandoned first try did, against the current leaf:
    sesstree -f session.jsonl diff 2c85ef37
  The two summaries alone:
    sesstree diff --stat 2c85ef37 @
  What the model sees differently at the two ends:
    sesstree diff --context 2c85ef37
  An entry of a file named on the spot (FILE:REV; a fork against the session it came from):
    sesstree diff session.jsonl:2c85ef37 @
  Whether two REVs hold the same conversation (exit 0) or not (exit 1), in a script:
    sesstree diff --exit-code --stat tests-green 85f3e1c0 > /dev/null"#;

/// Show what two branches did differently, from their common ancestor.
///
/// REV1 defaults to `@`; with one REV, it is REV2. Either may be `FILE:REV`, an entry of
/// another file: a fork keeps the ids of the entries it copies, so a fork compares with the
/// session it came from. The base is the deepest entry on both paths (`git merge-base`); each
/// side is what its path adds after it, and the whole path when the two share nothing. When one
/// REV is an ancestor of the other, its side is empty.
///
/// First a summary of each side (entries, user prompts, assistant turns, tool calls by tool,
/// files read and changed by read/edit/write calls, bash commands, errors, tokens and cost as
/// `stats` counts them, time from its first entry to its last), then each side's rows as `log`
/// draws them, oldest first: side by side when the terminal is 120 columns wide or more, else
/// one side after the other (a pipe gets whole rows). --stat shows the
/// summary alone; --context shows instead a unified diff of the `context` text at the two ends,
/// what the model sees from each. --json prints one object: `base` (the id, or null), `same`,
/// and per side `rev`, `file`, `tip`, `summary` and `entries` (the ids after the base); with
/// --context, `context` holds the unified diff.
#[derive(Debug, clap::Args)]
#[command(after_long_help = EXAMPLES)]
pub struct DiffArgs {
    /// The first side (the second when it is the only REV).
    #[arg(value_name = "REV", add = complete::rev())]
    pub rev1: String,
    /// The second side.
    #[arg(value_name = "REV", add = complete::rev())]
    pub rev2: Option<String>,
    /// Show only the summary of each side.
    #[arg(long)]
    pub stat: bool,
    /// Show a unified diff of the context the model gets at each side's end.
    #[arg(long, conflicts_with = "stat")]
    pub context: bool,
    /// Exit with 1 when the sides differ and 0 when they do not, as `git diff --exit-code`
    /// (with --context, when the two contexts differ).
    #[arg(long)]
    pub exit_code: bool,
    /// Which entries the rows show (as in `log`).
    #[arg(long, value_enum, default_value_t = FilterArg::Default)]
    pub filter: FilterArg,
}

/// The columns a terminal needs to get the two sides' rows side by side.
const SIDE_BY_SIDE: usize = 120;

/// One side as the command names it: its REV as given, its file, the entry.
struct Named<'s> {
    rev: &'s str,
    side: Side<'s>,
}

/// Runs `diff`.
pub fn run(ctx: &Ctx, args: &DiffArgs) -> anyhow::Result<()> {
    let revs = match &args.rev2 {
        Some(rev2) => [args.rev1.as_str(), rev2.as_str()],
        None => ["@", args.rev1.as_str()],
    };
    // A `FILE:REV` loads its file; the session of -f is loaded once, for the sides that name
    // none.
    let named = revs.map(|rev| file_rev(rev).map_or((None, rev.to_owned()), |(f, r)| (Some(f), r)));
    let own = match named.iter().any(|(file, _)| file.is_none()) {
        true => Some(ctx.load()?),
        false => None,
    };
    let others = named
        .iter()
        .map(|(file, _)| file.as_ref().map(|f| ctx.with_file(f.clone()).load()).transpose())
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut sides = Vec::with_capacity(2);
    for ((other, (_, rev)), given) in others.iter().zip(&named).zip(revs) {
        // A side without a file of its own is in the session of -f, loaded above.
        let session = other.as_ref().or(own.as_ref()).expect("the session of -f is loaded");
        sides.push(Named { rev: given, side: Side { session, tip: rev::resolve(session, rev)? } });
    }
    let [a, b] = [&sides[0], &sides[1]];
    let found = split(a.side, b.side);
    let context = match args.context {
        true => Some(context_diff(a, b)?),
        false => None,
    };
    let same = match &context {
        Some(diff) => diff.is_empty(),
        None => found.is_same(),
    };
    let summaries = || -> anyhow::Result<[Summary; 2]> {
        Ok([
            summarize(a.side.session, &found.sides[0])?,
            summarize(b.side.session, &found.sides[1])?,
        ])
    };
    let mut out = stdout();
    match (&context, ctx.json) {
        (_, true) => {
            let object = to_json(&[a, b], &found, &summaries()?, same, context.as_deref());
            write_json_line(&mut out, &object)?;
        }
        (Some(diff), false) => out.write_all(diff.as_bytes())?,
        (None, false) => {
            write_stat(ctx, &mut out, [a, b], &found, &summaries()?)?;
            if !args.stat {
                write_sides(ctx, &mut out, [a, b], &found, FilterMode::from(args.filter))?;
            }
        }
    }
    out.flush()?;
    drop(sides);
    leave_to_exit((own, others));
    if args.exit_code && !same {
        anyhow::bail!(Silent(Exit::Failed));
    }
    Ok(())
}

/// The unified diff of the context text at the two sides' ends (`context`'s text output).
fn context_diff(a: &Named<'_>, b: &Named<'_>) -> anyhow::Result<String> {
    let blobs = crate::cli::places().omp_blobs();
    let text = |side: Side<'_>| -> anyhow::Result<String> {
        let path = path_values(side.session, side.tip)?;
        let leaf = side.session.record(side.tip).id.as_ref().map(|i| i.to_value());
        let context = build(path, leaf.as_ref(), side.session.dialect());
        Ok(render(context, false, Some(&blobs), false))
    };
    let names = [format!("a/{}", ui::show(a.rev)), format!("b/{}", ui::show(b.rev))];
    Ok(unified(&text(a.side)?, &text(b.side)?, [&names[0], &names[1]], 3))
}

/// An entry's id as text (`-` for a record without one).
fn id_of(session: &Session, idx: u32) -> &str {
    session.record(idx).id.as_ref().map_or("-", |i| i.as_str())
}

/// The `--json` object.
fn to_json(
    sides: &[&Named<'_>; 2],
    found: &Split,
    summaries: &[Summary; 2],
    same: bool,
    context: Option<&str>,
) -> Value {
    let side = |k: usize| {
        let Named { rev, side } = sides[k];
        let ids =
            |idx: &u32| side.session.record(*idx).id.as_ref().map_or(Value::Null, |i| i.to_value());
        json!({
            "rev": rev,
            "file": side.session.path.to_string_lossy(),
            "tip": ids(&side.tip),
            "summary": summaries[k].to_json(),
            "entries": found.sides[k].iter().map(ids).collect::<Vec<_>>(),
        })
    };
    let base = found
        .base
        .and_then(|[x, _]| sides[0].side.session.record(x).id.as_ref().map(|i| i.to_value()));
    let mut object = json!({"base": base, "same": same, "sides": [side(0), side(1)]});
    if let Some(diff) = context {
        object["context"] = diff.into();
    }
    object
}

/// The summary of the two sides: the base, then one line per figure with a column per side.
fn write_stat(
    ctx: &Ctx,
    out: &mut impl Write,
    [a, b]: [&Named<'_>; 2],
    found: &Split,
    [sa, sb]: &[Summary; 2],
) -> anyhow::Result<()> {
    let style = ctx.style;
    let base = match found.base {
        Some([x, _]) => short_id(id_of(a.side.session, x)).to_owned(),
        None => "none (the paths share no entry)".to_owned(),
    };
    writeln!(
        out,
        "{} {}",
        style.paint("base", Role::Dim),
        style.paint(&ui::show(&base), Role::Id)
    )?;
    let heading =
        |n: &Named<'_>| format!("{} ({})", n.rev, short_id(id_of(n.side.session, n.side.tip)));
    let figures: [(&str, [String; 2]); 12] = [
        ("", [heading(a), heading(b)]),
        ("entries", [sa.entries.to_string(), sb.entries.to_string()]),
        ("user prompts", [sa.prompts.to_string(), sb.prompts.to_string()]),
        ("assistant turns", [sa.turns.to_string(), sb.turns.to_string()]),
        ("tool calls", [tools(sa), tools(sb)]),
        ("files read", [list(&sa.read), list(&sb.read)]),
        ("files changed", [list(&sa.changed), list(&sb.changed)]),
        ("commands", [list(&sa.commands), list(&sb.commands)]),
        ("errors", [sa.errors.to_string(), sb.errors.to_string()]),
        ("tokens", [number(sa.usage.tokens()), number(sb.usage.tokens())]),
        ("cost", [format!("${:.4}", sa.usage.cost()), format!("${:.4}", sb.usage.cost())]),
        ("time", [span(sa), span(sb)]),
    ];
    // The first column as wide as its longest cell, up to 40 columns (a longer cell pushes the
    // second along), or up to half of what a terminal leaves (a longer cell is cut).
    const NAMES: usize = 17;
    let cells = |k: usize| figures.iter().map(move |(_, cells)| ui::show(&cells[k]).into_owned());
    let mut first = cells(0).map(|c| ui::columns(&c)).max().unwrap_or(0).min(40) + 2;
    let width = ui::width();
    if let Some(width) = width {
        first = first.min(width.saturating_sub(NAMES) / 2).max(2);
    }
    for ((name, _), (left, right)) in figures.iter().zip(cells(0).zip(cells(1))) {
        let (left, right) = match width {
            Some(width) => {
                let rest = width.saturating_sub(NAMES + first);
                (ui::fit(&left, first - 2).into_owned(), ui::fit(&right, rest).into_owned())
            }
            None => (left, right),
        };
        let pad = first.saturating_sub(ui::columns(&left)).max(2);
        let line = format!("{name:<NAMES$}{left}{:pad$}{right}", "");
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

/// Tool calls by tool: `read 2, bash 1`, the most called first, `-` for none.
fn tools(s: &Summary) -> String {
    let mut tools: Vec<(&String, &usize)> = s.tools.iter().collect();
    tools.sort_by(|x, y| y.1.cmp(x.1).then(x.0.cmp(y.0)));
    let tools: Vec<String> = tools.iter().map(|(name, n)| format!("{name} {n}")).collect();
    if tools.is_empty() { "-".to_owned() } else { tools.join(", ") }
}

/// Items joined by `, ` (each on one row), `-` for none.
fn list<'i>(items: impl IntoIterator<Item = &'i String>) -> String {
    let items: Vec<String> = items.into_iter().map(|i| sesstree::row::cut::one_row(i)).collect();
    if items.is_empty() { "-".to_owned() } else { items.join(", ") }
}

/// A token count as JavaScript writes it: a whole number without a fraction.
fn number(n: f64) -> String {
    sesstree::json::js_number(n).to_string()
}

/// The time from a side's first entry to its last: `1h 2m 3s`, `4m 5s`, `6s`; `-` for none.
fn span(s: &Summary) -> String {
    let Some((first, last)) = s.span else { return "-".to_owned() };
    let secs = (last - first) / 1000;
    let (h, m, sec) = (secs / 3600, secs / 60 % 60, secs % 60);
    match (h, m) {
        (0, 0) => format!("{sec}s"),
        (0, _) => format!("{m}m {sec}s"),
        _ => format!("{h}h {m}m {sec}s"),
    }
}

/// Each side's rows as `log` draws them, oldest first: side by side on a wide terminal, else
/// one side after the other under a heading.
fn write_sides(
    ctx: &Ctx,
    out: &mut impl Write,
    sides: [&Named<'_>; 2],
    found: &Split,
    mode: FilterMode,
) -> anyhow::Result<()> {
    let home = home();
    let width = ui::width();
    let columns = width.filter(|&w| w >= SIDE_BY_SIDE).map(|w| (w - 3) / 2);
    let mut drawn = Vec::with_capacity(2);
    for (named, entries) in sides.iter().zip(&found.sides) {
        drawn.push(rows(ctx, named.side, entries.len(), mode, home.as_deref(), columns.or(width))?);
    }
    let style = ctx.style;
    let heading = |n: &Named<'_>, k: usize| {
        let count = ui::count(found.sides[k].len(), "entry", "entries");
        format!("{} {} ({count} after the base)", ["a", "b"][k], ui::show(n.rev))
    };
    match columns {
        Some(column) => {
            writeln!(out)?;
            let headings = [heading(sides[0], 0), heading(sides[1], 1)];
            let [left, right] = headings.map(|h| ui::fit(&h, column).into_owned());
            let pad = column.saturating_sub(ui::columns(&left));
            writeln!(
                out,
                "{}{:pad$} │ {}",
                style.paint(&left, Role::Dim),
                "",
                style.paint(&right, Role::Dim)
            )?;
            for k in 0..drawn[0].len().max(drawn[1].len()) {
                let (left, right) = (drawn[0].get(k), drawn[1].get(k));
                let pad = column.saturating_sub(left.map_or(0, |(_, w)| *w));
                let left = left.map_or("", |(row, _)| row.as_str());
                let right = right.map_or("", |(row, _)| row.as_str());
                let line = format!("{left}{:pad$} │ {right}", "");
                writeln!(out, "{}", line.trim_end())?;
            }
        }
        None => {
            for (k, rows) in drawn.iter().enumerate() {
                writeln!(out)?;
                writeln!(out, "{}", style.paint(&heading(sides[k], k), Role::Dim))?;
                for (row, _) in rows {
                    writeln!(out, "{row}")?;
                }
            }
        }
    }
    Ok(())
}

/// The rows `log` shows of the last `count` entries of a side's path, oldest first, each with
/// the columns it takes. The gists are read for those entries and a few before them, whose
/// tool calls the first results show.
fn rows(
    ctx: &Ctx,
    side: Side<'_>,
    count: usize,
    mode: FilterMode,
    home: Option<&str>,
    width: Option<usize>,
) -> anyhow::Result<Vec<(String, usize)>> {
    let session = side.session;
    let path = session.path_to_root(side.tip);
    let start = path.len() - count;
    let path = &path[start.saturating_sub(NEAR)..];
    let before = path.len() - count;
    let gists = read_gists(session, path, home)?;
    let labels: Labels = labels(session);
    let listing = Listing { path, target: side.tip, labels: &labels, mode };
    let gists: Vec<_> = gists.iter().collect();
    let shown = listing.rows(0, &gists).map_err(|idx| session.unreadable(idx))?;
    let side_entries: std::collections::HashSet<u32> = path[before..].iter().copied().collect();
    let mut out = Vec::new();
    for row in shown.iter().filter(|row| side_entries.contains(&row.idx)) {
        let text = match row.text {
            Some(text) => Cow::Borrowed(text),
            None => Cow::Owned(read_text(session, row.idx, home)?),
        };
        let label = labels.get(&row.idx).map(|l| l.0.as_str());
        let row = LogRow::of_gist(session, row.idx, row.gist, label, &text);
        // The columns a row takes, measured without its colours.
        let drawn = |style| {
            let mut buf = Vec::new();
            row.write(&mut buf, style, zone(), width);
            String::from_utf8_lossy(&buf).into_owned()
        };
        let plain = drawn(Style { color: false });
        let columns = ui::columns(&plain);
        out.push((if ctx.style.color { drawn(ctx.style) } else { plain }, columns));
    }
    Ok(out)
}
