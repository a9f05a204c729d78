//! The output layer: how what the library works out is printed, as pure functions of the data,
//! a [`Style`] and the session around it. The binary decides the style from its flags and the
//! terminal, and prints what these write.
//!
//! - [`json`]: the `--json` row of `log` and `tree`;
//! - [`show`]: an entry in full, for `show` and the selector's preview;
//! - [`style`]: colours, decided once by the caller.

pub mod json;
pub mod show;
pub mod style;

pub use json::{JsonRow, Placement, write_rows};
pub use style::{Role, Style};

/// What marks the leaf, where the conversation goes on, after its row: in `tree`, the
/// selector, and the exported page and Markdown. `ascii` for terminals that draw only ASCII.
pub fn active_mark(ascii: bool) -> &'static str {
    if ascii { "<- active" } else { "← active" }
}
