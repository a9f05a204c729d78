//! `migrate`: brings a session file to version 3 (FORMAT §11).
//!
//! * v1 → v2: every record gets an `id` and a `parentId` chaining the records in file order,
//!   and a compaction's `firstKeptEntryIndex` (which counts the header as record 0) becomes
//!   `firstKeptEntryId`. The ids are the ones the loader already gives a v1 file in memory
//!   ([`crate::format::v1`]): migrating writes down exactly what `log` showed before, and the
//!   same file always migrates to the same bytes.
//! * v2 → v3: a `message` whose role is `hookMessage` gets the role `custom`.
//! * The header's `version` becomes 3. Versions 3 and 4 are current: nothing to do (4 is read
//!   as 3, and writing it back as 3 would only lose the agent's own marker). Above 4: refused.
//!
//! Only the members a step adds or changes are written anew; everything else in a line, its
//! unknown fields, key order and number formatting, stays byte for byte, and so do the lines no
//! step touches (title slot, blank and damaged lines included: repairing is `fsck --repair`'s
//! business). The new `id` and `parentId` go right after `type`, where the agents write them.
//! Where the reference deletes a `firstKeptEntryIndex` it cannot convert (one naming the header
//! or no record), sesstree keeps it: there is nothing to put in its place, and the agents
//! ignore the field.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::error::{Error, Result};
use crate::format::{Kind, WRITE_VERSION};
use crate::id::EntryId;
use crate::json::members::{Edit, Members, apply, decode_string, members};
use crate::session::Session;

/// What a migration does to one file, with the resulting bytes.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The version the file declares.
    pub from_version: u64,
    /// The version it has afterwards (unchanged for a current file).
    pub to_version: u64,
    /// Whether anything changes.
    pub changed: bool,
    /// Records that got an id and a parent (v1 → v2).
    pub ids_added: usize,
    /// Compactions whose `firstKeptEntryIndex` became a `firstKeptEntryId`.
    pub indexes_converted: usize,
    /// Messages whose `hookMessage` role became `custom` (v2 → v3).
    pub roles_renamed: usize,
    /// The whole migrated file (the original bytes when nothing changes).
    pub bytes: Vec<u8>,
}

impl Plan {
    /// The `--json` object of SPEC §5: `{"fromVersion", "toVersion", "changed", "backup"}`.
    pub fn to_json(&self, backup: Option<&Path>) -> Value {
        serde_json::json!({
            "fromVersion": self.from_version,
            "toVersion": self.to_version,
            "changed": self.changed,
            "backup": backup.map(|b| b.display().to_string()),
        })
    }
}

/// Computes the migration of a loaded session. Fails for an empty file, a file without a
/// header, and a version newer than sesstree knows.
pub fn plan(session: &Session) -> Result<Plan> {
    let header = session.require_known_header()?;
    let src = session.read_range(0, session.file_len)?;
    let from = header.version;
    let mut plan = Plan {
        from_version: from,
        to_version: from.max(WRITE_VERSION),
        changed: from < WRITE_VERSION,
        ids_added: 0,
        indexes_converted: 0,
        roles_renamed: 0,
        bytes: Vec::new(),
    };
    if !plan.changed {
        plan.bytes = src;
        return Ok(plan);
    }

    // (offset, length, new bytes) of every line that changes, in file order.
    let mut splices: Vec<(usize, usize, Vec<u8>)> = Vec::new();
    let (offset, len) = (header.offset as usize, header.len as usize);
    let line = &src[offset..offset + len];
    let hm = members(line).ok_or_else(|| damaged(session, header.line))?;
    splices.push((offset, len, apply(line, set_version(&hm))));

    for r in &session.records {
        let (offset, len) = (r.offset as usize, r.len as usize);
        let line = &src[offset..offset + len];
        // A record that is not an object gets no id from the loader either.
        let Some(m) = members(line) else { continue };
        let mut edits = Vec::new();
        if from < 2
            && let Some(id) = &r.id
        {
            edits.extend(set_ids(&m, id, r.parent_id.as_ref()));
            plan.ids_added += 1;
            if r.kind == Kind::Compaction
                && let Some(e) = convert_index(session, line, &m)
            {
                edits.extend(e);
                plan.indexes_converted += 1;
            }
        }
        if r.kind == Kind::Message
            && let Some(e) = rename_hook_role(line, &m)
        {
            edits.extend(e);
            plan.roles_renamed += 1;
        }
        if !edits.is_empty() {
            splices.push((offset, len, apply(line, edits)));
        }
    }

    let mut out = Vec::with_capacity(src.len() + splices.len() * 48);
    let mut at = 0;
    for (offset, len, text) in splices {
        out.extend_from_slice(&src[at..offset]);
        out.extend_from_slice(&text);
        at = offset + len;
    }
    out.extend_from_slice(&src[at..]);
    plan.bytes = out;
    Ok(plan)
}

