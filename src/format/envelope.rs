//! The envelope of one line: the few top-level fields the index needs (type, id, parent,
//! timestamp, label and archive targets, name fields). Everything else in the line is skipped
//! without being built into a DOM, so indexing costs one scan of the bytes.
//!
//! Objects go through the hand-written scanner of [`crate::json::scan`]; it accepts exactly the
//! lines serde_json accepts. Anything else (a line that is not an object, or a line the scanner
//! rejects) goes through serde_json, which gives the error its message: such lines are rare, and
//! the messages are the ones users already see.

use std::borrow::Cow;
use std::fmt;

use serde::Deserializer;
use serde::de::{self, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use crate::id::EntryId;
use crate::json::scan::{Line, Scan, Scanner};

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
    /// Whether a `modelId` field is present (pi's `model_change`).
    pub has_model_id: bool,
    /// Whether a `model` field is present (oh-my-pi's `model_change`).
    pub has_model: bool,
    /// Whether a `fromHook` field is present (pi's summaries).
    pub has_from_hook: bool,
    /// Whether a `provider` field is present (pi's `model_change`, with `modelId`).
    pub has_provider: bool,
    /// Whether `message` is an object whose `role` is `"system"` (pi's system messages,
    /// CHANGES R1).
    pub system_message: bool,
    /// The fields of labels, archives and name records, when the line has any of their keys
    /// ([`Envelope::marks`]). They are kept apart because every line's envelope is moved
    /// several times on its way into the index, and few lines have them: inline, they
    /// doubled its size.
    pub marks: Option<Box<Marks<'a>>>,
}

/// The fields of an [`Envelope`] that only a few record types have.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Marks<'a> {
    /// `targetId` of `label` and `archive` records.
    pub target_id: Option<EntryId>,
    /// The raw JSON of `label` (a label value need not be a string).
    pub label: Option<Cow<'a, str>>,
    /// `archived` of `archive` records.
    pub archived: Option<bool>,
    /// `title` (of `title_change`), when a string.
    pub title: Option<Cow<'a, str>>,
    /// `source` (of `title_change`: `auto` or `user`), when a string.
    pub source: Option<Cow<'a, str>>,
    /// `name` (of pi's `session_info`), when a string.
    pub name: Option<Cow<'a, str>>,
}

/// The marks of a line that has none.
static NO_MARKS: Marks<'static> =
    Marks { target_id: None, label: None, archived: None, title: None, source: None, name: None };

impl<'a> Envelope<'a> {
    /// The fields of labels, archives and name records (all `None` on other lines).
    pub fn marks(&self) -> &Marks<'a> {
        self.marks.as_deref().unwrap_or(&NO_MARKS)
    }

    /// The marks to set, made on the first one.
    fn marks_mut(&mut self) -> &mut Marks<'a> {
        self.marks.get_or_insert_default()
    }
}

impl Envelope<'_> {
    /// The envelope with every borrowed field copied, to outlive the line it was read from.
    pub fn into_owned(self) -> Envelope<'static> {
        fn own(text: Option<Cow<'_, str>>) -> Option<Cow<'static, str>> {
            text.map(|t| Cow::Owned(t.into_owned()))
        }
        Envelope {
            is_object: self.is_object,
            // The known types (nearly every line) need no copy.
            kind: self.kind.map(|k| match crate::format::Kind::known_name(k.as_bytes()) {
                Some(name) => Cow::Borrowed(name),
                None => Cow::Owned(k.into_owned()),
            }),
            id: self.id,
            parent_id: self.parent_id,
            timestamp: own(self.timestamp),
            has_model_id: self.has_model_id,
            has_model: self.has_model,
            has_from_hook: self.has_from_hook,
            has_provider: self.has_provider,
            system_message: self.system_message,
            marks: self.marks.map(|m| {
                Box::new(Marks {
                    target_id: m.target_id,
                    label: own(m.label),
                    archived: m.archived,
                    title: own(m.title),
                    source: own(m.source),
                    name: own(m.name),
                })
            }),
        }
    }
}

/// Why a line is not a record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ScanError {
    /// serde_json's description of the problem.
    pub message: String,
    /// Whether the line simply ends too early (a torn write).
    pub eof: bool,
}

