//! `name`: set the session's name the way the agent that wrote the file would (FORMAT §10).
//!
//! oh-my-pi keeps the name in the 256-byte title slot on the first line (authoritative on
//! load) and appends a `title_change` entry per rename; pi appends a `session_info` entry.
//! The rules are `setSessionName`'s: an automatic name never replaces a user's, the name is
//! cleaned of control characters, and a name that cleans to nothing is refused.
//!
//! Decisions where the agent gives no answer for a file on disk:
//! - The header's `title`/`titleSource` are left as they are: the slot wins on load, the agent
//!   itself only patches the slot on a rename, and an untouched header line keeps its bytes.
//! - A slot that cannot be patched in place (no slot, a first line that is not exactly 256
//!   bytes, a byte-order mark in front) is replaced by a full rewrite: new slot, then every
//!   other byte of the file as it was (the mark dropped: it would sit inside the header line).
//! - pi records no source. A pi name counts as the user's, so an automatic name does not
//!   replace it (pi has no automatic names; whatever named the session was a person or a
//!   tool acting for one).

use serde_json::Value;

use crate::error::{Error, Result};
use crate::format::Dialect;
use crate::format::title::{SLOT_BYTES, encode_slot, parse_slot};
use crate::id::EntryId;
use crate::naming::{TitleSource, clean_name, humanize_plan_title, may_replace};
use crate::ops::{entry_line, leaf_id};
use crate::session::Session;

/// What `name` was asked to set.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// The name as given, or the plan title when `from_plan`.
    pub text: &'a str,
    /// Who sets it (ignored with `from_plan`, which is always `auto`).
    pub source: TitleSource,
    /// Plan approval: humanize `text` and apply it as `auto` only when the session has no name.
    pub from_plan: bool,
    /// The free-form `trigger` of the `title_change` entry (oh-my-pi files only).
    pub trigger: Option<&'a str>,
    /// The agent whose way to store the name is taken (`--dialect`); without it, the one the
    /// file certainly belongs to ([`Session::certain_dialect`]).
    pub dialect: Option<Dialect>,
}

/// Why a name was not applied. None of these is an error to the agent: the call just returns
/// `false` and the name stays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Nothing is left of the name once cleaned (or humanized).
    Empty,
    /// `from_plan` and the session already has a name.
    AlreadyNamed,
    /// An automatic name would replace the user's.
    UserName,
}

/// How the new name reaches the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Storage {
    /// pi: the `session_info` line is appended, nothing else changes.
    Append,
    /// oh-my-pi: the `title_change` line is appended and the first 256 bytes are overwritten
    /// with `slot`.
    PatchSlot {
        /// The new slot line, exactly 256 bytes with its newline.
        slot: Vec<u8>,
    },
    /// oh-my-pi without a slot that can be patched: the file is rewritten as `slot`, the
    /// file's bytes from `keep_from` on, a newline if the file ends in a torn line, and the
    /// `title_change` line.
    AddSlot {
        /// The new slot line, exactly 256 bytes with its newline.
        slot: Vec<u8>,
        /// Where the kept bytes start (after an old slot line or a byte-order mark).
        keep_from: u64,
    },
}

/// A planned rename.
#[derive(Debug, Clone, PartialEq)]
pub struct Rename {
    /// The id of the new entry.
    pub id: String,
    /// Its parent: the current leaf.
    pub parent: Option<EntryId>,
    /// The cleaned name.
    pub name: String,
    /// The source written (`None` for pi, which has none).
    pub source: Option<TitleSource>,
    /// The name in effect before.
    pub previous: Option<String>,
    /// The entry to append (without its newline).
    pub line: Vec<u8>,
    /// How it is stored.
    pub storage: Storage,
    /// The name in effect once written: the slot may hold only a prefix of a long name.
    pub in_effect: (String, Option<TitleSource>),
}

/// The outcome of planning a rename.
#[derive(Debug, Clone, PartialEq)]
pub enum Plan {
    /// Write this.
    Rename(Rename),
    /// Leave the name as it is.
    Refused(Refusal),
}

