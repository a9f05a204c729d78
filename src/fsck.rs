//! `fsck`: every problem of a session file with its line and entry, and a repaired copy.
//!
//! [`check`] reports what the loader found (FORMAT §4: no or bad header, unparseable and
//! truncated lines, records that are not objects or have no id, duplicate ids, missing parents,
//! cycles, a version too new) plus what only a check looks for: labels on missing entries,
//! compactions whose `firstKeptEntryId` is neither on their path nor their own id, branch summaries whose `fromId`
//! names no entry, a title slot without its pad, a missing final newline, an empty file.
//!
//! [`repair`] writes a copy that passes [`check`] and keeps every entry that can be kept. Lines
//! it does not need to change are copied byte for byte; lines it changes keep every field but
//! the ones it fixes. What it does, and why:
//!
//! * Unparseable and truncated lines, and records that are not JSON objects, are dropped: they
//!   hold no entry. Blank lines stay.
//! * A lost header is restored in front of the entries: `cwd` from `--cwd`, `timestamp` from the
//!   earliest entry, and a new session id (v7 for oh-my-pi, v4 for pi, as the writers make
//!   them). A first record of type `session` without a string
//!   id is kept as the header and given the new id. A version-1 file is migrated first, so the
//!   ids it was shown with become real.
//! * An entry without an id gets a fresh one. New ids come from the id generator the caller
//!   passes (the CLI seeds it from `SESSTREE_SEED`), like every id sesstree writes.
//! * Duplicate ids: the first entry keeps its id, every later one gets a fresh id. The file is
//!   an append-only log, so a reference can only mean an entry written before it: each
//!   `parentId`, `targetId`, `fromId` and `firstKeptEntryId` is read as the last entry with that
//!   id above it (the reference's "later wins" at the time of writing; a reference to an id
//!   only found below falls back to the last one), and is re-pointed to that entry's new id. For
//!   every entry after both duplicates this is exactly what readers show today; an entry
//!   between them goes back under the entry that existed when it was written, which also
//!   undoes the loops duplicates create.
//! * A missing parent makes the entry a root (`parentId` null): readers already show it so,
//!   and guessing another parent would invent history. The report names the lost id.
//! * A parent cycle is broken at the entry that closes it, the same one the loader picks (the
//!   member last in the file), which becomes a root.
//! * A label on a missing entry is dropped (a label can only be fixed by naming its target, and
//!   that is unknown); entries under it are re-linked to its parent.
//! * A compaction whose `firstKeptEntryId` is not on its path gets the compaction's own id: the
//!   agents then keep nothing before the compaction, which is what they already do with such a
//!   target. Its own id is what pi 1.6 writes for a compaction that keeps nothing
//!   (`appendCompaction(summary, null, …)`, CHANGES R2); `null` is in neither agent's types.
//! * A branch summary whose `fromId` names no entry gets the id of its parent (`"root"` for a
//!   root), which is what the writers put there.
//! * A first line of type `title` without `pad` is the title slot (CHANGES R7: the agent's
//!   session list reads it so, its loader refuses it): it is written again as the agent writes
//!   it, 256 bytes with its pad, the title, source and time kept.
//! * A missing final newline is added.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde_json::{Value, json};

use crate::error::{Error, Result};
use crate::format::entry::Payload;
use crate::format::title::encode_slot;
use crate::format::{Kind, LANE_FORMAT, MAX_VERSION, WRITE_VERSION};
use crate::id::EntryId;
use crate::id_gen::IdGen;
use crate::json::members::{Edit, Member, Members, apply, decode_string, members};
use crate::migrate::{self, id_json};
use crate::session::{NONE, Problem, Session, break_cycles};
use crate::terminal::ellipsize;

/// What kind of problem a [`Finding`] reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProblemKind {
    /// Damage the loader reports: no or bad header, unparseable, truncated and non-object
    /// lines, entries without an id, duplicate ids, missing parents, cycles, a version too new.
    Load(Problem),
    /// The file holds nothing at all (0 bytes or blank lines).
    Empty,
    /// An entry whose `parentId` is its own id. pi 1.6 draws it as a root (`getTree`), but
    /// `getBranch` and the context it resumes from follow the parent for ever and run out of
    /// memory on any path through it.
    SelfParent,
    /// A `label` whose target is not in the file.
    LabelTargetMissing,
    /// A compaction whose `firstKeptEntryId` is not on its path.
    CompactionOffPath,
    /// A `branch_summary` whose `fromId` names no entry (and is not `"root"`).
    UnknownFromId,
    /// A pi `context_edit` whose target is not an entry earlier on its own path (pi's loader
    /// refuses such a file, CHANGES P3).
    ContextEditOffPath,
    /// The first line is oh-my-pi's title slot without its `pad`: the agent lists the session
    /// with its title but refuses to resume it (18.2.3).
    UnpaddedSlot,
    /// The file does not end with a newline.
    NoFinalNewline,
    /// The file could not be read.
    Unreadable,
}

/// What a [`Note`] is about: a problem's kind or a repair's action.
pub trait NoteKind: Copy {
    /// The key it goes under in a note's JSON.
    const KEY: &'static str;
    /// A stable kebab-case name, used in the output.
    fn as_str(self) -> &'static str;
}

impl NoteKind for ProblemKind {
    const KEY: &'static str = "kind";

    fn as_str(self) -> &'static str {
        match self {
            ProblemKind::Load(p) => p.as_str(),
            ProblemKind::Empty => "empty",
            ProblemKind::SelfParent => "self-parent",
            ProblemKind::LabelTargetMissing => "label-target-missing",
            ProblemKind::CompactionOffPath => "compaction-off-path",
            ProblemKind::UnknownFromId => "unknown-from-id",
            ProblemKind::ContextEditOffPath => "context-edit-off-path",
            ProblemKind::UnpaddedSlot => "unpadded-title-slot",
            ProblemKind::NoFinalNewline => "no-final-newline",
            ProblemKind::Unreadable => "unreadable",
        }
    }
}

/// A problem found ([`Finding`]) or a change the repair made ([`Change`]), tied to its line and
/// entry when it has them.
#[derive(Debug, Clone, PartialEq)]
pub struct Note<K> {
    /// What is wrong, or what was done.
    pub kind: K,
    /// The physical line (1-based) of the input; `None` for the file as a whole.
    pub line: Option<u64>,
    /// The entry concerned, by its id in the input.
    pub id: Option<EntryId>,
    /// A human-readable description (as [`crate::session::Diagnostic::message`]).
    pub message: Cow<'static, str>,
}

/// One problem.
pub type Finding = Note<ProblemKind>;

/// One change the repair made.
pub type Change = Note<Action>;

