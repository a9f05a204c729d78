//! Entry ids. The agents treat ids as opaque JSON values: the string `"1"` and the number `1`
//! are different ids, and both print back exactly as written.

use std::fmt;

/// An entry id as it appears in the file.
///
/// `text` is the decoded string for string ids and the raw JSON text for anything else (a
/// number, say), so two ids are equal exactly when their JSON values are. Ids of up to
/// 21 bytes (`INLINE`; the agents' are 8) live inside the value: the index holds several per
/// entry, and a heap allocation each would cost more than the rest of the entry.
#[derive(Clone)]
pub struct EntryId {
    repr: Repr,
}

/// Longest id text kept without a heap allocation.
const INLINE: usize = 21;

#[derive(Clone)]
enum Repr {
    Inline { len: u8, string: bool, bytes: [u8; INLINE] },
    Heap { text: Box<str>, string: bool },
}

impl EntryId {
    fn make(text: &str, string: bool) -> Self {
        EntryId::inline(text.as_bytes(), string)
            .unwrap_or_else(|| EntryId { repr: Repr::Heap { text: text.into(), string } })
    }

    /// The id whose text is `bytes` (UTF-8, which the caller vouches for), when it is short
    /// enough to live inline.
    fn inline(text: &[u8], string: bool) -> Option<Self> {
        let mut bytes = [0u8; INLINE];
        bytes.get_mut(..text.len())?.copy_from_slice(text);
        Some(EntryId { repr: Repr::Inline { len: text.len() as u8, string, bytes } })
    }

    /// A string id.
    pub fn new(text: impl AsRef<str>) -> Self {
        EntryId::make(text.as_ref(), true)
    }

    /// A string id whose text is `bytes`, when they are ASCII and short enough to live inline:
    /// the agents' ids. Made without `str::from_utf8`, whose loops, on strings this short,
    /// branch on where they start in memory and mispredict.
    pub(crate) fn inline_ascii(bytes: &[u8]) -> Option<Self> {
        if !bytes.is_ascii() {
            return None;
        }
        EntryId::inline(bytes, true)
    }

    /// An id given by raw JSON that is not a string (a number, `true`, an object…).
    pub(crate) fn from_non_string(raw_json: impl AsRef<str>) -> Self {
        EntryId::make(raw_json.as_ref(), false)
    }

    /// Reads an id from raw JSON text: `null` gives `None`.
    pub(crate) fn from_raw_json(raw: &str) -> Option<Self> {
        match raw.trim() {
            "null" => None,
            raw if raw.starts_with('"') => {
                Some(EntryId::new(serde_json::from_str::<String>(raw).ok()?))
            }
            raw => Some(EntryId::from_non_string(raw)),
        }
    }

    /// Reads an id from a parsed JSON value: `null` gives `None`.
    pub(crate) fn from_value(value: &serde_json::Value) -> Option<Self> {
        match value {
            serde_json::Value::Null => None,
            serde_json::Value::String(s) => Some(EntryId::new(s.as_str())),
            other => Some(EntryId::from_non_string(other.to_string())),
        }
    }

    /// [`EntryId::as_str`] as bytes, without checking them again for UTF-8 (a `--json` row of
    /// every entry writes two ids).
    pub fn as_bytes(&self) -> &[u8] {
        match &self.repr {
            Repr::Inline { len, bytes, .. } => &bytes[..*len as usize],
            Repr::Heap { text, .. } => text.as_bytes(),
        }
    }

    /// The id's text: the string itself, or the JSON text of a non-string id.
    pub fn as_str(&self) -> &str {
        match &self.repr {
            // Always UTF-8: the bytes were copied from a `str` whole.
            Repr::Inline { len, bytes, .. } => {
                std::str::from_utf8(&bytes[..*len as usize]).unwrap_or_default()
            }
            Repr::Heap { text, .. } => text,
        }
    }

    /// Whether the id is a JSON string.
    pub fn is_string(&self) -> bool {
        match self.repr {
            Repr::Inline { string, .. } | Repr::Heap { string, .. } => string,
        }
    }

    /// The id as the JSON value it was written as.
    pub fn to_value(&self) -> serde_json::Value {
        if self.is_string() {
            serde_json::Value::String(self.as_str().to_string())
        } else {
            serde_json::from_str(self.as_str())
                .unwrap_or_else(|_| serde_json::Value::String(self.as_str().to_string()))
        }
    }
}

