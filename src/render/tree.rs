//! A row of the tree (FORMAT §9.1), as `tree` prints it and as the selector draws it: the
//! gutter, the active-path bullet, `[label]`, the one-line text and the leaf's mark, fitted to
//! the width. Both give their row as pieces, each with the [`Role`] that colours it: `tree`
//! paints them with a [`Style`], the selector with its own colours.

use std::borrow::Cow;

use crate::terminal::sanitize_for_terminal;
use crate::tree::{ASCII, Glyphs, Layout, Row, UNICODE};

use super::width::{columns, fit};
use super::{Role, Style, active_mark, mark_cut, short_id};

/// How many levels of gutter a row shows when the width is unknown; deeper levels scroll off
/// behind `…` as they do on a narrow screen (FORMAT §9.1).
const MAX_LEVELS_UNKNOWN_WIDTH: usize = 100;

/// How many columns of a row's text a long label leaves in sight on a terminal.
const TEXT_KEPT: usize = 16;

/// The columns a row keeps besides its gutter and its mark: the bullet, the id, two spaces and
/// [`TEXT_KEPT`] columns of text.
const ROW_KEPT: usize = 2 + 8 + 2 + TEXT_KEPT;

/// How many gutter levels fit a row this wide: at least `max(24, width/2)` columns stay for
/// the content (FORMAT §9.1).
fn max_levels(width: usize) -> usize {
    width.saturating_sub(24.max(width / 2)) / 3
}

fn glyphs(ascii: bool) -> &'static Glyphs {
    if ascii { &ASCII } else { &UNICODE }
}

/// What a row of `tree` says after its text.
#[derive(Debug, Clone, Copy)]
pub enum Mark<'a> {
    /// The row is the leaf.
    Leaf,
    /// A filter or a search hides the leaf, whose id this is: the row, the nearest entry
    /// shown on its path, stands in for it.
    StandsIn(&'a str),
}

/// A row of `tree`: where the layout puts it and what it shows, as the file holds it (nothing
/// is escaped or cut yet).
#[derive(Debug, Clone, Copy)]
pub struct TreeRow<'a> {
    /// Its place in the layout.
    pub row: &'a Row,
    /// The entry's whole id (`-` for a record without one).
    pub id: &'a str,
    /// The label in effect.
    pub label: Option<&'a str>,
    /// The one-line text.
    pub text: &'a str,
    /// Whether the text was cut short (it then ends in `…`).
    pub cut: bool,
    /// What the row says after its text.
    pub mark: Option<Mark<'a>>,
}

/// How `tree` draws its rows: decided once by the caller.
#[derive(Debug, Clone, Copy)]
pub struct TreeLook {
    /// ASCII instead of box drawing (`--ascii`).
    pub ascii: bool,
    /// Colours.
    pub style: Style,
    /// The terminal's width: rows are cut to it. Without one (a pipe) rows are whole, but the
    /// gutter still shows no more than 100 levels, or a tree nested thousands deep would print
    /// rows as wide as it is deep.
    pub width: Option<usize>,
}

impl TreeRow<'_> {
    /// Writes the row onto `out`, without its line end.
    pub fn write(&self, out: &mut Vec<u8>, layout: &Layout, look: &TreeLook) {
        let mut line = String::with_capacity(160);
        self.pieces(layout, look, |text, role| look.style.paint_into(&mut line, text, role));
        out.extend_from_slice(line.as_bytes());
    }

    /// The row as pieces, in order, each with its role: the gutter, the bullet on the active
    /// path, the short id (what `show`, `checkout`, `label` and `branch` take, as
    /// `git log --graph --oneline` shows one), `[label]`, the text and the mark. Cut to a
    /// width, the text gives way first, so that the mark stays in sight; a long label is cut
    /// too, leaving the text some columns; a long mark takes its columns from the gutter.
    pub fn pieces(&self, layout: &Layout, look: &TreeLook, mut piece: impl FnMut(&str, Role)) {
        let glyphs = glyphs(look.ascii);
        let mark = self.mark.map(|mark| match mark {
            Mark::Leaf => Cow::Borrowed(active_mark(look.ascii)),
            Mark::StandsIn(leaf) => {
                let leaf = sanitize_for_terminal(short_id(leaf));
                Cow::Owned(format!("{} (leaf {leaf} hidden)", active_mark(look.ascii)))
            }
        });
        let max = look.width.map_or(MAX_LEVELS_UNKNOWN_WIDTH, max_levels);
        let levels = match (look.width, &mark) {
            // One level at least: its `…` shows the row is not a root.
            (Some(w), Some(mark)) => {
                max.min((w.saturating_sub(columns(mark) + ROW_KEPT) / 3).max(1))
            }
            _ => max,
        };
        let prefix = layout.prefix(self.row, glyphs, Some(levels));
        piece(&prefix, Role::Dim);
        if self.row.on_active_path {
            piece(glyphs.bullet, Role::Bullet);
        }
        let id = short_id(self.id);
        piece(&sanitize_for_terminal(id), Role::Dim);
        piece(" ", Role::Text);
        // What is left of the width after the gutter, and what the row shows there besides
        // its label and text.
        let room = look.width.map(|w| w.saturating_sub(columns(&prefix)));
        let used = {
            let bullet = if self.row.on_active_path { columns(glyphs.bullet) } else { 0 };
            bullet + columns(id) + 1 + mark.as_deref().map_or(0, |m| columns(m) + 1)
        };
        let mut label = self.label.map(sanitize_for_terminal);
        if let (Some(room), Some(l)) = (room, &label) {
            let label_room = room.saturating_sub(used + 3 + TEXT_KEPT).max(1);
            label = Some(Cow::Owned(fit(l, label_room).into_owned()));
        }
        if let Some(label) = &label {
            piece(&format!("[{label}]"), Role::Label);
            piece(" ", Role::Text);
        }
        let text = mark_cut(self.text, self.cut);
        let text = sanitize_for_terminal(&text);
        let text = match room {
            Some(room) => {
                let used = used + label.as_deref().map_or(0, |l| columns(l) + 3);
                Cow::Owned(fit(&text, room.saturating_sub(used)).into_owned())
            }
            None => text,
        };
        piece(&text, Role::Text);
        if let Some(mark) = mark {
            piece(" ", Role::Text);
            piece(&mark, Role::Active);
        }
    }
}