impl<K: NoteKind> Note<K> {
    fn new(
        kind: K,
        line: Option<u64>,
        id: Option<&EntryId>,
        message: impl Into<Cow<'static, str>>,
    ) -> Self {
        Note { kind, line, id: id.cloned(), message: message.into() }
    }

    /// `{"kind", "line", "id", "message"}` (SPEC §5), with `action` for `kind` in a change;
    /// the id as the JSON value it is.
    pub fn to_json(&self) -> Value {
        json!({
            K::KEY: self.kind.as_str(),
            "line": self.line,
            "id": self.id.as_ref().map(EntryId::to_value),
            "message": self.message,
        })
    }
}

/// The `--json` line of one file: `{"file", "ok", "problems": [...]}`.
pub fn report_json(file: &str, findings: &[Finding]) -> Value {
    json!({
        "file": file,
        "ok": findings.is_empty(),
        "problems": findings.iter().map(Finding::to_json).collect::<Vec<_>>(),
    })
}

/// Checks a file; a file that cannot be read is reported as [`ProblemKind::Unreadable`].
pub fn check_file(path: &Path) -> Vec<Finding> {
    let result = Session::load(path).and_then(|s| check(&s));
    result.unwrap_or_else(|e| {
        // The output names the file already.
        let message = match e {
            Error::Io { error, .. } => error.to_string(),
            e => e.to_string(),
        };
        vec![Finding::new(ProblemKind::Unreadable, None, None, message)]
    })
}

/// Every problem of a loaded session, in line order (problems of the whole file first).
pub fn check(session: &Session) -> Result<Vec<Finding>> {
    if let Some(line) = session.lane_format {
        // Another format: its lines would all read as damage.
        let message = format!("{LANE_FORMAT}, not supported yet: its lines are not checked");
        let kind = ProblemKind::Load(Problem::VersionTooNew);
        return Ok(vec![Finding::new(kind, Some(line), None, message)]);
    }
    let mut out: Vec<Finding> = session
        .diagnostics
        .iter()
        .map(|d| {
            let kind = ProblemKind::Load(d.problem);
            Finding::new(kind, Some(d.line), d.id.as_ref(), d.message.clone())
        })
        .collect();
    if session.is_empty() {
        if out.is_empty() && session.slot.is_none() {
            let message = "the file is empty: it holds no session header";
            out.push(Finding::new(ProblemKind::Empty, None, None, message));
        } else {
            let message = "no valid session header: no line holds a JSON record";
            out.push(Finding::new(ProblemKind::Load(Problem::BadHeader), None, None, message));
        }
    }

    if session.slot.as_ref().is_some_and(|s| !s.padded) {
        let message = "the title slot has no pad: oh-my-pi lists the session but cannot resume it";
        out.push(Finding::new(ProblemKind::UnpaddedSlot, Some(1), None, message));
    }

    for r in &session.records {
        if let Some(id) = r.id.as_ref().filter(|&id| r.parent_id.as_ref() == Some(id)) {
            let message = format!(
                "entry {id} is its own parent; the entry counts as a root, but pi loops for ever \
                 on a path through it"
            );
            out.push(Finding::new(ProblemKind::SelfParent, Some(r.line), Some(id), message));
        }
    }

    for lr in session.label_records() {
        let r = session.record(lr.record);
        let id = r.id.as_ref();
        let message = match &lr.target {
            None => format!("label {} has no targetId", show(id)),
            Some(t) if session.lookup(t).is_none() => {
                format!("label {} is on entry {t}, which is not in the file", show(id))
            }
            Some(_) => continue,
        };
        out.push(Finding::new(ProblemKind::LabelTargetMissing, Some(r.line), id, message));
    }

    for (idx, r) in session.records.iter().enumerate() {
        if !matches!(r.kind, Kind::Compaction | Kind::BranchSummary | Kind::ContextEdit) {
            continue;
        }
        let idx = idx as u32;
        let value = session.value(idx)?;
        let payload = Payload::from_value(&value);
        let (kind, message) = match r.kind {
            Kind::Compaction => {
                let Some(target) = payload.first_kept() else {
                    continue; // absent or null: nothing before the compaction is kept
                };
                // Its own id: nothing before it is kept, as pi 1.6 `appendCompaction(summary,
                // null, …)` writes a compaction that keeps nothing (CHANGES R2).
                if r.id.as_ref() == Some(&target) {
                    continue;
                }
                let not = match on_path(session, idx, &target) {
                    Some(true) => continue,
                    Some(false) => "on its path",
                    None => "in the file",
                };
                let message = format!(
                    "compaction {} keeps entries from {target}, which is not {not}",
                    show(r.id.as_ref())
                );
                (ProblemKind::CompactionOffPath, message)
            }
            Kind::BranchSummary => {
                // Structural: the id the entry points at. An id that is not in the file is no
                // damage: the branch it names may have been pruned, and the agents only print
                // `fromId`, never look it up (pi 1.6.0 `createBranchSummaryMessage`, oh-my-pi
                // 18.2.3 `session-context.ts`).
                let message = match payload.from_id() {
                    None => format!("branch summary {} has no fromId", show(r.id.as_ref())),
                    Some(v) if v.text().is_some() => continue,
                    Some(v) => format!(
                        "branch summary {} comes from {}, which is not an entry id",
                        show(r.id.as_ref()),
                        v.to_value(),
                    ),
                };
                (ProblemKind::UnknownFromId, message)
            }
            _ => {
                let target = payload.target_id();
                let edit = show(r.id.as_ref());
                let message = match target.as_ref().map(|t| (t, on_path(session, idx, t))) {
                    None => format!("context edit {edit} has no targetId"),
                    Some((_, Some(true))) => continue,
                    Some((t, None)) => {
                        format!("context edit {edit} edits {t}, which is not in the file")
                    }
                    Some((t, Some(false))) => {
                        format!("context edit {edit} edits {t}, which is not earlier on its path")
                    }
                };
                (ProblemKind::ContextEditOffPath, message)
            }
        };
        out.push(Finding::new(kind, Some(r.line), r.id.as_ref(), message));
    }

    if session.file_len > 0 && !session.ends_with_newline {
        let message = "the file does not end with a newline";
        let line = Some(session.line_count);
        out.push(Finding::new(ProblemKind::NoFinalNewline, line, None, message));
    }
    out.sort_by_key(|f| f.line.unwrap_or(0));
    Ok(out)
}

/// Whether the entry `target` names is earlier on the path of the entry at `idx`; `None` when
/// no entry has that id.
fn on_path(session: &Session, idx: u32, target: &EntryId) -> Option<bool> {
    let t = session.lookup(target)?;
    Some(t != idx && session.path_to_root(idx).contains(&t))
}

