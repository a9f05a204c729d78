//! The envelope of one line: the few top-level fields the index needs (type, id, parent,
//! timestamp, label and archive targets, name fields). Everything else in the line is skipped
//! without being built into a DOM, so indexing costs one scan of the bytes.

use std::borrow::Cow;
use std::fmt;

use serde::Deserializer;
use serde::de::{self, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use crate::id::EntryId;

/// The top-level fields of one record that the index keeps.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Envelope<'a> {
    /// Whether the record is a JSON object at all.
    pub is_object: bool,
    /// `type`, when it is a string.
    pub kind: Option<Cow<'a, str>>,
    /// `id` (absent or `null` gives `None`).
    pub id: Option<EntryId>,
    /// `parentId` (absent or `null` gives `None`).
    pub parent_id: Option<EntryId>,
    /// `timestamp`, when it is a string.
    pub timestamp: Option<Cow<'a, str>>,
    /// `targetId` of `label` and `archive` records.
    pub target_id: Option<EntryId>,
    /// The raw JSON of `label` (a label value need not be a string).
    pub label: Option<&'a str>,
    /// `archived` of `archive` records.
    pub archived: Option<bool>,
    /// `title` (of `title_change`), when a string.
    pub title: Option<Cow<'a, str>>,
    /// `source` (of `title_change`: `auto` or `user`), when a string.
    pub source: Option<Cow<'a, str>>,
    /// `name` (of pi's `session_info`), when a string.
    pub name: Option<Cow<'a, str>>,
    /// Whether a `modelId` field is present (pi's `model_change`).
    pub has_model_id: bool,
    /// Whether a `model` field is present (oh-my-pi's `model_change`).
    pub has_model: bool,
    /// Whether a `fromHook` field is present (pi's summaries).
    pub has_from_hook: bool,
}

/// Why a line is not a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanError {
    /// serde_json's description of the problem.
    pub message: String,
    /// Whether the line simply ends too early (a torn write).
    pub eof: bool,
}

impl fmt::Display for ScanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Scans one line (without its newline) into its envelope.
pub fn scan_envelope(line: &[u8]) -> Result<Envelope<'_>, ScanError> {
    let mut de = serde_json::Deserializer::from_slice(line);
    let env = (&mut de).deserialize_any(EnvelopeVisitor).map_err(scan_error)?;
    de.end().map_err(scan_error)?;
    Ok(env)
}

fn scan_error(e: serde_json::Error) -> ScanError {
    ScanError { eof: e.is_eof(), message: e.to_string() }
}

struct EnvelopeVisitor;

/// A string that borrows from the line when it has no escapes.
struct CowStr<'a>(Cow<'a, str>);

impl<'de> de::Deserialize<'de> for CowStr<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = CowStr<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(CowStr(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(CowStr(Cow::Owned(v.to_owned())))
            }
        }
        d.deserialize_str(V)
    }
}

/// Takes a value as raw JSON and keeps it only when it is a string.
fn string_field<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Option<Cow<'de, str>>, A::Error> {
    let raw: &'de RawValue = map.next_value()?;
    if raw.get().starts_with('"') {
        let s: CowStr<'de> = serde_json::from_str(raw.get()).map_err(de::Error::custom)?;
        Ok(Some(s.0))
    } else {
        Ok(None)
    }
}

fn id_field<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Option<EntryId>, A::Error> {
    let raw: &'de RawValue = map.next_value()?;
    Ok(EntryId::from_raw_json(raw.get()))
}

