//! `label`: set or remove the label of an entry (FORMAT §5 `appendLabelChange`).
//!
//! A label change is a `label` entry appended at the current leaf, not at its target, so the
//! leaf moves onto it; the label in effect is whatever the last such entry for the target says.
//! Removing a label omits the `label` field, as `appendLabelChange(id, undefined)` does (the
//! agent's selector turns an empty answer into `undefined`, so this is what the agents write).

use serde_json::Value;

use crate::error::{Error, Result};
use crate::id::EntryId;
use crate::naming::js_trim;
use crate::ops::entry_line;
use crate::session::{Session, label_text, label_value};

/// One planned label change.
#[derive(Debug, Clone, PartialEq)]
pub struct LabelChange {
    /// The id of the new `label` entry.
    pub id: String,
    /// Its parent: the current leaf (`None` when the file has no leaf).
    pub parent: Option<EntryId>,
    /// The labelled entry.
    pub target: EntryId,
    /// The new label; `None` removes it.
    pub label: Option<String>,
    /// The label in effect before, as display text.
    pub previous: Option<String>,
    /// Other entries that carry the same label text; `REV` = the label then names only the
    /// first of them in label-map order.
    pub shared_with: Vec<EntryId>,
    /// The line to append (without its newline).
    pub line: Vec<u8>,
}

/// The label a TEXT asks for: trimmed as the agent's selector trims its input; nothing left
/// means "remove".
pub fn normalize(text: Option<&str>) -> Option<String> {
    text.map(js_trim).filter(|t| !t.is_empty()).map(str::to_owned)
}

/// Plans the label change of the entry at `target` (a record index from `rev::resolve`):
/// `label` is the normalized text (`None` removes the label), `id` the new entry's id,
/// `timestamp` its time, `parent` the entry it hangs under (the current leaf,
/// [`leaf_id`](crate::ops::leaf_id), or another label entry planned before it).
pub fn plan(
    session: &Session,
    target: u32,
    label: Option<&str>,
    id: &str,
    timestamp: &str,
    parent: Option<EntryId>,
) -> Result<LabelChange> {
    let record = session.record(target);
    let target_id = record.id.clone().ok_or_else(|| {
        Error::Usage(format!("the record on line {} has no id; it cannot be labelled", record.line))
    })?;
    let mut fields = vec![("targetId", target_id.to_value())];
    fields.extend(label.map(|text| ("label", Value::from(text))));
    let line = entry_line("label", id, parent.as_ref(), timestamp, fields);
    let shared_with = session
        .labels()
        .iter()
        .filter(|(t, raw)| *t != target_id && label.is_some_and(|text| label_text(raw) == text))
        .filter(|(t, _)| session.lookup(t).is_some())
        .map(|(t, _)| t.clone())
        .collect();
    Ok(LabelChange {
        id: id.to_owned(),
        parent,
        previous: session.label_of(&target_id),
        target: target_id,
        label: label.map(str::to_owned),
        shared_with,
        line,
    })
}

/// Why a label `text` (normalized) could never name its entry as a REV, if it could not: `@`
/// and `-` are REVs of their own, an entry's id wins over a label, and control characters
/// cannot be typed back.
pub fn unusable(session: &Session, text: &str) -> Option<String> {
    match text {
        "@" => Some("`@` names the current leaf".into()),
        "-" => Some("`-` names where the latest move came from".into()),
        _ if text.chars().any(char::is_control) => Some("it holds control characters".into()),
        _ if session.lookup(&EntryId::new(text)).is_some() => {
            Some(format!("{text} is an entry's id, which a REV names first"))
        }
        _ => None,
    }
}

/// Why a label `text` (normalized) would be taken for an id, if it would: it is the start of
/// an entry's id (as long as the shortest id prefix a REV may use, or longer), or it looks like
/// one (that many lower-case hex digits and nothing else), so a REV naming it is ambiguous now,
/// or could be once the agent writes an entry whose id starts with it. `label` refuses it
/// unless --force.
pub fn id_like(session: &Session, text: &str) -> Option<String> {
    if text.chars().count() < crate::rev::MIN_PREFIX {
        return None;
    }
    let mut prefixed: Vec<&str> =
        session.ids().map(|(id, _)| id.as_str()).filter(|id| id.starts_with(text)).collect();
    prefixed.sort_unstable();
    if let Some(first) = prefixed.first() {
        return Some(format!("it is the start of the id of entry {first}"));
    }
    // Both agents write ids in lower-case hex (a UUID's end or start), and a REV's prefix is
    // matched case for case: `BEEF` can never be taken for one.
    text.chars()
        .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c))
        .then(|| "it looks like the start of an entry id (hex digits only)".to_owned())
}

