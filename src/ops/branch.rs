//! `fork` (alias `branch`): a new session file forked from a path of the source, as the agents'
//! `/fork` (pi 1.6 `fork`, oh-my-pi `/branch`, both through `createBranchedSession`) writes it
//! (FORMAT §7.2–§7.3, CHANGES R5).
//!
//! The plan names the source's lines by record index instead of holding their bytes: the writer
//! reads each one by its byte range while it streams the new file, so a branch of a file with
//! megabyte lines never holds more than one of them. Kept lines are copied byte for byte; only
//! the entries whose parent was dropped are parsed and serialised again, and only their
//! `parentId` changes (serde_json keeps the key order, unknown fields stay).
//!
//! Decisions where the reference is silent or says otherwise:
//! * The dialect is kept. An oh-my-pi file (or any file that does not name itself like pi)
//!   gets the name in its header (`title`, `titleSource`), and a title slot when the source has
//!   one, as oh-my-pi 18.2.3 carries it. A pi file (`Session::names_like_pi`) gets no name at
//!   all: pi 1.6 carries neither a header title nor a `session_info` (CHANGES R5). Its session
//!   id is a UUIDv7 either way, as both agents make them now (CHANGES P1).
//! * In a pi file, a compaction whose `firstKeptEntryId` names a dropped label is re-pointed
//!   to the entry kept after the label, as pi 1.6 does; a compaction that keeps nothing (its
//!   own id) stays so. oh-my-pi 18.2.3 re-points nothing, and neither does its fork here.
//! * A root prompt of a file with a title slot gives the slot, the header and the
//!   `title_change` oh-my-pi's rename appends. Its header keys follow the agent's `newSession`
//!   order, with the title last, as a rename would have added it.
//! * The name carried over is the one sesstree reads (`Session::name`): slot, header,
//!   `title_change`, then `session_info`.

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::Path;

use serde_json::{Map, Value};

use crate::clock::{Clock, file_stamp, format_iso_millis};
use crate::error::{Error, Result};
use crate::format::entry::{Message, Payload, Raw, Role};
use crate::format::title::encode_slot;
use crate::format::{Dialect, HeaderRef, Kind, WRITE_VERSION};
use crate::id::EntryId;
use crate::id_gen::IdGen;
use crate::json::scan::Scanner;
use crate::naming::TitleSource;
use crate::session::{Session, label_value, parse_lossy};

use super::entry_line;

/// What to fork.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fork {
    /// The agent's `/branch` on a user message: the history up to the message, without it
    /// (the message goes back to the editor). A root message gives a header-only file.
    Before(u32),
    /// The path from the root to this entry, inclusive, whatever its type (pi 1.6 `fork`
    /// with `position: "at"`, the extension API's `branch(entryId)`).
    At(u32),
}

/// One line of the new file after the header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// A source record copied byte for byte.
    Copy(u32),
    /// A source record whose parent was dropped: the same JSON with this `parentId`.
    Relink(u32, Option<EntryId>),
    /// A line made during planning: a new label entry, or a small bookkeeping record already
    /// read to decide whether to keep it (or to re-point it).
    Bytes(Vec<u8>),
}

/// The new file, ready to be written.
#[derive(Debug, Clone)]
pub struct BranchPlan {
    /// The new session id: a UUIDv7, as both agents make them.
    pub session_id: String,
    /// When the new session was made, in epoch milliseconds (header timestamp, file name).
    pub created_ms: i64,
    /// The title slot line (256 bytes, newline included), when the source has a slot.
    pub slot: Option<Vec<u8>>,
    /// The header line, without its newline.
    pub header: Vec<u8>,
    /// The lines after the header, in order.
    pub lines: Vec<Line>,
    /// Ids of the source entries that were re-linked, in order.
    pub relinked: Vec<EntryId>,
    /// Ids of the new entries (re-created labels, or the `title_change` of a root prompt), in
    /// order.
    pub created: Vec<EntryId>,
    /// Whether the new file holds a user or an assistant message (pi 1.6 `_hasConversation`).
    /// Without one and without a title slot the agents write no file
    /// ([`BranchPlan::unwritable`]).
    pub has_conversation: bool,
    /// Whether the fork is of a root prompt: the new session starts empty.
    pub root_prompt: bool,
}

/// The editor text of a `branch` source: the text of a user message. Anything else is a usage
/// error, as the agent refuses it (`Invalid entry ID for branching`).
pub fn source_text(session: &Session, idx: u32) -> Result<String> {
    let value = session.value(idx)?;
    let what = match Payload::from_value(&value) {
        Payload::Message(m) if m.role == Some(Role::User) => {
            return Ok(m.content.text().into_owned());
        }
        Payload::Message(Message { role: Some(role), .. }) => {
            format!("a message with role {}", role.as_str())
        }
        _ => match &session.record(idx).kind {
            Kind::Missing => "a record without a type".to_string(),
            kind => format!("of type {}", kind.as_str()),
        },
    };
    let id = session.record(idx).id.as_ref().map_or("?", EntryId::as_str);
    Err(Error::Usage(format!("branch source must be a user message; {id} is {what}")))
}

/// The file name the agents give a session made at `created_ms` (FORMAT §1.4):
/// `<timestamp>_<session id>.jsonl`.
pub fn file_name(created_ms: i64, session_id: &str) -> String {
    format!("{}_{session_id}.jsonl", file_stamp(created_ms))
}

