//! Entry ids. The agents treat ids as opaque JSON values: the string `"1"` and the number `1`
//! are different ids, and both print back exactly as written.

use std::fmt;

/// An entry id as it appears in the file.
///
/// `text` is the decoded string for string ids and the raw JSON text for anything else (a
/// number, say), so two ids are equal exactly when their JSON values are.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EntryId {
    text: Box<str>,
    string: bool,
}

impl EntryId {
    /// A string id.
    pub fn new(text: impl Into<Box<str>>) -> Self {
        EntryId { text: text.into(), string: true }
    }

    /// An id given by raw JSON that is not a string (a number, `true`, an object…).
    pub fn from_non_string(raw_json: impl Into<Box<str>>) -> Self {
        EntryId { text: raw_json.into(), string: false }
    }

    /// Reads an id from raw JSON text: `null` gives `None`.
    pub fn from_raw_json(raw: &str) -> Option<Self> {
        let raw = raw.trim();
        if raw == "null" {
            return None;
        }
        if raw.starts_with('"') {
            let s: String = serde_json::from_str(raw).ok()?;
            Some(EntryId::new(s))
        } else {
            Some(EntryId::from_non_string(raw))
        }
    }

    /// Reads an id from a parsed JSON value: `null` gives `None`.
    pub fn from_value(value: &serde_json::Value) -> Option<Self> {
        match value {
            serde_json::Value::Null => None,
            serde_json::Value::String(s) => Some(EntryId::new(s.as_str())),
            other => Some(EntryId::from_non_string(other.to_string())),
        }
    }

    /// The id's text: the string itself, or the JSON text of a non-string id.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether the id is a JSON string.
    pub fn is_string(&self) -> bool {
        self.string
    }

    /// The id as the JSON value it was written as.
    pub fn to_value(&self) -> serde_json::Value {
        if self.string {
            serde_json::Value::String(self.text.to_string())
        } else {
            serde_json::from_str(&self.text)
                .unwrap_or_else(|_| serde_json::Value::String(self.text.to_string()))
        }
    }
}

impl fmt::Display for EntryId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl fmt::Debug for EntryId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.string { write!(f, "{:?}", self.text) } else { write!(f, "#{}", self.text) }
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
    fn null_is_no_id() {
        assert_eq!(EntryId::from_raw_json(" null "), None);
        assert_eq!(EntryId::from_value(&serde_json::Value::Null), None);
    }

    #[test]
    fn escapes_are_decoded() {
        let id = EntryId::from_raw_json(r#""a\u0062""#).unwrap();
        assert_eq!(id.as_str(), "ab");
    }
}
