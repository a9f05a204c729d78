//! `prune`: removes whole subtrees off the active path, and puts saved ones back (issue 46).
//!
//! A plan is a list of [`Piece`]s: ranges of the file's own bytes, copied as they are, and new
//! lines. Every kept line is copied byte for byte; the only new lines are the labels a removed
//! `label` entry had in effect on a kept entry, re-created at the end of the file (as pi's
//! `createBranchedSession` re-creates the labels of what it keeps, CHANGES R5).
//!
//! What never changes:
//! * The active path (root → leaf): a REV on it is refused, so the conversation the agent
//!   continues, its compactions and their `firstKeptEntryId` (always on the compaction's own
//!   path), the header and the title slot stay as they are.
//! * Whole subtrees go, so no kept entry loses its parent.
//! * The labels in effect on kept entries.
//! * What kept entries name: a `label` entry that stays but names an entry that would go, or a
//!   compaction that keeps entries from one (a compaction off its own path, which `fsck`
//!   reports), would name nothing afterwards: such a prune is refused (`--abandoned` leaves
//!   such a branch in place instead), since the entry cannot go without moving what hangs
//!   under it. A branch summary's `fromId` is not kept so: pi 1.6 stores there the leaf the
//!   move left, the tip of the very branch a prune removes, and no agent reads it back as an
//!   entry.
//!
//! A file with damage (what the loader reports, or no final newline) is refused: `fsck` first.
//!
//! The lines removed can be saved ([`PrunePlan::saved_pieces`]): the header, then the removed
//! lines byte for byte, a file sesstree reads as a session (whose entries miss their parents).
//! [`restore`] puts them back in front of the last line, so the leaf stays the last line.

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::ops::Range;

use serde_json::Value;

use crate::error::{Error, Result};
use crate::id::EntryId;
use crate::id_gen::IdGen;
use crate::session::{Session, label_value};

use super::{entry_line, id_taken};

/// Which subtrees go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Select {
    /// The subtree of each of these records (REV and everything below it).
    Subtrees(Vec<u32>),
    /// Every branch off the active path; with a cutoff (epoch milliseconds), only those whose
    /// newest entry is older than it.
    Abandoned {
        /// Keep a branch with an entry stamped at or after this time.
        older_than: Option<i64>,
    },
    /// The move markers `checkout` leaves (empty `branch_summary` entries) with nothing
    /// below them, off the active path.
    Markers,
}

/// One part of the new file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    /// These bytes of the file, copied.
    Old(Range<u64>),
    /// New lines, newlines included.
    New(Vec<u8>),
}

/// What a prune removes and writes.
#[derive(Debug, Clone)]
pub struct PrunePlan {
    /// The first record of each removed subtree, in file order, and how many entries the
    /// subtree holds.
    pub subtrees: Vec<(u32, usize)>,
    /// Every removed record, in file order.
    pub removed: Vec<u32>,
    /// How many bytes the removed lines take, newlines included.
    pub removed_bytes: u64,
    /// The re-created `label` entries, in order.
    pub created: Vec<Relabel>,
    /// The new file.
    pub pieces: Vec<Piece>,
}

/// A `label` entry written again: a removed one set this label on a kept entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Relabel {
    /// The new entry's id.
    pub id: EntryId,
    /// The labelled entry.
    pub target: EntryId,
    /// The label, or `None` when the entry clears the label a kept entry would bring back.
    pub label: Option<Value>,
}

/// Refuses a file `prune` must not rewrite: damage the loader found, or a last line without
/// its newline. The error names the first problem and points to `fsck`.
pub fn require_clean(session: &Session) -> Result<()> {
    let first = session.diagnostics.first().map(|d| (d.line, d.message.to_string()));
    let torn = (!session.ends_with_newline && session.file_len > 0)
        .then(|| (session.line_count, "the file does not end with a newline".to_string()));
    if let Some((line, message)) = first.or(torn) {
        return Err(Error::Damaged {
            path: session.path.clone(),
            line,
            message: format!(
                "{message}; prune rewrites only a file that reads cleanly (run `sesstree fsck` \
                 on it, and `fsck --repair -o` for a repaired copy)"
            ),
        });
    }
    Ok(())
}