/// Plans the new file. `parent_session` is what the new header's `parentSession` says (the
/// agents store the source file's path). The clock gives the header's time first, then one
/// time per new entry.
pub fn plan(
    session: &Session,
    dialect: Option<Dialect>,
    fork: Fork,
    parent_session: &str,
    clock: &Clock,
    ids: &mut IdGen,
) -> Result<BranchPlan> {
    let header = session.require_header()?;
    let created_ms = clock.now_millis();
    let created = format_iso_millis(created_ms);
    // `--dialect` says whose way the name is carried; else pi's entries in the file do.
    let pi = dialect.map_or_else(|| session.names_like_pi(), |d| d == Dialect::Pi);
    if pi && session.slot.is_some() {
        return Err(Error::Usage(format!(
            "{}: starts with oh-my-pi's title slot, which the new file keeps and pi cannot \
             open: --dialect pi does not fit it",
            session.path.display()
        )));
    }
    let session_id = ids.session_id(created_ms);
    let name = session.name();

    let (path, root_prompt) = match fork {
        Fork::At(idx) => (session.path_to_root(idx), false),
        Fork::Before(idx) => match session.parent(idx) {
            Some(p) => (session.path_to_root(p), false),
            None => (Vec::new(), true),
        },
    };

    // FORMAT §7.3 steps 2–3: drop labels and stale archive records, re-link around them.
    let on_path: HashSet<&EntryId> =
        path.iter().filter_map(|&i| session.record(i).id.as_ref()).collect();
    let mut lines = Vec::with_capacity(path.len());
    let mut kept: HashSet<EntryId> = HashSet::with_capacity(path.len());
    let mut relinked = Vec::new();
    let mut last_kept: Option<EntryId> = None;
    let mut previous_dropped = false;
    let mut has_conversation = false;
    // pi's `replacementByLabelId`: each dropped label, by the entry kept after it.
    let mut dropped_labels: Vec<EntryId> = Vec::new();
    let mut label_replacement: HashMap<EntryId, EntryId> = HashMap::new();
    for &idx in &path {
        let record = session.record(idx);
        if record.kind == Kind::Message && !has_conversation {
            has_conversation = is_conversation(session, idx)?;
        }
        // Small bookkeeping records are read now to decide on them; their bytes are kept.
        let bytes = match record.kind {
            Kind::Label => {
                dropped_labels.extend(record.id.clone());
                previous_dropped = true;
                continue;
            }
            // An archive record stands while its target is anywhere on the new path (FORMAT
            // §7.3). pi's loader refuses a context edit whose target is not an entry earlier on
            // its path (CHANGES P3): an edit is kept only when its target is, as pi branches.
            Kind::Archive | Kind::ContextEdit => {
                let raw = session.raw_line(idx)?;
                let stands = target_of(&raw).is_some_and(|t| match record.kind {
                    Kind::Archive => on_path.contains(&t),
                    _ => kept.contains(&t),
                });
                if !stands {
                    previous_dropped = true;
                    continue;
                }
                Some(raw)
            }
            // The header says version 3: a version-2 hook message gets its version-3 role, as
            // `migrate` gives it, or pi (which migrates only files below 3) drops it from the
            // context.
            Kind::Message if session.version() < 3 => {
                let raw = session.raw_line(idx)?;
                Some(crate::migrate::message_at_v3(&raw).unwrap_or(raw))
            }
            Kind::Compaction if pi => {
                if let Some(id) = &record.id {
                    label_replacement.extend(dropped_labels.drain(..).map(|l| (l, id.clone())));
                }
                let raw = session.raw_line(idx)?;
                let value = parse_lossy(&raw);
                let first_kept = value.as_ref().and_then(|v| Payload::from_value(v).first_kept());
                let first_kept = first_kept.filter(|f| Some(f) != record.id.as_ref());
                match first_kept.and_then(|f| label_replacement.get(&f)) {
                    Some(to) => {
                        Some(rewrite(session, idx, &raw, "firstKeptEntryId", to.to_value())?)
                    }
                    None => Some(raw),
                }
            }
            _ => None,
        };
        // On a path every entry's parent is the one before it, so the nearest kept ancestor of
        // an entry whose parent was dropped is the last kept entry (or none).
        if previous_dropped && let Some(id) = &record.id {
            relinked.push(id.clone());
        }
        lines.push(match (bytes, previous_dropped) {
            (Some(raw), true) => Line::Bytes(relink(session, idx, &raw, last_kept.as_ref())?),
            (None, true) => Line::Relink(idx, last_kept.clone()),
            (Some(raw), false) => Line::Bytes(raw),
            (None, false) => Line::Copy(idx),
        });
        previous_dropped = false;
        if let Some(id) = &record.id {
            label_replacement.extend(dropped_labels.drain(..).map(|l| (l, id.clone())));
            kept.insert(id.clone());
            last_kept = Some(id.clone());
        }
    }

    // Step 4: the labels in effect on kept entries, re-created as a chain under the last one.
    let mut taken = kept.clone();
    let mut created_ids = Vec::new();
    let mut parent = last_kept;
    let mut new_entry = |kind: &str,
                         fields: Vec<(&str, Value)>,
                         parent: &mut Option<EntryId>,
                         timestamp: Option<&str>| {
        let id = EntryId::new(ids.entry_id(|c| taken.contains(&EntryId::new(c))));
        taken.insert(id.clone());
        let time = timestamp.map_or_else(|| clock.now_iso(), str::to_owned);
        let line = entry_line(kind, id.as_str(), parent.as_ref(), &time, fields);
        created_ids.push(id.clone());
        *parent = Some(id);
        Line::Bytes(line)
    };
    for (target, raw) in session.labels() {
        if !kept.contains(target) {
            continue;
        }
        // pi keeps the time of the label entry that last set it (CHANGES P5).
        let set_at = if pi { label_time(session, target)? } else { None };
        let fields = vec![("targetId", target.to_value()), ("label", label_value(raw))];
        lines.push(new_entry("label", fields, &mut parent, set_at.as_deref()));
    }
    // oh-my-pi's `branch` of a root prompt is `newSession` then `setSessionName`: the slot and
    // the header, then the `title_change` the rename appends (FORMAT §7.2 step 5), at the time
    // the slot records.
    if root_prompt
        && session.slot.is_some()
        && let Some((t, s)) = &name
    {
        let mut fields = vec![("title", Value::String(t.clone()))];
        if let Some(s) = s {
            fields.push(("source", s.as_str().into()));
        }
        lines.push(new_entry("title_change", fields, &mut parent, Some(&created)));
    }

    let title = if pi { None } else { name.clone() };
    let header_line = new_header(
        header.fields(),
        &session_id,
        &created,
        title.as_ref().map(|(t, s)| (t.as_str(), *s)),
        parent_session,
        root_prompt,
    );
    let slot = session.slot.as_ref().map(|_| {
        let (t, s) = name.as_ref().map_or(("", None), |(t, s)| (t.as_str(), *s));
        encode_slot(t, s, &created).map_err(|e| Error::Failed(e.to_string()))
    });
    let slot = slot.transpose()?;
    Ok(BranchPlan {
        session_id,
        created_ms,
        slot,
        header: header_line,
        lines,
        relinked,
        created: created_ids,
        has_conversation,
        root_prompt,
    })
}

