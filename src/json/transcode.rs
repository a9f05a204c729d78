//! One line's JSON written out again, compact, as serde_json writes the [`Value`] it
//! parses, without building that value: a line of megabytes of small values (`[0,0,…]`) made
//! into a `Value` costs some 50 to 150 times its bytes, where this costs about the output.
//!
//! The line is walked with the [`Scanner`] and fed to serde_json's own serializer value by
//! value, so the text is the same as `serde_json::to_vec(&value)` byte for byte: strings decoded and escaped again by serde_json, numbers as written (the
//! `arbitrary_precision` feature keeps them so), and an object's key written twice kept in its
//! first place with its last value, as the map serde_json parses it into keeps it. Only what
//! serde_json parses differently from its plain JSON is left to it: its marker objects (a key
//! `$serde_json::private::Number` or `…::RawValue`). For those, and for any line the walk
//! refuses, [`to_json`] gives `None` and the caller parses the line in full.
//!
//! [`Value`]: serde_json::Value

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use serde::ser::{Error as _, SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

use super::MAX_NESTING;
use super::scan::{Invalid, Line, Scanner};

/// serde_json's markers (with `arbitrary_precision` and `raw_value`): an object whose first key
/// is one of them it reads as a number, or as the JSON text the member holds, not as an object.
pub(crate) const MARKERS: [&str; 2] =
    ["$serde_json::private::Number", "$serde_json::private::RawValue"];

/// Objects with more members than this find their keys written twice through a map, fewer by
/// comparing each with those before it.
const FEW_MEMBERS: usize = 16;

/// `line` (one JSON value, whitespace around it allowed) written as serde_json writes the
/// value it parses, compact. `None` where the line
/// is not valid JSON, does not decode (invalid UTF-8, a lone surrogate) or holds serde_json's
/// marker objects: the caller parses it in full then, for its value or its error.
pub fn to_json(line: &[u8]) -> Option<Vec<u8>> {
    let mut scanner = Scanner::new();
    let (indexed, stack) = scanner.index(line).ok()?;
    let walk = Walk { line: indexed, stack: RefCell::new(std::mem::take(stack)) };
    let start = walk.line.ws(0);
    let value = Lazy { walk: &walk, start, depth: 0, end: Cell::new(start) };
    let mut out = Vec::with_capacity(line.len() + line.len() / 8);
    value.serialize(&mut serde_json::Serializer::new(&mut out)).ok()?;
    walk.line.end(value.end.get()).ok()?;
    Some(out)
}

/// The line being written, and the scanner's stack for skipping values.
struct Walk<'a, 'q> {
    line: Line<'a, 'q>,
    stack: RefCell<Vec<bool>>,
}

/// The value at `start`, inside `depth` arrays and objects; `end` is set to the position after
/// it once it is written.
struct Lazy<'w, 'a, 'q> {
    walk: &'w Walk<'a, 'q>,
    start: usize,
    depth: usize,
    end: Cell<usize>,
}

impl<'w, 'a, 'q> Lazy<'w, 'a, 'q> {
    /// The value at `start` inside this one.
    fn inner(&self, start: usize) -> Lazy<'w, 'a, 'q> {
        Lazy { walk: self.walk, start, depth: self.depth + 1, end: Cell::new(start) }
    }
}

/// A member of an object: its key, decoded, and its value's span.
struct Member<'a> {
    key: Cow<'a, str>,
    start: usize,
    end: usize,
}

impl Serialize for Lazy<'_, '_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let line = &self.walk.line;
        let invalid = |_: Invalid| S::Error::custom("not JSON serde_json reads as such");
        let container = matches!(line.at(self.start), Some(b'[' | b'{'));
        if container && self.depth >= MAX_NESTING {
            // Deeper than serde_json reads (and than the stack should hold).
            return Err(S::Error::custom("nested too deep"));
        }
        match line.at(self.start) {
            Some(b'"') => {
                let close = line.string_end(self.start).map_err(invalid)?;
                self.end.set(close + 1);
                s.serialize_str(&line.text((self.start + 1, close)).map_err(invalid)?)
            }
            Some(b'[') => {
                let mut seq = s.serialize_seq(None)?;
                let mut failed = None;
                let end = line.array(self.start, |_, at| {
                    let element = self.inner(at);
                    seq.serialize_element(&element).map(|()| element.end.get()).map_err(|e| {
                        failed = Some(e);
                        Invalid
                    })
                });
                if let Some(e) = failed {
                    return Err(e);
                }
                self.end.set(end.map_err(invalid)?);
                seq.end()
            }
            Some(b'{') => {
                let (members, end) = self.members().map_err(invalid)?;
                self.end.set(end);
                let mut map = s.serialize_map(Some(members.len()))?;
                for m in &members {
                    let value = self.inner(m.start);
                    map.serialize_entry(&*m.key, &value)?;
                }
                map.end()
            }
            Some(c @ (b't' | b'f')) => {
                self.skip().map_err(invalid)?;
                s.serialize_bool(c == b't')
            }
            Some(b'n') => {
                self.skip().map_err(invalid)?;
                s.serialize_unit()
            }
            _ => {
                // A number, written as it stands (the scanner checked it).
                let end = self.skip().map_err(invalid)?;
                let raw = line.raw(self.start, end).map_err(invalid)?;
                let number: serde_json::Number = raw.parse().map_err(S::Error::custom)?;
                number.serialize(s)
            }
        }
    }
}