/// The error for a line that no longer parses as it did when the session was loaded.
pub(crate) fn damaged(session: &Session, line: u64) -> Error {
    Error::Damaged {
        path: session.path.clone(),
        line,
        message: "the line changed since it was read".into(),
    }
}

/// An id as the JSON it is written as.
pub(crate) fn id_json(id: &EntryId) -> String {
    id.to_value().to_string()
}

/// The header's `version` set to 3: every `version` member (a repeated key must not bring the
/// old value back), or a new one right after `type`, where the writers put it.
fn set_version(m: &Members) -> Vec<Edit> {
    let v = WRITE_VERSION.to_string();
    let edits: Vec<Edit> = m.all("version").map(|member| Edit::set_value(member, &v)).collect();
    if edits.is_empty() { vec![Edit::insert(m, m.first("type"), &[("version", v)])] } else { edits }
}

/// `id` and `parentId` written into a v1 record: existing members get the new values (the
/// loader ignores ids a v1 record may carry), missing ones go after the `id`, or else after
/// `type`.
fn set_ids(m: &Members, id: &EntryId, parent: Option<&EntryId>) -> Vec<Edit> {
    let id = id_json(id);
    let parent = parent.map_or_else(|| "null".to_string(), id_json);
    let mut edits: Vec<Edit> = m.all("id").map(|member| Edit::set_value(member, &id)).collect();
    edits.extend(m.all("parentId").map(|member| Edit::set_value(member, &parent)));
    // Spans of members, for a byte-preserving edit.
    let anchor = m.get("id").or(m.first("type"));
    let missing: Vec<_> = [("id", id), ("parentId", parent)]
        .into_iter()
        .filter(|(k, _)| m.get(k).is_none())
        .collect();
    if !missing.is_empty() {
        edits.push(Edit::insert(m, anchor, &missing));
    }
    edits
}

/// A compaction's `firstKeptEntryIndex` turned into `firstKeptEntryId` in place (the member
/// keeps its position); one whose index names no id (`Session::first_kept_target`) is kept.
fn convert_index(session: &Session, line: &[u8], m: &Members) -> Option<Vec<Edit>> {
    let pos = m.list.iter().rposition(|member| member.key == "firstKeptEntryIndex")?;
    let member = &m.list[pos];
    let index: Value = serde_json::from_slice(&line[member.value_start..member.value_end]).ok()?;
    let id = id_json(session.first_kept_target(&index)?);
    // Spans of members, for a byte-preserving edit.
    Some(match m.get("firstKeptEntryId") {
        Some(existing) => vec![Edit::set_value(existing, &id), Edit::remove(m, pos)],
        None => vec![Edit {
            start: member.start,
            end: member.value_end,
            text: format!("\"firstKeptEntryId\":{id}").into_bytes(),
        }],
    })
}

/// A `message` line of a file below version 3 as version 3 has it: its `hookMessage` role
/// renamed `custom`, every other byte kept; `None` when it needs no change. For writers that
/// copy such lines under a version-3 header (`branch`).
pub(crate) fn message_at_v3(line: &[u8]) -> Option<Vec<u8>> {
    let m = members(line)?;
    Some(apply(line, rename_hook_role(line, &m)?))
}

/// The role of a `hookMessage` message renamed to `custom`. Every `role` member of the message
/// is rewritten when the one that counts (the last) is `hookMessage`.
fn rename_hook_role(line: &[u8], m: &Members) -> Option<Vec<Edit>> {
    // Spans of members, for a byte-preserving edit.
    let message = m.get("message")?;
    let base = message.value_start;
    let inner = members(&line[base..message.value_end])?;
    let role = inner.get("role")?;
    if decode_string(&line[base + role.value_start..base + role.value_end]) != "hookMessage" {
        return None;
    }
    Some(
        inner
            .all("role")
            .map(|r| Edit {
                start: base + r.value_start,
                end: base + r.value_end,
                text: b"\"custom\"".to_vec(),
            })
            .collect(),
    )
}

