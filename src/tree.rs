//! The tree as the agents' tree selector lays it out (FORMAT §9.1): the branch holding the
//! current leaf first, depth growing only at real branch points, connectors and gutters.
//!
//! The layout is computed on the whole tree; filters and searches then only pick rows, so the
//! structure stays what it is. The walk is iterative, so a chain of any depth cannot overflow
//! the stack, and each row keeps a reference to a shared gutter frame instead of a copy of its
//! ancestors' gutters, so the layout is linear in the number of entries.

use crate::session::Session;

const NO_FRAME: u32 = u32::MAX;

/// How to lay the tree out.
#[derive(Debug, Clone, Copy)]
pub struct TreeOptions {
    /// The entry treated as the current leaf (`--leaf`), or `None` when `@` is undefined.
    pub leaf: Option<u32>,
    /// Show archived subtrees too.
    pub include_archived: bool,
    /// Move the branch holding the leaf first (the selector's order). Off gives the
    /// reference's `getTree` order: roots in file order, children by timestamp.
    pub active_first: bool,
}

/// One row of the laid-out tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The record shown.
    pub idx: u32,
    /// The displayed level (roots at 0).
    pub depth: u32,
    /// `Some(is_last)` when a connector is drawn at this row's own level.
    pub connector: Option<bool>,
    /// Whether the entry is on the root→leaf path.
    pub on_active_path: bool,
    /// Whether the entry is the leaf.
    pub is_leaf: bool,
    /// The gutter frame of the row's innermost level (see [`Layout::prefix`]).
    frame: u32,
}

/// A gutter frame: whether the branch that opened this level has later siblings (`│` is
/// drawn) and the frame of the level above.
#[derive(Debug, Clone, Copy)]
struct Frame {
    up: u32,
    pipe: bool,
}

/// The laid-out tree: rows in display order and the gutter frames they share.
#[derive(Debug, Default)]
pub struct Layout {
    /// Rows in pre-order.
    pub rows: Vec<Row>,
    frames: Vec<Frame>,
}

/// The glyphs of a symbol set.
#[derive(Debug, Clone, Copy)]
pub struct Glyphs {
    /// Connector for a sibling that has later siblings.
    pub tee: &'static str,
    /// Connector for the last sibling.
    pub elbow: &'static str,
    /// Gutter while an ancestor branch continues.
    pub pipe: &'static str,
    /// Empty gutter.
    pub blank: &'static str,
    /// Marker for rows on the active path.
    pub bullet: &'static str,
    /// First cell when old levels scrolled off.
    pub ellipsis: &'static str,
}

/// Box-drawing glyphs.
pub const UNICODE: Glyphs =
    Glyphs {
        tee: "├─ ", elbow: "└─ ", pipe: "│  ", blank: "   ", bullet: "• ", ellipsis: "…  "
    };

/// ASCII glyphs (`--ascii`).
pub const ASCII: Glyphs =
    Glyphs { tee: "|--", elbow: "'--", pipe: "|  ", blank: "   ", bullet: "* ", ellipsis: "..." };

impl Layout {
    /// The gutter and connector cells of a row, each 3 columns wide. When `max_levels` is
    /// smaller than the row's depth the oldest levels scroll off and the first cell becomes an
    /// ellipsis (FORMAT §9.1).
    pub fn prefix(&self, row: &Row, glyphs: &Glyphs, max_levels: Option<usize>) -> String {
        let depth = row.depth as usize;
        let mut cells: Vec<&str> = Vec::with_capacity(depth.min(256));
        let mut frame = row.frame;
        let mut level = depth;
        if let Some(last) = row.connector {
            cells.push(if last { glyphs.elbow } else { glyphs.tee });
            level -= 1;
            frame = self.frames.get(frame as usize).map_or(NO_FRAME, |f| f.up);
        }
        // No more than `max_levels` cells.
        while level > 0
            && max_levels.is_none_or(|m| cells.len() < m)
            && let Some(&f) = self.frames.get(frame as usize)
        {
            cells.push(if f.pipe { glyphs.pipe } else { glyphs.blank });
            (frame, level) = (f.up, level - 1);
        }
        if let Some(m) = max_levels
            && depth > m
            && m > 0
            && let Some(first) = cells.last_mut()
        {
            *first = glyphs.ellipsis;
        }
        cells.iter().rev().copied().collect()
    }