/// The records on the path from the root to the leaf (the last record).
fn active_path(session: &Session) -> Vec<bool> {
    let mut on = vec![false; session.records.len()];
    if let Some(leaf) = session.leaf() {
        for idx in session.path_to_root(leaf) {
            on[idx as usize] = true;
        }
    }
    on
}

/// Plans the prune. New label entries take their time from the label entry they re-create,
/// and their ids from `ids`.
pub fn plan(session: &Session, select: &Select, ids: &mut IdGen) -> Result<PrunePlan> {
    session.require_known_header()?;
    require_clean(session)?;
    let active = active_path(session);
    let show = |idx: u32| session.record(idx).id.as_ref().map_or("?", EntryId::as_str).to_owned();
    let mut roots: Vec<u32> = match select {
        Select::Subtrees(revs) => {
            if let Some(&on) = revs.iter().find(|&&r| active[r as usize]) {
                return Err(Error::Usage(format!(
                    "{} is on the active path (root to leaf): prune removes only branches off \
                     it, so the conversation the agent continues never changes",
                    show(on)
                )));
            }
            revs.clone()
        }
        Select::Abandoned { older_than } => {
            let branches = (0..session.records.len() as u32).filter(|&idx| {
                !active[idx as usize] && session.parent(idx).is_none_or(|p| active[p as usize])
            });
            branches
                .filter(|&root| {
                    older_than.is_none_or(|cutoff| {
                        // A branch without a time says nothing of its age: it stays.
                        newest(session, root).is_some_and(|t| t < cutoff)
                    })
                })
                .collect()
        }
        Select::Markers => {
            let mut markers = Vec::new();
            for idx in 0..session.records.len() as u32 {
                if !active[idx as usize]
                    && session.children(idx).is_empty()
                    && session.is_marker(idx)?
                {
                    markers.push(idx);
                }
            }
            markers
        }
    };
    roots.sort_unstable();
    roots.dedup();
    let references = references(session)?;
    loop {
        let removed = mark(session, &roots);
        let stale: Vec<(u32, u32)> = references
            .iter()
            .copied()
            .filter(|&(holder, target)| !removed[holder as usize] && removed[target as usize])
            .collect();
        if stale.is_empty() {
            return finish(session, roots, &removed, ids);
        }
        let Select::Abandoned { .. } = select else {
            let (holder, target) = stale[0];
            return Err(Error::Usage(format!(
                "{} entry {} stays, but names {}, which this prune would remove: it would name \
                 nothing; leave {} in place",
                session.record(holder).kind.as_str(),
                show(holder),
                show(target),
                show(target)
            )));
        };
        // A branch that a kept entry names stays.
        let named: HashSet<u32> = stale.iter().map(|&(_, t)| t).collect();
        roots.retain(|&root| !subtree(session, root).iter().any(|i| named.contains(i)));
    }
}

/// The entries that name another one, and the entry named: a `label` entry its target, a
/// compaction the entry it keeps from (other than itself). Such an entry that stays must not
/// lose what it names.
fn references(session: &Session) -> Result<Vec<(u32, u32)>> {
    let mut out: Vec<(u32, u32)> = session
        .label_records()
        .iter()
        .filter_map(|lr| Some((lr.record, session.lookup(lr.target.as_ref()?)?)))
        .collect();
    for (idx, r) in session.records.iter().enumerate() {
        if r.kind != crate::format::Kind::Compaction {
            continue;
        }
        let value = session.value(idx as u32)?;
        let kept = crate::format::entry::Payload::from_value(&value).first_kept();
        if let Some(target) =
            kept.filter(|k| Some(k) != r.id.as_ref()).and_then(|k| session.lookup(&k))
        {
            out.push((idx as u32, target));
        }
    }
    Ok(out)
}