/// Scans one line (without its newline) into its envelope.
pub fn scan_envelope(line: &[u8]) -> Result<Envelope<'_>, ScanError> {
    scan_envelope_depth(&mut Scanner::new(), line).map(|(env, _)| env)
}

/// [`scan_envelope`] with buffers kept from line to line, also telling how deep the line nests (the top-level object is 1)
/// when the scanner walked it; `None` when serde_json read it instead.
pub(crate) fn scan_envelope_depth<'a>(
    scanner: &mut Scanner,
    line: &'a [u8],
) -> Result<(Envelope<'a>, Option<usize>), ScanError> {
    let first = line.iter().position(|c| !matches!(c, b' ' | b'\t' | b'\n' | b'\r'));
    if first.is_some_and(|i| line[i] == b'{')
        && let Ok(env) = fast_envelope(scanner, line)
    {
        return Ok((env, Some(1 + scanner.deepest())));
    }
    serde_envelope(line).map(|env| (env, None))
}

/// The envelope of an object line through the scanner.
fn fast_envelope<'a>(scanner: &mut Scanner, bytes: &'a [u8]) -> Scan<Envelope<'a>> {
    let (line, stack) = scanner.index(bytes)?;
    envelope_in(&line, stack)
}

/// The envelope of an object line the scanner indexed.
pub(crate) fn envelope_in<'a>(line: &Line<'a, '_>, stack: &mut Vec<bool>) -> Scan<Envelope<'a>> {
    let mut env = Envelope { is_object: true, ..Envelope::default() };
    let start = line.ws(0);
    let end = line.object(start, |line, key, value| {
        let after = line.skip_value(value, stack)?;
        // Keys with escapes are rare, and decoded to compare (`"t\u0079pe"` is `type`).
        env.member(line, &crate::json::pick::key(line, key)?, value, after)?;
        Ok(after)
    })?;
    line.end(end)?;
    Ok(env)
}

impl<'a> Envelope<'a> {
    /// Takes one member of the line's object, by its key (escapes decoded) and its value's
    /// span: also for another reader that walks the line (the row scan of [`crate::row`]),
    /// which so reads the same envelope as the scanner's own walk.
    pub(crate) fn member(
        &mut self,
        line: &Line<'a, '_>,
        name: &[u8],
        value: usize,
        after: usize,
    ) -> Scan<()> {
        // Later duplicate keys win, as in JSON.parse.
        match name {
            b"type" => self.kind = kind_value(line, value, after)?,
            b"id" => self.id = id_value(line, value, after)?,
            b"parentId" => self.parent_id = id_value(line, value, after)?,
            b"timestamp" => self.timestamp = string_value(line, value, after)?,
            b"targetId" => self.marks_mut().target_id = id_value(line, value, after)?,
            b"label" => self.marks_mut().label = Some(Cow::Borrowed(line.raw(value, after)?)),
            b"archived" => self.marks_mut().archived = Some(line.raw(value, after)? == "true"),
            b"title" => self.marks_mut().title = string_value(line, value, after)?,
            b"source" => self.marks_mut().source = string_value(line, value, after)?,
            b"name" => self.marks_mut().name = string_value(line, value, after)?,
            b"modelId" => self.has_model_id = true,
            b"model" => self.has_model = true,
            b"fromHook" => self.has_from_hook = true,
            b"provider" => self.has_provider = true,
            b"message" => self.system_message = system_role(line, value),
            _ => {}
        }
        Ok(())
    }
}

