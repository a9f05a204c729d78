//! The top-level members of one JSON object line, with their byte spans, so that `migrate` and
//! `fsck --repair` can change a member's value, add a member or drop one and leave every other
//! byte of the line as it was (SPEC §1: a line sesstree does not change is written back byte
//! for byte; a line it changes keeps its unknown fields, their order and their formatting).
//!
//! The members are found by the line scanner ([`crate::json::scan`]), on bytes, so invalid
//! UTF-8 inside strings is carried along untouched.

use crate::json::scan::Scanner;

/// One `"key": value` member of an object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// The key, decoded (escapes resolved, invalid UTF-8 replaced).
    pub key: String,
    /// Where the key's opening quote is.
    pub start: usize,
    /// Where the value starts.
    pub value_start: usize,
    /// Just past the value's last byte.
    pub value_end: usize,
}

/// The members of an object, in written order (repeated keys included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Members {
    /// Where the opening `{` is.
    pub open: usize,
    /// Where the closing `}` is.
    pub close: usize,
    /// Every member in written order.
    pub list: Vec<Member>,
}

impl Members {
    /// The member that counts for this key: the last one, as in `JSON.parse`.
    pub fn get(&self, key: &str) -> Option<&Member> {
        self.list.iter().rev().find(|m| m.key == key)
    }

    /// Every member with this key, in written order.
    pub fn all<'a>(&'a self, key: &'a str) -> impl Iterator<Item = &'a Member> + 'a {
        self.list.iter().filter(move |m| m.key == key)
    }

    /// The first member with this key.
    pub fn first(&self, key: &str) -> Option<&Member> {
        self.list.iter().find(|m| m.key == key)
    }
}

/// Finds the members of the object `line` holds; `None` when it is not one JSON object.
pub(crate) fn members(line: &[u8]) -> Option<Members> {
    let mut scanner = Scanner::new();
    let (line, stack) = scanner.index(line).ok()?;
    let open = line.ws(0);
    let mut list = Vec::new();
    let end = line
        .object(open, |line, (key_start, key_end), value_start| {
            let value_end = line.skip_value(value_start, stack)?;
            // The key's span is between its quotes.
            let key = decode_string(&line.bytes[key_start - 1..=key_end]);
            list.push(Member { key, start: key_start - 1, value_start, value_end });
            Ok(value_end)
        })
        .ok()?;
    line.end(end).ok()?;
    Some(Members { open, close: end - 1, list })
}

/// Decodes a JSON string literal (quotes included); invalid UTF-8 becomes U+FFFD.
pub(crate) fn decode_string(literal: &[u8]) -> String {
    serde_json::from_slice(literal)
        .or_else(|_| serde_json::from_str(&String::from_utf8_lossy(literal)))
        .unwrap_or_default()
}

/// One change to a line: the bytes in `start..end` become `text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    /// First byte replaced (or the insertion point).
    pub start: usize,
    /// Just past the last byte replaced (`start` for an insertion).
    pub end: usize,
    /// What goes there.
    pub text: Vec<u8>,
}

impl Edit {
    /// Replaces a member's value with `json`.
    pub(crate) fn set_value(member: &Member, json: &str) -> Edit {
        Edit { start: member.value_start, end: member.value_end, text: json.as_bytes().to_vec() }
    }

    /// Inserts `"key":json` members right after `after`, or first in the object when `after`
    /// is `None`. `pairs` are written in order, without spaces, as the agents write them.
    pub fn insert(members: &Members, after: Option<&Member>, pairs: &[(&str, String)]) -> Edit {
        let body = pairs.iter().map(|(k, v)| format!("{}:{v}", serde_json::Value::from(*k)));
        let body = body.collect::<Vec<_>>().join(",");
        match after {
            Some(m) => {
                Edit { start: m.value_end, end: m.value_end, text: format!(",{body}").into() }
            }
            None => {
                let at = members.open + 1;
                let text = if members.list.is_empty() { body } else { format!("{body},") };
                Edit { start: at, end: at, text: text.into_bytes() }
            }
        }
    }

