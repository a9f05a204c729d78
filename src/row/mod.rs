//! One entry as a row: its one-line text, search text, filter facts and tool calls
//! (FORMAT §9.2–§9.4), read from the part of its line that rows read.
//!
//! - [`cut`]: how much of a text a row shows, cut and folded onto one line;
//! - [`entry`]: the typed view of what a row reads of an entry, filled from the line by the
//!   scanner or from a parsed line;
//! - [`text`]: the row functions over it (one-line text, search text, filters, tool calls);
//! - [`gist`]: what a row shows, worked out while a file loads, and resolved in order;
//! - [`listing`]: the rows `log` shows of a path, from their gists;
//! - [`read`]: rows read from a session's lines, while it loads ([`Rows`]) or afterwards;
//! - [`view`]: entries read one at a time, for commands that show a few.

pub mod cut;
pub mod entry;
pub mod gist;
pub mod listing;
pub mod read;
pub mod text;
pub mod view;

pub use entry::Entry;
pub use read::{Rows, Search, read_gists, read_text};
