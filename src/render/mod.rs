//! The output layer: how what the library works out is printed, as pure functions of the data,
//! a [`Style`], the width and the session around it, in the manner of ripgrep's printer. The
//! binary decides the style, the width and the time zone from its flags and the terminal, and
//! prints what these write; `row` makes the text, this decides the look.
//!
//! - [`json`]: the `--json` row of `log` and `tree`, and the row writer of both;
//! - [`row`]: the text row of `log` and of each side of `diff`;
//! - [`tree`](mod@tree): the row of `tree` and of the selector, with its gutter and marks;
//! - [`show`]: an entry in full, for `show` and the selector's preview;
//! - [`style`]: colours, decided once by the caller;
//! - [`time`]: times as rows show them, in the zone the caller gives;
//! - [`width`]: how many columns text takes, and text cut to a width.

pub mod json;
pub mod row;
pub mod show;
pub mod style;
pub mod time;
pub mod tree;
pub mod width;

use std::borrow::Cow;

pub use json::{JsonRow, Placement, write_rows};
pub use style::{Role, Style};

/// What marks the leaf, where the conversation goes on, after its row: in `tree`, the
/// selector, and the exported page and Markdown. `ascii` for terminals that draw only ASCII.
pub fn active_mark(ascii: bool) -> &'static str {
    if ascii { "<- active" } else { "← active" }
}

/// An id cut to 8 characters, as the agents' own ids are (an ASCII one by bytes, without
/// walking its characters: a row of every entry shows one).
pub fn short_id(id: &str) -> &str {
    crate::row::cut::cut_chars(id, 8)
}

/// A row's text as a text row prints it: `…` after a text the row cut short (message text
/// past 200 characters, as the agent's selector cuts it), so a pipe, which gets whole rows,
/// still shows that it is not the whole text (`show` has it; --json says `textTruncated`).
fn mark_cut(text: &str, cut: bool) -> Cow<'_, str> {
    if cut { Cow::Owned(format!("{text}…")) } else { Cow::Borrowed(text) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_ids_are_eight_characters() {
        // Characters, not bytes (`cut::cut_chars` is tested on every path of its cut).
        assert_eq!(short_id("0123456789"), "01234567");
        assert_eq!(short_id("éééééééééé"), "éééééééé");
        assert_eq!(short_id("ab"), "ab");
    }
}