/// The newest time in a subtree.
fn newest(session: &Session, root: u32) -> Option<i64> {
    subtree(session, root).iter().filter_map(|&i| session.record(i).time).max()
}

/// A record and everything below it.
fn subtree(session: &Session, root: u32) -> Vec<u32> {
    let mut out = vec![root];
    let mut at = 0;
    while at < out.len() {
        out.extend_from_slice(session.children(out[at]));
        at += 1;
    }
    out
}

/// Whether each record goes: it is in the subtree of one of `roots`.
fn mark(session: &Session, roots: &[u32]) -> Vec<bool> {
    let mut removed = vec![false; session.records.len()];
    for &root in roots {
        for idx in subtree(session, root) {
            removed[idx as usize] = true;
        }
    }
    removed
}

/// What a label entry sets: its label, or `None` when it clears one (as the loader reads it:
/// a value JavaScript takes for false clears).
fn label_set(session: &Session, idx: u32) -> Result<Option<Value>> {
    let value = session.value(idx)?;
    // Copied as it is into the label written again.
    Ok(value.get("label").filter(|v| crate::js::truthy(Some(v))).cloned())
}

fn finish(
    session: &Session,
    mut roots: Vec<u32>,
    removed: &[bool],
    ids: &mut IdGen,
) -> Result<PrunePlan> {
    // A REV below another one's is in that subtree already.
    roots.retain(|&r| session.parent(r).is_none_or(|p| !removed[p as usize]));
    let subtrees = roots.iter().map(|&r| (r, subtree(session, r).len())).collect();
    // The labels the kept label entries leave in effect, replayed in file order.
    let mut after: HashMap<EntryId, Option<Value>> = HashMap::new();
    let mut set_by: HashMap<EntryId, u32> = HashMap::new();
    for lr in session.label_records() {
        let Some(target) = &lr.target else { continue };
        set_by.insert(target.clone(), lr.record);
        if !removed[lr.record as usize] {
            after.insert(target.clone(), label_set(session, lr.record)?);
        }
    }
    let before: HashMap<&EntryId, &str> =
        session.labels().iter().map(|(t, raw)| (t, raw.as_ref())).collect();
    // Targets in the order of the label map, then the cleared ones in file order.
    let mut targets: Vec<&EntryId> = session.labels().iter().map(|(t, _)| t).collect();
    for lr in session.label_records() {
        if let Some(t) = &lr.target
            && !before.contains_key(t)
            && !targets.contains(&t)
        {
            targets.push(t);
        }
    }

    let mut pieces = Vec::new();
    let mut created = Vec::new();
    let mut start = 0u64;
    let mut removed_list = Vec::new();
    let mut removed_bytes = 0;
    for (idx, r) in session.records.iter().enumerate() {
        if !removed[idx] {
            continue;
        }
        removed_list.push(idx as u32);
        let end = (r.offset + r.len + 1).min(session.file_len);
        removed_bytes += end - r.offset;
        if r.offset > start {
            pieces.push(Piece::Old(start..r.offset));
        }
        start = end;
    }
    if start < session.file_len {
        pieces.push(Piece::Old(start..session.file_len));
    }

    let mut taken: HashSet<String> = HashSet::new();
    let mut parent = super::leaf_id(session);
    for target in targets {
        let Some(t) = session.lookup(target) else { continue };
        let now = before.get(target).map(|raw| label_value(raw));
        if removed[t as usize] || after.get(target).cloned().flatten() == now {
            continue;
        }
        let id = ids.entry_id(|c| id_taken(session, c) || taken.contains(c));
        taken.insert(id.clone());
        let setter = set_by[target];
        // Copied as it is into the label written again.
        let time = session.value(setter)?.get("timestamp").cloned().unwrap_or(Value::Null);
        let time = time.as_str().unwrap_or_default();
        let mut fields = vec![("targetId", target.to_value())];
        if let Some(label) = &now {
            fields.push(("label", label.clone()));
        }
        let mut line = entry_line("label", &id, parent.as_ref(), time, fields);
        line.push(b'\n');
        pieces.push(Piece::New(line));
        let id = EntryId::new(id);
        created.push(Relabel { id: id.clone(), target: target.clone(), label: now });
        parent = Some(id);
    }
    Ok(PrunePlan { subtrees, removed: removed_list, removed_bytes, created, pieces })
}