/// The name in effect and its source, with a pi name counted as the user's (module doc).
pub fn current(session: &Session) -> Option<(String, Option<TitleSource>)> {
    let (name, source) = session.name()?;
    Some((name, if session.names_like_pi() { Some(TitleSource::User) } else { source }))
}

/// Plans a rename: `id` and `timestamp` are the new entry's.
pub fn plan(session: &Session, req: Request<'_>, id: &str, timestamp: &str) -> Result<Plan> {
    let now = current(session);
    let (raw, source) = if req.from_plan {
        let humanized = humanize_plan_title(req.text);
        if humanized.is_empty() {
            return Ok(Plan::Refused(Refusal::Empty));
        }
        if now.is_some() {
            return Ok(Plan::Refused(Refusal::AlreadyNamed));
        }
        (humanized, TitleSource::Auto)
    } else {
        (req.text.to_owned(), req.source)
    };
    if !may_replace(now.as_ref().and_then(|(_, s)| *s), source) {
        return Ok(Plan::Refused(Refusal::UserName));
    }
    let Some(name) = clean_name(&raw) else {
        return Ok(Plan::Refused(Refusal::Empty));
    };
    let Some(dialect) = req.dialect.or_else(|| session.certain_dialect()) else {
        return Err(Error::Usage(format!(
            "{}: cannot tell whether oh-my-pi or pi wrote this session (no title slot, \
             entries of neither agent or of both, and not in either agent's sessions \
             directory), and pi refuses a file that starts with oh-my-pi's title slot: give \
             --dialect omp or --dialect pi",
            session.path.display()
        )));
    };
    if dialect == Dialect::Pi && session.slot.is_some() {
        return Err(Error::Usage(format!(
            "{}: starts with oh-my-pi's title slot, which pi cannot open and whose name wins \
             over a session_info entry: --dialect pi does not fit it",
            session.path.display()
        )));
    }
    let parent = leaf_id(session);
    let previous = now.map(|(n, _)| n).filter(|n| !n.is_empty());

    let (line, source, storage, in_effect) = if dialect == Dialect::Pi {
        let fields = vec![("name", Value::String(name.clone()))];
        let line = entry_line("session_info", id, parent.as_ref(), timestamp, fields);
        (line, None, Storage::Append, name.clone())
    } else {
        let mut fields =
            vec![("title", Value::String(name.clone())), ("source", source.as_str().into())];
        if let Some(p) = &previous {
            fields.push(("previousTitle", Value::String(p.clone())));
        }
        if let Some(t) = req.trigger {
            fields.push(("trigger", Value::String(t.to_owned())));
        }
        let line = entry_line("title_change", id, parent.as_ref(), timestamp, fields);
        let slot =
            encode_slot(&name, Some(source), timestamp).map_err(|e| Error::Usage(e.to_string()))?;
        let in_effect = parse_slot(&slot).map_or_else(|| name.clone(), |s| s.title);
        let storage = if slot_patchable(session)? {
            Storage::PatchSlot { slot }
        } else {
            Storage::AddSlot { slot, keep_from: kept_from(session)? }
        };
        (line, Some(source), storage, in_effect)
    };
    Ok(Plan::Rename(Rename {
        id: id.to_owned(),
        parent,
        name,
        source,
        previous,
        line,
        storage,
        in_effect: (in_effect, source),
    }))
}

/// Whether the file starts with a title slot that is exactly [`SLOT_BYTES`] long with its
/// newline, so a new slot can overwrite it without moving any other byte.
fn slot_patchable(session: &Session) -> Result<bool> {
    if session.slot.is_none() || session.file_len < SLOT_BYTES as u64 {
        return Ok(false);
    }
    let first = session.read_range(0, SLOT_BYTES as u64)?;
    Ok(first.iter().position(|&b| b == b'\n') == Some(SLOT_BYTES - 1)
        && !first.starts_with(b"\xEF\xBB\xBF"))
}