/// A row of the tree as the selector draws it, after the agent's own selector: the cursor,
/// the gutter (with the mark of a folded branch), the bullet, `[label]`, the text and the
/// leaf's mark; no id.
#[derive(Debug, Clone, Copy)]
pub struct SelectorRow<'a> {
    /// Its place in the layout.
    pub row: &'a Row,
    /// The label in effect.
    pub label: Option<&'a str>,
    /// The one-line text.
    pub text: &'a str,
    /// Whether the cursor is on it.
    pub selected: bool,
    /// Whether the branch below it is folded away.
    pub folded: bool,
}

impl SelectorRow<'_> {
    /// The row as pieces, in order, each with its role, fitted to `width` columns: the text
    /// gives way, so that the leaf's mark stays in sight.
    pub fn pieces(
        &self,
        layout: &Layout,
        ascii: bool,
        width: usize,
        mut piece: impl FnMut(&str, Role),
    ) {
        let glyphs = glyphs(ascii);
        let cursor = match (self.selected, ascii) {
            (true, true) => "> ",
            (true, false) => "› ",
            (false, _) => "  ",
        };
        piece(cursor, if self.selected { Role::Cursor } else { Role::Text });
        let mut prefix = layout.prefix(self.row, glyphs, Some(max_levels(width)));
        let mut fold = None;
        if self.folded {
            let mark = if ascii { '+' } else { '⊞' };
            if self.row.connector.is_some() {
                // The connector's middle cell carries the mark, as the agent draws it.
                if let Some((at, cell)) = prefix.char_indices().rev().nth(1) {
                    prefix.replace_range(at..at + cell.len_utf8(), mark.encode_utf8(&mut [0; 4]));
                }
            } else {
                fold = Some(format!("{mark} "));
            }
        }
        piece(&prefix, Role::Dim);
        let mut used = columns(cursor) + columns(&prefix);
        if let Some(fold) = &fold {
            piece(fold, Role::Fold);
            used += columns(fold);
        }
        if self.row.on_active_path {
            piece(glyphs.bullet, Role::Bullet);
            used += columns(glyphs.bullet);
        }
        if let Some(label) = self.label {
            let label = format!("[{}]", sanitize_for_terminal(label));
            piece(&label, Role::Label);
            piece(" ", Role::Text);
            used += columns(&label) + 1;
        }
        let mark = format!(" {}", active_mark(ascii));
        if self.row.is_leaf {
            used += columns(&mark);
        }
        piece(&fit(&sanitize_for_terminal(self.text), width.saturating_sub(used)), Role::Text);
        if self.row.is_leaf {
            piece(&mark, Role::Active);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::Session;
    use crate::tree::{TreeOptions, layout};

    /// A user message with two answers; the second, a1b2c3d4e5 (the leaf), is the newer.
    fn session() -> Session {
        let lines = [
            r#"{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}"#,
            r#"{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"}}"#,
            r#"{"type":"message","id":"b0","parentId":"u1","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"one"}]}}"#,
            r#"{"type":"message","id":"a1b2c3d4e5","parentId":"u1","timestamp":"2026-01-01T00:00:03.000Z","message":{"role":"assistant","content":[{"type":"text","text":"two"}]}}"#,
        ];
        Session::from_bytes(Path::new("t.jsonl"), lines.join("\n").into_bytes()).unwrap()
    }

    fn laid_out() -> Layout {
        let session = session();
        let leaf = session.position().unwrap();
        layout(&session, &TreeOptions { leaf, include_archived: false, active_first: true })
    }

    fn written(layout: &Layout, row: &TreeRow<'_>, ascii: bool, width: Option<usize>) -> String {
        let look = TreeLook { ascii, style: Style { color: false }, width };
        let mut out = Vec::new();
        row.write(&mut out, layout, &look);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_tree_row_is_printed_into_a_buffer() {
        let layout = laid_out();
        // The leaf's branch first, under its root.
        let [root, leaf, other] = [&layout.rows[0], &layout.rows[1], &layout.rows[2]];
        let row = |row, id, text, mark| TreeRow { row, id, label: None, text, cut: false, mark };
        let root = TreeRow { label: Some("v1"), ..row(root, "u1", "user: hi", None) };
        assert_eq!(written(&layout, &root, false, None), "• u1 [v1] user: hi");
        let leaf = row(leaf, "a1b2c3d4e5", "assistant: two", Some(Mark::Leaf));
        assert_eq!(written(&layout, &leaf, false, None), "├─ • a1b2c3d4 assistant: two ← active");
        assert_eq!(written(&layout, &leaf, true, None), "|--* a1b2c3d4 assistant: two <- active");
        let other = TreeRow { cut: true, ..row(other, "b0", "assistant: one", None) };
        assert_eq!(written(&layout, &other, false, None), "└─ b0 assistant: one…");
    }

    #[test]
    fn cut_to_a_width_the_text_gives_way_and_the_mark_stays() {
        let layout = laid_out();
        let long = "assistant: ".to_owned() + &"word ".repeat(40);
        let stands_in = Mark::StandsIn("0123456789ab");
        let row = TreeRow {
            row: &layout.rows[1],
            id: "a1b2c3d4e5",
            label: Some(&long),
            text: &long,
            cut: false,
            mark: Some(stands_in),
        };
        let whole = written(&layout, &row, false, None);
        assert!(whole.ends_with("word  ← active (leaf 01234567 hidden)"), "{whole}");
        for width in [60, 80, 120] {
            let cut = written(&layout, &row, false, Some(width));
            assert_eq!(columns(&cut), width, "{cut}");
            assert!(cut.ends_with("… ← active (leaf 01234567 hidden)"), "{cut}");
            // The long label is cut too, leaving the text its columns.
            let text = cut.split("] ").nth(1).unwrap();
            assert!(columns(text) > TEXT_KEPT, "{cut}");
        }
    }

    #[test]
    fn no_piece_of_a_tree_row_can_drive_the_terminal() {
        let layout = laid_out();
        let row = TreeRow {
            row: &layout.rows[1],
            id: "\u{1b}[2J",
            label: Some("\u{1b}]8;;x\u{7}"),
            text: "\u{9b}31m",
            cut: false,
            mark: Some(Mark::StandsIn("\u{1b}c")),
        };
        let selector = SelectorRow {
            row: &layout.rows[1],
            label: row.label,
            text: row.text,
            selected: true,
            folded: false,
        };
        for color in [false, true] {
            let look = TreeLook { ascii: false, style: Style { color }, width: Some(80) };
            let mut out = Vec::new();
            row.write(&mut out, &layout, &look);
            let mut shown = String::from_utf8(out).unwrap();
            selector.pieces(&layout, false, 80, |text, _| shown.push_str(text));
            let own = shown.replace("\u{1b}[", "");
            assert!(!own.contains(['\u{1b}', '\u{7}', '\u{9b}']), "{shown:?}");
            assert!(shown.contains("\\x1b[2J") && shown.contains("\\x9b31m"), "{shown:?}");
        }
    }

    #[test]
    fn the_selector_row_is_pieces_each_with_its_role() {
        let layout = laid_out();
        let pieces = |row: &SelectorRow<'_>, width| {
            let mut pieces = Vec::new();
            row.pieces(&layout, false, width, |text, role| pieces.push(format!("{role:?}:{text}")));
            pieces
        };
        let leaf = SelectorRow {
            row: &layout.rows[1],
            label: Some("v1"),
            text: "assistant: two",
            selected: true,
            folded: false,
        };
        assert_eq!(
            pieces(&leaf, 80),
            [
                "Cursor:› ",
                "Dim:├─ ",
                "Bullet:• ",
                "Label:[v1]",
                "Text: ",
                "Text:assistant: two",
                "Active: ← active"
            ]
        );
        // Narrow, the text gives way to the mark.
        assert_eq!(pieces(&leaf, 28)[5], "Text:assist…");
        // A folded root carries its mark after the gutter; a folded child in its connector.
        let root = SelectorRow {
            row: &layout.rows[0],
            label: None,
            text: "user: hi",
            selected: false,
            folded: true,
        };
        assert_eq!(pieces(&root, 80), ["Text:  ", "Dim:", "Fold:⊞ ", "Bullet:• ", "Text:user: hi"]);
        let other = SelectorRow { row: &layout.rows[2], folded: true, ..root };
        assert_eq!(pieces(&other, 80)[1], "Dim:└⊞ ");
    }

    #[test]
    fn levels_keep_room_for_content() {
        assert_eq!(max_levels(80), 13);
        assert_eq!(max_levels(40), 5);
        assert_eq!(max_levels(20), 0);
    }
}
