//! What two branches did differently (`sesstree diff`): their common ancestor, the entries each
//! side adds after it, and a summary of each side (what it asked, which tools it called, which
//! files it read and changed, what it cost).
//!
//! The two sides may be in two files: a fork copies the entries of its path with their ids
//! (`fork` here, pi's `createBranchedSession`, oh-my-pi's `/fork`), so an id found on both
//! paths is the same entry, and the deepest such entry is where the two went apart.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::hash::Hash;

use rayon::prelude::*;
use serde_json::{Value, json};

use crate::error::Result;
use crate::format::entry::{Payload, Role};
use crate::id::EntryId;
use crate::json::scan::Scanner;
use crate::row::Entry;
use crate::row::text::is_user_request;
use crate::session::{LineReader, Session};
use crate::stats::{Usage, payload_usage};
use crate::summarize::FileOps;

/// One side of a diff: an entry of a session.
#[derive(Debug, Clone, Copy)]
pub struct Side<'s> {
    /// The session the entry is in.
    pub session: &'s Session,
    /// The entry (a record index).
    pub tip: u32,
}

/// Where two sides went apart: the common ancestor and what each side adds after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    /// The common ancestor as its record index on each side, `None` when the paths share no
    /// entry.
    pub base: Option<[u32; 2]>,
    /// The entries each side has after the base (all of its path when there is none), root
    /// first; the last is the side's tip, unless the tip is the base itself.
    pub sides: [Vec<u32>; 2],
}

impl Split {
    /// Whether the two sides are the same entry: neither adds anything to the base.
    pub fn is_same(&self) -> bool {
        self.base.is_some() && self.sides.iter().all(Vec::is_empty)
    }
}

/// The common ancestor of two sides (as `git merge-base`) and what each side adds after it.
/// Within one file, entries are the same when they are the same record; across files, when
/// they have the same id (entries without an id are never shared).
pub fn split(a: Side<'_>, b: Side<'_>) -> Split {
    let paths = [a.session.path_to_root(a.tip), b.session.path_to_root(b.tip)];
    let base = if std::ptr::eq(a.session, b.session) {
        deepest_shared(&paths, |&i| Some(i), |&i| Some(i))
    } else {
        let (sa, sb) = (a.session, b.session);
        let id = |s: &Session, i: u32| s.record(i).id.as_ref().map(key);
        deepest_shared(&paths, |&i| id(sa, i), |&i| id(sb, i))
    };
    let after = |path: &[u32], at: Option<usize>| path[at.map_or(0, |p| p + 1)..].to_vec();
    Split {
        base: base.map(|(pa, pb)| [paths[0][pa], paths[1][pb]]),
        sides: [after(&paths[0], base.map(|b| b.0)), after(&paths[1], base.map(|b| b.1))],
    }
}

/// An id as the key two files compare it by: ids are compared as JSON values (SPEC §1).
fn key(id: &EntryId) -> Value {
    id.to_value()
}

/// The positions on the two paths (root first) of the deepest entry both hold, as `key_a` and
/// `key_b` name entries: the last on the second path whose key is on the first.
fn deepest_shared<K: Hash + Eq>(
    [a, b]: &[Vec<u32>; 2],
    key_a: impl Fn(&u32) -> Option<K>,
    key_b: impl Fn(&u32) -> Option<K>,
) -> Option<(usize, usize)> {
    let on_a: HashMap<K, usize> =
        a.iter().enumerate().filter_map(|(pos, i)| Some((key_a(i)?, pos))).collect();
    b.iter().enumerate().rev().find_map(|(pb, i)| Some((*on_a.get(&key_b(i)?)?, pb)))
}

/// What one side did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    /// Entries.
    pub entries: usize,
    /// Requests the user made ([`is_user_request`]).
    pub prompts: usize,
    /// Assistant messages.
    pub turns: usize,
    /// Tool calls by tool name.
    pub tools: BTreeMap<String, usize>,
    /// Files the `read` calls read.
    pub read: BTreeSet<String>,
    /// Files the `write` and `edit` calls changed.
    pub changed: BTreeSet<String>,
    /// The commands of the `bash` calls, in order.
    pub commands: Vec<String>,
    /// Assistant messages that stopped on an error, and tool results that report one.
    pub errors: usize,
    /// Tokens and cost (as `stats` counts them).
    pub usage: Usage,
    /// The times of the first and the last entry (milliseconds since the epoch).
    pub span: Option<(i64, i64)>,
}

