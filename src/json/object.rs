//! An object of a scanned line read member by member ([`Object`]): each value found by key
//! and decoded only when asked, as serde_json's map would give it (a key written twice reads
//! as its last value). Other agents' transcripts are read so, without a `Value` per line.

use std::borrow::Cow;

use super::pick::{Member, members};
use super::scan::Line;

/// The members of one object of a line.
pub(crate) struct Object<'l, 'a, 'q> {
    /// The line.
    pub line: &'l Line<'a, 'q>,
    members: Vec<Member<'a>>,
    /// Where it starts and ends in the line.
    span: (usize, usize),
}

impl<'l, 'a, 'q> Object<'l, 'a, 'q> {
    /// The object at `at` of `line`, when there is one.
    pub fn at(line: &'l Line<'a, 'q>, at: usize, stack: &mut Vec<bool>) -> Option<Self> {
        if line.at(at) != Some(b'{') {
            return None;
        }
        let (members, end) = members(line, at, stack).ok()?;
        Some(Object { line, members, span: (at, end) })
    }

    /// The object that is the whole of `line`, whitespace around it allowed.
    pub fn whole(line: &'l Line<'a, 'q>, stack: &mut Vec<bool>) -> Option<Self> {
        let start = line.ws(0);
        if line.at(start) != Some(b'{') {
            return None;
        }
        let (members, end) = members(line, start, stack).ok()?;
        line.end(end).ok()?;
        Some(Object { line, members, span: (start, end) })
    }

    /// The object at `span` of `line`, whose `members` were read on the way.
    pub fn of_members(
        line: &'l Line<'a, 'q>,
        members: Vec<Member<'a>>,
        span: (usize, usize),
    ) -> Self {
        Object { line, members, span }
    }

    /// The object as written.
    pub fn bytes(&self) -> &'a [u8] {
        &self.line.bytes[self.span.0..self.span.1]
    }

    /// Where the value of `key` starts and ends.
    pub fn span(&self, key: &str) -> Option<(usize, usize)> {
        let m = self.members.iter().rev().find(|m| &*m.key == key.as_bytes())?;
        Some((m.start, m.end))
    }

    /// Where the value of `key` starts.
    pub fn start(&self, key: &str) -> Option<usize> {
        self.span(key).map(|(start, _)| start)
    }

    /// The value of `key` as written.
    pub fn raw(&self, key: &str) -> Option<&'a [u8]> {
        let (start, end) = self.span(key)?;
        self.line.bytes.get(start..end)
    }

    /// The value of `key` as written, when it is a string (empty or not).
    pub fn raw_str(&self, key: &str) -> Option<&'a [u8]> {
        self.raw(key).filter(|r| r.first() == Some(&b'"'))
    }

    /// The value of `key` as written, when it is a non-empty string.
    pub fn raw_filled(&self, key: &str) -> Option<&'a [u8]> {
        self.raw_str(key).filter(|r| r.len() > 2)
    }

    /// Whether `key` is `true`.
    pub fn is(&self, key: &str) -> bool {
        self.raw(key) == Some(b"true")
    }

    /// The value of `key` when it is a finite number (a JSON `number` that `as_f64` reads).
    pub fn number(&self, key: &str) -> Option<f64> {
        number(self.raw(key)?)
    }

    /// The value of `key` when it is a string, decoded.
    pub fn str(&self, key: &str) -> Option<Cow<'a, str>> {
        let (start, end) = self.span(key)?;
        if self.line.at(start) != Some(b'"') {
            return None;
        }
        self.line.text((start + 1, end - 1)).ok()
    }

    /// The value of `key` when it is a non-empty string (JavaScript's `if (value)`).
    pub fn filled(&self, key: &str) -> Option<Cow<'a, str>> {
        self.str(key).filter(|s| !s.is_empty())
    }

    /// The object that is the value of `key`.
    pub fn object(&self, key: &str, stack: &mut Vec<bool>) -> Option<Object<'l, 'a, 'q>> {
        Object::at(self.line, self.start(key)?, stack)
    }

    /// Where the elements of the array that is the value of `key` start (none when it is no
    /// array).
    pub fn elements(&self, key: &str, stack: &mut Vec<bool>) -> Option<Vec<usize>> {
        elements(self.line, self.start(key)?, stack)
    }
}

/// Where the elements of the array at `at` of `line` start; none when there is no array.
pub(crate) fn elements(
    line: &Line<'_, '_>,
    at: usize,
    stack: &mut Vec<bool>,
) -> Option<Vec<usize>> {
    let mut out = Vec::new();
    line.array(at, |line, element| {
        out.push(element);
        line.skip_value(element, stack)
    })
    .ok()?;
    Some(out)
}

/// A number as written, as serde_json's `as_f64` reads it: finite, or none.
pub(crate) fn number(raw: &[u8]) -> Option<f64> {
    if !raw.first().is_some_and(|c| *c == b'-' || c.is_ascii_digit()) {
        return None;
    }
    std::str::from_utf8(raw).ok()?.parse::<f64>().ok().filter(|n| n.is_finite())
}

/// The line as the scanner reads it the way serde_json parses it into a value: as it is,
/// or, when it holds what the scanner reads otherwise (invalid UTF-8, read as U+FFFD; an
/// escaped surrogate, which may be a lone one; serde_json's marker objects), parsed and written
/// again. `None` when it is not JSON.
pub(crate) fn readable(line: &[u8]) -> Option<Cow<'_, [u8]>> {
    let odd = std::str::from_utf8(line).is_err()
        || memchr::memmem::find_iter(line, b"\\u")
            .any(|i| matches!(line.get(i + 2), Some(b'd' | b'D')))
        || memchr::memchr(b'$', line)
            .is_some_and(|_| memchr::memmem::find(line, b"$serde_json::private").is_some());
    if !odd {
        return Some(Cow::Borrowed(line));
    }
    let value: serde_json::Value = serde_json::from_slice(line)
        .ok()
        .or_else(|| serde_json::from_str(&String::from_utf8_lossy(line)).ok())?;
    serde_json::to_vec(&value).ok().map(Cow::Owned)
}
