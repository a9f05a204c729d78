//! What the page's script compares two branches by, as `diff --stat` does: for each row of the
//! sidebar, its parent row and what the entry adds to the summary of a side it is on
//! ([`crate::diff::summarize_each`]), written once as a compact JSON block.
//!
//! The block is one object of parallel arrays, one element per sidebar row, in the sidebar's
//! order: `p` how many rows back the parent's row is (0 for a root), `f` the entry's flags (1 a
//! user prompt, 2 an assistant turn, and 4 times its errors), `t` its time in milliseconds after
//! `t0` (null for none), `k` its tokens and `c` its cost (0 for none). The tool calls, files and
//! commands of the few entries that have any are in `x`, one array per entry: its row, then
//! the tools called (one element per call), the files read, the files changed and the bash
//! commands, each an index into `s`, the strings in byte order, so that indexes sort as the
//! strings do. Summing a side's elements in path order gives `diff`'s figures to the bit.

use std::collections::BTreeSet;
use std::fmt::Write;

use rayon::prelude::*;

use super::Options;
use crate::diff::{Summary, summarize_each};
use crate::markdown::pictures;
use crate::session::Session;

/// What one entry adds, kept until the strings are numbered.
struct Calls {
    row: usize,
    tools: Vec<String>,
    read: Vec<String>,
    changed: Vec<String>,
    commands: Vec<String>,
}

/// What one entry adds to a side, as the block holds it.
struct Fact {
    row: usize,
    flags: usize,
    tokens: f64,
    cost: f64,
    /// Boxed: most entries call nothing.
    calls: Option<Box<Calls>>,
}

impl Fact {
    /// The fact of the entry of sidebar row `row`, whose strings `text` makes fit for the page.
    fn of(row: usize, summary: &Summary, text: impl Fn(&String) -> String) -> Fact {
        let has_calls = !summary.tools.is_empty();
        let tools = summary.tools.iter().flat_map(|(name, &n)| std::iter::repeat_n(text(name), n));
        Fact {
            row,
            flags: summary.prompts | summary.turns << 1 | summary.errors << 2,
            tokens: summary.usage.tokens(),
            cost: summary.usage.cost(),
            calls: has_calls.then(|| {
                Box::new(Calls {
                    row,
                    tools: tools.collect(),
                    read: summary.read.iter().map(&text).collect(),
                    changed: summary.changed.iter().map(&text).collect(),
                    commands: summary.commands.iter().map(&text).collect(),
                })
            }),
        }
    }
}

/// Entries read by one task.
const STRETCH: usize = 4096;

