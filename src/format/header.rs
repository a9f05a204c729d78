//! The header: the `session` record a session file starts with (FORMAT §3, after the title
//! slot), read through its named members. Headers are small and read whole, so the view
//! borrows the parsed object; what a header says is read here and nowhere else.

use serde_json::{Map, Value};

use crate::naming::TitleSource;

/// A header record's members, read by name.
#[derive(Debug, Clone, Copy)]
pub struct HeaderRef<'a>(&'a Map<String, Value>);

impl<'a> HeaderRef<'a> {
    /// The header whose members are `record`'s, whatever its type.
    pub fn new(record: &'a Map<String, Value>) -> HeaderRef<'a> {
        HeaderRef(record)
    }

    /// The header `record` is: an object whose `type` is `"session"`.
    pub fn of(record: &'a Value) -> Option<HeaderRef<'a>> {
        let header = HeaderRef(record.as_object()?);
        (header.text("type") == Some("session")).then_some(header)
    }

    /// The string member `key`.
    fn text(&self, key: &str) -> Option<&'a str> {
        self.0.get(key).and_then(Value::as_str)
    }

    /// The session id, when a string.
    pub fn id(&self) -> Option<&'a str> {
        self.text("id")
    }

    /// The declared version: a number, or a numeric string; absent (or anything else) means 1.
    pub fn version(&self) -> u64 {
        let version = match self.0.get("version") {
            Some(Value::Number(n)) => n.as_f64(),
            Some(Value::String(s)) => s.trim().parse::<f64>().ok(),
            _ => None,
        };
        version.map_or(1, |f| f.max(0.0) as u64)
    }

    /// The session name (`title`), when a non-empty string.
    pub fn title(&self) -> Option<&'a str> {
        self.text("title").filter(|t| !t.is_empty())
    }

    /// Who set the name (`titleSource`), when it is one sesstree knows.
    pub fn title_source(&self) -> Option<TitleSource> {
        self.text("titleSource").and_then(TitleSource::parse)
    }

    /// The working directory (`cwd`), when a string.
    pub fn cwd(&self) -> Option<&'a str> {
        self.text("cwd")
    }

    /// When the session started (`timestamp`), when a string.
    pub fn timestamp(&self) -> Option<&'a str> {
        self.text("timestamp")
    }

    /// The members a new file made from this one carries over as they are, whatever their
    /// value (pi's `createBranchedSession`): `cwd` and `additionalDirectories`.
    pub fn carried(&self) -> Carried<'a> {
        Carried {
            cwd: self.0.get("cwd"),
            additional_directories: self.0.get("additionalDirectories"),
        }
    }
}

/// The header members a new file carries over as they are ([`HeaderRef::carried`]).
#[derive(Debug, Clone, Copy)]
pub struct Carried<'a> {
    /// `cwd`.
    pub cwd: Option<&'a Value>,
    /// `additionalDirectories`.
    pub additional_directories: Option<&'a Value>,
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_header_is_an_object_of_type_session() {
        assert!(HeaderRef::of(&json!({"type": "session", "id": "s"})).is_some());
        assert!(HeaderRef::of(&json!({"type": "message", "id": "s"})).is_none());
        assert!(HeaderRef::of(&json!(["session"])).is_none());
    }

    #[test]
    fn the_version_is_a_number_or_a_numeric_string_and_absent_means_1() {
        let version = |v: Value| {
            HeaderRef::of(&json!({"type": "session", "version": v})).map(|h| h.version())
        };
        assert_eq!(version(json!(3)), Some(3));
        assert_eq!(version(json!(" 2 ")), Some(2));
        assert_eq!(version(json!(2.7)), Some(2));
        assert_eq!(version(json!(-4)), Some(0));
        assert_eq!(version(json!("two")), Some(1));
        assert_eq!(version(json!(null)), Some(1));
        assert_eq!(HeaderRef::of(&json!({"type": "session"})).map(|h| h.version()), Some(1));
    }

    #[test]
    fn strings_are_read_as_strings_and_carried_members_as_they_are() {
        let record = json!({"type": "session", "id": 7, "title": "", "titleSource": "user",
            "cwd": ["/a"], "additionalDirectories": ["/b"], "timestamp": "t"});
        let header = HeaderRef::of(&record).expect("a header");
        assert_eq!((header.id(), header.title(), header.cwd()), (None, None, None));
        assert_eq!(header.title_source(), Some(TitleSource::User));
        assert_eq!(header.timestamp(), Some("t"));
        let carried = header.carried();
        assert_eq!(carried.cwd, Some(&json!(["/a"])));
        assert_eq!(carried.additional_directories, Some(&json!(["/b"])));
    }
}