/// Where the original is kept: `FILE.bak`.
pub fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".bak");
    PathBuf::from(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn load(text: &[u8]) -> Session {
        Session::from_bytes(Path::new("t.jsonl"), text.to_vec()).unwrap()
    }

    fn migrate(text: &[u8]) -> Plan {
        plan(&load(text)).unwrap()
    }

    const V1: &str = concat!(
        r#"{"type":"session","id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}"#,
        "\n",
        r#"{"type":"message","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"}}"#,
        "\n",
        r#"{"type":"message","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"hookMessage","content":"x","n":1.50}}"#,
        "\n",
        r#"{"type":"compaction","summary":"s","firstKeptEntryIndex":2,"tokensBefore":5}"#,
        "\n",
        r#"{"type":"compaction","summary":"h","firstKeptEntryIndex":0,"tokensBefore":5}"#,
        "\n"
    );

    #[test]
    fn v1_gets_the_ids_the_loader_gives_it() {
        let before = load(V1.as_bytes());
        let p = migrate(V1.as_bytes());
        assert_eq!((p.from_version, p.to_version, p.changed), (1, 3, true));
        assert_eq!((p.ids_added, p.indexes_converted, p.roles_renamed), (4, 1, 1));
        let after = load(&p.bytes);
        assert_eq!(after.version(), 3);
        assert!(after.diagnostics.is_empty(), "{:?}", after.diagnostics);
        for (a, b) in before.records.iter().zip(&after.records) {
            assert_eq!((&a.id, &a.parent_id), (&b.id, &b.parent_id));
        }
        let ids: Vec<_> = before.records.iter().map(|r| r.id.clone().unwrap()).collect();
        let text = String::from_utf8(p.bytes.clone()).unwrap();
        let lines: Vec<_> = text.lines().collect();
        assert_eq!(
            lines[0],
            r#"{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}"#
        );
        assert_eq!(
            lines[3],
            format!(
                r#"{{"type":"compaction","id":"{}","parentId":"{}","summary":"s","firstKeptEntryId":"{}","tokensBefore":5}}"#,
                ids[2], ids[1], ids[1]
            )
        );
        // The header is record 0: its index is not converted, and the field is kept.
        assert!(lines[4].contains(r#""firstKeptEntryIndex":0"#), "{}", lines[4]);
        // Number formatting inside payloads survives.
        assert!(lines[2].contains(r#""role":"custom","content":"x","n":1.50"#), "{}", lines[2]);
        // The loader's in-memory view equals the migrated file's, the v3 role rename aside.
        for i in [0, 2, 3] {
            assert_eq!(before.value(i).unwrap(), after.value(i).unwrap());
        }
        assert_eq!(after.value(1).unwrap()["message"]["role"], "custom");
    }

    #[test]
    fn migration_is_idempotent_and_current_files_are_left_alone() {
        let p = migrate(V1.as_bytes());
        let again = migrate(&p.bytes);
        assert!(!again.changed);
        assert_eq!(again.bytes, p.bytes);
        assert_eq!(migrate(V1.as_bytes()).bytes, p.bytes, "deterministic");
        let v4 = b"{\"type\":\"session\",\"version\":4,\"id\":\"s\"}\n";
        let p = migrate(v4);
        assert_eq!((p.from_version, p.to_version, p.changed), (4, 4, false));
    }

    #[test]
    fn v2_renames_hook_messages_only() {
        let text = concat!(
            r#"{"type":"session","version":"2","id":"s"}"#,
            "\n",
            r#"{"type":"message","id":"a","parentId":null,"message":{"role":"hookMessage","content":"x"}}"#,
            "\n",
            r#"{"type":"custom","data":{"role":"hookMessage"},"id":"b","parentId":"a"}"#,
            "\n",
            "{broken\n"
        );
        let p = migrate(text.as_bytes());
        assert_eq!((p.ids_added, p.roles_renamed), (0, 1));
        let expected = text.replacen(r#""version":"2""#, r#""version":3"#, 1).replacen(
            r#""role":"hookMessage","content""#,
            r#""role":"custom","content""#,
            1,
        );
        assert_eq!(String::from_utf8(p.bytes).unwrap(), expected);
    }

    #[test]
    fn v1_records_with_stray_ids_and_odd_shapes() {
        let text = concat!(
            "{\"type\":\"session\",\"id\":\"s\"}\n",
            "{\"type\":\"message\",\"id\":\"old\",\"x\":1}\n",
            "[1,2]\n",
            "\n",
            "{\"parentId\":\"p\",\"type\":\"label\"}\n",
            "{}"
        );
        let before = load(text.as_bytes());
        let p = migrate(text.as_bytes());
        let after = load(&p.bytes);
        let ids = |s: &Session| -> Vec<_> {
            s.records.iter().map(|r| (r.id.clone(), r.parent_id.clone())).collect()
        };
        assert_eq!(ids(&before), ids(&after));
        let text = String::from_utf8(p.bytes).unwrap();
        let lines: Vec<_> = text.split('\n').collect();
        assert_eq!(lines[2], "[1,2]");
        assert_eq!(lines[3], "");
        assert!(lines[4].starts_with("{\"parentId\":\""), "{}", lines[4]);
        assert!(lines[5].starts_with("{\"id\":\""), "{}", lines[5]);
        assert!(!text.ends_with('\n'), "the missing final newline is fsck's business");
    }

    #[test]
    fn refusals() {
        assert!(matches!(plan(&load(b"")), Err(Error::Empty { .. })));
        assert!(matches!(plan(&load(b"{\"type\":\"message\"}\n")), Err(Error::NoHeader { .. })));
        let too_new = b"{\"type\":\"session\",\"version\":5,\"id\":\"s\"}\n";
        assert!(matches!(plan(&load(too_new)), Err(Error::TooNew { version: 5, .. })));
    }

    /// A v1 record: a type, some payload with awkward text, maybe a compaction index.
    fn record() -> impl Strategy<Value = String> {
        let text = prop_oneof![
            Just("plain".to_string()),
            Just("quote \\\" and \\\\ slash".to_string()),
            Just("ünïcødé ✓ \\u00e9".to_string()),
            "[a-z ]{0,12}",
        ];
        let role = prop_oneof![Just("user"), Just("assistant"), Just("hookMessage")];
        prop_oneof![
            (role, text.clone()).prop_map(|(role, t)| format!(
                r#"{{"type":"message","timestamp":"2026-01-01T00:00:01.000Z","message":{{"role":"{role}","content":"{t}"}}}}"#
            )),
            (0u32..12, text.clone())
                .prop_map(|(i, t)| format!(r#"{{"type":"compaction","summary":"{t}","firstKeptEntryIndex":{i},"tokensBefore":1}}"#)),
            text.prop_map(|t| format!(r#"{{ "type" : "model_change", "provider":"{t}", "n": 1e3 }}"#)),
            Just("{\"type\":\"message\",\"id\":\"x\",\"parentId\":\"y\"}".to_string()),
            // Only compactions have their index converted, by the loader and by migrate alike.
            Just("{\"type\":\"message\",\"firstKeptEntryIndex\":1}".to_string()),
            Just(String::new()),
            Just("{not json".to_string()),
            Just("7".to_string()),
        ]
    }

    proptest! {
        #[test]
        fn migrate_is_idempotent_and_deterministic(records in prop::collection::vec(record(), 0..12)) {
            let mut text = String::from(r#"{"type":"session","id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}"#);
            for r in &records {
                text.push('\n');
                text.push_str(r);
            }
            text.push('\n');
            let before = load(text.as_bytes());
            let first = migrate(text.as_bytes());
            prop_assert_eq!(&migrate(text.as_bytes()).bytes, &first.bytes);
            let after = load(&first.bytes);
            prop_assert_eq!(after.version(), 3);
            let again = plan(&after).unwrap();
            prop_assert!(!again.changed);
            prop_assert_eq!(&again.bytes, &first.bytes);
            prop_assert_eq!(before.records.len(), after.records.len());
            for i in 0..before.records.len() as u32 {
                prop_assert_eq!(&before.record(i).id, &after.record(i).id);
                prop_assert_eq!(&before.record(i).parent_id, &after.record(i).parent_id);
                let mut a = before.value(i).unwrap();
                let b = after.value(i).unwrap();
                // v3 renames hook messages; otherwise the in-memory v1 view is the migrated file.
                if a["message"]["role"] == "hookMessage" {
                    a["message"]["role"] = "custom".into();
                }
                prop_assert_eq!(a, b);
            }
        }
    }
}