impl PartialEq for EntryId {
    fn eq(&self, other: &Self) -> bool {
        match (&self.repr, &other.repr) {
            // The bytes past `len` are zero, so whole arrays compare as their texts do: a few
            // word compares instead of a call to `memcmp` (the index compares ids a million
            // times on a large file).
            (
                Repr::Inline { len, string, bytes },
                Repr::Inline { len: other_len, string: other_string, bytes: other_bytes },
            ) => len == other_len && string == other_string && bytes == other_bytes,
            _ => self.as_bytes() == other.as_bytes() && self.is_string() == other.is_string(),
        }
    }
}

impl Eq for EntryId {}

impl std::hash::Hash for EntryId {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_bytes().hash(state);
        self.is_string().hash(state);
    }
}

impl PartialOrd for EntryId {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for EntryId {
    /// By text, then string ids after the others (as the derived order of the fields was).
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.as_bytes(), self.is_string()).cmp(&(other.as_bytes(), other.is_string()))
    }
}

impl fmt::Display for EntryId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for EntryId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_string() {
            write!(f, "{:?}", self.as_str())
        } else {
            write!(f, "#{}", self.as_str())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_and_number_ids_differ() {
        let s = EntryId::from_raw_json("\"1\"").unwrap();
        let n = EntryId::from_raw_json("1").unwrap();
        assert_ne!(s, n);
        assert_eq!(s.as_str(), n.as_str());
        assert_eq!(n.to_value(), serde_json::json!(1));
        assert_eq!(s.to_value(), serde_json::json!("1"));
    }

    #[test]
    fn ascii_bytes_make_the_id_their_text_makes() {
        for len in 0..=25 {
            let text: String = ('a'..='z').cycle().take(len).collect();
            let id = EntryId::inline_ascii(text.as_bytes());
            assert_eq!(id, (len <= INLINE).then(|| EntryId::new(&text)), "{len}");
            assert!(id.is_none_or(|id| id.is_string() && id.as_str() == text));
        }
        // Bytes that are not ASCII are left to the decoding path.
        assert_eq!(EntryId::inline_ascii("é".as_bytes()), None);
        assert_eq!(EntryId::inline_ascii(b"a\xff"), None);
    }

    #[test]
    fn null_is_no_id() {
        assert_eq!(EntryId::from_raw_json(" null "), None);
        assert_eq!(EntryId::from_value(&serde_json::Value::Null), None);
    }

    #[test]
    fn long_and_short_ids_compare_by_text() {
        let long = "x".repeat(40);
        assert_eq!(EntryId::new(&long), EntryId::new(long.clone()));
        assert_ne!(EntryId::new(&long), EntryId::new("x"));
        assert!(EntryId::new("a") < EntryId::new(&long));
        assert_eq!(EntryId::new("é✓").as_str(), "é✓");
        assert_eq!(EntryId::new(&long).as_str(), long);
    }

    /// Inline ids compare as whole arrays: a shorter id that is a prefix of a longer one, or
    /// one that ends in NUL bytes (what pads the array), is still a different id.
    #[test]
    fn inline_ids_equal_exactly_when_their_texts_and_kinds_are() {
        let texts = ["", "a", "a\0", "a\0\0", "ab", "b", "abcdefgh", "abcdefgi", &"z".repeat(21)];
        for x in texts {
            for y in texts {
                for (xs, ys) in [(true, true), (true, false), (false, true)] {
                    let id = |t: &str, s: bool| {
                        if s { EntryId::new(t) } else { EntryId::from_non_string(t) }
                    };
                    let same = x == y && xs == ys;
                    assert_eq!(id(x, xs) == id(y, ys), same, "{x:?}/{xs} vs {y:?}/{ys}");
                    assert_eq!(id(x, xs).cmp(&id(y, ys)).is_eq(), same);
                }
            }
        }
        // Ids too long to be inline compare by text and kind as well; the same text is always
        // held the same way, so an inline id is never equal to a longer one.
        let long = "z".repeat(22);
        assert_eq!(EntryId::new(long.as_str()), EntryId::new(long.clone()));
        assert_ne!(EntryId::new(long.as_str()), EntryId::new(&long[..21]));
        assert_ne!(EntryId::new(long.as_str()), EntryId::new(format!("{}y", &long[..21])));
        assert_ne!(EntryId::new(long.as_str()), EntryId::from_non_string(long.as_str()));
    }

    #[test]
    fn escapes_are_decoded() {
        let id = EntryId::from_raw_json(r#""a\u0062""#).unwrap();
        assert_eq!(id.as_str(), "ab");
    }
}
