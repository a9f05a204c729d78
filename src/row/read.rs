//! Rows read from a session's lines: worked out while the file loads, for the commands that
//! list a whole file ([`Rows`], the loader's [`Digest`]), or read again afterwards for the few
//! entries a command shows.

use super::entry::{self, Entry, Reads, WALKED_DEPTH};
use super::gist::{Gist, Resolved};
use super::text::{fuzzy_match, one_line, search_text, substring_match};
use super::view::{Labels, with_row};
use crate::error::Result;
use crate::format::Envelope;
use crate::json::scan::{Line, Scanner};
use crate::session::{Digest, LineReader, Session, parse_lossy};

/// The rows of `log` and `tree`, worked out while a file loads: each record's [`Gist`], with
/// paths shortened under a home directory.
#[derive(Debug, Default)]
pub struct Rows {
    home: Option<String>,
}

impl Rows {
    /// Rows whose paths are shortened under `home`.
    pub fn new(home: Option<&str>) -> Rows {
        Rows { home: home.map(str::to_owned) }
    }
}

impl Digest for Rows {
    type Of = Gist;
    const WALK_DEPTH: usize = WALKED_DEPTH;

    fn with_envelope<'a>(
        &self,
        line: &Line<'a, '_>,
        stack: &mut Vec<bool>,
    ) -> Option<(Envelope<'a>, Gist)> {
        entry::scan(line, stack, Reads::Rows, self.home.as_deref(), Gist::of)
    }

    fn of_line(&self, scanner: &mut Scanner, bytes: &[u8], v1: bool) -> Gist {
        line_gist(scanner, bytes, self.home.as_deref(), v1)
    }
}

/// The gist of a record's line read on its own, as [`with_row`] reads the row: a version-1 row
/// from a full parse (its ids are derived); any other through the scan, even where only
/// serde_json read the envelope (an id with a lone surrogate, say), and in full where the scan
/// does not take the line.
fn line_gist(scanner: &mut Scanner, bytes: &[u8], home: Option<&str>, v1: bool) -> Gist {
    let gist = match v1 {
        true => None,
        false => scanner.index(bytes).ok().and_then(|(line, stack)| {
            entry::scan(&line, stack, Reads::Rows, home, Gist::of).map(|(_, gist)| gist)
        }),
    };
    gist.or_else(|| parse_lossy(bytes).map(|value| Gist::of(&Entry::from_value(&value, home))))
        .unwrap_or_else(Gist::unreadable)
}

/// The row text of a record with no tool call known, read from its line: for a gist that did
/// not keep it ([`Gist::is_long`]). `home` as for [`Rows::new`].
pub fn read_text(session: &Session, idx: u32, home: Option<&str>) -> Result<String> {
    with_row(session, idx, &mut session.lines(), &mut Scanner::new(), home, |row| {
        one_line(row, None).0
    })
}

/// The gists of the records `indices`, read from their lines: what a load with [`Rows`] (of
/// `home`) gives them, for a command that shows a few rows of a file loaded without. On every
/// core, a stretch of `indices` a task (give them in about file order: lines are read through
/// a window).
pub fn read_gists(session: &Session, indices: &[u32], home: Option<&str>) -> Result<Vec<Gist>> {
    let v1 = session.is_v1();
    each_line(session, indices, |lines, scanner, &idx| {
        Ok(line_gist(scanner, lines.line(idx)?, home, v1))
    })
}

/// `f` of each of `items`, in order, on every core: a stretch of `items` a task, each with a
/// line reader and a scanner of its own (give them in about file order: lines are read through
/// a window).
fn each_line<T: Sync, R: Send>(
    session: &Session,
    items: &[T],
    f: impl Fn(&mut LineReader<'_>, &mut Scanner, &T) -> Result<R> + Sync,
) -> Result<Vec<R>> {
    use rayon::prelude::*;
    const STRETCH: usize = 1024;
    let stretches: Vec<Result<Vec<R>>> = items
        .par_chunks(STRETCH)
        .map(|stretch| {
            let (mut lines, mut scanner) = (session.lines(), Scanner::new());
            stretch.iter().map(|item| f(&mut lines, &mut scanner, item)).collect()
        })
        .collect();
    let mut all = Vec::with_capacity(items.len());
    for stretch in stretches {
        all.extend(stretch?);
    }
    Ok(all)
}

/// A `--search`: every word of `query` in an entry's search text (FORMAT §9.4), as a
/// substring, or as a subsequence when `fuzzy`.
#[derive(Debug, Clone, Copy)]
pub struct Search<'q> {
    /// The words.
    pub query: &'q str,
    /// Match them as subsequences, as the agent's selector does.
    pub fuzzy: bool,
}

