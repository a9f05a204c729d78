//! JSON at the level of bytes: the line scanner that indexes a line without building it
//! ([`scan`]), the spans of an object's members for edits that keep every other byte
//! ([`members`]), members picked into a value without building the rest ([`pick`]), and the
//! transcoder that writes a line as serde_json would print its value
//! ([`transcode`]). Nothing here knows what a session entry is.

pub mod members;
pub(crate) mod object;
pub mod pick;
pub mod scan;
pub mod transcode;

/// The deepest nesting of arrays and objects that a full parse accepts: serde_json's
/// recursion limit.
pub const MAX_NESTING: usize = 127;