impl<'a> Lazy<'_, 'a, '_> {
    /// The position after the value, walking it with the scanner.
    fn skip(&self) -> Result<usize, Invalid> {
        let end = self.walk.line.skip_value(self.start, &mut self.walk.stack.borrow_mut())?;
        self.end.set(end);
        Ok(end)
    }

    /// The members of the object at `start` as serde_json's map keeps them (a key written
    /// again keeps its first place and takes the later value), and the position after it.
    /// Fails on a marker key, and where a value a later one replaces is one serde_json would
    /// not read (it reads every value, kept or not).
    fn members(&self) -> Result<(Vec<Member<'a>>, usize), Invalid> {
        let line = &self.walk.line;
        let mut members: Vec<Member<'a>> = Vec::new();
        let end = line.object(self.start, |line, key, value| {
            let key = line.text(key)?;
            if MARKERS.contains(&&*key) {
                return Err(Invalid);
            }
            let end = line.skip_value(value, &mut self.walk.stack.borrow_mut())?;
            members.push(Member { key, start: value, end });
            Ok(end)
        })?;
        let replaced = |m: &Member<'_>| {
            let value = self.inner(m.start);
            value.serialize(&mut serde_json::Serializer::new(std::io::sink())).map_err(|_| Invalid)
        };
        Ok((dedupe(members, replaced)?, end))
    }
}