impl<'de> Visitor<'de> for EnvelopeVisitor {
    type Value = Envelope<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut env = Envelope { is_object: true, ..Envelope::default() };
        while let Some(key) = map.next_key::<CowStr<'de>>()? {
            // Later duplicate keys win, as in JSON.parse.
            match key.0.as_ref() {
                "type" => env.kind = string_field(&mut map)?,
                "id" => env.id = id_field(&mut map)?,
                "parentId" => env.parent_id = id_field(&mut map)?,
                "timestamp" => env.timestamp = string_field(&mut map)?,
                "targetId" => env.target_id = id_field(&mut map)?,
                "label" => {
                    let raw: &'de RawValue = map.next_value()?;
                    env.label = Some(raw.get());
                }
                "archived" => {
                    let raw: &'de RawValue = map.next_value()?;
                    env.archived = Some(raw.get() == "true");
                }
                "title" => env.title = string_field(&mut map)?,
                "source" => env.source = string_field(&mut map)?,
                "name" => env.name = string_field(&mut map)?,
                "modelId" => {
                    env.has_model_id = true;
                    map.next_value::<IgnoredAny>()?;
                }
                "model" => {
                    env.has_model = true;
                    map.next_value::<IgnoredAny>()?;
                }
                "fromHook" => {
                    env.has_from_hook = true;
                    map.next_value::<IgnoredAny>()?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(env)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Envelope::default())
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(Envelope::default())
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(Envelope::default())
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(Envelope::default())
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(Envelope::default())
    }
    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(Envelope::default())
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Envelope::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_base_fields_and_skips_the_payload() {
        let line = br#"{"type":"message","id":"a1b2c3d4","parentId":null,"timestamp":"2026-02-16T10:21:00.000Z","message":{"role":"user","content":"hi","id":"nested"}}"#;
        let env = scan_envelope(line).unwrap();
        assert!(env.is_object);
        assert_eq!(env.kind.as_deref(), Some("message"));
        assert_eq!(env.id, Some(EntryId::new("a1b2c3d4")));
        assert_eq!(env.parent_id, None);
        assert_eq!(env.timestamp.as_deref(), Some("2026-02-16T10:21:00.000Z"));
    }

    #[test]
    fn custom_entries_put_the_id_last() {
        let line = br#"{"type":"custom","customType":"x","data":{"id":"inner"},"id":"e1","parentId":"p1","timestamp":"t"}"#;
        let env = scan_envelope(line).unwrap();
        assert_eq!(env.id, Some(EntryId::new("e1")));
        assert_eq!(env.parent_id, Some(EntryId::new("p1")));
    }

    #[test]
    fn label_values_are_kept_raw() {
        let env = scan_envelope(br#"{"type":"label","targetId":7,"label":{"a":1}}"#).unwrap();
        assert_eq!(env.target_id, Some(EntryId::from_non_string("7")));
        assert_eq!(env.label, Some(r#"{"a":1}"#));
    }

    #[test]
    fn non_objects_are_records_without_fields() {
        for line in [&b"[1,2]"[..], b"42", b"\"s\"", b"null", b"true"] {
            let env = scan_envelope(line).unwrap();
            assert!(!env.is_object);
            assert_eq!(env.id, None);
        }
    }

    #[test]
    fn truncated_lines_are_eof_errors() {
        let err = scan_envelope(br#"{"type":"message","id":"a"#).unwrap_err();
        assert!(err.eof);
        let err = scan_envelope(b"{not json}").unwrap_err();
        assert!(!err.eof);
        assert!(scan_envelope(br#"{"a":1} trailing"#).is_err());
    }

    #[test]
    fn title_changes_keep_their_source() {
        let line = br#"{"type":"title_change","id":"t","title":"Name","source":"user","previousTitle":"Old"}"#;
        let env = scan_envelope(line).unwrap();
        assert_eq!(env.title.as_deref(), Some("Name"));
        assert_eq!(env.source.as_deref(), Some("user"));
        let env = scan_envelope(br#"{"type":"title_change","source":{"x":1}}"#).unwrap();
        assert_eq!(env.source, None);
    }

    #[test]
    fn later_duplicate_keys_win() {
        let env = scan_envelope(br#"{"id":"a","id":"b"}"#).unwrap();
        assert_eq!(env.id, Some(EntryId::new("b")));
    }
}