/// Whether the value at `start` is an object whose `role` is `"system"`. The walk stops at
/// `role` (a message's first key as the agents write it), before the content.
fn system_role(line: &Line<'_, '_>, start: usize) -> bool {
    // The agents write `{"role":"…"` first, compactly: that is read by its bytes alone.
    const ROLE: &[u8] = br#"{"role":""#;
    if line.has_at(start, ROLE) {
        let at = start + ROLE.len();
        if line.has_at(at, br#"system""#) {
            return true;
        }
        // Another role, unless it is written with escapes: those are decoded below.
        let stop = (at..).find(|&i| matches!(line.at(i), Some(b'"' | b'\\') | None));
        if stop.is_some_and(|i| line.at(i) == Some(b'"')) {
            return false;
        }
    }
    let mut stack = Vec::new();
    let mut role = None;
    // Stopped by an error once `role` is read; a malformed value reads as no role.
    let _ = line.object(start, |line, key, value| {
        let end = line.skip_value(value, &mut stack)?;
        if crate::json::pick::key(line, key)?.as_ref() == b"role" {
            role =
                Some(line.at(value) == Some(b'"') && line.text((value + 1, end - 1))? == "system");
            return Err(crate::json::scan::Invalid);
        }
        Ok(end)
    });
    role == Some(true)
}

/// A value kept only when it is a string, decoded.
fn string_value<'a>(line: &Line<'a, '_>, start: usize, end: usize) -> Scan<Option<Cow<'a, str>>> {
    if line.at(start) != Some(b'"') {
        return Ok(None);
    }
    line.text((start + 1, end - 1)).map(Some)
}

/// A `type` value: a known type's name as the static string, without decoding it (a known
/// name has neither escapes nor anything but ASCII); any other as [`string_value`].
fn kind_value<'a>(line: &Line<'a, '_>, start: usize, end: usize) -> Scan<Option<Cow<'a, str>>> {
    if line.at(start) == Some(b'"')
        && let Some(raw) = line.bytes.get(start + 1..end - 1)
        && let Some(name) = crate::format::Kind::known_name(raw)
    {
        return Ok(Some(Cow::Borrowed(name)));
    }
    string_value(line, start, end)
}

/// An id value as written.
fn id_value(line: &Line<'_, '_>, start: usize, end: usize) -> Scan<Option<EntryId>> {
    if line.at(start) == Some(b'"') {
        let span = (start + 1, end - 1);
        if !line.has_backslash(span)
            && let Some(id) = line.bytes.get(span.0..span.1).and_then(EntryId::inline_ascii)
        {
            return Ok(Some(id));
        }
        // A string that does not decode (a lone surrogate) fails here; serde_json then reads
        // the line and makes it an id-less record, as before.
        return Ok(Some(EntryId::new(line.text((start + 1, end - 1))?)));
    }
    Ok(EntryId::from_raw_json(line.raw(start, end)?))
}

/// The envelope through serde_json: every line that is not an object, and the lines the scanner
/// rejects, for serde_json's error message.
fn serde_envelope(line: &[u8]) -> Result<Envelope<'_>, ScanError> {
    let mut de = serde_json::Deserializer::from_slice(line);
    let mut env = (&mut de).deserialize_any(EnvelopeVisitor).map_err(scan_error)?;
    de.end().map_err(scan_error)?;
    // With `arbitrary_precision`, serde_json hands a number such as `1.5` over as a one-member
    // map: only a line that opens with `{` is an object.
    env.is_object &= line.trim_ascii_start().starts_with(b"{");
    Ok(env)
}

fn scan_error(e: serde_json::Error) -> ScanError {
    ScanError { eof: e.is_eof(), message: e.to_string() }
}

struct EnvelopeVisitor;