/// The JSON block of the rows `rows` (record indexes, in the sidebar's order), to go between
/// `<script type="application/json">` tags: no `<`, `>` or `&` is written as itself.
pub fn facts(session: &Session, rows: &[u32], opts: &Options) -> crate::Result<String> {
    const NONE: u32 = u32::MAX;
    let mut row_of = vec![NONE; session.records.len()];
    for (row, &idx) in rows.iter().enumerate() {
        row_of[idx as usize] = row as u32;
    }
    let n = rows.len();
    // Read in file order, where the lines are, a stretch of entries a task on every core.
    let mut in_file = rows.to_vec();
    in_file.sort_unstable();
    let text = |s: &String| pictures(&opts.clean(s));
    let stretches = in_file.par_chunks(STRETCH).map(|stretch| {
        let mut facts = Vec::with_capacity(stretch.len());
        summarize_each(session, stretch, |idx, summary| {
            facts.push(Fact::of(row_of[idx as usize] as usize, &summary, text));
        })?;
        Ok(facts)
    });
    let stretches: Vec<Vec<Fact>> = stretches.collect::<crate::Result<_>>()?;
    let (mut flags, mut tokens, mut costs) = (vec![0usize; n], vec![0.0; n], vec![0.0; n]);
    let mut calls = Vec::new();
    for fact in stretches.into_iter().flatten() {
        flags[fact.row] = fact.flags;
        (tokens[fact.row], costs[fact.row]) = (fact.tokens, fact.cost);
        calls.extend(fact.calls.map(|c| *c));
    }
    calls.sort_unstable_by_key(|c| c.row);
    let strings: BTreeSet<&str> = calls
        .iter()
        .flat_map(|c| [&c.tools, &c.read, &c.changed, &c.commands])
        .flatten()
        .map(String::as_str)
        .collect();
    let strings: Vec<&str> = strings.into_iter().collect();
    let t0 = rows.iter().filter_map(|&i| session.record(i).time).min();

    let mut out = String::with_capacity(n * 16);
    out.push_str(&format!("{{\"t0\":{},\"s\":[", t0.map_or("null".into(), |t| t.to_string())));
    for (i, s) in strings.iter().enumerate() {
        out.push_str(if i == 0 { "" } else { "," });
        push_json_string(&mut out, s);
    }
    out.push_str("],\"p\":");
    let parent = |(row, &idx): (usize, &u32)| match session.parent(idx).map(|p| row_of[p as usize])
    {
        Some(p) if p != NONE => row as i64 - i64::from(p),
        _ => 0,
    };
    push_array(&mut out, rows.iter().enumerate().map(parent), |out, d| write!(out, "{d}"));
    out.push_str(",\"f\":");
    push_array(&mut out, flags.iter(), |out, f| write!(out, "{f}"));
    out.push_str(",\"t\":");
    let time = |&idx: &u32| session.record(idx).time.zip(t0).map(|(t, t0)| t - t0);
    push_array(&mut out, rows.iter().map(time), |out, t| match t {
        Some(t) => write!(out, "{t}"),
        None => write!(out, "null"),
    });
    out.push_str(",\"k\":");
    push_array(&mut out, tokens.iter(), |out, &k| push_number(out, k));
    out.push_str(",\"c\":");
    push_array(&mut out, costs.iter(), |out, &c| push_number(out, c));
    out.push_str(",\"x\":");
    let index = |s: &String| strings.binary_search(&s.as_str()).unwrap_or_default();
    push_array(&mut out, calls.iter(), |out, c| {
        write!(out, "[{}", c.row)?;
        // The lists after the last one that holds something are left out.
        let lists = [&c.tools, &c.read, &c.changed, &c.commands];
        let used = lists.iter().rposition(|l| !l.is_empty()).map_or(0, |last| last + 1);
        for list in &lists[..used] {
            out.push(',');
            push_array(out, list.iter().map(index), |out, i| write!(out, "{i}"));
        }
        write!(out, "]")
    });
    out.push('}');
    Ok(out)
}

/// `[a,b,…]`, each element written by `each`.
fn push_array<T>(
    out: &mut String,
    items: impl IntoIterator<Item = T>,
    mut each: impl FnMut(&mut String, T) -> std::fmt::Result,
) {
    out.push('[');
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        // Writing into a String cannot fail.
        let _ = each(out, item);
    }
    out.push(']');
}

/// A number as JSON, as JavaScript writes it ([`crate::json::js_number`]).
fn push_number(out: &mut String, f: f64) -> std::fmt::Result {
    write!(out, "{}", crate::json::js_number(f))
}

/// A JSON string whose `<`, `>` and `&` are escapes: no text of it can close the script
/// element it is in, nor open a comment there.
fn push_json_string(out: &mut String, s: &str) {
    let json = serde_json::Value::from(s).to_string();
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_string_closes_the_script_it_is_in() {
        let mut out = String::new();
        push_json_string(&mut out, "</script><!--&\"\n");
        assert_eq!(out, r#""\u003c/script\u003e\u003c!--\u0026\"\n""#);
        assert_eq!(serde_json::from_str::<String>(&out).unwrap(), "</script><!--&\"\n");
    }

    #[test]
    fn numbers_are_whole_when_they_are_and_exact_when_not() {
        let mut out = String::new();
        for f in [0.0, 1240.0, 0.1 + 0.2, f64::INFINITY] {
            push_number(&mut out, f).unwrap();
            out.push(' ');
        }
        assert_eq!(out, "0 1240 0.30000000000000004 null ");
    }
}