impl PrunePlan {
    /// Whether the plan changes nothing.
    pub fn is_empty(&self) -> bool {
        self.removed.is_empty()
    }

    /// The lines to keep for `--save`: the header first when the save file is new
    /// (`with_header`), then every removed line, byte for byte.
    pub fn saved_pieces(&self, session: &Session, with_header: bool) -> Vec<Piece> {
        let mut out = Vec::with_capacity(self.removed.len() + 1);
        if with_header && let Some(h) = &session.header {
            out.push(Piece::Old(h.offset..h.offset + h.len + 1));
        }
        out.extend(self.removed.iter().map(|&idx| {
            let r = session.record(idx);
            Piece::Old(r.offset..r.offset + r.len + 1)
        }));
        out
    }
}

/// Writes `pieces` into `out`: old ranges streamed from the session's file a megabyte at a
/// time through one buffer, new lines as they are. Write errors are reported against
/// `out_path`.
pub fn write_pieces(
    session: &Session,
    pieces: &[Piece],
    out: &mut dyn Write,
    out_path: &std::path::Path,
) -> Result<()> {
    const CHUNK: u64 = 1 << 20;
    // One buffer for every chunk: a new one would be zeroed each time, as many bytes again as
    // the copy itself.
    let mut buf = Vec::new();
    for piece in pieces {
        match piece {
            Piece::Old(range) => {
                let mut at = range.start;
                while at < range.end {
                    let n = (range.end - at).min(CHUNK);
                    session.read_into(at, n, &mut buf)?;
                    out.write_all(&buf).map_err(|e| Error::io(out_path, e))?;
                    at += n;
                }
            }
            Piece::New(lines) => out.write_all(lines).map_err(|e| Error::io(out_path, e))?,
        }
    }
    Ok(())
}

/// Putting saved lines back.
#[derive(Debug, Clone)]
pub struct RestorePlan {
    /// The ids put back, in order.
    pub restored: Vec<EntryId>,
    /// The saved entries already in the file, left out.
    pub present: Vec<EntryId>,
    /// The saved lines to put back, with their newlines.
    pub lines: Vec<u8>,
    /// Where they go: in front of the file's last line, so the leaf stays the last line.
    pub at: u64,
}

/// Plans putting the entries of `saved` (a file `--save` wrote) back into `session`: every
/// saved line whose id the file does not hold yet, byte for byte, in the saved order. Refused
/// when the saved file comes from another session, or a saved entry's parent is in neither.
pub fn restore(session: &Session, saved: &Session) -> Result<RestorePlan> {
    session.require_known_header()?;
    require_clean(session)?;
    let (ours, theirs) = (session.require_header()?, saved.require_header()?);
    if ours.id != theirs.id {
        return Err(Error::Usage(format!(
            "{}: saved from session {}, not from this one ({})",
            saved.path.display(),
            theirs.id,
            ours.id
        )));
    }
    if let Some(d) = saved
        .diagnostics
        .iter()
        .find(|d| !matches!(d.problem, crate::session::Problem::MissingParent))
    {
        return Err(Error::Damaged {
            path: saved.path.clone(),
            line: d.line,
            message: d.message.to_string(),
        });
    }
    let mut restored = Vec::new();
    let mut present = Vec::new();
    let mut lines = Vec::new();
    let mut known: HashSet<&EntryId> = HashSet::new();
    for (idx, r) in saved.records.iter().enumerate() {
        let Some(id) = &r.id else { continue };
        if session.lookup(id).is_some() {
            present.push(id.clone());
            continue;
        }
        if let Some(p) = &r.parent_id
            && session.lookup(p).is_none()
            && !known.contains(p)
        {
            return Err(Error::Usage(format!(
                "{}:{}: entry {id} hangs under {p}, which is in neither file",
                saved.path.display(),
                r.line
            )));
        }
        known.insert(id);
        restored.push(id.clone());
        lines.extend_from_slice(&saved.raw_line(idx as u32)?);
        lines.push(b'\n');
    }
    let at = session.records.last().map_or(session.file_len, |r| r.offset);
    Ok(RestorePlan { restored, present, lines, at })
}