/// `members` with each key written more than once kept in its first place with its last value;
/// each value replaced so is first handed to `replaced`, which may refuse it.
fn dedupe<'a>(
    members: Vec<Member<'a>>,
    mut replaced: impl FnMut(&Member<'a>) -> Result<(), Invalid>,
) -> Result<Vec<Member<'a>>, Invalid> {
    use std::collections::hash_map::Entry;
    let mut kept: Vec<Member<'a>> = Vec::with_capacity(members.len());
    // Each key's place in `kept`, for objects of many members.
    let mut places: Option<HashMap<Cow<'a, str>, usize, foldhash::fast::RandomState>> =
        (members.len() > FEW_MEMBERS).then(HashMap::default);
    for m in members {
        let place = match &mut places {
            None => kept.iter().position(|k| k.key == m.key),
            Some(places) => match places.entry(m.key.clone()) {
                Entry::Occupied(place) => Some(*place.get()),
                Entry::Vacant(place) => {
                    place.insert(kept.len());
                    None
                }
            },
        };
        match place {
            Some(k) => {
                replaced(&kept[k])?;
                (kept[k].start, kept[k].end) = (m.start, m.end);
            }
            None => kept.push(m),
        }
    }
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::Value;

    use super::*;

    /// What serde_json writes of the value it parses from `line`.
    fn by_serde_json(line: &[u8]) -> Option<Vec<u8>> {
        let value: Value = serde_json::from_slice(line).ok()?;
        Some(serde_json::to_vec(&value).unwrap())
    }

    #[test]
    fn writes_what_serde_json_writes() {
        for line in [
            &br#"{"type":"message","id":"a","n":[1,-2.50,3e10,1E+2,-0],"t":true,"f":false,"z":null}"#[..],
            br#" { "a" : [ ] , "b" : { } , "c" : [ [ ] , { } ] } "#,
            br#""\u00e9\n\t\"\\\/\b\f\r\u0001\ud83d\ude00""#,
            br#"[1.0000000000000000000001, 123456789012345678901234567890]"#,
            br#"{"k":1,"k":2,"j":3,"k":{"x":[4]}}"#,
            b"[]",
            b"{}",
            b"0",
            br#"{"a\u0062":1,"ab":2}"#,
        ] {
            let got = to_json(line);
            assert!(got.is_some(), "{}", String::from_utf8_lossy(line));
            assert_eq!(got, by_serde_json(line), "{}", String::from_utf8_lossy(line));
        }
    }

    #[test]
    fn a_key_written_again_keeps_its_place_with_its_last_value() {
        let mut line = String::from("{");
        for k in 0..40 {
            line.push_str(&format!("\"k{}\":{k},", k % 25));
        }
        line.push_str("\"last\":0}");
        let got = to_json(line.as_bytes()).unwrap();
        assert_eq!(Some(got.clone()), by_serde_json(line.as_bytes()));
        let text = String::from_utf8(got).unwrap();
        assert!(text.starts_with(r#"{"k0":25,"k1":26,"#), "{text}");
    }

    #[test]
    fn what_serde_json_reads_its_own_way_is_left_to_it() {
        for line in [
            &br#"{"$serde_json::private::Number":"5"}"#[..],
            br#"[{"a":{"$serde_json::private::RawValue":"[1]"}}]"#,
            br#""\ud800""#,
            b"\"\xff\"",
            b"[1,",
            b"1 2",
            b"[tzzz]",
            b"{\"a\":nul}",
            b"[fals]",
            b"[01]",
            b"[1.]",
            b"-",
            b"[1]]",
            b"",
            b"{\"a\" 1}",
            // A value a later one with its key replaces is still read by serde_json.
            br#"{"a":"\ud800","a":1}"#,
            br#"{"a":{"\ud800":1},"a":1}"#,
            b"{\"a\":\"\xff\",\"a\":1}",
            br#"{"a":{"$serde_json::private::Number":"x"},"a":1}"#,
            br#"{"a":{"$serde_json::private::RawValue":"[1"},"a":1}"#,
            br#"{"a":{"\u0024serde_json::private::Number":"1","b":2},"a":1}"#,
        ] {
            assert_eq!(to_json(line), None, "{}", String::from_utf8_lossy(line));
        }
    }

    #[test]
    fn nesting_stops_where_serde_json_stops() {
        for levels in [1, 126, 127, 128, 129, 100_000] {
            let line = format!("{}{}", "[".repeat(levels), "]".repeat(levels));
            let theirs = by_serde_json(line.as_bytes());
            assert_eq!(to_json(line.as_bytes()), theirs, "{levels} levels");
            assert_eq!(theirs.is_some(), levels <= MAX_NESTING, "{levels} levels");
        }
    }

    /// A value replaced by a later one with its key, nested past serde_json's limit.
    #[test]
    fn a_replaced_value_too_deep_is_left_to_serde_json() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let line = format!(r#"{{"a":{deep},"a":1}}"#);
        assert_eq!(to_json(line.as_bytes()), None);
        assert_eq!(by_serde_json(line.as_bytes()), None);
        // Keys written twice in an object of many members, too.
        let mut many: String = (0..20).map(|k| format!(r#""k{k}":{k},"#)).collect();
        many.push_str(r#""k3":1}"#);
        let line = format!(r#"{{"k3":"\ud800",{many}"#);
        assert_eq!(to_json(line.as_bytes()), None);
    }

    #[test]
    fn a_million_small_values_go_through() {
        // The memory this saves is measured with `/usr/bin/time` (bench/README.md); this checks
        // that a million elements are written, and written as they stand.
        let mut line = String::from("[");
        line.push_str(&"0,".repeat(1_000_000));
        line.push_str("0]");
        let got = to_json(line.as_bytes()).unwrap();
        assert_eq!(got, line.as_bytes());
    }

    proptest! {
        /// Any JSON value, with keys written twice, reads the same both ways.
        #[test]
        fn agrees_with_serde_json(value in crate::json::scan::arb_json()) {
            let line = serde_json::to_vec(&value).unwrap();
            prop_assert_eq!(to_json(&line), by_serde_json(&line));
            let pretty = serde_json::to_vec_pretty(&value).unwrap();
            prop_assert_eq!(to_json(&pretty), by_serde_json(&pretty));
        }

        /// Any bytes that build and break JSON: written as serde_json writes them, or left to it
        /// where it refuses them.
        #[test]
        fn agrees_with_serde_json_on_soup(
            pieces in proptest::collection::vec(
                prop::sample::select(vec![
                    "{", "}", "[", "]", ":", ",", "\"", "\"k\"", "\\", "\\n", "\\u00e9", " ",
                    "0", "-1.5e3", "true", "null", "fals", "abc", "\u{1}",
                ]),
                0..40,
            ),
        ) {
            let line = pieces.concat();
            prop_assert_eq!(to_json(line.as_bytes()), by_serde_json(line.as_bytes()));
        }

        /// Objects whose members repeat keys, few and many.
        #[test]
        fn keys_written_twice_read_as_serde_json_reads_them(
            members in proptest::collection::vec((0u8..30, 0u32..1000), 0..60),
        ) {
            let body: Vec<String> =
                members.iter().map(|(k, v)| format!("\"k{k}\":{v}")).collect();
            let line = format!("{{{}}}", body.join(","));
            prop_assert_eq!(to_json(line.as_bytes()), by_serde_json(line.as_bytes()));
        }
    }
}
