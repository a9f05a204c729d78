//! `sesstree`: the session model behind the `sesstree` command.
//!
//! A session file of the oh-my-pi and pi coding agents is an append-only JSONL log whose entries
//! form a tree through `id` / `parentId`. This library loads such a file in one pass into an
//! index of envelopes (type, ids, timestamp, byte range) and parses payloads only for the
//! entries an operation shows; listings of a whole file work out each entry's row in that same
//! pass instead ([`gist`]). It never prints and never exits; the binary does that.
#![warn(missing_docs)]

pub mod clock;
pub mod context;
pub mod error;
pub mod format;
pub mod id;
pub mod ids;
pub mod naming;
pub mod terminal;

pub use error::{Error, ErrorKind, Result};
pub use id::EntryId;
pub mod session;

pub use session::Session;
pub mod discover;
pub mod fsck;
pub mod hooks;
pub mod js;
pub mod json;
pub mod listing;
pub mod migrate;
pub mod ops;
pub mod process;
pub mod render;
pub mod rev;
pub mod row;
pub mod stats;
pub mod store;
pub mod summarize;
pub mod tree;