    /// The positions of the rows in file order (by record index), for reading the rows as
    /// the file holds them: a record is laid out at most once, so each goes to its record's
    /// place in a list as long as the file, in one pass (a sort of a million rows took tens
    /// of milliseconds, on one core). `records` is the number of records.
    ///
    /// # Panics
    ///
    /// If a row's record index is not below `records` (the layout of another session).
    pub fn file_order(&self, records: usize) -> Vec<u32> {
        let mut at = vec![u32::MAX; records];
        for (i, row) in self.rows.iter().enumerate() {
            debug_assert_eq!(at[row.idx as usize], u32::MAX, "record {} laid out twice", row.idx);
            at[row.idx as usize] = i as u32;
        }
        at.retain(|&i| i != u32::MAX);
        at
    }
}

/// Fills `kids` with the children of `of` (the roots for `None`), move markers folded
/// ([`Session::folded_children`]), in display order: by timestamp (stable, file order on ties;
/// a parent with any unparseable child timestamp keeps file order), archived subtrees left
/// out; and `markers` with the markers folded, kept alike.
fn ordered_children(
    session: &Session,
    of: Option<u32>,
    opts: &TreeOptions,
    kids: &mut Vec<u32>,
    markers: &mut Vec<u32>,
) {
    session.folded_children(of, kids, markers);
    kids.retain(|&c| kept(session, opts, c));
    markers.retain(|&c| kept(session, opts, c));
    if kids.len() > 1 && kids.iter().all(|&c| session.record(c).time.is_some()) {
        kids.sort_by_key(|&c| session.record(c).time);
    }
}

/// Whether `idx` is laid out: an archived subtree only when asked for.
fn kept(session: &Session, opts: &TreeOptions, idx: u32) -> bool {
    opts.include_archived
        || !session.record(idx).id.as_ref().is_some_and(|id| session.is_archived(id))
}

/// With [`TreeOptions::active_first`], moves the child on the active path, if any, to the
/// front (stable otherwise).
fn active_first(opts: &TreeOptions, kids: &mut [u32], on_path: &[bool]) {
    if opts.active_first
        && let Some(pos) = kids.iter().position(|&k| on_path[k as usize])
    {
        kids[..=pos].rotate_right(1);
    }
}