impl RestorePlan {
    /// The new file: the file up to its last line, the restored lines, the last line.
    pub fn pieces(&self, session: &Session) -> Vec<Piece> {
        vec![
            Piece::Old(0..self.at),
            Piece::New(self.lines.clone()),
            Piece::Old(self.at..session.file_len),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    pub(crate) const HEADER: &str = r#"{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}"#;

    fn load(lines: &[String]) -> Session {
        let text = format!("{HEADER}\n{}\n", lines.join("\n"));
        Session::from_bytes(Path::new("/s/x.jsonl"), text.into_bytes()).unwrap()
    }

    fn msg(id: &str, parent: Option<&str>) -> String {
        let parent = parent.map_or("null".to_string(), |p| format!("\"{p}\""));
        format!(
            r#"{{"type":"message","id":"{id}","parentId":{parent},"timestamp":"2026-01-01T00:00:01.000Z","message":{{"role":"user","content":"{id}"}}}}"#
        )
    }

    fn render(session: &Session, pieces: &[Piece]) -> String {
        let mut out = Vec::new();
        write_pieces(session, pieces, &mut out, Path::new("-")).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn idx(s: &Session, id: &str) -> u32 {
        s.lookup(&EntryId::new(id)).unwrap()
    }

    fn label(id: &str, parent: &str, target: &str, label: Option<&str>) -> String {
        let label = label.map_or(String::new(), |l| format!(r#","label":"{l}""#));
        format!(
            r#"{{"type":"label","id":"{id}","parentId":"{parent}","timestamp":"2026-01-01T00:00:02.000Z","targetId":"{target}"{label}}}"#
        )
    }

    /// A removed label entry that cleared a label a kept one set: the clear is written again
    /// (a label entry without `label`, as the agents write a clear), so no label comes back.
    #[test]
    fn a_removed_clear_is_written_again() {
        let s = load(&[
            msg("a", None),
            msg("b", Some("a")),
            label("l1", "b", "a", Some("x")),
            msg("c", Some("a")),
            label("l2", "c", "a", None),
            msg("d", Some("l1")),
        ]);
        assert!(s.labels().is_empty());
        let plan =
            plan(&s, &Select::Subtrees(vec![idx(&s, "c")]), &mut IdGen::from_seed(1)).unwrap();
        assert_eq!(plan.created.len(), 1);
        assert_eq!(plan.created[0].label, None);
        let text = render(&s, &plan.pieces);
        let out = Session::from_bytes(Path::new("/s/y.jsonl"), text.clone().into_bytes()).unwrap();
        assert!(out.labels().is_empty(), "{text}");
        let last = text.lines().last().unwrap();
        assert!(last.contains(r#""parentId":"d""#) && !last.contains(r#""label":"#), "{last}");
    }

    #[test]
    fn a_subtree_goes_whole_and_the_rest_is_copied() {
        let s =
            load(&[msg("a", None), msg("b", Some("a")), msg("c", Some("b")), msg("d", Some("a"))]);
        let plan =
            plan(&s, &Select::Subtrees(vec![idx(&s, "b")]), &mut IdGen::from_seed(1)).unwrap();
        assert_eq!(plan.removed.len(), 2);
        let text = render(&s, &plan.pieces);
        assert_eq!(text, format!("{HEADER}\n{}\n{}\n", msg("a", None), msg("d", Some("a"))));
    }
}
