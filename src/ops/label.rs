//! `label`: set or remove the label of an entry (FORMAT §5 `appendLabelChange`).
//!
//! A label change is a `label` entry appended at the current leaf, not at its target, so the
//! leaf moves onto it; the label in effect is whatever the last such entry for the target says.
//! Removing a label omits the `label` field, as `appendLabelChange(id, undefined)` does (the
//! agent's selector turns an empty answer into `undefined`, so this is what the agents write).

use serde_json::Value;

use crate::error::{Error, Result};
use crate::id::EntryId;
use crate::id_gen::IdGen;
use crate::naming::js_trim;
use crate::ops::{entry_line, id_taken, leaf_id};
use crate::session::{Session, label_text, label_value};
use crate::terminal::sanitize_for_terminal as show;

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
/// [`leaf_id`], or another label entry planned before it).
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

/// A label set or removed, as `sesstree label` and the tree selector do it: the change, and
/// the lines to append.
#[derive(Debug, Clone, PartialEq)]
pub struct Labelling {
    /// The change of the target's label (the last line).
    pub change: LabelChange,
    /// The entries the label was moved from (with `force`): cleared first, each line under the
    /// one before it.
    pub moved_from: Vec<EntryId>,
    /// The lines to append, in order, without newlines.
    pub lines: Vec<Vec<u8>>,
}

/// Sets the label of the entry at `target` to `label` (normalized, [`normalize`]; `None`
/// removes it), at the current leaf. Refused (a usage error): a label that could never be
/// used as a REV ([`unusable`]); unless `force`, one that would be taken for an id
/// ([`id_like`]) or that another entry carries already; with `force`, the label is cleared
/// there first. New ids come from `ids`, checked against the file.
pub fn set(
    session: &Session,
    target: u32,
    label: Option<&str>,
    force: bool,
    ids: &mut IdGen,
    timestamp: &str,
) -> Result<Labelling> {
    if let Some(text) = label
        && let Some(why) = unusable(session, text)
    {
        let message = format!("the label \"{}\" could never be used as a REV: {why}", show(text));
        return Err(Error::Usage(message));
    }
    if let Some(text) = label
        && !force
        && let Some(why) = id_like(session, text)
    {
        let message = format!(
            "the label \"{}\" would be taken for an id: {why}; choose another name, or --force \
             to set it anyway (a REV that names both is then refused as ambiguous)",
            show(text)
        );
        return Err(Error::Usage(message));
    }
    let mut drawn: Vec<String> = Vec::new();
    let mut new_id = || {
        let id = ids.entry_id(|c| id_taken(session, c) || drawn.iter().any(|d| d == c));
        drawn.push(id.clone());
        id
    };
    let id = new_id();
    let mut change = plan(session, target, label, &id, timestamp, leaf_id(session))?;
    let mut lines = Vec::new();
    let mut moved_from = Vec::new();
    if !change.shared_with.is_empty() {
        if !force {
            let others: Vec<String> =
                change.shared_with.iter().map(|o| show(o.as_str()).into_owned()).collect();
            let message = format!(
                "the label \"{}\" is already on {}; --force moves it here",
                show(label.unwrap_or_default()),
                others.join(", ")
            );
            return Err(Error::Usage(message));
        }
        // Cleared where it was, then set here: each entry under the one before it.
        let mut parent = change.parent.clone();
        for other in change.shared_with.clone() {
            let Some(idx) = session.lookup(&other) else { continue };
            let clear_id = new_id();
            let clear = plan(session, idx, None, &clear_id, timestamp, parent.clone())?;
            lines.push(clear.line);
            parent = Some(EntryId::new(clear_id));
        }
        let id = new_id();
        moved_from = std::mem::take(&mut change.shared_with);
        change = plan(session, target, label, &id, timestamp, parent)?;
    }
    lines.push(change.line.clone());
    Ok(Labelling { change, moved_from, lines })
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

    #[test]
    fn setting_refuses_what_could_never_be_a_rev_and_asks_force_for_an_id_like_label() {
        let s = tree();
        let mut ids = IdGen::from_seed(1);
        let refused = |label, force, ids: &mut IdGen| {
            set(&s, 1, Some(label), force, ids, AT).unwrap_err().to_string()
        };
        assert!(refused("@", true, &mut ids).contains("could never be used as a REV"));
        assert!(refused("m1", true, &mut ids).contains("an entry's id"));
        assert!(refused("beef", false, &mut ids).contains("--force"));
        let forced = set(&s, 1, Some("beef"), true, &mut ids, AT).unwrap();
        assert_eq!(forced.lines, std::slice::from_ref(&forced.change.line));
        assert!(forced.moved_from.is_empty());
    }

    #[test]
    fn force_moves_a_label_from_the_entry_that_carries_it() {
        let s = tree();
        let err = set(&s, 1, Some("start"), false, &mut IdGen::from_seed(1), AT).unwrap_err();
        assert!(err.to_string().contains("is already on m1; --force moves it here"), "{err}");

        let moved = set(&s, 1, Some("start"), true, &mut IdGen::from_seed(1), AT).unwrap();
        assert_eq!(moved.moved_from, [EntryId::new("m1")]);
        // The clearing first, at the leaf; the label under it.
        let lines: Vec<serde_json::Value> =
            moved.lines.iter().map(|l| serde_json::from_slice(l).unwrap()).collect();
        assert_eq!(lines.len(), 2);
        assert_eq!((lines[0]["targetId"].as_str(), lines[0].get("label")), (Some("m1"), None));
        assert_eq!(lines[0]["parentId"], "l3");
        assert_eq!(lines[1]["parentId"], lines[0]["id"]);
        assert_eq!(
            (lines[1]["targetId"].as_str(), lines[1]["label"].as_str()),
            (Some("m2"), Some("start"))
        );
        assert_eq!(moved.change.line, moved.lines[1]);
    }
}