fn show(id: Option<&EntryId>) -> String {
    id.map_or_else(|| "(no id)".to_string(), |i| i.to_string())
}

// ---------------------------------------------------------------------------------------------
// Repair

/// What the repair needs from outside: the restored header's `cwd`, and "now" for a restored
/// header when no entry has a timestamp. (New ids come from the [`IdGen`] passed alongside.)
#[derive(Debug, Clone, Default)]
pub struct RepairOptions {
    /// The working directory for a restored header (`--cwd`); required when one is restored.
    pub cwd: Option<String>,
    /// Epoch milliseconds to stamp a restored header with when no entry has a timestamp.
    pub now_ms: i64,
}

/// What one repair step did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// A line that holds no entry was left out.
    DroppedLine,
    /// A header was written in front of the entries.
    RestoredHeader,
    /// The first record, a header without a string id, got one.
    FixedHeader,
    /// The file was migrated to version 3 first.
    Migrated,
    /// An entry without an id got one.
    AddedId,
    /// A later duplicate got a fresh id.
    RenamedDuplicate,
    /// A reference now names a renamed entry.
    Repointed,
    /// An entry whose parent is missing became a root.
    Rerooted,
    /// The entry that closes a parent cycle became a root.
    BrokeCycle,
    /// A label on a missing entry was left out.
    DroppedLabel,
    /// An entry under a dropped label hangs under the label's parent now.
    Relinked,
    /// A branch summary's unknown `fromId` was set to its parent.
    SetFromId,
    /// The title slot was written again with its `pad`, 256 bytes long.
    PaddedSlot,
    /// A compaction's off-path `firstKeptEntryId` was set to the compaction's own id.
    SetFirstKept,
    /// The final newline was added.
    AddedNewline,
}

impl NoteKind for Action {
    const KEY: &'static str = "action";

    fn as_str(self) -> &'static str {
        match self {
            Action::DroppedLine => "dropped-line",
            Action::RestoredHeader => "restored-header",
            Action::FixedHeader => "fixed-header",
            Action::Migrated => "migrated",
            Action::AddedId => "added-id",
            Action::RenamedDuplicate => "renamed-duplicate",
            Action::Repointed => "repointed",
            Action::Rerooted => "re-rooted",
            Action::BrokeCycle => "broke-cycle",
            Action::DroppedLabel => "dropped-label",
            Action::Relinked => "relinked",
            Action::SetFromId => "set-from-id",
            Action::PaddedSlot => "padded-title-slot",
            Action::SetFirstKept => "set-first-kept",
            Action::AddedNewline => "added-newline",
        }
    }
}

/// A repaired copy and what was changed to get it.
#[derive(Debug, Clone)]
pub struct Repair {
    /// The repaired file.
    pub bytes: Vec<u8>,
    /// Every change, in input line order.
    pub changes: Vec<Change>,
}

/// Repairs a loaded session into a copy that passes [`check`] (see the module docs for what
/// is done). Fails for a version newer than sesstree knows, for a lost header without
/// `opts.cwd`, and, as a safety net, when the copy would still have problems.
pub fn repair(session: &Session, opts: &RepairOptions, ids: &mut IdGen) -> Result<Repair> {
    session.refuse_foreign()?;
    if session.lane_format.is_some() {
        return Err(Error::LaneFormat { path: session.path.clone() });
    }
    if let Some(h) = &session.header
        && h.version > MAX_VERSION
    {
        return Err(Error::TooNew { path: session.path.clone(), version: h.version });
    }
    let mut repaired = if session.is_v1() {
        // Freeze the ids the file is shown with before anything moves (they derive from the
        // record positions, which dropping a record would shift).
        let plan = migrate::plan(session)?;
        let migrated = Session::from_bytes(&session.path, plan.bytes)?;
        let mut r = repair_loaded(&migrated, opts, ids)?;
        let line = session.header.as_ref().map(|h| h.line);
        let message = format!("migrated from version {} to {WRITE_VERSION}", plan.from_version);
        r.changes.insert(0, Change::new(Action::Migrated, line, None, message));
        r
    } else {
        repair_loaded(session, opts, ids)?
    };
    let mut out = Session::from_bytes(&session.path, repaired.bytes.clone())?;
    if out.is_v1() {
        // A restored header over entries without any ids makes a version-1 file: migrate it.
        let plan = migrate::plan(&out)?;
        let message = format!("migrated from version 1 to {WRITE_VERSION}");
        repaired.changes.push(Change::new(Action::Migrated, None, None, message));
        repaired.bytes = plan.bytes;
        out = Session::from_bytes(&session.path, repaired.bytes.clone())?;
    }
    if let Some(left) = check(&out)?.first() {
        return Err(Error::Failed(format!(
            "{}: the repaired copy would still have a problem ({}: {}); nothing was written",
            session.path.display(),
            left.kind.as_str(),
            left.message
        )));
    }
    repaired.changes.sort_by_key(|c| c.line.unwrap_or(0));
    Ok(repaired)
}

/// A fixed reference field: the value to write and the change to report.
type Fix = (String, Change);