/// Summarizes the entries `entries` of `session`: each entry is read through its payload view,
/// from the spans of its line, on every core, a stretch of entries a task.
pub fn summarize(session: &Session, entries: &[u32]) -> Result<Summary> {
    const STRETCH: usize = 4096;
    let stretches: Vec<Result<(Summary, Vec<Usage>)>> =
        entries.par_chunks(STRETCH).map(|stretch| summarize_stretch(session, stretch)).collect();
    let mut summary = Summary::default();
    for stretch in stretches {
        let (part, usages) = stretch?;
        summary.absorb(part);
        // Summed entry by entry in path order: a sum of floating-point numbers depends on its
        // order.
        for usage in &usages {
            summary.usage.add_usage(usage);
        }
    }
    let times = entries.iter().filter_map(|&i| session.record(i).time);
    summary.span = times.fold(None, |span, t| match span {
        None => Some((t, t)),
        Some((first, last)) => Some((first.min(t), last.max(t))),
    });
    Ok(summary)
}

/// The summary of a stretch of entries read with one reader, without its usage and time span,
/// and the usage of each entry that has one, in order.
fn summarize_stretch(session: &Session, entries: &[u32]) -> Result<(Summary, Vec<Usage>)> {
    let mut reader = Reader::new(session);
    let mut summary = Summary { entries: entries.len(), ..Summary::default() };
    let mut usages = Vec::new();
    for &i in entries {
        usages.extend(reader.add(&mut summary, i)?);
    }
    (summary.read, summary.changed) = (reader.files.read, reader.files.modified);
    Ok((summary, usages))
}

/// Summarizes each of `entries` on its own, in order, and hands each summary to `each`: what
/// the entry adds to the summary of a side it is on. Summing them along a side, usage in path
/// order, gives [`summarize`]'s figures (the export's page compares two branches so).
pub fn summarize_each(
    session: &Session,
    entries: &[u32],
    mut each: impl FnMut(u32, Summary),
) -> Result<()> {
    let mut reader = Reader::new(session);
    for &i in entries {
        let mut summary = Summary { entries: 1, ..Summary::default() };
        summary.usage = reader.add(&mut summary, i)?.unwrap_or_default();
        let files = std::mem::take(&mut reader.files);
        (summary.read, summary.changed) = (files.read, files.modified);
        summary.span = session.record(i).time.map(|t| (t, t));
        each(i, summary);
    }
    Ok(())
}

/// Reads entries of a session for their summary: each through its payload view, from the
/// spans of its line.
struct Reader<'s> {
    session: &'s Session,
    lines: LineReader<'s>,
    scanner: Scanner,
    /// The files of the calls read so far.
    files: FileOps,
}

impl<'s> Reader<'s> {
    fn new(session: &'s Session) -> Self {
        Reader {
            session,
            lines: session.lines(),
            scanner: Scanner::new(),
            files: FileOps::default(),
        }
    }

    /// Adds entry `i` to `summary` (but for its usage and time, and the count of entries) and
    /// its files to [`Reader::files`]; returns its usage, if any.
    fn add(&mut self, summary: &mut Summary, i: u32) -> Result<Option<Usage>> {
        let session = self.session;
        let parsed;
        let payload = match Payload::scan(self.lines.line(i)?, &mut self.scanner) {
            Some(payload) => payload,
            None => {
                parsed = session.value(i)?;
                Payload::from_value(&parsed)
            }
        };
        if may_be_user_request(&payload)
            && is_user_request(&Entry::from_value(&session.value(i)?, None))
        {
            summary.prompts += 1;
        }
        let usage = payload_usage(&payload, session.dialect()).map(|(_, usage)| usage);
        let Payload::Message(message) = &payload else { return Ok(usage) };
        match message.role {
            Some(Role::Assistant) => {
                summary.turns += 1;
                let stop = message.text("stopReason");
                summary.errors += usize::from(stop.is_some_and(|s| s.is("error")));
            }
            Some(Role::ToolResult) => {
                summary.errors += usize::from(message.is_error());
                return Ok(usage);
            }
            _ => return Ok(usage),
        }
        self.files.add_calls(message);
        for call in message.content.calls() {
            let Some(name) = call.name.map(|name| name.decode()) else { continue };
            if name == "bash"
                && let Some(command) = call.arguments.and_then(|a| a.object()?.text("command"))
            {
                summary.commands.push(command.decode().into_owned());
            }
            match summary.tools.get_mut(name.as_ref()) {
                Some(count) => *count += 1,
                None => {
                    summary.tools.insert(name.into_owned(), 1);
                }
            }
        }
        Ok(usage)
    }
}

