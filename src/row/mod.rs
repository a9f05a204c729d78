//! One entry as a row: its one-line text, search text, filter facts and tool calls
//! (FORMAT §9.2–§9.4), read from the part of its line that rows read.
//!
//! - [`value`]: the row value, the members of a line that its row reads, taken from the line
//!   without building the rest;
//! - [`json`]: read access to a JSON value, shared by the row value and a whole parsed entry;
//! - [`text`]: the row functions over it (one-line text, search text, filters, tool calls);
//! - [`gist`]: what a row shows, worked out while a file loads, and resolved in order;
//! - [`read`]: rows read from a session's lines, while it loads ([`Rows`]) or afterwards;
//! - [`view`]: entries read one at a time, for commands that show a few.

pub mod gist;
pub mod json;
pub mod read;
pub mod text;
pub mod value;
pub mod view;

pub use json::Json;
pub use read::{Rows, Search, read_gists, read_row, read_text};
pub use value::*;