    /// Removes the member at `index` with one of the commas around it.
    pub fn remove(members: &Members, index: usize) -> Edit {
        let m = &members.list[index];
        let (start, end) = if let Some(next) = members.list.get(index + 1) {
            (m.start, next.start)
        } else if index > 0 {
            (members.list[index - 1].value_end, m.value_end)
        } else {
            (m.start, m.value_end)
        };
        Edit { start, end, text: Vec::new() }
    }
}

/// Applies edits to a line. Edits must not overlap; insertions at the same point keep their
/// order in `edits`.
pub fn apply(line: &[u8], mut edits: Vec<Edit>) -> Vec<u8> {
    edits.sort_by_key(|e| (e.start, e.end)); // stable: equal insertion points keep their order
    let mut out = Vec::with_capacity(line.len() + 64);
    let mut at = 0;
    for e in edits {
        let start = e.start.max(at);
        out.extend_from_slice(&line[at..start]);
        out.extend_from_slice(&e.text);
        at = e.end.max(start);
    }
    out.extend_from_slice(&line[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_members_and_their_spans() {
        let line = br#"{"type":"message", "id" : "a\"b","n":[1,{"x":"}"}],"t":true}"#;
        let m = members(line).unwrap();
        let keys: Vec<_> = m.list.iter().map(|m| m.key.as_str()).collect();
        assert_eq!(keys, ["type", "id", "n", "t"]);
        let id = m.get("id").unwrap();
        assert_eq!(&line[id.value_start..id.value_end], br#""a\"b""#);
        let n = m.get("n").unwrap();
        assert_eq!(&line[n.value_start..n.value_end], br#"[1,{"x":"}"}]"#);
        assert_eq!(m.close, line.len() - 1);
    }

    #[test]
    fn escaped_keys_are_decoded_and_non_objects_refused() {
        let m = members(br#"{"\u0069d":1}"#).unwrap();
        assert_eq!(m.list[0].key, "id");
        for line in [&b"[1]"[..], b"42", b"\"s\"", b"{\"a\":1} x", b"{\"a\" 1}"] {
            assert!(members(line).is_none(), "{}", String::from_utf8_lossy(line));
        }
        assert_eq!(members(b" { } ").unwrap().list, vec![]);
    }

    #[test]
    fn invalid_utf8_is_carried_along() {
        let line = b"{\"a\":\"\xff\xfe\",\"b\":2}";
        let m = members(line).unwrap();
        let out = apply(line, vec![Edit::set_value(m.get("b").unwrap(), "3")]);
        assert_eq!(out, b"{\"a\":\"\xff\xfe\",\"b\":3}");
    }

    #[test]
    fn edits_insert_replace_and_remove() {
        let line = br#"{"type":"compaction","firstKeptEntryIndex":2,"x":1}"#;
        let m = members(line).unwrap();
        let ins =
            Edit::insert(&m, m.get("type"), &[("id", "\"a\"".into()), ("parentId", "null".into())]);
        let rem = Edit::remove(&m, 2);
        let out = apply(line, vec![ins, rem]);
        assert_eq!(
            out,
            br#"{"type":"compaction","id":"a","parentId":null,"firstKeptEntryIndex":2}"#
        );
        let out = apply(line, vec![Edit::remove(&m, 0)]);
        assert_eq!(out, br#"{"firstKeptEntryIndex":2,"x":1}"#);
        let empty = members(b"{}").unwrap();
        assert_eq!(
            apply(b"{}", vec![Edit::insert(&empty, None, &[("a", "1".into())])]),
            b"{\"a\":1}"
        );
        let out = apply(line, vec![Edit::insert(&m, None, &[("v", "3".into())])]);
        assert_eq!(out, br#"{"v":3,"type":"compaction","firstKeptEntryIndex":2,"x":1}"#);
    }
}
