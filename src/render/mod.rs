//! The output layer: how what the library works out is printed, as pure functions of the data,
//! a [`Style`] and the session around it. The binary decides the style from its flags and the
//! terminal, and prints what these write.
//!
//! - [`json`]: the `--json` row of `log` and `tree`;
//! - [`show`]: an entry in full, for `show` and the selector's preview;
//! - [`style`]: colours, decided once by the caller;
//! - [`time`]: times as rows show them, in the zone the caller gives;
//! - [`width`]: how many columns text takes, and text cut to a width.

pub mod json;
pub mod show;
pub mod style;
pub mod time;
pub mod width;

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
