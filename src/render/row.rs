//! An entry as a text row, as `log` draws it and `diff` draws each side's: short id, type,
//! time, `[label]`, one-line text, cut to the width when there is one.

use std::borrow::Cow;

use crate::Session;
use crate::row::gist::Gist;
use crate::terminal::{may_hold_controls, sanitize_for_terminal};

use super::time::Zone;
use super::width::{columns, fit};
use super::{Role, Style, mark_cut, short_id};

/// What a `log` row shows of an entry, as the file holds it: nothing is escaped or cut yet.
#[derive(Debug, Clone, Copy)]
pub struct LogRow<'a> {
    /// The entry's whole id (`-` for a record without one).
    pub id: &'a str,
    /// Its type.
    pub kind: &'a str,
    /// Its timestamp as written, and as [`crate::clock::parse_timestamp`] reads it.
    pub time: (Option<&'a str>, Option<i64>),
    /// The label in effect.
    pub label: Option<&'a str>,
    /// The one-line text.
    pub text: &'a str,
    /// Whether the text was cut short (it then ends in `…`).
    pub cut: bool,
}

impl<'a> LogRow<'a> {
    /// The row of record `idx`, whose gist is `gist` and whose one-line text is `text` (the
    /// gist's, or read again when too long to keep in it).
    pub fn of_gist(
        session: &'a Session,
        idx: u32,
        gist: &'a Gist,
        label: Option<&'a str>,
        text: &'a str,
    ) -> LogRow<'a> {
        let r = session.record(idx);
        LogRow {
            id: r.id.as_ref().map_or("-", |i| i.as_str()),
            kind: r.kind.as_str(),
            // The record's time is its timestamp as read when the file loaded.
            time: (gist.timestamp().as_str(), r.time),
            label,
            text,
            cut: gist.is_cut(),
        }
    }

    /// Writes the row onto `out`, times in `zone`, cut to `width` when there is one (on a
    /// terminal: never wrapped), without its line end.
    pub fn write(&self, out: &mut Vec<u8>, style: Style, zone: &Zone, width: Option<usize>) {
        let id = short_id(self.id);
        let kind = self.kind;
        let mut time = String::with_capacity(25);
        zone.push_short_time(&mut time, self.time.0, self.time.1);
        let label = self.label;
        let text = mark_cut(self.text, self.cut);
        // On a terminal the text is cut to what is left of its width.
        let text = match width {
            Some(width) => {
                let used = [id, kind, &time].iter().map(|p| columns(p) + 1).sum::<usize>()
                    + label.map_or(0, |l| columns(&sanitize_for_terminal(l)) + 3);
                Cow::Owned(fit(&sanitize_for_terminal(&text), width.saturating_sub(used)).into())
            }
            None => text,
        };
        let start = out.len();
        if !style.color {
            // Without colours, the pieces go straight onto the output and are checked for
            // control characters once, together: a row of every entry is made, and nearly none
            // has one.
            for piece in [id, " ", kind, " ", &time] {
                out.extend_from_slice(piece.as_bytes());
            }
            if let Some(label) = label {
                out.extend_from_slice(b" [");
                out.extend_from_slice(label.as_bytes());
                out.push(b']');
            }
            out.push(b' ');
            out.extend_from_slice(text.as_bytes());
            if !may_hold_controls(&out[start..]) {
                return;
            }
            // One of the pieces may hold one: each is written again, sanitized.
            out.truncate(start);
        }
        let paint = |out: &mut Vec<u8>, text: &str, role| {
            out.extend_from_slice(style.paint(text, role).as_bytes());
        };
        paint(out, &sanitize_for_terminal(id), Role::Id);
        out.push(b' ');
        paint(out, &sanitize_for_terminal(kind), Role::Kind);
        out.push(b' ');
        paint(out, &sanitize_for_terminal(&time), Role::Time);
        if let Some(label) = label {
            out.push(b' ');
            paint(out, &format!("[{}]", sanitize_for_terminal(label)), Role::Label);
        }
        out.push(b' ');
        out.extend_from_slice(sanitize_for_terminal(&text).as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROW: LogRow<'static> = LogRow {
        id: "a1b2c3d4e5",
        kind: "message",
        time: (Some("2026-03-01T12:00:05.000Z"), Some(1_772_366_405_000)),
        label: Some("v1"),
        text: "user: hello there",
        cut: false,
    };

    fn written(row: &LogRow<'_>, color: bool, width: Option<usize>) -> String {
        let mut out = Vec::new();
        row.write(&mut out, Style { color }, &Zone::new(jiff::tz::TimeZone::UTC), width);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_row_is_printed_into_a_buffer() {
        let row = written(&ROW, false, None);
        assert_eq!(row, "a1b2c3d4 message 2026-03-01 12:00:05 +0000 [v1] user: hello there");
        // The time is the zone's the caller gives.
        let mut out = Vec::new();
        let east = Zone::new(jiff::tz::TimeZone::fixed(jiff::tz::offset(2)));
        ROW.write(&mut out, Style { color: false }, &east, None);
        assert!(String::from_utf8(out).unwrap().contains("2026-03-01 14:00:05 +0200"));
        // Coloured, the same text between escapes; the text itself is not painted.
        let painted = written(&ROW, true, None);
        assert!(painted.contains("\u{1b}[33ma1b2c3d4\u{1b}[39m"), "{painted:?}");
        assert!(painted.ends_with(" user: hello there"), "{painted:?}");
    }

    #[test]
    fn a_cut_text_ends_in_an_ellipsis_and_a_width_cuts_the_row() {
        let cut = LogRow { cut: true, ..ROW };
        assert!(written(&cut, false, None).ends_with("hello there…"));
        let row = written(&ROW, false, Some(56));
        assert_eq!(row, "a1b2c3d4 message 2026-03-01 12:00:05 +0000 [v1] user: h…");
        assert_eq!(columns(&row), 56);
        // Room for the whole row: nothing is cut.
        assert_eq!(written(&ROW, false, Some(80)), written(&ROW, false, None));
    }

    #[test]
    fn no_piece_can_drive_the_terminal() {
        let hostile = LogRow {
            id: "\u{1b}[2J",
            kind: "x\u{7}",
            label: Some("l\u{9b}"),
            text: "t\u{1b}]8;;x\u{7}",
            ..ROW
        };
        for color in [false, true] {
            let row = written(&hostile, color, None);
            assert!(row.contains("\\x1b[2J") && row.contains("x\\x07"), "{row:?}");
            assert!(row.contains("[l\\x9b]") && row.contains("t\\x1b]8;;x\\x07"), "{row:?}");
            // The only escapes left are the style's own.
            let own = row.replace("\u{1b}[", "");
            assert!(!own.contains('\u{1b}') && !own.contains('\u{7}'), "{row:?}");
        }
    }
}
