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

/// A number as JavaScript writes it: a whole one without a fraction (up to where `i64` holds
/// it exactly), another as serde_json writes an `f64`, one JSON cannot hold (infinite) as null.
pub fn js_number(f: f64) -> serde_json::Value {
    if f.fract() == 0.0 && f.abs() < 9.0e15 { (f as i64).into() } else { f.into() }
}