/// Whether an entry is of a kind and role [`is_user_request`] may count: a user or custom
/// message, or a custom message entry. Only those are read as a whole row entry.
fn may_be_user_request(payload: &Payload<'_>) -> bool {
    match payload {
        Payload::Message(message) => matches!(message.role, Some(Role::User | Role::Custom)),
        Payload::CustomMessage(_) => true,
        _ => false,
    }
}

impl Summary {
    /// Adds the counts of `part`, a summary of the entries after this one's, but for usage and
    /// time span.
    fn absorb(&mut self, part: Summary) {
        self.entries += part.entries;
        self.prompts += part.prompts;
        self.turns += part.turns;
        for (tool, count) in part.tools {
            *self.tools.entry(tool).or_default() += count;
        }
        self.read.extend(part.read);
        self.changed.extend(part.changed);
        self.commands.extend(part.commands);
        self.errors += part.errors;
    }

    /// The summary as `diff --json` prints it.
    pub fn to_json(&self) -> Value {
        let usage = self.usage.to_json();
        json!({
            "entries": self.entries,
            "prompts": self.prompts,
            "turns": self.turns,
            "toolCalls": self.tools,
            "filesRead": self.read,
            "filesChanged": self.changed,
            "commands": self.commands,
            "errors": self.errors,
            "tokens": usage["totalTokens"],
            "cost": usage["cost"],
            "durationMs": self.span.map(|(first, last)| last - first),
        })
    }
}