/// The labels in effect whose target exists, in the order of the agent's label map:
/// `(target index, target id, label as the JSON value it was written as)`.
pub fn list(session: &Session) -> Vec<(u32, EntryId, Value)> {
    session
        .labels()
        .iter()
        .filter_map(|(target, raw)| {
            Some((session.lookup(target)?, target.clone(), label_value(raw)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::ops::leaf_id;

    const HEADER: &str = r#"{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}"#;
    const AT: &str = "2026-03-01T12:00:00.000Z";

    fn load(lines: &[&str]) -> Session {
        Session::from_bytes(Path::new("t.jsonl"), lines.join("\n").into_bytes()).unwrap()
    }

    fn at_leaf(s: &Session, target: u32, label: Option<&str>, id: &str) -> LabelChange {
        plan(s, target, label, id, AT, leaf_id(s)).unwrap()
    }

    fn tree() -> Session {
        load(&[
            HEADER,
            r#"{"type":"message","id":"m1","parentId":null,"timestamp":"t"}"#,
            r#"{"type":"message","id":"m2","parentId":"m1","timestamp":"t"}"#,
            r#"{"type":"label","id":"l1","parentId":"m2","timestamp":"t","targetId":"m1","label":"start"}"#,
            r#"{"type":"label","id":"l2","parentId":"l1","timestamp":"t","targetId":"gone","label":"lost"}"#,
            r#"{"type":"label","id":"l3","parentId":"l2","timestamp":"t","targetId":"m2","label":{"n":1}}"#,
        ])
    }

    #[test]
    fn a_label_hangs_at_the_leaf_and_names_its_target() {
        let s = tree();
        let change = at_leaf(&s, 1, Some("next"), "abcd1234");
        assert_eq!(
            String::from_utf8(change.line).unwrap(),
            r#"{"type":"label","id":"abcd1234","parentId":"l3","timestamp":"2026-03-01T12:00:00.000Z","targetId":"m2","label":"next"}"#
        );
        assert_eq!(change.parent, Some(EntryId::new("l3")));
        assert_eq!(change.previous.as_deref(), Some(r#"{"n":1}"#));
    }

    #[test]
    fn removing_omits_the_field() {
        let change = at_leaf(&tree(), 0, None, "abcd1234");
        let line = String::from_utf8(change.line).unwrap();
        assert!(line.ends_with(r#""targetId":"m1"}"#), "{line}");
        assert_eq!(change.previous.as_deref(), Some("start"));
    }

    #[test]
    fn text_is_trimmed_and_empty_removes() {
        assert_eq!(normalize(Some("  cp 1 \t")).as_deref(), Some("cp 1"));
        assert_eq!(normalize(Some("\u{feff} \u{a0}")), None);
        assert_eq!(normalize(Some("")), None);
        assert_eq!(normalize(None), None);
        // Inner white space is the user's.
        assert_eq!(normalize(Some("a  b")).as_deref(), Some("a  b"));
    }

    #[test]
    fn numeric_targets_stay_numbers() {
        let s = load(&[HEADER, r#"{"type":"message","id":7,"parentId":null}"#]);
        let line = String::from_utf8(at_leaf(&s, 0, Some("x"), "abcd1234").line).unwrap();
        assert!(line.contains(r#""parentId":7,"#) && line.contains(r#""targetId":7,"#), "{line}");
    }

    #[test]
    fn a_file_without_a_leaf_gets_a_root() {
        let s = load(&[HEADER, r#"{"type":"message","id":"m1","parentId":null}"#, "[1]"]);
        let change = at_leaf(&s, 0, Some("x"), "abcd1234");
        assert_eq!(change.parent, None);
        assert!(String::from_utf8(change.line).unwrap().contains(r#""parentId":null"#));
    }

    #[test]
    fn shared_labels_are_reported() {
        let s = tree();
        assert_eq!(at_leaf(&s, 1, Some("start"), "x").shared_with, [EntryId::new("m1")]);
        // Relabelling the same entry, or a label on a missing entry, is not sharing.
        assert!(at_leaf(&s, 0, Some("start"), "x").shared_with.is_empty());
        assert!(at_leaf(&s, 0, Some("lost"), "x").shared_with.is_empty());
    }

    #[test]
    fn id_like_labels_are_named() {
        let s = load(&[
            HEADER,
            r#"{"type":"message","id":"fa60d15c","parentId":null}"#,
            r#"{"type":"message","id":"8a41d0e6","parentId":"fa60d15c"}"#,
        ]);
        let why = |t| id_like(&s, t);
        assert_eq!(why("fa60").as_deref(), Some("it is the start of the id of entry fa60d15c"));
        assert_eq!(why("8a41d0").as_deref(), Some("it is the start of the id of entry 8a41d0e6"));
        let hex = Some("it looks like the start of an entry id (hex digits only)");
        assert_eq!(why("cafe").as_deref(), hex);
        assert_eq!(why("2024").as_deref(), hex);
        // Shorter than a prefix may be, or not hex: a name like any other.
        for name in ["fa6", "abc", "cafe-1", "Let's", "checkpoint", "face off", "BEEF"] {
            assert_eq!(why(name), None, "{name}");
        }
    }

    #[test]
    fn listing_skips_missing_targets_and_keeps_raw_values() {
        let listed: Vec<_> =
            list(&tree()).into_iter().map(|(i, t, v)| (i, t.as_str().to_owned(), v)).collect();
        assert_eq!(
            listed,
            vec![
                (0, "m1".to_owned(), Value::from("start")),
                (1, "m2".to_owned(), serde_json::json!({"n": 1})),
            ]
        );
    }
}