/// The `targetId` of a record's line (an archive record's, a context edit's).
fn target_of(raw: &[u8]) -> Option<EntryId> {
    Payload::from_value(&parse_lossy(raw)?).target_id()
}

/// Whether a message is a user's or an assistant's (pi 1.6 `_hasConversation`), its role read
/// off its line by the payload view's scan, which builds nothing of the rest (a tool result's
/// output can be megabytes). A line the scanner does not take is read lossily, as the loader
/// reads it.
fn is_conversation(session: &Session, idx: u32) -> Result<bool> {
    let raw = session.raw_line(idx)?;
    let talks = |payload: Payload<'_>| matches!(payload.role(), Some(Role::User | Role::Assistant));
    Ok(match Payload::scan(&raw, &mut Scanner::new()) {
        Some(payload) => talks(payload),
        None => parse_lossy(&raw).is_some_and(|v| talks(Payload::from_value(&v))),
    })
}

/// The new header. `createBranchedSession` writes `type, version, id, timestamp, cwd, title,
/// titleSource, parentSession, additionalDirectories`; a root prompt goes through `newSession`,
/// whose header has `parentSession` right after `cwd` and gets the title when it is renamed.
fn new_header(
    source: HeaderRef<'_>,
    id: &str,
    timestamp: &str,
    title: Option<(&str, Option<TitleSource>)>,
    parent_session: &str,
    root_prompt: bool,
) -> Vec<u8> {
    let mut h = Map::new();
    h.insert("type".into(), "session".into());
    h.insert("version".into(), WRITE_VERSION.into());
    h.insert("id".into(), id.into());
    h.insert("timestamp".into(), timestamp.into());
    let carried = source.carried();
    if let Some(cwd) = carried.cwd {
        h.insert("cwd".into(), cwd.clone());
    }
    let insert_title = |h: &mut Map<String, Value>| {
        if let Some((t, s)) = title {
            h.insert("title".into(), t.into());
            if let Some(s) = s {
                h.insert("titleSource".into(), s.as_str().into());
            }
        }
    };
    if !root_prompt {
        insert_title(&mut h);
    }
    h.insert("parentSession".into(), parent_session.into());
    if let Some(dirs) = carried.additional_directories {
        h.insert("additionalDirectories".into(), dirs.clone());
    }
    if root_prompt {
        insert_title(&mut h);
    }
    serde_json::to_vec(&Value::Object(h)).unwrap_or_default()
}

/// A record's line with another `parentId`, every other key kept in its place.
fn relink(session: &Session, idx: u32, raw: &[u8], parent: Option<&EntryId>) -> Result<Vec<u8>> {
    rewrite(session, idx, raw, "parentId", parent.map_or(Value::Null, EntryId::to_value))
}

/// A record's line with `key` set to `value`, every other key kept in its place.
fn rewrite(session: &Session, idx: u32, raw: &[u8], key: &str, value: Value) -> Result<Vec<u8>> {
    let changed = || crate::migrate::damaged(session, session.record(idx).line);
    let Some(Value::Object(mut map)) = parse_lossy(raw) else { return Err(changed()) };
    map.insert(key.into(), value);
    serde_json::to_vec(&Value::Object(map)).map_err(|_| changed())
}