/// A unified diff of two texts, line by line (`---`/`+++` named `a` and `b`, hunks with
/// `context` lines around each change); empty when they are the same.
pub fn unified(a: &str, b: &str, names: [&str; 2], context: usize) -> String {
    let (a, b): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    let ops = line_ops(&a, &b);
    if ops.iter().all(|op| matches!(op, Op::Same(..))) {
        return String::new();
    }
    let mut out = format!("--- {}\n+++ {}\n", names[0], names[1]);
    // The hunks: stretches of changes with up to `context` unchanged lines around them, two
    // stretches closer than twice that joined.
    let changed: Vec<usize> = (0..ops.len()).filter(|&k| !matches!(ops[k], Op::Same(..))).collect();
    let mut k = 0;
    while k < changed.len() {
        let start = changed[k].saturating_sub(context);
        let mut end = changed[k];
        while k < changed.len() && changed[k] <= end + 2 * context + 1 {
            end = changed[k];
            k += 1;
        }
        let end = (end + context + 1).min(ops.len());
        let hunk = &ops[start..end];
        // Where the hunk starts in each text, and how many of its lines each has.
        let (mut ia, mut ib) = (0, 0);
        for op in &ops[..start] {
            let (da, db) = op.lengths();
            (ia, ib) = (ia + da, ib + db);
        }
        let (na, nb) = hunk.iter().fold((0, 0), |(na, nb), op| {
            let (da, db) = op.lengths();
            (na + da, nb + db)
        });
        let from = |at: usize, n: usize| if n == 0 { at } else { at + 1 };
        out.push_str(&format!("@@ -{},{na} +{},{nb} @@\n", from(ia, na), from(ib, nb)));
        for op in hunk {
            let (mark, line) = match *op {
                Op::Same(i, _) => (' ', a[i]),
                Op::Del(i) => ('-', a[i]),
                Op::Add(j) => ('+', b[j]),
            };
            out.push(mark);
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// One step of a line diff: a line of both texts, of the first only, of the second only.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Op {
    Same(usize, usize),
    Del(usize),
    Add(usize),
}

impl Op {
    /// How many lines of each text the step covers.
    fn lengths(self) -> (usize, usize) {
        match self {
            Op::Same(..) => (1, 1),
            Op::Del(_) => (1, 0),
            Op::Add(_) => (0, 1),
        }
    }
}

/// The steps from `a` to `b` keeping a longest common subsequence of lines. The common start
/// and end are taken first: two branches' contexts share the conversation up to where they
/// went apart. What is left between them can still be thousands of lines on each side (two
/// sides on either side of a compaction share little), so the lengths are worked out a machine
/// word of lines at a time ([`Lengths`]).
fn line_ops(a: &[&str], b: &[&str]) -> Vec<Op> {
    let head = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let tail =
        a[head..].iter().rev().zip(b[head..].iter().rev()).take_while(|(x, y)| x == y).count();
    let (ma, mb) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    let lcs = Lengths::of(ma, mb);
    let mut ops: Vec<Op> = (0..head).map(|i| Op::Same(i, i)).collect();
    let (mut i, mut j) = (0, 0);
    while i < ma.len() || j < mb.len() {
        if i < ma.len() && j < mb.len() && ma[i] == mb[j] {
            ops.push(Op::Same(head + i, head + j));
            (i, j) = (i + 1, j + 1);
        } else if j < mb.len() && (i == ma.len() || lcs.get(i, j + 1) > lcs.get(i + 1, j)) {
            // On a tie, the first text's lines go first, as in `diff -u`.
            ops.push(Op::Add(head + j));
            j += 1;
        } else {
            ops.push(Op::Del(head + i));
            i += 1;
        }
    }
    let (ta, tb) = (a.len() - tail, b.len() - tail);
    ops.extend((0..tail).map(|k| Op::Same(ta + k, tb + k)));
    ops
}

/// The lengths of the longest common subsequences of the ends of two lists of lines,
/// `a[i..]` and `b[j..]`, kept one bit per pair: a row per end of `a`, whose bit `k` is clear
/// where the subsequence of the reversed lists grows with the `k`-th line from `b`'s end (the
/// bit-parallel recurrence of Crochemore et al., "A fast and practical bit-vector algorithm
/// for the longest common subsequence problem", 2001). Rows of `b.len()` bits, not of numbers:
/// two 8,000-line texts take 8 MB instead of 256 MB, and each row is worked out 64 lines at a
/// time.
struct Lengths {
    /// `a.len() + 1` rows of `words` words: row `r` for the last `r` lines of `a`.
    rows: Vec<u64>,
    words: usize,
    /// `a.len()` and `b.len()`.
    n: usize,
    m: usize,
}

impl Lengths {
    fn of(a: &[&str], b: &[&str]) -> Lengths {
        let (n, m) = (a.len(), b.len());
        let words = m.div_ceil(64);
        // Where each line of `b` is, counted from its end.
        let mut at: HashMap<&str, Vec<usize>> = HashMap::new();
        for (k, line) in b.iter().rev().enumerate() {
            at.entry(line).or_default().push(k);
        }
        let mut rows = vec![u64::MAX; (n + 1) * words];
        let mut matches = vec![0u64; words];
        for (r, line) in a.iter().rev().enumerate() {
            let (done, next) = rows.split_at_mut((r + 1) * words);
            let (row, next) = (&done[r * words..], &mut next[..words]);
            let found = at.get(line).map_or(&[][..], Vec::as_slice);
            for &k in found {
                matches[k / 64] |= 1 << (k % 64);
            }
            // next = (row + u) | (row - u), u = row & matches: the sum carries from word to
            // word; the difference, of a subset, borrows nothing.
            let mut carry = false;
            for w in 0..words {
                let u = row[w] & matches[w];
                let (sum, c1) = row[w].overflowing_add(u);
                let (sum, c2) = sum.overflowing_add(u64::from(carry));
                carry = c1 || c2;
                next[w] = sum | (row[w] & !u);
            }
            for &k in found {
                matches[k / 64] = 0;
            }
        }
        Lengths { rows, words, n, m }
    }

    /// The length of the longest common subsequence of `a[i..]` and `b[j..]`: the clear bits
    /// of row `n - i` below `m - j`.
    fn get(&self, i: usize, j: usize) -> usize {
        let (r, k) = (self.n - i, self.m - j);
        let row = &self.rows[r * self.words..(r + 1) * self.words];
        let whole: u32 = row[..k / 64].iter().map(|w| w.count_ones()).sum();
        let part = match k % 64 {
            0 => 0,
            bits => (row[k / 64] & ((1u64 << bits) - 1)).count_ones(),
        };
        k - (whole + part) as usize
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use proptest::prelude::*;

    use super::*;

    /// A session of entries `e0`, `e1`, … whose parents are `parents` (an index before the
    /// entry's own, or none).
    fn session(parents: &[Option<usize>]) -> Session {
        let mut text = String::from(r#"{"type":"session","version":3,"id":"s","cwd":"/w"}"#);
        text.push('\n');
        for (i, parent) in parents.iter().enumerate() {
            let parent = parent.map_or("null".to_owned(), |p| format!("\"e{p}\""));
            text.push_str(&format!(
                r#"{{"type":"custom","customType":"x","id":"e{i}","parentId":{parent},"timestamp":"2026-01-01T00:00:00.000Z"}}"#
            ));
            text.push('\n');
        }
        Session::from_bytes(Path::new("t.jsonl"), text.into_bytes()).unwrap()
    }

    /// Parents of a tree: each entry's parent comes before it, or it is a root.
    fn tree() -> impl Strategy<Value = Vec<Option<usize>>> {
        (1..40usize).prop_flat_map(|n| {
            (0..n)
                .map(|i| {
                    if i == 0 {
                        Just(None).boxed()
                    } else {
                        proptest::option::weighted(0.9, 0..i).boxed()
                    }
                })
                .collect::<Vec<_>>()
        })
    }

    proptest! {
        /// The base is an ancestor of both sides (or one of them), and no deeper entry is: the
        /// entries right after it on the two sides differ. Without a base, the roots differ.
        #[test]
        fn base_is_the_deepest_common_ancestor(parents in tree(), a in 0..40usize, b in 0..40usize) {
            let s = session(&parents);
            let (a, b) = ((a % parents.len()) as u32, (b % parents.len()) as u32);
            let found = split(Side { session: &s, tip: a }, Side { session: &s, tip: b });
            let (pa, pb) = (s.path_to_root(a), s.path_to_root(b));
            match found.base {
                Some([x, y]) => {
                    prop_assert_eq!(x, y);
                    let (at_a, at_b) = (pa.iter().position(|&i| i == x), pb.iter().position(|&i| i == x));
                    prop_assert!(at_a.is_some() && at_b.is_some());
                    let (at_a, at_b) = (at_a.unwrap(), at_b.unwrap());
                    prop_assert_eq!(&found.sides[0][..], &pa[at_a + 1..]);
                    prop_assert_eq!(&found.sides[1][..], &pb[at_b + 1..]);
                    prop_assert!(found.sides[0].is_empty() || found.sides[0].first() != found.sides[1].first());
                }
                None => {
                    prop_assert_ne!(pa[0], pb[0]);
                    prop_assert_eq!(&found.sides[0], &pa);
                }
            }
        }

        /// Across two files, entries with the same id are shared: a copy of a file splits as
        /// the file does.
        #[test]
        fn a_copy_splits_by_ids(parents in tree(), a in 0..40usize, b in 0..40usize) {
            let (s, copy) = (session(&parents), session(&parents));
            let (a, b) = ((a % parents.len()) as u32, (b % parents.len()) as u32);
            let one = split(Side { session: &s, tip: a }, Side { session: &s, tip: b });
            let two = split(Side { session: &s, tip: a }, Side { session: &copy, tip: b });
            prop_assert_eq!(one, two);
        }

        /// The lengths kept a bit per pair are those of the table of numbers.
        #[test]
        fn lengths_are_those_of_the_table(a in proptest::collection::vec("[abc]", 0..80), b in proptest::collection::vec("[abc]", 0..150)) {
            let (a, b): (Vec<&str>, Vec<&str>) = (a.iter().map(String::as_str).collect(), b.iter().map(String::as_str).collect());
            // table[i][j]: the longest common subsequence of a[i..] and b[j..].
            let mut table = vec![vec![0usize; b.len() + 1]; a.len() + 1];
            for i in (0..a.len()).rev() {
                for j in (0..b.len()).rev() {
                    table[i][j] = if a[i] == b[j] { table[i + 1][j + 1] + 1 } else { table[i + 1][j].max(table[i][j + 1]) };
                }
            }
            let lengths = Lengths::of(&a, &b);
            for (i, row) in table.iter().enumerate() {
                for (j, &length) in row.iter().enumerate() {
                    prop_assert_eq!(lengths.get(i, j), length, "at {} {}", i, j);
                }
            }
        }

        /// Applying the diff's steps to the first text gives the second.
        #[test]
        fn line_ops_rebuild_both_texts(a in proptest::collection::vec("[abc]", 0..12), b in proptest::collection::vec("[abc]", 0..12)) {
            let (a, b): (Vec<&str>, Vec<&str>) = (a.iter().map(String::as_str).collect(), b.iter().map(String::as_str).collect());
            let ops = line_ops(&a, &b);
            let old: Vec<&str> = ops.iter().filter_map(|op| match *op { Op::Same(i, _) | Op::Del(i) => Some(a[i]), Op::Add(_) => None }).collect();
            let new: Vec<&str> = ops.iter().filter_map(|op| match *op { Op::Same(_, j) | Op::Add(j) => Some(b[j]), Op::Del(_) => None }).collect();
            prop_assert_eq!(old, a.clone());
            prop_assert_eq!(new, b.clone());
            for op in &ops {
                if let Op::Same(i, j) = *op { prop_assert_eq!(a[i], b[j]); }
            }
        }
    }

    #[test]
    fn unified_diff_has_hunks_with_context() {
        let a = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
        let b = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n";
        assert_eq!(
            unified(a, b, ["a", "b"], 2),
            "--- a\n+++ b\n@@ -3,5 +3,5 @@\n 3\n 4\n-5\n+five\n 6\n 7\n"
        );
        assert_eq!(unified(a, a, ["a", "b"], 3), "");
        assert_eq!(unified("", "x\n", ["a", "b"], 3), "--- a\n+++ b\n@@ -0,0 +1,1 @@\n+x\n");
    }

    /// A session of a user prompt, an assistant turn with three calls, a failed tool result and
    /// an assistant turn that failed.
    fn calls_and_errors() -> [&'static str; 5] {
        [
            r#"{"type":"session","version":3,"id":"s","cwd":"/w"}"#,
            r#"{"type":"message","id":"u","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"go"}}"#,
            r#"{"type":"message","id":"a","parentId":"u","timestamp":"2026-01-01T00:00:05.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"a.rs"}},{"type":"toolCall","id":"c2","name":"bash","arguments":{"command":"cargo test"}},{"type":"toolCall","id":"c3","name":"edit","arguments":{"path":"b.rs"}}],"usage":{"input":10,"output":5,"totalTokens":15,"cost":{"total":0.5}},"stopReason":"toolUse"}}"#,
            r#"{"type":"message","id":"r","parentId":"a","timestamp":"2026-01-01T00:00:07.000Z","message":{"role":"toolResult","toolCallId":"c2","toolName":"bash","content":[],"isError":true}}"#,
            r#"{"type":"message","id":"x","parentId":"r","timestamp":"2026-01-01T00:00:09.000Z","message":{"role":"assistant","content":"odd","stopReason":"error"}}"#,
        ]
    }

    fn session_of(lines: &[impl AsRef<str>]) -> Session {
        let text: Vec<&str> = lines.iter().map(AsRef::as_ref).collect();
        Session::from_bytes(Path::new("t.jsonl"), text.join("\n").into_bytes()).unwrap()
    }

    #[test]
    fn a_summary_counts_calls_files_commands_and_errors() {
        let s = session_of(&calls_and_errors());
        let summary = summarize(&s, &[0, 1, 2, 3]).unwrap();
        assert_eq!((summary.entries, summary.prompts, summary.turns, summary.errors), (4, 1, 2, 2));
        let tools: Vec<_> = summary.tools.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        assert_eq!(tools, [("bash", 1), ("edit", 1), ("read", 1)]);
        assert_eq!(summary.commands, ["cargo test"]);
        assert_eq!(summary.read.iter().collect::<Vec<_>>(), ["a.rs"]);
        assert_eq!(summary.changed.iter().collect::<Vec<_>>(), ["b.rs"]);
        assert_eq!((summary.usage.tokens(), summary.usage.cost()), (15.0, 0.5));
        assert_eq!(summary.span.map(|(f, l)| l - f), Some(9000));
    }

    /// Each entry's summary on its own, added up in path order, is the summary of them all:
    /// what the export's page relies on.
    #[test]
    fn each_entry_s_summary_adds_up_to_the_whole() {
        let s = session_of(&calls_and_errors());
        let entries = [0, 1, 2, 3];
        let (mut sum, mut seen) = (Summary::default(), Vec::new());
        summarize_each(&s, &entries, |idx, one| {
            seen.push(idx);
            sum.usage.add_usage(&one.usage);
            sum.span = match (sum.span, one.span) {
                (Some((f, l)), Some((t, _))) => Some((f.min(t), l.max(t))),
                (span, other) => span.or(other),
            };
            sum.absorb(one);
        })
        .unwrap();
        assert_eq!(seen, entries);
        assert_eq!(sum, summarize(&s, &entries).unwrap());
        assert_eq!(sum.errors, 2);
    }

    /// A line the scan does not take (one holding serde_json's marker text) is read in full,
    /// to the same summary.
    #[test]
    fn a_summary_reads_lines_the_scan_declines_in_full() {
        let marked: Vec<String> = calls_and_errors()
            .iter()
            .map(|line| line.replacen('{', r#"{"note":"$serde_json::private::RawValue","#, 1))
            .collect();
        let (plain, marked) = (session_of(&calls_and_errors()), session_of(&marked));
        assert!(Payload::scan(marked.raw_line(1).unwrap().as_ref(), &mut Scanner::new()).is_none());
        let entries = [0, 1, 2, 3];
        assert_eq!(summarize(&marked, &entries).unwrap(), summarize(&plain, &entries).unwrap());
    }

    /// The prompts are the requests `is_user_request` counts: user messages, and skill prompts
    /// the user invoked, as a custom message entry or a custom-role message.
    #[test]
    fn a_summary_counts_the_requests_the_user_made() {
        let s = session_of(&[
            r#"{"type":"session","version":3,"id":"s","cwd":"/w"}"#,
            r#"{"type":"message","id":"a","parentId":null,"message":{"role":"user","content":"go"}}"#,
            r#"{"type":"custom_message","customType":"skill-prompt","content":"x","attribution":"user","id":"b","parentId":"a"}"#,
            r#"{"type":"custom_message","customType":"skill-prompt","content":"x","attribution":"agent","id":"c","parentId":"b"}"#,
            r#"{"type":"message","id":"d","parentId":"c","message":{"role":"custom","customType":"skill-prompt","content":"x","attribution":"user"}}"#,
            r#"{"type":"message","id":"e","parentId":"d","message":{"role":"custom","customType":"other","content":"x","attribution":"user"}}"#,
            r#"{"type":"message","id":"f","parentId":"e","message":{"role":"assistant","content":"ok"}}"#,
        ]);
        assert_eq!(summarize(&s, &[0, 1, 2, 3, 4, 5]).unwrap().prompts, 3);
    }

    /// Entries read in stretches on every core add up in path order: commands keep their
    /// order, and counts and usage cover every stretch.
    #[test]
    fn a_long_side_adds_up_across_stretches() {
        let n = 10_000;
        let mut lines = vec![r#"{"type":"session","version":3,"id":"s","cwd":"/w"}"#.to_owned()];
        for i in 0..n {
            let parent = if i == 0 { "null".to_owned() } else { format!("\"e{}\"", i - 1) };
            lines.push(format!(
                r#"{{"type":"message","id":"e{i}","parentId":{parent},"message":{{"role":"assistant","content":[{{"type":"toolCall","id":"c","name":"bash","arguments":{{"command":"c{i}"}}}}],"usage":{{"totalTokens":1,"cost":{{"total":0.1}}}}}}}}"#
            ));
        }
        let s = session_of(&lines);
        let entries: Vec<u32> = (0..n).collect();
        let summary = summarize(&s, &entries).unwrap();
        assert_eq!(
            (summary.entries, summary.turns, summary.tools["bash"]),
            (10_000, 10_000, 10_000)
        );
        let commands: Vec<String> = (0..n).map(|i| format!("c{i}")).collect();
        assert_eq!(summary.commands, commands);
        // The costs summed one by one in order, as one pass sums them.
        let cost = (0..n).fold(0.0, |sum: f64, _| sum + 0.1);
        assert_eq!((summary.usage.tokens(), summary.usage.cost()), (10_000.0, cost));
    }
}