/// Takes a value as raw JSON and keeps it only when it is a string.
fn string_field<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Option<Cow<'de, str>>, A::Error> {
    let raw: &'de RawValue = map.next_value()?;
    if raw.get().starts_with('"') {
        let s: String = serde_json::from_str(raw.get()).map_err(de::Error::custom)?;
        Ok(Some(Cow::Owned(s)))
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
        while let Some(key) = map.next_key::<String>()? {
            // Later duplicate keys win, as in JSON.parse.
            match key.as_str() {
                "type" => env.kind = string_field(&mut map)?,
                "id" => env.id = id_field(&mut map)?,
                "parentId" => env.parent_id = id_field(&mut map)?,
                "timestamp" => env.timestamp = string_field(&mut map)?,
                "targetId" => env.marks_mut().target_id = id_field(&mut map)?,
                "label" => {
                    let raw: &'de RawValue = map.next_value()?;
                    env.marks_mut().label = Some(Cow::Borrowed(raw.get()));
                }
                "archived" => {
                    let raw: &'de RawValue = map.next_value()?;
                    env.marks_mut().archived = Some(raw.get() == "true");
                }
                "title" => env.marks_mut().title = string_field(&mut map)?,
                "source" => env.marks_mut().source = string_field(&mut map)?,
                "name" => env.marks_mut().name = string_field(&mut map)?,
                "message" => {
                    let message: serde_json::Value = map.next_value()?;
                    env.system_message = message.get("role").is_some_and(|r| r == "system");
                }
                other => {
                    match other {
                        "modelId" => env.has_model_id = true,
                        "model" => env.has_model = true,
                        "fromHook" => env.has_from_hook = true,
                        "provider" => env.has_provider = true,
                        _ => {}
                    }
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
    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(Envelope::default())
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Envelope::default())
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

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
    fn known_types_are_the_static_names_and_others_are_decoded() {
        fn kind(line: &str) -> Option<Cow<'_, str>> {
            scan_envelope(line.as_bytes()).unwrap().kind
        }
        let known = kind(r#"{"type":"model_change","id":"x"}"#);
        assert!(matches!(known, Some(Cow::Borrowed("model_change"))));
        // Escapes spell a known name too, and an unknown name is kept as written.
        assert_eq!(kind(r#"{"type":"mess\u0061ge"}"#).as_deref(), Some("message"));
        assert_eq!(kind(r#"{"type":"messages"}"#).as_deref(), Some("messages"));
        assert_eq!(kind(r#"{"type":1}"#), None);
    }

    /// Every line's envelope is moved several times on its way into the index: the fields few
    /// lines have stay out of it, and a line without them allocates nothing for them.
    #[test]
    fn marks_are_kept_apart_and_only_when_present() {
        // Inline, the marks alone would make it larger than this.
        assert!(std::mem::size_of::<Envelope<'static>>() < std::mem::size_of::<Marks<'static>>());
        let message = br#"{"type":"message","id":"a","parentId":null,"message":{"name":"x"}}"#;
        for env in [scan_envelope(message).unwrap(), serde_envelope(message).unwrap()] {
            assert_eq!(env.marks, None);
            assert_eq!(env.marks(), &Marks::default());
        }
        let archive = br#"{"type":"archive","targetId":"a","archived":true}"#;
        for env in [scan_envelope(archive).unwrap(), serde_envelope(archive).unwrap()] {
            assert_eq!(env.marks().target_id, Some(EntryId::new("a")));
            assert_eq!(env.marks().archived, Some(true));
            assert_eq!(env.clone().into_owned().marks(), env.marks());
        }
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
        assert_eq!(env.marks().target_id, Some(EntryId::from_non_string("7")));
        assert_eq!(env.marks().label.as_deref(), Some(r#"{"a":1}"#));
    }

    #[test]
    fn non_objects_are_records_without_fields() {
        // A number that is not an integer reaches serde_json's visitor as a one-member map.
        for line in [&b"[1,2]"[..], b"42", b" 1.5", b"-2e3", b"\"s\"", b"null", b"true"] {
            let env = scan_envelope(line).unwrap();
            assert!(!env.is_object);
            assert_eq!(env.id, None);
        }
        let marker = br#"{"$serde_json::private::Number":"5"}"#;
        assert!(scan_envelope(marker).unwrap().is_object);
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
        assert_eq!(env.marks().title.as_deref(), Some("Name"));
        assert_eq!(env.marks().source.as_deref(), Some("user"));
        let env = scan_envelope(br#"{"type":"title_change","source":{"x":1}}"#).unwrap();
        assert_eq!(env.marks().source, None);
    }

    #[test]
    fn escaped_keys_and_odd_values_match_serde_json() {
        for line in [
            &br#"{"t\u0079pe":"message","\u0069d":"a\"b","parentId":{"x":[1,2]}}"#[..],
            br#"{"id":"\ud800","type":"m"}"#,
            br#"{"type":"\ud800"}"#,
            br#"{"\ud800":1}"#,
            b"{\"type\":\"m\xff\",\"id\":\"a\"}",
            b"{\"x\xff\":\"\xfe\",\"id\":\"a\"}",
            br#"{"label":  {"a" : 1} ,"archived":true,"id":12.50}"#,
            br#" {"id":null,"parentId":"p"} "#,
        ] {
            let fast = scan_envelope(line);
            let serde = serde_envelope(line);
            match (&fast, &serde) {
                (Ok(f), Ok(s)) => assert_eq!(f, s),
                (Ok(f), Err(_)) => {
                    // Only invalid UTF-8 where serde_json looks and the scanner does not (a key
                    // it ignores); the loader's lossy reading then gives the same envelope.
                    let lossy = String::from_utf8_lossy(line);
                    assert_eq!(f, &serde_envelope(lossy.as_bytes()).unwrap());
                }
                (Err(f), Err(s)) => assert_eq!(f, s),
                (Err(_), Ok(_)) => panic!("fast path rejected {}", String::from_utf8_lossy(line)),
            }
        }
    }

    fn arb_line() -> impl Strategy<Value = Vec<u8>> {
        let key = prop_oneof![
            Just("type"),
            Just("id"),
            Just("parentId"),
            Just("timestamp"),
            Just("targetId"),
            Just("label"),
            Just("archived"),
            Just("title"),
            Just("source"),
            Just("name"),
            Just("source"),
            Just("modelId"),
            Just("model"),
            Just("fromHook"),
            Just("message"),
            Just("t\\u0079pe"),
            Just("x"),
        ];
        let members = proptest::collection::vec((key, crate::json::scan::arb_json()), 0..8);
        (members, any::<bool>(), any::<prop::sample::Index>(), any::<u8>()).prop_map(
            |(members, mutate, at, byte)| {
                let body: Vec<String> = members
                    .iter()
                    .map(|(k, v)| format!("\"{k}\":{}", serde_json::to_string(v).unwrap()))
                    .collect();
                let mut line = format!("{{{}}}", body.join(",")).into_bytes();
                if mutate {
                    let i = at.index(line.len());
                    line[i] = byte;
                }
                line
            },
        )
    }

    proptest! {
        /// The scanner and serde_json agree on every line: same envelope, or both reject.
        #[test]
        fn fast_path_agrees_with_serde_json(line in arb_line()) {
            let fast = fast_envelope(&mut Scanner::new(), &line);
            let serde = serde_envelope(&line);
            match (fast, serde) {
                (Ok(f), Ok(s)) => prop_assert_eq!(f, s),
                (Err(_), Err(_)) => {}
                (Ok(f), Err(_)) => {
                    let lossy = String::from_utf8_lossy(&line);
                    prop_assert!(std::str::from_utf8(&line).is_err());
                    prop_assert_eq!(Some(f), serde_envelope(lossy.as_bytes()).ok());
                }
                (Err(_), Ok(_)) => prop_assert!(false, "fast path rejected a line serde_json reads"),
            }
        }
    }

    /// pi's system messages (CHANGES R1): the compact `{"role":"…"` is read by its bytes, any
    /// other spelling by the walk; both paths agree.
    #[test]
    fn a_system_message_is_told_by_its_role_however_written() {
        let cases: &[(&str, bool)] = &[
            (r#"{"role":"system","content":"x"}"#, true),
            (r#"{"role":"user","content":"x"}"#, false),
            (r#"{"role":"systemic"}"#, false),
            (r#"{ "role" : "system" }"#, true),
            (r#"{"content":"x","role":"system"}"#, true),
            (r#"{"role":"sys\u0074em"}"#, true),
            (r#"{"role":"us\u0065r"}"#, false),
            (r#"{"role":7}"#, false),
            (r#"["system"]"#, false),
        ];
        for &(message, system) in cases {
            let line = format!(r#"{{"type":"message","id":"a","message":{message}}}"#);
            let fast = fast_envelope(&mut Scanner::new(), line.as_bytes()).unwrap();
            let serde = serde_envelope(line.as_bytes()).unwrap();
            assert_eq!((fast.system_message, serde.system_message), (system, system), "{message}");
        }
    }

    #[test]
    fn later_duplicate_keys_win() {
        let env = scan_envelope(br#"{"id":"a","id":"b"}"#).unwrap();
        assert_eq!(env.id, Some(EntryId::new("b")));
    }
}