impl BranchPlan {
    /// Why the new file must not be written, when it must not: it has no title slot and no
    /// user or assistant message. pi 1.6 writes a session file only once it holds one
    /// (`_hasConversation`, CHANGES R5; pi before 0.84 and oh-my-pi before its title slot
    /// waited for an assistant message), and its `createBranchedSession` follows the same rule:
    /// what the agent leaves on disk for such a fork is nothing. The returned text says so;
    /// for a root prompt nothing is lost (the new session starts empty).
    pub fn unwritable(&self) -> Option<&'static str> {
        if self.slot.is_some() || self.has_conversation {
            return None;
        }
        Some(if self.root_prompt {
            "the new session starts empty, and pi writes a session file only once it holds \
             a message: no file is written; start the new session in the agent with the text \
             above"
        } else {
            "the history to fork holds no user or assistant message, and pi writes a session \
             file only once it holds one"
        })
    }

    /// Streams the new file into `out`, reading each source line by its byte range as it goes.
    /// Write errors are reported against `out_path`.
    pub fn write_to(&self, session: &Session, out: &mut dyn Write, out_path: &Path) -> Result<()> {
        let io = |e| Error::io(out_path, e);
        if let Some(slot) = &self.slot {
            out.write_all(slot).map_err(io)?;
        }
        out.write_all(&self.header).map_err(io)?;
        out.write_all(b"\n").map_err(io)?;
        for line in &self.lines {
            match line {
                Line::Copy(idx) => out.write_all(&session.raw_line(*idx)?).map_err(io)?,
                Line::Relink(idx, parent) => {
                    let raw = session.raw_line(*idx)?;
                    out.write_all(&relink(session, *idx, &raw, parent.as_ref())?).map_err(io)?;
                }
                Line::Bytes(bytes) => out.write_all(bytes).map_err(io)?,
            }
            out.write_all(b"\n").map_err(io)?;
        }
        Ok(())
    }
}