fn repair_loaded(session: &Session, opts: &RepairOptions, ids: &mut IdGen) -> Result<Repair> {
    let src = session.read_range(0, session.file_len)?;
    let records = &session.records;
    let n = records.len();
    let slice = |i: usize| {
        let r = &records[i];
        &src[r.offset as usize..(r.offset + r.len) as usize]
    };
    let parsed: Vec<Option<Members>> = (0..n).map(|i| members(slice(i))).collect();
    let mut edits: Vec<Vec<Edit>> = vec![Vec::new(); n];
    let mut changes = Vec::new();
    let mut drop = vec![false; n];

    // The header. A first record of type `session` that only lacks a string id is kept as
    // the header, with everything it records; otherwise one is written in front.
    let fix_header_record = session.header.is_none()
        && records.first().is_some_and(|r| r.kind == Kind::Session)
        && parsed.first().is_some_and(Option::is_some);
    let first_entry = usize::from(fix_header_record);
    // Entries without any id under a lost header are a version-1 file: the header gets no
    // version, and the migration afterwards gives them their ids.
    let v1_like = session.header.is_none() && {
        let mut objects = (first_entry..n).filter(|&i| parsed[i].is_some()).peekable();
        objects.peek().is_some() && objects.all(|i| records[i].id.is_none())
    };
    let mut header_insert = None;
    if session.header.is_none() {
        let ts = records.iter().filter_map(|r| r.time).min().unwrap_or(opts.now_ms);
        // A UUIDv7 stamped with the header's time, as both agents make them now (CHANGES P1).
        let sid = ids.session_id(ts);
        if let (true, Some(Some(m))) = (fix_header_record, parsed.first()) {
            edits[0] = fix_header(m, &sid, !v1_like);
            let message = format!("the session header had no string id; gave it the id {sid}");
            changes.push(Change::new(Action::FixedHeader, Some(records[0].line), None, message));
        } else {
            let cwd = opts.cwd.clone().ok_or_else(|| {
                Error::Usage(format!(
                    "{}: the session header is missing; give --cwd DIR for the header to restore",
                    session.path.display()
                ))
            })?;
            let mut header = serde_json::Map::new();
            header.insert("type".into(), "session".into());
            if !v1_like {
                header.insert("version".into(), WRITE_VERSION.into());
            }
            header.insert("id".into(), sid.clone().into());
            header.insert("timestamp".into(), crate::clock::format_iso_millis(ts).into());
            header.insert("cwd".into(), cwd.clone().into());
            let message = format!("restored the missing session header (id {sid}, cwd {cwd})");
            let line = records.first().map(|r| r.line);
            changes.push(Change::new(Action::RestoredHeader, line, None, message));
            header_insert = Some(Value::Object(header).to_string().into_bytes());
        }
    }

    let entries = first_entry..n;
    for i in entries.clone().filter(|&i| parsed[i].is_none()) {
        drop[i] = true;
        let message = format!("dropped a record that is not a JSON object: {}", excerpt(slice(i)));
        changes.push(Change::new(Action::DroppedLine, Some(records[i].line), None, message));
    }
    if !v1_like {
        let mut fixer = Fixer::new(session, &parsed, entries.clone(), &drop);
        fixer.ids(ids, &mut edits, &mut changes);
        fixer.parents();
        fixer.labels(&src, &mut drop, &mut changes);
        fixer.relink(&drop);
        fixer.references(&src, &drop, &mut edits, &mut changes);
        // Parent edits last: `relink` and cycle breaking may overwrite earlier fixes.
        for i in entries.clone() {
            if let (Some((json, change)), Some(m)) = (fixer.parent_fix[i].take(), &parsed[i])
                && !drop[i]
            {
                edits[i].extend(set_member(m, "parentId", &json, &["id", "type"]));
                changes.push(change);
            }
        }
    }

    // Unparseable and truncated lines hold no entry.
    let drop_lines: HashMap<u64, Problem> = session
        .diagnostics
        .iter()
        .filter(|d| matches!(d.problem, Problem::Unparseable | Problem::Truncated))
        .map(|d| (d.line, d.problem))
        .collect();

    // A title slot without its pad is the slot all the same: written again as the agent writes
    // it, so that the agent resumes the file.
    let padded_slot = match &session.slot {
        Some(s) if !s.padded => Some(
            encode_slot(&s.title, s.source, &s.updated_at)
                .map_err(|e| Error::Failed(format!("{}: {e}", session.path.display())))?,
        ),
        _ => None,
    };

    // Assemble: every physical line in order, copied, edited or left out.
    let by_line: HashMap<u64, usize> =
        records.iter().enumerate().map(|(i, r)| (r.line, i)).collect();
    // The restored header goes in front of the first record, or at the end of a file without.
    let header_at = header_insert.map(|h| (records.first().map_or(u64::MAX, |r| r.line), h));
    const BOM: &[u8] = b"\xEF\xBB\xBF";
    let mut out = Vec::with_capacity(src.len() + 256);
    let (mut pos, mut line_no) = (0usize, 0u64);
    while pos < src.len() {
        line_no += 1;
        let end = memchr::memchr(b'\n', &src[pos..]).map_or(src.len(), |k| pos + k);
        let newline = end < src.len();
        let mut start = pos;
        if let Some((at, header)) = &header_at
            && *at == line_no
        {
            if line_no == 1 && src.starts_with(BOM) {
                out.extend_from_slice(BOM);
                start += BOM.len();
            }
            out.extend_from_slice(header);
            out.push(b'\n');
        }
        let keep = if let Some(slot) = padded_slot.as_ref().filter(|_| line_no == 1) {
            out.extend_from_slice(slot.strip_suffix(b"\n").unwrap_or(slot));
            let message = "wrote the title slot again with its pad (256 bytes)".to_string();
            changes.push(Change::new(Action::PaddedSlot, Some(1), None, message));
            true
        } else if let Some(problem) = drop_lines.get(&line_no) {
            let what = match problem {
                Problem::Truncated => "the truncated last line",
                _ => "an unparseable line",
            };
            let message = format!("dropped {what}: {}", excerpt(&src[start..end]));
            changes.push(Change::new(Action::DroppedLine, Some(line_no), None, message));
            false
        } else if let Some(&i) = by_line.get(&line_no) {
            if !drop[i] {
                let r = &records[i];
                out.extend_from_slice(&src[start..r.offset as usize]);
                out.extend_from_slice(&apply(slice(i), std::mem::take(&mut edits[i])));
                out.extend_from_slice(&src[(r.offset + r.len) as usize..end]);
            }
            !drop[i]
        } else {
            out.extend_from_slice(&src[start..end]);
            true
        };
        if keep && newline {
            out.push(b'\n');
        }
        pos = end + 1;
    }
    if let Some((u64::MAX, header)) = &header_at {
        if !out.is_empty() && !out.ends_with(b"\n") {
            out.push(b'\n');
        }
        out.extend_from_slice(header);
        out.push(b'\n');
    }
    if !out.is_empty() && !out.ends_with(b"\n") {
        out.push(b'\n');
        let message = "added the missing final newline".to_string();
        changes.push(Change::new(Action::AddedNewline, Some(session.line_count), None, message));
    }
    Ok(Repair { bytes: out, changes })
}

/// The start of a dropped line, for the report.
fn excerpt(line: &[u8]) -> String {
    ellipsize(&String::from_utf8_lossy(line), 60)
}

/// The edits that make a `session` record without a string id a header: the new id, and a
/// `version` unless the entries are a version-1 file (without one the file reads as version 1).
fn fix_header(m: &Members, sid: &str, versioned: bool) -> Vec<Edit> {
    let sid = Value::from(sid).to_string();
    let mut edits: Vec<Edit> = m.all("id").map(|id| Edit::set_value(id, &sid)).collect();
    // Spans of the header's members, for a byte-preserving edit.
    let version = m.get("version");
    let mut missing = Vec::new();
    if versioned && version.is_none() {
        missing.push(("version", WRITE_VERSION.to_string()));
    }
    if edits.is_empty() {
        missing.push(("id", sid));
    }
    if !missing.is_empty() {
        edits.push(Edit::insert(m, version.or(m.first("type")), &missing));
    }
    edits
}