/// Where the bytes kept by a rewrite start: after the first line when it is a slot (one that
/// cannot be patched in place), after a byte-order mark, or at 0.
fn kept_from(session: &Session) -> Result<u64> {
    if session.slot.is_some() {
        let mut offset = 0;
        while offset < session.file_len {
            let chunk = session.read_range(offset, (session.file_len - offset).min(4096))?;
            if let Some(i) = chunk.iter().position(|&b| b == b'\n') {
                return Ok(offset + i as u64 + 1);
            }
            offset += chunk.len() as u64;
        }
        return Ok(session.file_len);
    }
    let start = session.read_range(0, session.file_len.min(3))?;
    Ok(if start == b"\xEF\xBB\xBF" { 3 } else { 0 })
}

/// The tail a rewrite puts after the kept bytes: a newline for a torn last line, then the
/// entry line and its newline.
pub fn rewrite_tail(session: &Session, line: &[u8]) -> Vec<u8> {
    let mut tail = Vec::with_capacity(line.len() + 2);
    if !session.ends_with_newline && session.file_len > 0 {
        tail.push(b'\n');
    }
    tail.extend_from_slice(line);
    tail.push(b'\n');
    tail
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::naming::TitleSource::{Auto, User};

    const AT: &str = "2026-03-01T12:00:00.000Z";
    const HEADER: &str = r#"{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}"#;
    const MSG: &str = r#"{"type":"message","id":"m1","parentId":null,"timestamp":"t"}"#;

    fn load(bytes: impl Into<Vec<u8>>) -> Session {
        Session::from_bytes(Path::new("t.jsonl"), bytes.into()).unwrap()
    }

    fn slot(title: &str, source: Option<TitleSource>) -> String {
        String::from_utf8(encode_slot(title, source, "2026-01-01T00:00:00.000Z").unwrap()).unwrap()
    }

    fn user(text: &str) -> Request<'_> {
        Request { text, source: User, from_plan: false, trigger: None, dialect: None }
    }

    fn auto(text: &str) -> Request<'_> {
        Request { text, source: Auto, from_plan: false, trigger: None, dialect: None }
    }

    fn from_plan(text: &str) -> Request<'_> {
        Request { text, source: User, from_plan: true, trigger: None, dialect: None }
    }

    fn rename(session: &Session, req: Request<'_>) -> Rename {
        match plan(session, req, "abcd1234", AT).unwrap() {
            Plan::Rename(r) => r,
            Plan::Refused(why) => panic!("refused: {why:?}"),
        }
    }

    fn refusal(session: &Session, req: Request<'_>) -> Refusal {
        match plan(session, req, "abcd1234", AT).unwrap() {
            Plan::Refused(why) => why,
            Plan::Rename(r) => panic!("renamed: {r:?}"),
        }
    }

    #[test]
    fn omp_with_a_slot_patches_it_and_appends_a_title_change() {
        let s = load(format!("{}{HEADER}\n{MSG}\n", slot("Old", Some(Auto))));
        let r = rename(&s, Request { trigger: Some("cli"), ..user("New name") });
        assert_eq!(
            String::from_utf8(r.line).unwrap(),
            r#"{"type":"title_change","id":"abcd1234","parentId":"m1","timestamp":"2026-03-01T12:00:00.000Z","title":"New name","source":"user","previousTitle":"Old","trigger":"cli"}"#
        );
        let Storage::PatchSlot { slot } = &r.storage else { panic!("{:?}", r.storage) };
        assert_eq!(slot.len(), SLOT_BYTES);
        let parsed = parse_slot(slot).unwrap();
        assert_eq!((parsed.title.as_str(), parsed.source), ("New name", Some(User)));
        assert_eq!(parsed.updated_at, AT);
        assert_eq!(r.in_effect, ("New name".to_owned(), Some(User)));
    }

    #[test]
    fn previous_title_only_when_there_was_one() {
        let s = load(format!("{}{HEADER}\n", slot("", None)));
        let line = String::from_utf8(rename(&s, user("A")).line).unwrap();
        assert!(line.ends_with(r#""title":"A","source":"user"}"#), "{line}");
        assert_eq!(rename(&s, user("A")).parent, None);
    }

    #[test]
    fn omp_without_a_slot_gets_one_by_a_rewrite() {
        let omp = |text| Request { dialect: Some(Dialect::Omp), ..user(text) };
        let s = load(format!("{HEADER}\n{MSG}"));
        let r = rename(&s, omp("Named"));
        assert_eq!(r.storage, Storage::AddSlot { slot: slot_at("Named", User), keep_from: 0 });
        // The torn-line rule holds for rewrites too.
        assert_eq!(rewrite_tail(&s, b"{}"), b"\n{}\n");
        let s = load(format!("\u{feff}{HEADER}\n"));
        assert!(matches!(rename(&s, omp("N")).storage, Storage::AddSlot { keep_from: 3, .. }));
        assert_eq!(rewrite_tail(&s, b"{}"), b"{}\n");
        // An entry only oh-my-pi writes says so without being told.
        let mode =
            r#"{"type":"mode_change","id":"m2","parentId":"m1","timestamp":"t","mode":"plan"}"#;
        let s = load(format!("{HEADER}\n{MSG}\n{mode}\n"));
        assert!(matches!(rename(&s, user("N")).storage, Storage::AddSlot { .. }));
    }

    /// A file that says nothing certain of its agent gets no title slot unless told: pi
    /// (whose ids are UUIDv7 now, like oh-my-pi's) refuses a file that starts with one.
    #[test]
    fn a_file_of_no_certain_agent_is_not_given_a_slot() {
        let v7 = r#"{"type":"session","version":3,"id":"0198f3a2-7c41-7d2e-9a55-3b1f0c6e2a10","timestamp":"t","cwd":"/"}"#;
        let user_msg = r#"{"type":"message","id":"m1","parentId":null,"timestamp":"t","message":{"role":"user","content":"hi"}}"#;
        let s = load(format!("{v7}\n{user_msg}\n"));
        assert_eq!(s.certain_dialect(), None);
        let err = plan(&s, user("N"), "abcd1234", AT).unwrap_err();
        assert!(matches!(err, Error::Usage(ref m) if m.contains("--dialect omp or --dialect pi")));
        let pi = Request { dialect: Some(Dialect::Pi), ..user("N") };
        assert_eq!(rename(&s, pi).storage, Storage::Append);
        // Signals of both agents are no more certain than none.
        let info =
            r#"{"type":"session_info","id":"i1","parentId":"m1","timestamp":"t","name":"x"}"#;
        let title = r#"{"type":"title_change","id":"t1","parentId":"i1","timestamp":"t","title":"x","source":"user"}"#;
        let both = load(format!("{v7}\n{user_msg}\n{info}\n{title}\n"));
        assert_eq!(both.certain_dialect(), None);
        assert!(plan(&both, user("N"), "abcd1234", AT).is_err());
        // A file with a title slot is not named as pi's, even when asked.
        let slotted = load(format!("{}{v7}\n", slot("Old", Some(User))));
        let err = plan(&slotted, pi, "abcd1234", AT).unwrap_err();
        assert!(matches!(err, Error::Usage(ref m) if m.contains("--dialect pi does not fit")));
        // pi's own entry says pi.
        let s = load(format!("{v7}\n{user_msg}\n{info}\n"));
        assert_eq!(rename(&s, user("N")).storage, Storage::Append);
    }

    fn slot_at(title: &str, source: TitleSource) -> Vec<u8> {
        encode_slot(title, Some(source), AT).unwrap()
    }

    #[test]
    fn a_slot_of_the_wrong_size_is_replaced_not_patched() {
        let short = r#"{"type":"title","v":1,"title":"Hand made","updatedAt":"u","pad":""}"#;
        let s = load(format!("{short}\n{HEADER}\n"));
        assert_eq!(s.name().unwrap().0, "Hand made");
        let r = rename(&s, user("N"));
        assert_eq!(
            r.storage,
            Storage::AddSlot { slot: slot_at("N", User), keep_from: short.len() as u64 + 1 }
        );
        assert_eq!(r.previous.as_deref(), Some("Hand made"));
        // A byte-order mark in front of a slot: the agent does not see a slot there.
        let s = load(format!("\u{feff}{}{HEADER}\n", slot("X", None)));
        assert!(matches!(rename(&s, user("N")).storage, Storage::AddSlot { keep_from: 259, .. }));
    }

    #[test]
    fn pi_files_get_session_info() {
        let s = load(format!(
            "{HEADER}\n{MSG}\n{}\n",
            r#"{"type":"model_change","id":"mc","parentId":"m1","provider":"p","modelId":"x"}"#
        ));
        let r = rename(&s, Request { trigger: Some("ignored"), ..auto("  pi\tname ") });
        assert_eq!(
            String::from_utf8(r.line).unwrap(),
            r#"{"type":"session_info","id":"abcd1234","parentId":"mc","timestamp":"2026-03-01T12:00:00.000Z","name":"pi name"}"#
        );
        assert_eq!(r.storage, Storage::Append);
        assert_eq!(r.in_effect, ("pi name".to_owned(), None));
    }

    #[test]
    fn a_pi_name_counts_as_the_users() {
        let s = load(format!(
            "{HEADER}\n{}\n",
            r#"{"type":"session_info","id":"i","parentId":null,"name":"Mine"}"#
        ));
        assert_eq!(refusal(&s, auto("Auto")), Refusal::UserName);
        assert_eq!(rename(&s, user("Other")).previous.as_deref(), Some("Mine"));
    }

    #[test]
    fn auto_never_replaces_user() {
        let s = load(format!("{}{HEADER}\n", slot("Mine", Some(User))));
        assert_eq!(refusal(&s, auto("Auto")), Refusal::UserName);
        assert_eq!(rename(&s, user("Also mine")).source, Some(User));
        let s = load(format!("{}{HEADER}\n", slot("Auto", Some(Auto))));
        assert_eq!(rename(&s, auto("Auto 2")).source, Some(Auto));
        // A legacy title without a source may be replaced by anything, as in the agent.
        let legacy = HEADER.replace(r#""cwd":"/""#, r#""cwd":"/","title":"Legacy""#);
        let omp = Request { dialect: Some(Dialect::Omp), ..auto("A") };
        assert_eq!(rename(&load(legacy), omp).previous.as_deref(), Some("Legacy"));
    }

    #[test]
    fn from_plan_humanizes_and_only_names_an_unnamed_session() {
        let s = load(format!("{}{HEADER}\n", slot("", None)));
        let r = rename(&s, from_plan("migrate-mcp-loader"));
        assert_eq!((r.name.as_str(), r.source), ("Migrate mcp loader", Some(Auto)));
        let named = load(format!("{}{HEADER}\n", slot("Any", Some(Auto))));
        assert_eq!(refusal(&named, from_plan("x")), Refusal::AlreadyNamed);
        assert_eq!(refusal(&s, from_plan("---")), Refusal::Empty);
    }

    #[test]
    fn names_are_cleaned_and_empty_ones_refused() {
        let s = load(format!("{}{HEADER}\n", slot("", None)));
        assert_eq!(rename(&s, user("a\u{1b}[31m\n b\u{85}")).name, "a [31m b");
        assert_eq!(refusal(&s, user(" \t\u{7f} ")), Refusal::Empty);
    }

    #[test]
    fn a_long_name_is_cut_in_the_slot_only() {
        let s = load(format!("{}{HEADER}\n", slot("", None)));
        let long = "x".repeat(300);
        let r = rename(&s, user(&long));
        assert_eq!(r.name, long);
        assert!(String::from_utf8(r.line).unwrap().contains(&long));
        assert!(r.in_effect.0.len() < 300 && long.starts_with(&r.in_effect.0));
    }
}