/// The `timestamp` of the label entry that last set `target`'s label, when a string.
fn label_time(session: &Session, target: &EntryId) -> Result<Option<String>> {
    let mut records = session.label_records().iter().rev();
    let Some(last) = records.find(|lr| lr.target.as_ref() == Some(target)) else { return Ok(None) };
    let value = session.value(last.record)?;
    let entry = Raw::new(&value).object();
    Ok(entry.and_then(|e| Some(e.text("timestamp")?.decode().into_owned())))
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use proptest::prelude::*;

    use super::*;

    const NOW: i64 = 1_772_366_400_000; // 2026-03-01T12:00:00.000Z

    fn load(text: &str) -> Session {
        Session::from_bytes(Path::new("/s/src.jsonl"), text.as_bytes().to_vec()).unwrap()
    }

    fn branch(session: &Session, dialect: Option<Dialect>, fork: Fork) -> (BranchPlan, Vec<u8>) {
        let clock = Clock::pinned(NOW);
        let plan =
            plan(session, dialect, fork, "/s/src.jsonl", &clock, &mut IdGen::from_seed(7)).unwrap();
        let mut bytes = Vec::new();
        plan.write_to(session, &mut bytes, Path::new("-")).unwrap();
        (plan, bytes)
    }

    fn idx(session: &Session, id: &str) -> u32 {
        session.lookup(&EntryId::new(id)).unwrap()
    }

    fn lines(bytes: &[u8]) -> Vec<String> {
        String::from_utf8(bytes.to_vec()).unwrap().lines().map(String::from).collect()
    }

    const HEADER: &str = r#"{"type":"session","version":3,"id":"old","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w","providerPromptCacheKey":"k","additionalDirectories":["/x"],"title":"T","titleSource":"user"}"#;

    fn msg(id: &str, parent: Option<&str>, role: &str) -> String {
        let parent = parent.map_or("null".to_string(), |p| format!("\"{p}\""));
        format!(
            r#"{{"type":"message","id":"{id}","parentId":{parent},"timestamp":"2026-01-01T00:00:01.000Z","message":{{"role":"{role}","content":"{id} text"}}}}"#
        )
    }

    fn label(id: &str, parent: &str, target: &str, label: &str) -> String {
        format!(
            r#"{{"type":"label","id":"{id}","parentId":"{parent}","timestamp":"2026-01-01T00:00:02.000Z","targetId":"{target}","label":{label}}}"#
        )
    }

    /// The session of HEADER and `lines`.
    fn session(lines: &[String]) -> Session {
        load(&[&[HEADER.to_string()], lines].concat().join("\n"))
    }

    /// A user prompt and its reply.
    fn prompt_and_reply() -> Session {
        session(&[msg("u1", None, "user"), msg("a1", Some("u1"), "assistant")])
    }

    fn edit(id: &str, parent: &str, target: &str) -> String {
        format!(
            r#"{{"type":"context_edit","id":"{id}","parentId":"{parent}","timestamp":"2026-01-01T00:00:03.000Z","targetId":"{target}","replacement":null}}"#
        )
    }

    /// A context edit is copied only when its target is kept earlier on the new path (CHANGES
    /// P3): one whose target is missing is dropped, and the entry after it re-linked.
    #[test]
    fn context_edits_are_kept_only_with_their_target() {
        let s = session(&[
            msg("u1", None, "user"),
            msg("a1", Some("u1"), "assistant"),
            edit("e1", "a1", "a1"),
            edit("e2", "e1", "gone"),
            msg("u2", Some("e2"), "user"),
            msg("a2", Some("u2"), "assistant"),
        ]);
        let (_, bytes) = branch(&s, None, Fork::At(idx(&s, "a2")));
        let out = load(&String::from_utf8(bytes).unwrap());
        let ids: Vec<&str> =
            out.records.iter().filter_map(|r| r.id.as_ref()).map(EntryId::as_str).collect();
        // The copied path (a record the branch creates for the name may follow it).
        assert_eq!(ids[..5], ["u1", "a1", "e1", "u2", "a2"]);
        assert!(!ids.contains(&"e2"));
        let u2 = out.lookup(&EntryId::new("u2")).unwrap();
        assert_eq!(out.record(out.parent(u2).unwrap()).id, Some(EntryId::new("e1")));
    }

    /// Whether the history holds a reply is read off each message's role alone: a message line
    /// that a full parse refuses (a lone surrogate in a field) is still copied as it is.
    #[test]
    fn a_reply_is_found_without_parsing_the_whole_line() {
        let reply = r#"{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-01-01T00:00:01.000Z","x":"\ud800","message":{"role":"assistant","content":"ok"}}"#;
        let s =
            session(&[msg("u1", None, "user"), reply.to_string(), msg("u2", Some("a1"), "user")]);
        let (_, bytes) = branch(&s, None, Fork::Before(idx(&s, "u2")));
        assert!(lines(&bytes).contains(&reply.to_string()), "{}", String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn header_keys_follow_create_branched_session() {
        let s = prompt_and_reply();
        let (plan, bytes) = branch(&s, None, Fork::At(idx(&s, "a1")));
        assert!(plan.slot.is_none(), "no slot in the source, none in the branch");
        assert_eq!(
            lines(&bytes)[0],
            format!(
                r#"{{"type":"session","version":3,"id":"{}","timestamp":"2026-03-01T12:00:00.000Z","cwd":"/w","title":"T","titleSource":"user","parentSession":"/s/src.jsonl","additionalDirectories":["/x"]}}"#,
                plan.session_id
            )
        );
        assert!(
            plan.session_id.starts_with("019ca945-0a00-7"),
            "a UUIDv7 of now: {}",
            plan.session_id
        );
        assert_eq!(file_name(plan.created_ms, "abc"), "2026-03-01T12-00-00-000Z_abc.jsonl");
    }

    #[test]
    fn a_root_prompt_gives_a_header_in_new_session_order() {
        let s = prompt_and_reply();
        let (plan, bytes) = branch(&s, None, Fork::Before(idx(&s, "u1")));
        assert!(plan.lines.is_empty() && plan.created.is_empty());
        assert_eq!(
            lines(&bytes),
            vec![format!(
                r#"{{"type":"session","version":3,"id":"{}","timestamp":"2026-03-01T12:00:00.000Z","cwd":"/w","parentSession":"/s/src.jsonl","additionalDirectories":["/x"],"title":"T","titleSource":"user"}}"#,
                plan.session_id
            )]
        );
    }

    #[test]
    fn labels_are_dropped_relinked_and_recreated_as_a_chain() {
        let s = session(&[
            msg("u1", None, "user"),
            label("l1", "u1", "u1", "\"one\""),
            label("l2", "l1", "u1", "{\"rich\":[1,2]}"),
            msg("a1", Some("l2"), "assistant"),
            msg("u2", Some("a1"), "user"),
            label("l3", "u2", "a1", "\"first\""),
            label("l4", "l3", "u2", "\"off-path\""),
        ]);
        let (plan, bytes) = branch(&s, None, Fork::Before(idx(&s, "u2")));
        assert_eq!(plan.lines[0], Line::Copy(idx(&s, "u1")));
        assert_eq!(plan.lines[1], Line::Relink(idx(&s, "a1"), Some(EntryId::new("u1"))));
        assert_eq!(plan.relinked, vec![EntryId::new("a1")]);
        let out = load(std::str::from_utf8(&bytes).unwrap());
        assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
        let got: Vec<_> = out.labels().iter().map(|(t, l)| (t.as_str(), &**l)).collect();
        // Map order of the source: u1 first got a label before a1 did; u2 is not kept.
        assert_eq!(got, vec![("u1", "{\"rich\":[1,2]}"), ("a1", "\"first\"")]);
        let ids: Vec<_> = out
            .path_to_root(out.leaf().unwrap())
            .into_iter()
            .map(|i| out.record(i).id.clone().unwrap())
            .collect();
        let mut want = vec![EntryId::new("u1"), EntryId::new("a1")];
        want.extend(plan.created.iter().cloned());
        assert_eq!(ids, want);
        let a1 = &lines(&bytes)[2];
        assert_eq!(*a1, msg("a1", Some("u1"), "assistant"), "only parentId changes");
        let stamps: Vec<_> = plan
            .created
            .iter()
            .map(|id| out.value(out.lookup(id).unwrap()).unwrap()["timestamp"].clone())
            .collect();
        assert_eq!(stamps, vec!["2026-03-01T12:00:00.001Z", "2026-03-01T12:00:00.002Z"]);
    }

    /// pi's `createBranchedSession` gives each label copy the time of the entry that last set
    /// the label (CHANGES P5); oh-my-pi's copies are stamped now (above).
    #[test]
    fn pi_label_copies_keep_the_time_they_were_set() {
        let s = session(&[
            msg("u1", None, "user"),
            label("l1", "u1", "u1", "\"one\""),
            msg("a1", Some("l1"), "assistant"),
            r#"{"type":"label","id":"l2","parentId":"a1","timestamp":"2026-01-01T00:00:09.000Z","targetId":"u1","label":"two"}"#.into(),
            msg("u2", Some("l2"), "user"),
        ]);
        let at = |dialect| {
            let (plan, bytes) = branch(&s, Some(dialect), Fork::Before(idx(&s, "u2")));
            let out = load(std::str::from_utf8(&bytes).unwrap());
            let first = out.lookup(&plan.created[0]).unwrap();
            out.value(first).unwrap()["timestamp"].clone()
        };
        assert_eq!(at(Dialect::Pi), "2026-01-01T00:00:09.000Z");
        assert_eq!(at(Dialect::Omp), "2026-03-01T12:00:00.001Z");
    }

    #[test]
    fn new_label_ids_avoid_the_kept_ids() {
        // The id the label would get: the generator's first entry id after the session id.
        let mut ids = IdGen::from_seed(7);
        ids.session_id(NOW);
        let first = ids.entry_id(|_| false);
        let file = |id: &str| session(&[msg(id, None, "user"), label("l1", id, id, "\"x\"")]);
        let s = file("other");
        let (plan, _) = branch(&s, None, Fork::At(idx(&s, "other")));
        assert_eq!(plan.created, vec![EntryId::new(first.as_str())], "the control case");
        let s = file(&first);
        let (plan, bytes) = branch(&s, None, Fork::At(idx(&s, &first)));
        assert_eq!(plan.created.len(), 1);
        assert_ne!(plan.created[0].as_str(), first, "a kept id is never reused");
        assert!(load(std::str::from_utf8(&bytes).unwrap()).diagnostics.is_empty());
    }

    #[test]
    fn stale_archive_records_are_dropped() {
        let archive = |id: &str, parent: &str, target: &str| {
            format!(
                r#"{{"type":"archive","id":"{id}","parentId":"{parent}","targetId":"{target}","archived":true}}"#
            )
        };
        let s = session(&[
            msg("u1", None, "user"),
            msg("side", Some("u1"), "user"),
            archive("r1", "u1", "side"),
            archive("r2", "r1", "u1"),
            msg("a1", Some("r2"), "assistant"),
        ]);
        let (plan, bytes) = branch(&s, None, Fork::At(idx(&s, "a1")));
        let out = load(std::str::from_utf8(&bytes).unwrap());
        let kept: Vec<_> = out.records.iter().map(|r| r.id.clone().unwrap()).collect();
        assert_eq!(kept, vec![EntryId::new("u1"), EntryId::new("r2"), EntryId::new("a1")]);
        assert_eq!(plan.relinked, vec![EntryId::new("r2")]);
        assert_eq!(lines(&bytes)[2], archive("r2", "u1", "u1"));
    }

    /// A title slot naming the session "Slot name", the header and one user prompt.
    fn slotted(source: TitleSource) -> Session {
        let slot = encode_slot("Slot name", Some(source), "2026-01-01T00:00:00.000Z").unwrap();
        load(&(String::from_utf8(slot).unwrap() + HEADER + "\n" + &msg("u1", None, "user")))
    }

    #[test]
    fn slot_carries_the_name_with_the_new_time() {
        let s = slotted(TitleSource::Auto);
        let (plan, bytes) = branch(&s, None, Fork::At(idx(&s, "u1")));
        let want =
            encode_slot("Slot name", Some(TitleSource::Auto), "2026-03-01T12:00:00.000Z").unwrap();
        assert_eq!(plan.slot.as_deref(), Some(&want[..]));
        let out = load(std::str::from_utf8(&bytes).unwrap());
        assert_eq!(out.name(), Some(("Slot name".to_string(), Some(TitleSource::Auto))));
        assert!(lines(&bytes)[1].contains(r#""title":"Slot name","titleSource":"auto""#));
    }

    #[test]
    fn a_root_prompt_of_a_slot_file_gets_the_title_change_of_the_rename() {
        let s = slotted(TitleSource::User);
        let (plan, bytes) = branch(&s, None, Fork::Before(idx(&s, "u1")));
        assert_eq!(plan.unwritable(), None, "oh-my-pi writes this file itself");
        let got = lines(&bytes);
        assert_eq!(got.len(), 3);
        assert_eq!(
            got[2],
            format!(
                r#"{{"type":"title_change","id":"{}","parentId":null,"timestamp":"2026-03-01T12:00:00.000Z","title":"Slot name","source":"user"}}"#,
                plan.created[0]
            )
        );
        let out = load(std::str::from_utf8(&bytes).unwrap());
        assert_eq!(out.name(), Some(("Slot name".to_string(), Some(TitleSource::User))));
        assert_eq!(out.slot.as_ref().unwrap().updated_at, "2026-03-01T12:00:00.000Z");
    }

    /// pi 1.6 writes a session file once it holds a user or an assistant message
    /// (`_hasConversation`), and its `createBranchedSession` follows the same rule.
    #[test]
    fn a_file_without_slot_or_message_is_not_one_to_write() {
        let s = session(&[
            r#"{"type":"model_change","id":"m1","parentId":null,"timestamp":"2026-01-01T00:00:00.500Z","provider":"p","modelId":"m"}"#.into(),
            msg("u1", Some("m1"), "user"),
            msg("a1", Some("u1"), "assistant"),
        ]);
        let (plan, _) = branch(&s, None, Fork::At(idx(&s, "m1")));
        assert!(!plan.has_conversation && plan.unwritable().unwrap().contains("no user or"));
        let (plan, _) = branch(&s, None, Fork::Before(idx(&s, "u1")));
        assert!(!plan.root_prompt && plan.unwritable().is_some());
        // A user message without a reply is enough (pi 0.73 waited for the reply).
        let (plan, _) = branch(&s, None, Fork::At(idx(&s, "u1")));
        assert!(plan.has_conversation && plan.unwritable().is_none());
        let s = prompt_and_reply();
        let (plan, _) = branch(&s, None, Fork::Before(idx(&s, "u1")));
        assert!(plan.root_prompt && plan.unwritable().unwrap().contains("starts empty"));
    }

    const PI_HEADER: &str = r#"{"type":"session","version":3,"id":"p","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}"#;

    /// pi 1.6 `createBranchedSession` carries no name: no header title, no `session_info`
    /// (CHANGES R5). Only the `session_info` entries on the kept path stay, as entries.
    #[test]
    fn a_pi_file_carries_no_name() {
        let info = r#"{"type":"session_info","id":"i1","parentId":"a1","timestamp":"2026-01-01T00:00:03.000Z","name":"Pi name"}"#;
        let text = [
            PI_HEADER.to_string(),
            msg("u1", None, "user"),
            msg("a1", Some("u1"), "assistant"),
            info.to_string(),
            msg("u2", Some("a1"), "user"),
        ]
        .join("\n");
        let s = load(&text);
        assert!(s.names_like_pi());
        assert_eq!(s.name(), Some(("Pi name".to_string(), None)));
        // The session_info is on another branch: the new file has no name.
        let (plan, bytes) = branch(&s, None, Fork::Before(idx(&s, "u2")));
        assert!(plan.slot.is_none() && plan.created.is_empty());
        assert_eq!(lines(&bytes)[1..], lines(text.as_bytes())[1..3]);
        assert!(!lines(&bytes)[0].contains("title"), "pi headers have no title");
        let out = load(std::str::from_utf8(&bytes).unwrap());
        assert!(out.diagnostics.is_empty());
        assert_eq!(out.name(), None);
        // On the path, it is copied like any entry.
        let (plan, bytes) = branch(&s, None, Fork::At(idx(&s, "i1")));
        assert!(plan.created.is_empty());
        assert_eq!(lines(&bytes)[1..], lines(text.as_bytes())[1..4]);
    }

    fn compaction(id: &str, parent: &str, first_kept: &str) -> String {
        format!(
            r#"{{"type":"compaction","id":"{id}","parentId":"{parent}","timestamp":"2026-01-01T00:00:04.000Z","summary":"s","firstKeptEntryId":"{first_kept}","tokensBefore":9}}"#
        )
    }

    /// pi 1.6 re-points a compaction's `firstKeptEntryId` from a dropped label to the entry
    /// after it; its own id (keep nothing) stays. oh-my-pi 18.2.3 re-points nothing.
    #[test]
    fn a_pi_compaction_kept_from_a_label_keeps_from_the_entry_after_it() {
        let info = r#"{"type":"session_info","id":"i1","parentId":"u1","timestamp":"2026-01-01T00:00:03.000Z","name":"n"}"#;
        let text = [
            PI_HEADER.to_string(),
            msg("u1", None, "user"),
            label("l1", "u1", "u1", "\"one\""),
            label("l2", "l1", "u1", "\"two\""),
            msg("a1", Some("l2"), "assistant"),
            compaction("c1", "a1", "l1"),
            label("l3", "c1", "a1", "\"three\""),
            compaction("c2", "l3", "l3"),
            compaction("c3", "c2", "c3"),
            info.replace(r#""parentId":"u1""#, r#""parentId":"c3""#),
        ]
        .join("\n");
        let s = load(&text);
        assert!(s.names_like_pi());
        let fork = Fork::At(idx(&s, "i1"));
        let (plan, bytes) = branch(&s, None, fork);
        let got = lines(&bytes);
        // Header, u1, a1 (re-linked), c1, c2 (re-linked), c3, i1, then the labels.
        assert_eq!(got[2], msg("a1", Some("u1"), "assistant"));
        assert_eq!(got[3], compaction("c1", "a1", "a1"), "l1 is followed by a1");
        assert_eq!(got[4], compaction("c2", "c1", "c2"), "l3 is followed by c2 itself");
        assert_eq!(got[5], compaction("c3", "c2", "c3"), "keeps nothing, as before");
        assert_eq!(plan.relinked, vec![EntryId::new("a1"), EntryId::new("c2")]);
        assert!(load(std::str::from_utf8(&bytes).unwrap()).diagnostics.is_empty());
        // oh-my-pi leaves them as written.
        let (_, bytes) = branch(&s, Some(Dialect::Omp), fork);
        let got = lines(&bytes);
        assert_eq!(got[3], compaction("c1", "a1", "l1"));
        assert_eq!(got[4], compaction("c2", "c1", "l3"));
    }

    #[test]
    fn only_user_messages_are_branch_sources() {
        let s = prompt_and_reply();
        assert_eq!(source_text(&s, idx(&s, "u1")).unwrap(), "u1 text");
        let err = source_text(&s, idx(&s, "a1")).unwrap_err();
        assert!(matches!(err, Error::Usage(_)));
        assert_eq!(
            err.to_string(),
            "branch source must be a user message; a1 is a message with role assistant"
        );
    }

    // ---------------------------------------------------------------------------------------
    // Property: a branch of a random tree reloads cleanly to the source's path.

    #[derive(Debug, Clone)]
    enum Gen {
        Message { parent: Option<usize>, user: bool },
        Label { parent: Option<usize>, target: usize, value: u8 },
        Archive { parent: Option<usize>, target: usize },
    }

    fn gen_entry(i: usize) -> impl Strategy<Value = Gen> {
        let parent =
            proptest::option::weighted(0.9, 0..i.max(1)).prop_map(move |p| p.filter(|_| i > 0));
        let target = 0..i.max(1);
        prop_oneof![
            4 => (parent.clone(), any::<bool>()).prop_map(|(parent, user)| Gen::Message { parent, user }),
            2 => (parent.clone(), target.clone(), 0u8..4).prop_map(|(parent, target, value)| Gen::Label { parent, target, value }),
            1 => (parent, 0..40usize).prop_map(|(parent, target)| Gen::Archive { parent, target }),
        ]
    }

    fn gen_file() -> impl Strategy<Value = Vec<Gen>> {
        (1usize..40).prop_flat_map(|n| (0..n).map(gen_entry).collect::<Vec<_>>())
    }

    fn render(entries: &[Gen]) -> String {
        let id = |i: usize| format!("e{i:07}");
        let parent = |p: &Option<usize>| p.map_or("null".to_string(), |p| format!("\"{}\"", id(p)));
        let mut out = vec![HEADER.to_string()];
        for (i, e) in entries.iter().enumerate() {
            out.push(match e {
                Gen::Message { parent: p, user } => format!(
                    r#"{{"type":"message","id":"{}","parentId":{},"timestamp":"2026-01-01T00:00:{:02}.000Z","message":{{"role":"{}","content":"m{i}"}},"x":{{"z":1,"a":2}}}}"#,
                    id(i), parent(p), i % 60, if *user { "user" } else { "assistant" }
                ),
                Gen::Label { parent: p, target, value } => format!(
                    r#"{{"type":"label","id":"{}","parentId":{},"timestamp":"2026-01-01T00:00:00.000Z","targetId":"{}","label":{}}}"#,
                    id(i), parent(p), id(*target), ["\"\"", "\"a\"", "\"b\"", "{\"k\":[1]}"][*value as usize]
                ),
                Gen::Archive { parent: p, target } => format!(
                    r#"{{"type":"archive","id":"{}","parentId":{},"timestamp":"2026-01-01T00:00:00.000Z","targetId":"{}","archived":true}}"#,
                    id(i), parent(p), id(*target)
                ),
            });
        }
        out.join("\n") + "\n"
    }

    proptest! {
        #[test]
        fn a_branch_reloads_to_the_source_path(entries in gen_file(), pick in any::<prop::sample::Index>(), at in any::<bool>()) {
            let s = load(&render(&entries));
            prop_assert!(s.diagnostics.is_empty());
            let rev = pick.index(s.records.len()) as u32;
            let fork = if at { Fork::At(rev) } else { Fork::Before(rev) };
            let (plan, bytes) = branch(&s, None, fork);
            let out = load(std::str::from_utf8(&bytes).unwrap());
            prop_assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);

            // What the source path keeps: no labels, archives only for targets on the path.
            let path = match fork {
                Fork::At(i) => s.path_to_root(i),
                Fork::Before(i) => s.parent(i).map(|p| s.path_to_root(p)).unwrap_or_default(),
            };
            let on_path: HashSet<_> = path.iter().map(|&i| s.record(i).id.clone().unwrap()).collect();
            let kept: Vec<u32> = path.iter().copied().filter(|&i| match &entries[i as usize] {
                Gen::Label { .. } => false,
                Gen::Archive { target, .. } => on_path.contains(&EntryId::new(format!("e{target:07}"))),
                Gen::Message { .. } => true,
            }).collect();
            let mut want: Vec<EntryId> = kept.iter().map(|&i| s.record(i).id.clone().unwrap()).collect();
            want.extend(plan.created.iter().cloned());

            // The file is exactly the kept entries then the new ones, all on one path.
            let all: Vec<EntryId> = out.records.iter().map(|r| r.id.clone().unwrap()).collect();
            prop_assert_eq!(&all, &want);
            if let Some(leaf) = out.leaf() {
                let walked: Vec<EntryId> = out.path_to_root(leaf).into_iter().map(|i| out.record(i).id.clone().unwrap()).collect();
                prop_assert_eq!(&walked, &want);
            }

            // Kept lines are the source's bytes, except re-linked ones, which differ only in parentId.
            let relinked: HashSet<_> = plan.relinked.iter().cloned().collect();
            for &i in &kept {
                let id = s.record(i).id.clone().unwrap();
                let new = out.raw_line(out.lookup(&id).unwrap()).unwrap();
                let old = s.raw_line(i).unwrap();
                if relinked.contains(&id) {
                    let mut a = parse_lossy(&old).unwrap();
                    let b = parse_lossy(&new).unwrap();
                    a["parentId"] = b["parentId"].clone();
                    prop_assert_eq!(a, b);
                } else {
                    prop_assert_eq!(old, new);
                }
            }

            // The labels in effect are the source's on kept entries, in the same order.
            let kept_ids: HashSet<_> = want.iter().cloned().collect();
            let src_labels: Vec<_> = s.labels().iter().filter(|(t, _)| kept_ids.contains(t)).cloned().collect();
            prop_assert_eq!(out.labels().to_vec(), src_labels);
            let by_kind: HashMap<_, _> = plan.created.iter().map(|id| (id.clone(), out.record(out.lookup(id).unwrap()).kind.clone())).collect();
            prop_assert!(by_kind.values().all(|k| *k == Kind::Label));
        }
    }
}
