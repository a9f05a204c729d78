//! Members of a line taken into a [`Value`] without building the rest of it: the few fields a
//! command reads of lines whose payload (tool output, file contents) is most of their bytes.
//! A picked value reads the same as the whole line for every read its [`Keep`] names; a line
//! that holds one of serde_json's marker objects where a pick would look inside is declined
//! (`None`), for the caller to parse in full.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::json::scan::{Invalid, Line, Scan, Scanner};
use crate::json::transcode::MARKERS;

/// A member to keep from an object: its key, and what to keep of its value.
#[derive(Debug, Clone, Copy)]
pub struct Pick<'k>(pub &'k str, pub Keep<'k>);

/// What [`pick`] keeps of a member's value. Where it keeps less than the value, the reduced
/// value reads the same as the whole one for every read the shape names, and costs no more
/// than what those reads see (a hostile line can hold megabytes of values where a string is
/// read). An object that serde_json reads as something else (its number and raw-text markers)
/// is parsed whole as the member's value, and fails the pick inside an array.
#[derive(Debug, Clone, Copy)]
pub enum Keep<'k> {
    /// The whole value.
    Whole,
    /// A scalar, for a field read as a string, a number, a boolean or `null`: an array or an
    /// object there is kept empty (it reads as none of those, and is not `null` either).
    Scalar,
    /// An object whole, for a map read member by member; an array kept empty; a scalar whole.
    Object,
    /// Of an object, the members named; of an array, its object elements so reduced, leaving
    /// out those that hold none of the members and the elements that are not objects (which
    /// hold none); a scalar whole.
    Members(&'k [Pick<'k>]),
    /// Of an array, its strings; an object kept empty; a scalar whole.
    Strings,
}

