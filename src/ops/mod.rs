//! Tree operations that change a session. Each one returns a *plan* (the lines to append or
//! the file to write) and never touches the file itself: `store` does the writing, so every
//! operation can be tested without a filesystem and `--dry-run` is the plan printed. The
//! workflows the command and the tree selector share are here too: a checkout's hooks, summary
//! and append ([`checkout::run`]), a label's refusals and moves ([`label::set`]).

pub mod branch;
pub mod checkout;
pub mod images;
pub mod import;
pub mod label;
pub mod name;
pub mod prune;

use serde_json::{Map, Value};

use crate::id::EntryId;
use crate::session::Session;

/// Whether a candidate id for a new entry is already used in the file. Ids are compared by
/// their text, not only as strings: a new `12345678` must not shadow a numeric id whose REV
/// would then name two entries.
pub fn id_taken(session: &Session, candidate: &str) -> bool {
    session.lookup(&EntryId::new(candidate)).is_some()
        || session.lookup(&EntryId::from_non_string(candidate)).is_some()
}

/// The id new entries hang under: the current leaf, or none (a root) when the last record
/// has no id or there are no entries yet, as the agent's `parentId: leafId ?? null`.
pub fn leaf_id(session: &Session) -> Option<EntryId> {
    session.leaf().and_then(|idx| session.record(idx).id.clone())
}

/// Serialises a new entry the way the agents write one: `type, id, parentId, timestamp`, then
/// the payload fields in the order given (FORMAT §2 key orders).
pub(crate) fn entry_line(
    kind: &str,
    id: &str,
    parent: Option<&EntryId>,
    timestamp: &str,
    fields: Vec<(&str, Value)>,
) -> Vec<u8> {
    let mut m = Map::new();
    m.insert("type".into(), kind.into());
    m.insert("id".into(), id.into());
    m.insert("parentId".into(), parent.map_or(Value::Null, EntryId::to_value));
    m.insert("timestamp".into(), timestamp.into());
    for (k, v) in fields {
        m.insert(k.into(), v);
    }
    let mut line = serde_json::to_vec(&Value::Object(m)).unwrap_or_default();
    line.shrink_to_fit();
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_order_is_the_writers() {
        let line = entry_line(
            "label",
            "a1b2c3d4",
            Some(&EntryId::new("p")),
            "2026-01-01T00:00:00.000Z",
            vec![("targetId", "t".into()), ("label", "x".into())],
        );
        assert_eq!(
            String::from_utf8(line).unwrap(),
            r#"{"type":"label","id":"a1b2c3d4","parentId":"p","timestamp":"2026-01-01T00:00:00.000Z","targetId":"t","label":"x"}"#
        );
    }
}