/// Sets every `key` member to `json`, or inserts one after the last of `after` present (or
/// first in the object). Setting an absent `parentId` to null needs no edit: absent is null.
fn set_member(m: &Members, key: &str, json: &str, after: &[&str]) -> Vec<Edit> {
    let present: Vec<Edit> = m.all(key).map(|member| Edit::set_value(member, json)).collect();
    if !present.is_empty() {
        return present;
    }
    if key == "parentId" && json == "null" {
        return Vec::new();
    }
    let anchor = after.iter().find_map(|k| m.get(k));
    vec![Edit::insert(m, anchor, &[(key, json.to_string())])]
}

/// The id and reference fixes over the entries, with the state they share.
struct Fixer<'a> {
    session: &'a Session,
    parsed: &'a [Option<Members>],
    entries: std::ops::Range<usize>,
    /// Each entry's id after the repair.
    new_id: Vec<Option<EntryId>>,
    /// Where each id occurs among the kept entries, in file order.
    occurrences: HashMap<EntryId, Vec<usize>>,
    renamed: Vec<bool>,
    parent: Vec<u32>,
    parent_fix: Vec<Option<Fix>>,
}

impl<'a> Fixer<'a> {
    fn new(
        session: &'a Session,
        parsed: &'a [Option<Members>],
        entries: std::ops::Range<usize>,
        drop: &[bool],
    ) -> Self {
        let n = session.records.len();
        let mut occurrences: HashMap<EntryId, Vec<usize>> = HashMap::new();
        for i in entries.clone().filter(|&i| !drop[i]) {
            if let Some(id) = &session.records[i].id {
                occurrences.entry(id.clone()).or_default().push(i);
            }
        }
        Fixer {
            session,
            parsed,
            entries,
            new_id: session.records.iter().map(|r| r.id.clone()).collect(),
            occurrences,
            renamed: vec![false; n],
            parent: vec![NONE; n],
            parent_fix: vec![None; n],
        }
    }

    fn line(&self, i: usize) -> u64 {
        self.session.records[i].line
    }

    fn id(&self, i: usize) -> Option<&EntryId> {
        self.session.records[i].id.as_ref()
    }