/// The members of an object line that `keep` names, reduced as it says, without building the
/// rest; `None` when the scanner does not take the line or it is not an object, and the caller
/// parses it in full.
pub fn pick(scanner: &mut Scanner, bytes: &[u8], keep: &[Pick<'_>]) -> Option<Value> {
    let (line, stack) = scanner.index(bytes).ok()?;
    let start = line.ws(0);
    if line.at(start) != Some(b'{') || is_marked(&line, start) {
        return None;
    }
    let (members, end) = members(&line, start, stack).ok()?;
    line.end(end).ok()?;
    picked(&line, &members, keep, stack).ok()
}

/// The members of `of` that `keep` names, as [`pick`] takes them, as an object.
pub(crate) fn picked(
    line: &Line<'_, '_>,
    of: &[Member<'_>],
    keep: &[Pick<'_>],
    stack: &mut Vec<bool>,
) -> Scan<Value> {
    let mut out = Map::with_capacity(keep.len());
    for m in of {
        let Some(pick) = keep.iter().find(|p| p.0.as_bytes() == &*m.key) else { continue };
        // A later duplicate key wins, in the place of the first, as serde_json keeps it.
        out.insert(pick.0.to_owned(), kept(line, m.start, m.end, pick.1, stack)?);
    }
    Ok(Value::Object(out))
}

/// What `keep` keeps of the value at `start..end`.
fn kept(
    line: &Line<'_, '_>,
    start: usize,
    end: usize,
    keep: Keep<'_>,
    stack: &mut Vec<bool>,
) -> Scan<Value> {
    let first = line.at(start);
    if first == Some(b'{') && is_marked(line, start) {
        return parse(line, start, end);
    }
    let empty_array = || Value::Array(Vec::new());
    match (keep, first) {
        (Keep::Scalar, Some(b'{')) | (Keep::Strings, Some(b'{')) => Ok(Value::Object(Map::new())),
        (Keep::Scalar | Keep::Object, Some(b'[')) => Ok(empty_array()),
        (Keep::Members(inner), Some(b'{')) => {
            let (members, _) = members(line, start, stack)?;
            picked(line, &members, inner, stack)
        }
        (Keep::Members(_) | Keep::Strings, Some(b'[')) => {
            let mut out = Vec::new();
            line.array(start, |line, at| {
                let end = line.skip_value(at, stack)?;
                let element = line.at(at);
                if element == Some(b'{') && is_marked(line, at) {
                    // serde_json reads it as a number or the JSON text it holds.
                    return Err(Invalid);
                }
                match (keep, element) {
                    (Keep::Members(inner), Some(b'{')) => {
                        let (members, _) = members(line, at, stack)?;
                        let reduced = picked(line, &members, inner, stack)?;
                        if reduced.as_object().is_some_and(|m| !m.is_empty()) {
                            out.push(reduced);
                        }
                    }
                    (Keep::Strings, Some(b'"')) => out.push(parse(line, at, end)?),
                    _ => {}
                }
                Ok(end)
            })?;
            Ok(Value::Array(out))
        }
        _ => parse(line, start, end),
    }
}

/// One member of an object: its key (decoded only when it has escapes; compared as bytes with
/// the ASCII names callers read, so other keys cost nothing) and the span of its value.
pub(crate) struct Member<'a> {
    /// The key.
    pub key: Cow<'a, [u8]>,
    /// Where the value starts.
    pub start: usize,
    /// Just past the value.
    pub end: usize,
}

/// The key of a member as written, escapes decoded.
#[inline(always)]
pub(crate) fn key<'a>(line: &Line<'a, '_>, span: (usize, usize)) -> Scan<Cow<'a, [u8]>> {
    let raw = line.bytes.get(span.0..span.1).ok_or(Invalid)?;
    if !line.has_backslash(span) {
        return Ok(Cow::Borrowed(raw));
    }
    Ok(Cow::Owned(line.text(span)?.into_owned().into_bytes()))
}

/// The members of the object at `start`, and the position after it.
pub(crate) fn members<'a>(
    line: &Line<'a, '_>,
    start: usize,
    stack: &mut Vec<bool>,
) -> Scan<(Vec<Member<'a>>, usize)> {
    let mut out = Vec::with_capacity(8);
    let end = line.object(start, |line, span, value| {
        let end = line.skip_value(value, stack)?;
        out.push(Member { key: key(line, span)?, start: value, end });
        Ok(end)
    })?;
    Ok((out, end))
}

/// A value parsed in full (a string straight from the line).
pub(crate) fn parse(line: &Line<'_, '_>, start: usize, end: usize) -> Scan<Value> {
    if line.at(start) == Some(b'"') {
        return Ok(Value::String(line.text((start + 1, end - 1))?.into_owned()));
    }
    let raw = line.bytes.get(start..end).ok_or(Invalid)?;
    serde_json::from_slice(raw).map_err(|_| Invalid)
}

/// Whether the object at `start` is one that serde_json reads as something else: its first
/// key is one of the [`MARKERS`]. Such an object is parsed by serde_json, not walked.
pub(crate) fn is_marked(line: &Line<'_, '_>, start: usize) -> bool {
    let mut marked = false;
    // Stopped after the first key (the error), which is all that is read.
    let _ = line.object(start, |line, span, _| {
        let first = key(line, span)?;
        marked = MARKERS.iter().any(|m| m.as_bytes() == &*first);
        Err(Invalid)
    });
    marked
}

/// Whether serde_json parses `raw` into a [`Value`], found without building it: strings are
/// decoded (a lone surrogate fails) and numbers read, and the rest is dropped as it comes.
pub(crate) fn parses_as_value(raw: &[u8]) -> bool {
    use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
    struct Checked;
    impl<'de> Deserialize<'de> for Checked {
        fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Checked, D::Error> {
            d.deserialize_any(Checked)
        }
    }
    impl<'de> Visitor<'de> for Checked {
        type Value = Checked;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a JSON value")
        }
        fn visit_unit<E>(self) -> std::result::Result<Checked, E> {
            Ok(Checked)
        }
        fn visit_bool<E>(self, _: bool) -> std::result::Result<Checked, E> {
            Ok(Checked)
        }
        fn visit_i64<E>(self, _: i64) -> std::result::Result<Checked, E> {
            Ok(Checked)
        }
        fn visit_u64<E>(self, _: u64) -> std::result::Result<Checked, E> {
            Ok(Checked)
        }
        fn visit_str<E>(self, _: &str) -> std::result::Result<Checked, E> {
            Ok(Checked)
        }
        fn visit_seq<A: SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> std::result::Result<Checked, A::Error> {
            while seq.next_element::<Checked>()?.is_some() {}
            Ok(Checked)
        }
        // Objects, and numbers as serde_json's `arbitrary_precision` hands them over: as
        // `Value` does, an object whose first key is one of the MARKERS is a number (its
        // text must be one) or the JSON text it holds (which must parse), and nothing more.
        fn visit_map<A: MapAccess<'de>>(
            self,
            mut map: A,
        ) -> std::result::Result<Checked, A::Error> {
            use serde::de::Error;
            let Some(FirstKey(first)) = map.next_key::<FirstKey>()? else { return Ok(Checked) };
            if first == Some(0) {
                let number = map.next_value::<String>()?;
                number.parse::<serde_json::Number>().map_err(A::Error::custom)?;
                return Ok(Checked);
            }
            if first == Some(1) {
                let text = map.next_value::<String>()?;
                return match parses_as_value(text.as_bytes()) {
                    true => Ok(Checked),
                    false => Err(A::Error::custom("invalid raw value")),
                };
            }
            map.next_value::<Checked>()?;
            while map.next_entry::<Checked, Checked>()?.is_some() {}
            Ok(Checked)
        }
    }
    /// Which of the MARKERS an object's first key is, if any, read without a copy.
    struct FirstKey(Option<usize>);
    impl<'de> Deserialize<'de> for FirstKey {
        fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<FirstKey, D::Error> {
            d.deserialize_str(FirstKey(None))
        }
    }
    impl<'de> Visitor<'de> for FirstKey {
        type Value = FirstKey;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a key")
        }
        fn visit_str<E>(self, key: &str) -> std::result::Result<FirstKey, E> {
            Ok(FirstKey(MARKERS.iter().position(|m| *m == key)))
        }
    }
    serde_json::from_slice::<Checked>(raw).is_ok()
}
