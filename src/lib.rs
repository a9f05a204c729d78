//! `sesstree`: the session model behind the `sesstree` command.
//!
//! A session file of the oh-my-pi and pi coding agents is an append-only JSONL log whose entries
//! form a tree through `id` / `parentId`. This library loads such a file in one pass into an
//! index of envelopes (type, ids, timestamp, byte range) and parses payloads only for the
//! entries an operation shows; listings of a whole file work out each entry's row in that same
//! pass instead. It never prints and never exits; the binary does that.
//!
//! # A map of the crate
//!
//! The modules form layers, each using only the layers above it in this list; and no file,
//! here or in the binary, imports another that imports it back (a unit test, `layers`, holds
//! them to both):
//!
//! 1. Leaves, which know nothing of sessions: [`error`], [`id`] (entry ids), [`clock`],
//!    [`naming`] (session names as the agents clean them), [`js`] (JavaScript's semantics),
//!    [`terminal`] (escaping for a terminal), [`process`] (running the user's programs),
//!    [`id_gen`] (new ids), [`markdown`] (transcript Markdown made safe to embed), `in_order`
//!    (work in pieces on every core, taken in order), [`lease`] (whether oh-my-pi has a session
//!    open), [`platform`] (what Unix and Windows offer differently).
//! 2. [`json`]: JSON as bytes: the line scanner, member spans for byte-preserving edits, the
//!    transcoder.
//! 3. [`format`](mod@format): what one line means: its [`format::Kind`], envelope, what its
//!    payload says ([`format::entry::Payload`]), the title slot, version 1.
//! 4. [`session`]: the index a load builds ([`Session`]); start reading here. What a load
//!    works out besides the index comes in as a [`session::Digest`].
//! 5. [`row`]: one entry as a row: the typed view of what a row reads ([`row::Entry`]), its
//!    one-line text, search text, filter facts and tool calls, and the gists `log` and `tree`
//!    work out while loading ([`row::Rows`]).
//! 6. What commands do with a session: [`tree`] (the selector's layout), [`rev`] (REVs),
//!    [`store`] (the only writer), [`discover`] and [`sessions`] (finding and listing session
//!    files), [`hooks`], [`summarize`], [`migrate`], [`stats`], [`bytes`] (where a file's
//!    bytes are), [`context`] (what the model sees).
//! 7. [`fsck`] (damage and repair), [`ops`] (the plans and workflows of the writing
//!    commands), [`grep`] (search across sessions) and [`diff`] (what two branches did
//!    differently).
//! 8. [`render`]: the output layer: the `--json` row, the text rows of `log`, `tree` and the
//!    selector, an entry in full, the style, times and widths.
//! 9. [`export`]: the whole tree as an HTML page or Markdown, drawn with the output layer's
//!    marks.
#![warn(missing_docs)]

// 1. Leaves.
pub mod clock;
pub mod error;
pub mod id;
pub mod id_gen;
pub(crate) mod in_order;
pub mod js;
pub mod lease;
pub mod markdown;
pub mod naming;
pub mod platform;
pub mod process;
pub mod terminal;
// 2–5. The read path.
pub mod format;
pub mod json;
pub mod row;
pub mod session;
// 6–7. What commands do.
pub mod bytes;
pub mod context;
pub mod diff;
pub mod discover;
pub mod fsck;
pub mod grep;
pub mod hooks;
pub mod migrate;
pub mod ops;
pub mod rev;
pub mod sessions;
pub mod stats;
pub mod store;
pub mod summarize;
pub mod tree;
// 8–9. Output.
pub mod export;
pub mod render;

pub use error::{Error, ErrorKind, Result};
pub use id::EntryId;
pub use session::Session;

#[cfg(test)]
mod layers;