    /// The entries that are JSON objects: the others hold no entry.
    fn objects(&self) -> impl Iterator<Item = usize> + use<'a> {
        let parsed = self.parsed;
        self.entries.clone().filter(move |&i| parsed[i].is_some())
    }

    /// The entry a reference to `id` written in entry `at` means: the last one with that id
    /// above it, else the last one in the file.
    fn resolve(&self, id: &EntryId, at: usize) -> Option<usize> {
        let occ = self.occurrences.get(id)?;
        match occ.partition_point(|&j| j < at) {
            0 => occ.last().copied(),
            k => Some(occ[k - 1]),
        }
    }

    /// What a report says of reference `key`, written as `old`, once it names entry `j`.
    fn now_names(&self, key: &str, old: &EntryId, j: usize) -> String {
        format!("{key} {old} now names {} (line {})", show(self.new_id[j].as_ref()), self.line(j))
    }

    /// The new id of entry `j` as JSON.
    fn id_json(&self, j: usize) -> String {
        self.new_id[j].as_ref().map_or_else(|| "null".to_string(), id_json)
    }

    /// Fresh ids for entries without one and for later duplicates.
    fn ids(&mut self, ids: &mut IdGen, edits: &mut [Vec<Edit>], changes: &mut Vec<Change>) {
        let records = &self.session.records;
        let mut taken: HashSet<String> = records
            .iter()
            .filter_map(|r| r.id.as_ref())
            .filter(|id| id.is_string())
            .map(|id| id.as_str().to_string())
            .collect();
        for i in self.objects() {
            let r = &records[i];
            let first = r.id.as_ref().map(|id| self.occurrences[id][0]);
            if first == Some(i) {
                continue;
            }
            let fresh = ids.entry_id(|c| taken.contains(c));
            taken.insert(fresh.clone());
            let m = self.parsed[i].as_ref().expect("kept entries are objects");
            let fresh_json = Value::from(fresh.as_str()).to_string();
            edits[i].extend(set_member(m, "id", &fresh_json, &["type"]));
            let change = match (&r.id, first) {
                (Some(old), Some(j)) => {
                    self.renamed[i] = true;
                    let message = format!(
                        "duplicate id {old} (first on line {}): renamed to {fresh}",
                        self.line(j)
                    );
                    Change::new(Action::RenamedDuplicate, Some(r.line), Some(old), message)
                }
                _ => {
                    let message = format!("the entry had no id: gave it {fresh}");
                    Change::new(Action::AddedId, Some(r.line), None, message)
                }
            };
            changes.push(change);
            self.new_id[i] = Some(EntryId::new(fresh));
        }
    }

    /// Parents read positionally; missing ones become roots; cycles are broken.
    fn parents(&mut self) {
        let session = self.session;
        for i in self.objects() {
            let r = &session.records[i];
            let Some(p) = &r.parent_id else { continue };
            let line = Some(r.line);
            if r.id.as_ref() == Some(p) {
                // A root, as the loader and pi's tree read it, and as pi's paths can follow.
                let message = format!("parentId {p} was the entry's own id; set to null");
                let change = Change::new(Action::Rerooted, line, r.id.as_ref(), message);
                self.parent_fix[i] = Some(("null".into(), change));
                continue;
            }
            match self.resolve(p, i) {
                Some(j) => {
                    self.parent[i] = j as u32;
                    if self.new_id[j].as_ref() != Some(p) {
                        let now = self.now_names("parentId", p, j);
                        let message = format!("{now}, the entry it meant when written");
                        let change = Change::new(Action::Repointed, line, r.id.as_ref(), message);
                        self.parent_fix[i] = Some((self.id_json(j), change));
                    }
                }
                None => {
                    let message = format!("parent {p} is not in the file; the entry is now a root");
                    let change = Change::new(Action::Rerooted, line, r.id.as_ref(), message);
                    self.parent_fix[i] = Some(("null".into(), change));
                }
            }
        }
        for (closing, _) in break_cycles(&mut self.parent) {
            let i = closing as usize;
            let id = self.id(i);
            let message =
                format!("parent cycle through {}: broken here, the entry is now a root", show(id));
            let change = Change::new(Action::BrokeCycle, Some(self.line(i)), id, message);
            self.parent_fix[i] = Some(("null".into(), change));
        }
    }

    /// The id the reference `key` of entry `i` names as written (a label's or archive record's
    /// `targetId`, a compaction's `firstKeptEntryId`); `None` when it is absent or null.
    fn reference(&self, src: &[u8], i: usize, key: &str) -> Option<EntryId> {
        let member = self.parsed[i].as_ref()?.get(key)?;
        let start = self.session.records[i].offset as usize;
        let raw = &src[start + member.value_start..start + member.value_end];
        EntryId::from_raw_json(std::str::from_utf8(raw).ok()?)
    }

    /// Labels whose target is gone are dropped (repeatedly: a label may target a label).
    fn labels(&mut self, src: &[u8], drop: &mut [bool], changes: &mut Vec<Change>) {
        let records = &self.session.records;
        let labels: Vec<usize> =
            self.objects().filter(|&i| records[i].kind == Kind::Label).collect();
        let mut more = true;
        while more {
            more = false;
            for &i in &labels {
                if drop[i] {
                    continue;
                }
                let target = self.reference(src, i, "targetId");
                let found = target.as_ref().and_then(|t| self.resolve(t, i));
                if found.is_some_and(|j| !drop[j]) {
                    continue;
                }
                drop[i] = true;
                more = true;
                let message = match &target {
                    Some(t) => format!("dropped the label on {t}, which is not in the file"),
                    None => "dropped a label without targetId".to_string(),
                };
                let line = Some(self.line(i));
                changes.push(Change::new(Action::DroppedLabel, line, self.id(i), message));
            }
        }
    }

    /// Entries under a dropped label hang under the label's nearest kept ancestor.
    fn relink(&mut self, drop: &[bool]) {
        for i in self.objects().filter(|&i| !drop[i]) {
            let mut p = self.parent[i];
            while p != NONE && drop[p as usize] {
                p = self.parent[p as usize];
            }
            if p == self.parent[i] {
                continue;
            }
            let old = self.parent[i] as usize;
            self.parent[i] = p;
            let (json, to) = self.point_at(p, ["null", "it is now a root"], "it now hangs under");
            let message =
                format!("its parent, the label {}, was dropped; {to}", show(self.id(old)));
            let change = Change::new(Action::Relinked, Some(self.line(i)), self.id(i), message);
            self.parent_fix[i] = Some((json, change));
        }
    }

    /// The JSON for a reference to `p` and how to describe it: `root` when `p` is `NONE`.
    fn point_at(&self, p: u32, root: [&str; 2], under: &str) -> (String, String) {
        if p == NONE {
            return (root[0].to_string(), root[1].to_string());
        }
        let p = p as usize;
        (self.id_json(p), format!("{under} {}", show(self.new_id[p].as_ref())))
    }

    fn is_ancestor(&self, j: usize, i: usize) -> bool {
        let up = |&p: &u32| (p != NONE).then(|| self.parent[p as usize]);
        std::iter::successors(Some(self.parent[i]), up).any(|p| p as usize == j)
    }

    /// `targetId`, `fromId` and `firstKeptEntryId` re-pointed at renamed entries or fixed.
    fn references(
        &self,
        src: &[u8],
        drop: &[bool],
        edits: &mut [Vec<Edit>],
        changes: &mut Vec<Change>,
    ) {
        for i in self.objects().filter(|&i| !drop[i]) {
            let r = &self.session.records[i];
            let m = self.parsed[i].as_ref().expect("kept entries are objects");
            let line = &src[r.offset as usize..(r.offset + r.len) as usize];
            let raw = |member: &Member| &line[member.value_start..member.value_end];
            let here = Some(r.line);
            match r.kind {
                Kind::Label | Kind::Archive => {
                    let Some(t) = self.reference(src, i, "targetId") else { continue };
                    if let Some(j) =
                        self.resolve(&t, i).filter(|&j| self.new_id[j].as_ref() != Some(&t))
                    {
                        edits[i].extend(set_member(m, "targetId", &self.id_json(j), &[]));
                        let message = self.now_names("targetId", &t, j);
                        changes.push(Change::new(Action::Repointed, here, r.id.as_ref(), message));
                    }
                }
                Kind::BranchSummary => {
                    // Spans of members, for a byte-preserving edit.
                    let from = m.get("fromId").map(raw);
                    if from.is_some_and(|f| decode_string(f) == "root" && f.starts_with(b"\"")) {
                        continue;
                    }
                    let written =
                        from.and_then(|f| EntryId::from_raw_json(std::str::from_utf8(f).ok()?));
                    let found =
                        written.as_ref().and_then(|w| self.resolve(w, i)).filter(|&j| !drop[j]);
                    let (json, action, message) = match (found, &written) {
                        (Some(j), Some(w)) if self.new_id[j].as_ref() == Some(w) => continue,
                        (Some(j), Some(w)) => {
                            (self.id_json(j), Action::Repointed, self.now_names("fromId", w, j))
                        }
                        // An id of an entry not in the file (pruned, say) stays, as the check
                        // lets it.
                        (None, Some(_)) if from.is_some_and(|f| f.starts_with(b"\"")) => continue,
                        _ => {
                            let root = ["\"root\"", "\"root\" (it is a root)"];
                            let (json, to) = self.point_at(self.parent[i], root, "its parent");
                            let what = match (&written, from) {
                                (Some(w), _) => format!("fromId {w} is not an entry id"),
                                (None, Some(_)) => "fromId was null".to_string(),
                                (None, None) => "the branch summary had no fromId".to_string(),
                            };
                            (json, Action::SetFromId, format!("{what}; set to {to}"))
                        }
                    };
                    let after = ["timestamp", "parentId", "id", "type"];
                    edits[i].extend(set_member(m, "fromId", &json, &after));
                    changes.push(Change::new(action, here, r.id.as_ref(), message));
                }
                Kind::Compaction => {
                    let Some(t) = self.reference(src, i, "firstKeptEntryId") else {
                        continue; // absent or null: nothing before the compaction is kept
                    };
                    // Any entry with that id on the path will do; prefer the one written above.
                    let on_path = self.occurrences.get(&t).and_then(|occ| {
                        occ.iter().rev().copied().find(|&j| !drop[j] && self.is_ancestor(j, i))
                    });
                    // Else its own id keeps nothing before it (pi 1.6 writes that for a
                    // compaction that keeps nothing; both agents read it so).
                    let own = r.id.as_ref() == Some(&t);
                    let (json, action, message) = match on_path {
                        Some(j) if self.new_id[j].as_ref() == Some(&t) => continue,
                        Some(j) => (
                            self.id_json(j),
                            Action::Repointed,
                            self.now_names("firstKeptEntryId", &t, j),
                        ),
                        None if own && !self.renamed[i] => continue,
                        None if own => (
                            self.id_json(i),
                            Action::Repointed,
                            self.now_names("firstKeptEntryId", &t, i),
                        ),
                        None => (
                            self.id_json(i),
                            Action::SetFirstKept,
                            format!(
                                "firstKeptEntryId {t} is not on the compaction's path; set to the compaction's own id (nothing before it is kept, as the agents already read it)"
                            ),
                        ),
                    };
                    edits[i].extend(set_member(m, "firstKeptEntryId", &json, &[]));
                    changes.push(Change::new(action, here, r.id.as_ref(), message));
                }
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = r#"{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}"#;

    fn msg(id: &str, parent: Option<&str>) -> String {
        let parent = parent.map_or("null".to_string(), |p| format!("\"{p}\""));
        format!(
            r#"{{"type":"message","id":"{id}","parentId":{parent},"timestamp":"2026-01-01T00:00:01.000Z","message":{{"role":"user","content":"{id}"}}}}"#
        )
    }

    fn file(lines: &[String]) -> String {
        lines.join("\n") + "\n"
    }

    fn load(text: &str) -> Session {
        Session::from_bytes(Path::new("t.jsonl"), text.as_bytes().to_vec()).unwrap()
    }

    fn kinds(text: &str) -> Vec<(Option<u64>, &'static str)> {
        check(&load(text)).unwrap().iter().map(|f| (f.line, f.kind.as_str())).collect()
    }

    fn fix(text: &str) -> Repair {
        let opts = RepairOptions { cwd: Some("/w".into()), now_ms: 0 };
        repair(&load(text), &opts, &mut IdGen::from_seed(7)).unwrap()
    }

    fn actions(r: &Repair) -> Vec<(Option<u64>, &'static str)> {
        r.changes.iter().map(|c| (c.line, c.kind.as_str())).collect()
    }

    /// The repaired file's entries as (id, parent) pairs.
    fn shape(bytes: &[u8]) -> Vec<(String, Option<String>)> {
        let s = Session::from_bytes(Path::new("r"), bytes.to_vec()).unwrap();
        s.records
            .iter()
            .map(|r| {
                (r.id.as_ref().unwrap().to_string(), r.parent_id.as_ref().map(|p| p.to_string()))
            })
            .collect()
    }

    #[test]
    fn a_clean_file_is_ok_and_repairs_to_itself() {
        let text = file(&[HEADER.into(), msg("a", None), msg("b", Some("a"))]);
        assert_eq!(kinds(&text), vec![]);
        let r = fix(&text);
        assert_eq!(r.bytes, text.as_bytes());
        assert!(r.changes.is_empty());
    }

    #[test]
    fn empty_and_headerless_files() {
        assert_eq!(kinds(""), vec![(None, "empty")]);
        assert_eq!(kinds("{oops\n"), vec![(None, "bad-header"), (Some(1), "unparseable")]);
        let text = file(&[msg("a", None), msg("b", Some("a"))]);
        assert_eq!(kinds(&text), vec![(Some(1), "bad-header")]);
        let r = fix(&text);
        assert_eq!(actions(&r), vec![(Some(1), "restored-header")]);
        let out = String::from_utf8(r.bytes.clone()).unwrap();
        assert!(out.starts_with(r#"{"type":"session","version":3,"id":""#), "{out}");
        assert!(out.contains(r#""timestamp":"2026-01-01T00:00:01.000Z","cwd":"/w"}"#), "{out}");
        assert!(out.ends_with(&text), "entries kept byte for byte");
        assert_eq!(fix(&text).bytes, r.bytes, "deterministic");
        let err = repair(&load(&text), &RepairOptions::default(), &mut IdGen::from_seed(7));
        assert!(matches!(err, Err(Error::Usage(_))), "{err:?}");
        // An empty file repairs to a header.
        let r = fix("");
        assert_eq!(shape(&r.bytes), vec![]);
        assert_eq!(kinds(std::str::from_utf8(&r.bytes).unwrap()), vec![]);
    }

    #[test]
    fn a_header_without_id_keeps_its_fields() {
        let text = file(&[
            r#"{"type":"session","version":3,"timestamp":"t","cwd":"/x","title":"T"}"#.into(),
            msg("a", None),
        ]);
        let r = fix(&text);
        assert_eq!(actions(&r), vec![(Some(1), "fixed-header")]);
        let out = String::from_utf8(r.bytes).unwrap();
        let first = out.lines().next().unwrap();
        assert!(first.starts_with(r#"{"type":"session","version":3,"id":""#), "{first}");
        assert!(first.ends_with(r#","timestamp":"t","cwd":"/x","title":"T"}"#), "{first}");
    }

    #[test]
    fn headerless_entries_without_ids_are_a_v1_file() {
        let text = "{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"a\"}}\n{\"type\":\"message\"}\n";
        let r = fix(text);
        assert_eq!(actions(&r), vec![(None, "migrated"), (Some(1), "restored-header")]);
        let shape = shape(&r.bytes);
        assert_eq!(shape[1].1.as_deref(), Some(shape[0].0.as_str()), "chained in file order");
    }

    #[test]
    fn unparseable_truncated_and_non_object_lines_are_dropped() {
        let text = format!("{}\n{{broken\n[1]\n\n{}\n{{\"type\":\"mess", HEADER, msg("a", None));
        assert_eq!(
            kinds(&text),
            vec![
                (Some(2), "unparseable"),
                (Some(3), "not-an-object"),
                (Some(6), "truncated"),
                (Some(6), "no-final-newline")
            ]
        );
        let r = fix(&text);
        assert_eq!(
            actions(&r),
            vec![(Some(2), "dropped-line"), (Some(3), "dropped-line"), (Some(6), "dropped-line")]
        );
        assert_eq!(
            String::from_utf8(r.bytes).unwrap(),
            format!("{HEADER}\n\n{}\n", msg("a", None))
        );
    }

    #[test]
    fn entries_without_ids_get_one() {
        let text =
            file(&[HEADER.into(), msg("a", None), r#"{"type":"custom","parentId":"a"}"#.into()]);
        assert_eq!(kinds(&text), vec![(Some(3), "no-id")]);
        let r = fix(&text);
        assert_eq!(actions(&r), vec![(Some(3), "added-id")]);
        let out = String::from_utf8(r.bytes).unwrap();
        let last = out.lines().last().unwrap();
        assert!(
            last.starts_with(r#"{"type":"custom","id":""#)
                && last.ends_with(r#"","parentId":"a"}"#),
            "{last}"
        );
    }

    #[test]
    fn later_duplicates_are_renamed_and_references_follow_their_time() {
        // b was written under the first a; the second a loops back through b; c and the label
        // come after both and mean the later a.
        let text = file(&[
            HEADER.into(),
            msg("a", None),
            msg("b", Some("a")),
            msg("a", Some("b")),
            msg("c", Some("a")),
            r#"{"type":"label","id":"l","parentId":"c","targetId":"a","label":"x"}"#.into(),
        ]);
        assert_eq!(kinds(&text), vec![(Some(4), "duplicate-id"), (Some(4), "cycle")]);
        let r = fix(&text);
        assert_eq!(
            actions(&r),
            vec![(Some(4), "renamed-duplicate"), (Some(5), "repointed"), (Some(6), "repointed")]
        );
        let shape = shape(&r.bytes);
        let a2 = shape[2].0.clone();
        assert_ne!(a2, "a");
        assert_eq!(
            shape,
            vec![
                ("a".into(), None),
                ("b".into(), Some("a".into())),
                (a2.clone(), Some("b".into())),
                ("c".into(), Some(a2.clone())),
                ("l".into(), Some("c".into())),
            ]
        );
        assert!(String::from_utf8(r.bytes).unwrap().contains(&format!(r#""targetId":"{a2}""#)));
    }

    #[test]
    fn missing_parents_become_roots_and_cycles_break_where_the_loader_breaks_them() {
        let text = file(&[
            HEADER.into(),
            msg("a", Some("c")),
            msg("b", Some("a")),
            msg("c", Some("b")),
            msg("o", Some("gone")),
            msg("p", Some("o")),
        ]);
        assert_eq!(kinds(&text), vec![(Some(4), "cycle"), (Some(5), "missing-parent")]);
        let r = fix(&text);
        assert_eq!(actions(&r), vec![(Some(4), "broke-cycle"), (Some(5), "re-rooted")]);
        let shape = shape(&r.bytes);
        assert_eq!(shape[2], ("c".into(), None));
        assert_eq!(shape[3], ("o".into(), None));
        assert_eq!(shape[4], ("p".into(), Some("o".into())));
    }

    #[test]
    fn labels_on_missing_entries_are_dropped_and_their_children_relinked() {
        let text = file(&[
            HEADER.into(),
            msg("a", None),
            r#"{"type":"label","id":"l1","parentId":"a","targetId":"gone","label":"x"}"#.into(),
            r#"{"type":"label","id":"l2","parentId":"l1","targetId":"l1","label":"y"}"#.into(),
            msg("b", Some("l2")),
        ]);
        assert_eq!(kinds(&text), vec![(Some(3), "label-target-missing")]);
        let r = fix(&text);
        assert_eq!(
            actions(&r),
            vec![(Some(3), "dropped-label"), (Some(4), "dropped-label"), (Some(5), "relinked")]
        );
        assert_eq!(shape(&r.bytes), vec![("a".into(), None), ("b".into(), Some("a".into()))]);
    }

    #[test]
    fn compactions_off_their_path_keep_nothing() {
        let compaction = |id: &str, parent: &str, first: &str| {
            format!(
                r#"{{"type":"compaction","id":"{id}","parentId":"{parent}","summary":"s","firstKeptEntryId":{first},"tokensBefore":1}}"#
            )
        };
        let text = file(&[
            HEADER.into(),
            msg("a", None),
            msg("b", Some("a")),
            msg("x", Some("a")),
            compaction("c1", "b", "\"a\""),
            compaction("c2", "b", "\"x\""),
            compaction("c3", "b", "\"gone\""),
            compaction("c4", "b", "null"),
            // Its own id: pi 1.6 `appendCompaction(summary, null)` keeps nothing so (R2).
            compaction("c5", "b", "\"c5\""),
        ]);
        assert_eq!(
            kinds(&text),
            vec![(Some(6), "compaction-off-path"), (Some(7), "compaction-off-path")]
        );
        let r = fix(&text);
        assert_eq!(actions(&r), vec![(Some(6), "set-first-kept"), (Some(7), "set-first-kept")]);
        let out = String::from_utf8(r.bytes).unwrap();
        let lines: Vec<_> = out.lines().collect();
        assert_eq!(lines[5], compaction("c2", "b", "\"c2\""), "null is in no agent's types");
        assert_eq!(lines[6], compaction("c3", "b", "\"c3\""));
        assert_eq!(lines[7], compaction("c4", "b", "null"), "read as keeping nothing; left");
        assert_eq!(lines[8], compaction("c5", "b", "\"c5\""));
    }

    /// A compaction keeping nothing that is renamed as a later duplicate keeps nothing under
    /// its new id (the entry it shared the id with is on another branch).
    #[test]
    fn a_renamed_compaction_that_keeps_nothing_names_itself_again() {
        let text = file(&[
            HEADER.into(),
            msg("c", None),
            msg("m", None),
            r#"{"type":"compaction","id":"c","parentId":"m","summary":"s","firstKeptEntryId":"c"}"#
                .into(),
        ]);
        let r = fix(&text);
        let out = String::from_utf8(r.bytes).unwrap();
        let last = out.lines().last().unwrap();
        let v: Value = serde_json::from_str(last).unwrap();
        assert_ne!(v["id"], "c");
        assert_eq!(v["firstKeptEntryId"], v["id"], "{last}");
        assert!(check(&load(&out)).unwrap().is_empty());
    }

    #[test]
    fn branch_summaries_without_a_from_id_come_from_their_parent() {
        let bs = |id: &str, parent: Option<&str>, from: Option<&str>| {
            let parent = parent.map_or("null".to_string(), |p| format!("\"{p}\""));
            let from = from.map_or(String::new(), |f| format!(r#","fromId":{f}"#));
            format!(
                r#"{{"type":"branch_summary","id":"{id}","parentId":{parent},"timestamp":"t"{from},"summary":""}}"#
            )
        };
        let text = file(&[
            HEADER.into(),
            msg("a", None),
            bs("b1", Some("a"), Some("\"a\"")),
            bs("b2", None, Some("\"root\"")),
            // The branch it came from was pruned: the agents only print fromId.
            bs("b3", Some("a"), Some("\"gone\"")),
            bs("b4", None, Some("7")),
            bs("b5", Some("a"), None),
        ]);
        assert_eq!(kinds(&text), vec![(Some(6), "unknown-from-id"), (Some(7), "unknown-from-id")]);
        let r = fix(&text);
        let out = String::from_utf8(r.bytes).unwrap();
        let lines: Vec<_> = out.lines().collect();
        assert_eq!(lines[4], bs("b3", Some("a"), Some("\"gone\"")));
        assert_eq!(lines[5], bs("b4", None, Some("\"root\"")));
        assert_eq!(lines[6], bs("b5", Some("a"), Some("\"a\"")));
    }

    #[test]
    fn too_new_is_reported_and_not_repaired() {
        let text = file(&[r#"{"type":"session","version":5,"id":"s"}"#.into()]);
        assert_eq!(kinds(&text), vec![(Some(1), "version-too-new")]);
        let err = repair(&load(&text), &RepairOptions::default(), &mut IdGen::from_seed(7));
        assert!(matches!(err, Err(Error::TooNew { .. })));
    }
}