/// Lays out the whole tree. Move markers take no level ([`Session::folded_children`]): each is a row
/// right below the entry it marks, where a chain going on from that entry is, and its
/// children are laid out as that entry's.
pub fn layout(session: &Session, opts: &TreeOptions) -> Layout {
    let mut on_path = vec![false; session.records.len()];
    for i in opts.leaf.map(|leaf| session.path_to_root(leaf)).unwrap_or_default() {
        on_path[i as usize] = true;
    }
    // Each entry's children and markers, in lists kept from entry to entry (lists of their own
    // cost an allocation an entry).
    let (mut kids, mut markers) = (Vec::new(), Vec::new());
    ordered_children(session, None, opts, &mut kids, &mut markers);
    let mut roots = std::mem::take(&mut kids);
    active_first(opts, &mut roots, &on_path);
    let several_roots = roots.len() > 1;

    let mut out = Layout::default();
    // (record, depth, connector, frame of the innermost level, whether it is a folded marker:
    // a row only, its children laid out with its parent's)
    let mut stack: Vec<(u32, u32, Option<bool>, u32, bool)> = Vec::new();
    for (i, &r) in roots.iter().enumerate().rev() {
        let frame = if several_roots {
            // A virtual root joins the roots: their children open level 1, with a gutter
            // while later roots follow, but the roots themselves get no connector.
            out.frames.push(Frame { up: NO_FRAME, pipe: i + 1 < roots.len() });
            (out.frames.len() - 1) as u32
        } else {
            NO_FRAME
        };
        stack.push((r, 0, None, frame, false));
    }
    // Markers that were roots come first.
    stack.extend(markers.iter().rev().map(|&m| (m, 0, None, NO_FRAME, true)));
    while let Some((idx, depth, connector, frame, folded)) = stack.pop() {
        let is_root_under_virtual = several_roots && depth == 0 && !folded;
        out.rows.push(Row {
            idx,
            depth,
            connector,
            on_active_path: on_path[idx as usize],
            is_leaf: opts.leaf == Some(idx),
            frame: if is_root_under_virtual { NO_FRAME } else { frame },
        });
        if folded {
            continue;
        }
        ordered_children(session, Some(idx), opts, &mut kids, &mut markers);
        active_first(opts, &mut kids, &on_path);
        if kids.len() > 1 {
            let count = kids.len();
            for (i, &k) in kids.iter().enumerate().rev() {
                let last = i + 1 == count;
                out.frames.push(Frame { up: frame, pipe: !last });
                let f = (out.frames.len() - 1) as u32;
                stack.push((k, depth + 1, Some(last), f, false));
            }
        } else if let Some(&k) = kids.first() {
            stack.push((k, depth + u32::from(is_root_under_virtual), None, frame, false));
        }
        // The markers of this entry, right below it, where a chain going on from it is.
        let chain = depth + u32::from(is_root_under_virtual);
        stack.extend(markers.iter().rev().map(|&m| (m, chain, None, frame, true)));
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn session(lines: &[&str]) -> Session {
        let mut text = vec![
            r#"{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}"#.to_string(),
        ];
        for l in lines {
            let (id, rest) = l.split_once(' ').unwrap();
            let (parent, ts) = rest.split_once(' ').unwrap();
            let parent = if parent == "-" { "null".into() } else { format!("\"{parent}\"") };
            text.push(format!(
                r#"{{"type":"message","id":"{id}","parentId":{parent},"timestamp":"2026-01-01T00:00:{ts}.000Z"}}"#
            ));
        }
        Session::from_bytes(Path::new("t"), text.join("\n").into_bytes()).unwrap()
    }

    fn draw(s: &Session, opts: &TreeOptions) -> String {
        let l = layout(s, opts);
        l.rows
            .iter()
            .map(|r| {
                let id = s.record(r.idx).id.as_ref().unwrap().as_str();
                let mark = if r.on_active_path { "• " } else { "" };
                format!("{}{mark}{id}\n", l.prefix(r, &UNICODE, None))
            })
            .collect()
    }

    fn opts(s: &Session) -> TreeOptions {
        TreeOptions { leaf: s.leaf(), include_archived: false, active_first: true }
    }

    #[test]
    fn active_branch_first_and_depth_only_at_branch_points() {
        // a → b → c, and a → d → e; the leaf is c (last in file).
        let s = session(&["a - 01", "b a 02", "d a 03", "e d 04", "c b 05"]);
        insta::assert_snapshot!(draw(&s, &opts(&s)), @r"
        • a
        ├─ • b
        │  • c
        └─ d
           e
        ");
    }

    #[test]
    fn children_sort_by_timestamp_unless_active() {
        let s = session(&["a - 01", "b a 09", "c a 05", "d a 07", "x b 10"]);
        insta::assert_snapshot!(draw(&s, &opts(&s)), @r"
        • a
        ├─ • b
        │  • x
        ├─ c
        └─ d
        ");
        let file_order = TreeOptions { active_first: false, ..opts(&s) };
        insta::assert_snapshot!(draw(&s, &file_order), @r"
        • a
        ├─ c
        ├─ d
        └─ • b
           • x
        ");
    }

    #[test]
    fn several_roots_share_a_virtual_root() {
        let s = session(&["a - 01", "b a 02", "r - 03", "q r 04"]);
        insta::assert_snapshot!(draw(&s, &opts(&s)), @r"
        • r
        │  • q
        a
           b
        ");
    }

    /// See: issue 44. A move marker (an empty `branch_summary`) opens no branch and takes no
    /// level: its row comes right below the entry it marks, and its children are that
    /// entry's.
    #[test]
    fn move_markers_are_folded_with_their_level() {
        let header = r#"{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}"#;
        let message = |id: &str, parent: &str, ts: u8| {
            format!(
                r#"{{"type":"message","id":"{id}","parentId":{parent},"timestamp":"2026-01-01T00:00:{ts:02}.000Z"}}"#
            )
        };
        let marker = |id: &str, parent: &str| {
            format!(
                r#"{{"type":"branch_summary","id":"{id}","parentId":{parent},"fromId":"x","summary":""}}"#
            )
        };
        let lines = [
            header.to_string(),
            message("a", "null", 1),
            message("b", r#""a""#, 2),
            marker("m1", r#""b""#),
            marker("m2", r#""a""#),
            marker("m3", r#""m2""#),
            message("d", r#""m3""#, 3),
            marker("m0", "null"),
            message("c", r#""b""#, 4),
        ];
        let s = Session::from_bytes(Path::new("t"), lines.join("\n").into_bytes()).unwrap();
        insta::assert_snapshot!(draw(&s, &opts(&s)), @"
        m0
        • a
        m2
        m3
        ├─ • b
        │  m1
        │  • c
        └─ d
        ");
        let (mut kids, mut markers) = (Vec::new(), Vec::new());
        s.folded_children(Some(0), &mut kids, &mut markers);
        assert_eq!((kids.as_slice(), markers.as_slice()), (&[1, 5][..], &[3, 4][..]));
    }

    #[test]
    fn file_order_is_the_rows_sorted_by_record() {
        // The leaf's branch first and children by time: the layout is not in file order.
        let s = session(&["a - 01", "b a 09", "c a 03", "d c 04", "e b 05", "f - 02", "g f 01"]);
        for leaf in [s.leaf(), Some(3), None] {
            let l = layout(&s, &TreeOptions { leaf, ..opts(&s) });
            let mut sorted: Vec<u32> = (0..l.rows.len() as u32).collect();
            sorted.sort_by_key(|&i| l.rows[i as usize].idx);
            assert_ne!(sorted, (0..l.rows.len() as u32).collect::<Vec<_>>());
            assert_eq!(l.file_order(s.records.len()), sorted);
        }
        // Records the layout leaves out are skipped: past the rows, and an archived subtree
        // (`c` and `d`) between them.
        let l = layout(&s, &opts(&s));
        assert_eq!(l.file_order(s.records.len() + 3).len(), l.rows.len());
        let mut text = vec![r#"{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}"#];
        text.extend([
            r#"{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z"}"#,
            r#"{"type":"message","id":"c","parentId":"a","timestamp":"2026-01-01T00:00:02.000Z"}"#,
            r#"{"type":"message","id":"d","parentId":"c","timestamp":"2026-01-01T00:00:03.000Z"}"#,
            r#"{"type":"message","id":"b","parentId":"a","timestamp":"2026-01-01T00:00:04.000Z"}"#,
            r#"{"type":"archive","id":"x","parentId":"b","timestamp":"2026-01-01T00:00:05.000Z","targetId":"c","archived":true}"#,
        ]);
        let s = Session::from_bytes(Path::new("t"), text.join("\n").into_bytes()).unwrap();
        let l = layout(&s, &opts(&s));
        let ids = |order: &[u32]| -> Vec<String> {
            let id =
                |i: u32| s.record(l.rows[i as usize].idx).id.as_ref().unwrap().as_str().to_owned();
            order.iter().map(|&i| id(i)).collect()
        };
        assert_eq!(ids(&l.file_order(s.records.len())), ["a", "b", "x"]);
    }

    #[test]
    fn narrow_rows_scroll_old_levels_off() {
        let s = session(&["a - 01", "b a 02", "c a 03", "d b 04", "e b 05", "f d 06", "g d 07"]);
        let l = layout(&s, &opts(&s));
        let deepest = l.rows.iter().find(|r| r.depth == 3).unwrap();
        assert_eq!(l.prefix(deepest, &UNICODE, None).chars().count(), 9);
        assert_eq!(l.prefix(deepest, &UNICODE, Some(2)), "…  ├─ ");
    }

    #[test]
    fn deep_chains_do_not_recurse() {
        let mut lines = vec!["e0 - 01".to_string()];
        for i in 1..50_000 {
            lines.push(format!("e{i} e{} 01", i - 1));
        }
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        let s = session(&refs);
        let l = layout(&s, &opts(&s));
        assert_eq!(l.rows.len(), 50_000);
        assert!(l.rows.iter().all(|r| r.depth == 0));
    }
}