impl Search<'_> {
    /// Whether a search text matches.
    pub fn matches(&self, text: &str) -> bool {
        if self.fuzzy { fuzzy_match(self.query, text) } else { substring_match(self.query, text) }
    }

    /// The items of `rows` whose entries match, in order: `entry` names an item's record and
    /// its row text as read in order (whose call a tool result's search text holds). Each
    /// entry's search text is read from its line, on every core, a stretch of `rows` a task
    /// (give them in about file order: lines are read through a window).
    pub fn matching<'g, T: Send + Sync>(
        &self,
        session: &Session,
        labels: &Labels,
        rows: Vec<T>,
        entry: impl Fn(&T) -> (u32, Resolved<'g>) + Sync,
    ) -> Result<Vec<T>> {
        let found = each_line(session, &rows, |lines, scanner, row| {
            let (idx, text) = entry(row);
            let label = labels.get(&idx).map(|l| l.0.as_str());
            with_row(session, idx, lines, scanner, None, |row| {
                self.matches(&search_text(row, label, text.call()))
            })
        })?;
        Ok(rows.into_iter().zip(found).filter_map(|(row, found)| found.then_some(row)).collect())
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    /// Gists read from the lines afterwards are those a load with gists works out, on every
    /// fixture (version 1, damaged lines, escapes, invalid UTF-8 among them).
    #[test]
    fn gists_read_afterwards_are_those_of_the_load() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let rows = Rows::new(Some("/home/u"));
        let mut checked = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "jsonl") {
                continue;
            }
            let (_, with) = Session::load_with(&path, &rows).unwrap();
            let without = Session::load(&path).unwrap();
            let all: Vec<u32> = (0..without.records.len() as u32).collect();
            let read = read_gists(&without, &all, Some("/home/u")).unwrap();
            assert_eq!(read, with, "{}", path.display());
            // Any few of them, in any order.
            let some: Vec<u32> = all.iter().rev().step_by(3).copied().collect();
            let expected: Vec<Gist> = some.iter().map(|&i| with[i as usize].clone()).collect();
            assert_eq!(read_gists(&without, &some, Some("/home/u")).unwrap(), expected);
            checked += 1;
        }
        assert!(checked > 30, "{checked} fixtures");
    }

    /// A search read on every core, in stretches, keeps the rows one pass through a viewer
    /// keeps: a tool result found by the call it answers, a label, a call made before the
    /// stretch that reads its result.
    #[test]
    fn a_search_on_every_core_matches_one_pass() {
        let mut lines = vec![r#"{"type":"session","version":3,"id":"s","cwd":"/"}"#.to_string()];
        let mut parent = "null".to_string();
        for i in 0..5000 {
            let id = format!("e{i}");
            let message = match i % 4 {
                0 => format!(
                    r#"{{"role":"assistant","content":[{{"type":"toolCall","id":"c{}","name":"read","arguments":{{"path":"/src/f{}.rs"}}}}]}}"#,
                    i % 37,
                    i % 11
                ),
                1 => format!(
                    r#"{{"role":"toolResult","toolCallId":"c{}","content":"out"}}"#,
                    (i * 3) % 41
                ),
                2 => format!(r#"{{"role":"user","content":"word{}"}}"#, i % 13),
                _ => {
                    r#"{"role":"assistant","content":[{"type":"text","text":"done"}]}"#.to_string()
                }
            };
            lines.push(format!(
                r#"{{"type":"message","id":"{id}","parentId":{parent},"message":{message}}}"#
            ));
            parent = format!("\"{id}\"");
        }
        lines.push(
            r#"{"type":"label","id":"l","parentId":"e4999","targetId":"e7","label":"f3.rs mark"}"#
                .into(),
        );
        let rows = Rows::new(None);
        let (s, gists) =
            Session::from_bytes_with(Path::new("t"), lines.join("\n").into(), &rows).unwrap();
        let labels = super::super::view::labels(&s);
        let mut resolver = super::super::gist::Resolver::default();
        let all: Vec<(u32, Resolved<'_>)> =
            gists.iter().enumerate().map(|(i, g)| (i as u32, resolver.resolve(g))).collect();
        for query in ["f3.rs", "word7", "read out", "nothing-here"] {
            for fuzzy in [false, true] {
                let search = Search { query, fuzzy };
                let got = search.matching(&s, &labels, all.clone(), |&row| row).unwrap();
                let mut viewer = super::super::view::Viewer::new(&s, None);
                let expected: Vec<u32> = (0..s.records.len() as u32)
                    .filter(|&i| {
                        let view = viewer.view(i).unwrap();
                        search.matches(&view.search)
                    })
                    .collect();
                let got: Vec<u32> = got.iter().map(|&(i, _)| i).collect();
                assert_eq!(got, expected, "{query:?}, fuzzy {fuzzy}");
                if query != "nothing-here" {
                    assert!(!got.is_empty(), "{query:?}");
                }
            }
        }
    }
}
