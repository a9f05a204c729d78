//! An entry as a text row, as `log` draws it and `diff` draws each side's: kept apart from
//! `ui`, which `time` imports, and which this file imports with `time`.

use sesstree::Session;
use sesstree::row::gist::Gist;
use sesstree::terminal::{may_hold_controls, sanitize_for_terminal};

use crate::cli::time::zone;
use crate::cli::ui::{self, Role, Style, short_id};

/// One entry as a text row onto `out`, as `log` draws it: short id, type, time, `[label]`,
/// one-line text, cut to `width` when there is one.
pub fn text_row(
    style: Style,
    session: &Session,
    (idx, gist): (u32, &Gist),
    label: Option<&str>,
    text: &str,
    out: &mut Vec<u8>,
    width: Option<usize>,
) {
    let r = session.record(idx);
    let id = short_id(r.id.as_ref().map_or("-", |i| i.as_str()));
    let kind = r.kind.as_str();
    let mut time = String::with_capacity(25);
    // The record's time is its timestamp as read when the file loaded.
    zone().push_short_time(&mut time, gist.timestamp().as_str(), r.time);
    // On a terminal the text is cut to what is left of its width, never wrapped.
    let fitted;
    let text = match width {
        Some(width) => {
            let used = [id, kind, &time].iter().map(|p| ui::columns(p) + 1).sum::<usize>()
                + label.map_or(0, |l| ui::columns(&sanitize_for_terminal(l)) + 3);
            fitted = ui::fit(&sanitize_for_terminal(text), width.saturating_sub(used)).into_owned();
            fitted.as_str()
        }
        None => text,
    };
    let start = out.len();
    if !style.color {
        // Without colours, the pieces go straight onto the output and are checked for control
        // characters once, together: a row of every entry is made, and nearly none has one.
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
    out.extend_from_slice(sanitize_for_terminal(text).as_bytes());
}
