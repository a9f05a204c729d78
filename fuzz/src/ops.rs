//! The writing operations, planned on a loaded session and applied in memory exactly as
//! `store` applies them (append after a newline for a torn tail, patch the slot, rewrite), then
//! checked against what the operation promises.

use std::collections::HashSet;

use sesstree::clock::Clock;
use sesstree::id_gen::IdGen;
use sesstree::ops::name::rewrite_tail;
use sesstree::ops::{branch, checkout, label, name};
use sesstree::store::check_writable;
use sesstree::{EntryId, Session, migrate};

use crate::{Bytes, exercise, load};

const AT: &str = "2026-03-01T12:00:00.000Z";

/// `before` plus appended lines, as `Locked::append` writes them.
fn appended(before: &Session, bytes: &[u8], lines: &[Vec<u8>]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    if !before.ends_with_newline && !bytes.is_empty() {
        out.push(b'\n');
    }
    for line in lines {
        out.extend_from_slice(line);
        out.push(b'\n');
    }
    out
}

/// Every record of `before` is still there, at the same place, with the same envelope.
fn assert_kept(before: &Session, after: &Session) {
    assert!(after.records.len() >= before.records.len());
    for (i, r) in before.records.iter().enumerate() {
        let a = after.record(i as u32);
        assert_eq!((a.line, a.len, &a.id, &a.parent_id), (r.line, r.len, &r.id, &r.parent_id));
    }
}

fn pick_record(s: &Session, b: &mut Bytes<'_>) -> Option<u32> {
    (!s.records.is_empty()).then(|| b.below(s.records.len()) as u32)
}

/// `label`: the new entry is the leaf, hangs under the old leaf, and sets the label in effect.
pub fn label(before: &Session, bytes: &[u8], ids: &[String], b: &mut Bytes<'_>) {
    if check_writable(before).is_err() || ids.is_empty() {
        return;
    }
    let Some(target) = pick_record(before, b) else { return };
    let text = [
        Some("x"),
        Some("  checkpoint-1 "),
        Some("é~1"),
        Some("\u{1b}]8;;x\u{7}"),
        None,
        Some("   "),
    ][b.below(6)];
    let wanted = label::normalize(text);
    let new_id =
        IdGen::from_seed(u64::from(b.byte())).entry_id(|c| sesstree::ops::id_taken(before, c));
    let Ok(change) =
        label::plan(before, target, wanted.as_deref(), &new_id, AT, sesstree::ops::leaf_id(before))
    else {
        assert!(before.record(target).id.is_none(), "only a record without id cannot be labelled");
        return;
    };
    let after = load(appended(before, bytes, std::slice::from_ref(&change.line)));
    exercise(&after);
    assert_kept(before, &after);
    let leaf = after.leaf().expect("the label is the leaf");
    assert_eq!(leaf as usize, before.records.len());
    assert_eq!(after.record(leaf).id.as_ref().map(EntryId::as_str), Some(new_id.as_str()));
    assert_eq!(after.parent(leaf), before.leaf(), "the label hangs under the old leaf");
    assert_eq!(after.label_of(&change.target), wanted, "label in effect");
    // `@` steps over the label entries at the end of the leaf path: labelling never moves it.
    assert_eq!(after.position().ok(), before.position().ok(), "a label does not move @");
}

/// Whether the appended entries can name `idx` by its id: it has one and no later duplicate
/// shadows it (FORMAT §4.5).
fn nameable(s: &Session, idx: u32) -> bool {
    s.record(idx).id.as_ref().is_some_and(|id| s.lookup(id) == Some(idx))
}

/// `checkout`: the appended entries (marker or summary, then a label) hang under the new
/// leaf, which is the target or, for a user message, its parent.
pub fn checkout(before: &Session, bytes: &[u8], b: &mut Bytes<'_>) {
    if check_writable(before).is_err() {
        return;
    }
    let Some(target) = pick_record(before, b) else { return };
    if before.record(target).id.is_none() {
        return;
    }
    let Ok(nav) = checkout::navigate(before, target) else { return };
    if nav.noop {
        return;
    }
    if let Some(leaf) = nav.new_leaf {
        assert!(leaf == target || Some(leaf) == before.parent(target));
    }
    let summary = (b.below(2) == 0).then(|| checkout::Summary {
        text: ["", "summary", "\u{1b}[2J"][b.below(3)].to_string(),
        details: None,
        from_extension: b.below(2) == 0,
    });
    let label = [None, Some("cp"), Some("  ")][b.below(3)];
    let mut ids = IdGen::from_seed(u64::from(b.byte()));
    let dialect = before.dialect();
    let plan = match checkout::plan(before, &nav, summary.as_ref(), label, dialect, &mut ids, AT) {
        Ok(p) => p,
        Err(_) => {
            // Only a new leaf (or a labelled target) without an id, or whose id a later
            // duplicate shadows, cannot be named by the appended entries.
            let labelled = label::normalize(label).is_some() && !summary_given(summary.as_ref());
            assert!(
                nav.new_leaf.is_some_and(|l| !nameable(before, l))
                    || (labelled && !nameable(before, nav.target))
            );
            return;
        }
    };
    let after = load(appended(before, bytes, &plan.lines));
    exercise(&after);
    assert_kept(before, &after);
    assert_eq!(after.records.len(), before.records.len() + plan.lines.len());
    // Up from the new leaf through the appended entries, the first old entry is the new leaf.
    let appended: HashSet<&EntryId> = plan.appended.iter().collect();
    let mut cur = after.leaf();
    while let Some(i) = cur {
        match &after.record(i).id {
            Some(id) if appended.contains(id) && i as usize >= before.records.len() => {
                cur = after.parent(i);
            }
            _ => break,
        }
    }
    assert_eq!(cur, nav.new_leaf, "the move lands on the new leaf");
    // `@` is the new leaf after a bare move (label or not), and the summary entry after a
    // summarized one: the marker and the label entry are stepped over.
    let position = after.position().ok().flatten();
    if summary_given(summary.as_ref()) {
        assert_eq!(position, Some(before.records.len() as u32), "@ is the summary entry");
    } else {
        assert_eq!(position, nav.new_leaf, "a bare move: @ is the new leaf");
    }
}

fn summary_given(summary: Option<&checkout::Summary>) -> bool {
    summary.is_some_and(|s| !s.text.is_empty())
}

/// `branch`: the new file loads cleanly and its leaf path holds the source path, labels and
/// stale archive records left out, and the labels in effect on what it kept.
pub fn branch(before: &Session, b: &mut Bytes<'_>) {
    if check_writable(before).is_err() {
        return;
    }
    let Some(idx) = pick_record(before, b) else { return };
    let fork = if branch::source_text(before, idx).is_ok() && b.below(2) == 0 {
        branch::Fork::Before(idx)
    } else {
        branch::Fork::At(idx)
    };
    let clock = Clock::pinned_at(AT).expect("a valid time");
    let mut ids = IdGen::from_seed(u64::from(b.byte()));
    let Ok(plan) = branch::plan(before, None, fork, "/src.jsonl", &clock, &mut ids) else { return };
    let mut bytes = Vec::new();
    if plan.write_to(before, &mut bytes, std::path::Path::new("-")).is_err() {
        return;
    }
    let after = load(bytes);
    exercise(&after);
    assert!(after.require_header().is_ok(), "a branched file has a header");
    assert_eq!(after.slot.is_some(), before.slot.is_some(), "the layout is kept");
    if !before.diagnostics.is_empty() {
        // Damage (duplicate ids on the path, say) is copied as it is: only no panic is asked.
        return;
    }
    let source_path = match fork {
        branch::Fork::At(i) => before.path_to_root(i),
        branch::Fork::Before(i) => {
            before.parent(i).map(|p| before.path_to_root(p)).unwrap_or_default()
        }
    };
    let created: HashSet<&EntryId> = plan.created.iter().collect();
    let new_path: Vec<EntryId> = after
        .leaf()
        .map(|l| after.path_to_root(l))
        .unwrap_or_default()
        .into_iter()
        .filter_map(|i| after.record(i).id.clone())
        .filter(|id| !created.contains(id))
        .collect();
    let must_keep: Vec<EntryId> = source_path
        .iter()
        .map(|&i| before.record(i))
        .filter(|r| {
            !matches!(r.kind, sesstree::format::Kind::Label | sesstree::format::Kind::Archive)
        })
        .filter_map(|r| r.id.clone())
        .collect();
    let kept: Vec<&EntryId> = new_path.iter().filter(|id| must_keep.contains(id)).collect();
    assert_eq!(kept, must_keep.iter().collect::<Vec<_>>(), "the branch keeps the path");
    for id in &new_path {
        if before.lookup(id).is_some() {
            assert_eq!(after.label_of(id), before.label_of(id), "labels follow the kept entries");
        }
    }
}

/// `name`: once stored as planned, the name in effect is the one the plan promised.
pub fn name(before: &Session, bytes: &[u8], b: &mut Bytes<'_>) {
    if check_writable(before).is_err() {
        return;
    }
    let long = "long ".repeat(80);
    let text = ["Fix the parser", "  ", "migrate-mcp-loader", "é\u{1b}[31m", &long][b.below(5)];
    let source =
        [sesstree::naming::TitleSource::User, sesstree::naming::TitleSource::Auto][b.below(2)];
    let req =
        name::Request { text, source, from_plan: b.below(3) == 0, trigger: None, dialect: None };
    let id = IdGen::from_seed(u64::from(b.byte())).entry_id(|c| sesstree::ops::id_taken(before, c));
    let Ok(name::Plan::Rename(rename)) = name::plan(before, req, &id, AT) else { return };
    let new_bytes = match &rename.storage {
        name::Storage::Append => appended(before, bytes, std::slice::from_ref(&rename.line)),
        name::Storage::PatchSlot { slot } => {
            let mut out = appended(before, bytes, std::slice::from_ref(&rename.line));
            out[..slot.len()].copy_from_slice(slot);
            out
        }
        name::Storage::AddSlot { slot, keep_from } => {
            let mut out = slot.clone();
            out.extend_from_slice(&bytes[*keep_from as usize..]);
            out.extend_from_slice(&rewrite_tail(before, &rename.line));
            out
        }
    };
    let after = load(new_bytes);
    exercise(&after);
    // `Session::name`, not `name::current`: the latter counts a pi name as the user's for the
    // auto-never-replaces-user rule, while the plan reports pi's (sourceless) name as stored.
    assert_eq!(after.name(), Some(rename.in_effect.clone()), "the name in effect");
}

/// `migrate`: deterministic, idempotent, and a v1 file keeps the ids it was read with.
pub fn migrate(before: &Session) {
    let Ok(plan) = migrate::plan(before) else { return };
    let again = migrate::plan(before).expect("planned once, planned twice");
    assert_eq!(plan.bytes, again.bytes, "migrate is deterministic");
    let after = load(plan.bytes.clone());
    exercise(&after);
    let twice = migrate::plan(&after).expect("a migrated file migrates");
    assert!(!twice.changed, "migrate is idempotent");
    assert_eq!(twice.bytes, plan.bytes);
    if before.is_v1() && before.diagnostics.is_empty() {
        let ids = |s: &Session| s.records.iter().map(|r| r.id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(&after), ids(before), "migrate writes the ids v1 was read with");
    }
}

/// `fsck --repair`: a repaired copy passes `fsck`, and repairing it again changes nothing.
pub fn repair(before: &Session, b: &mut Bytes<'_>) {
    let opts = sesstree::fsck::RepairOptions {
        cwd: (b.below(2) == 0).then(|| "/w".to_string()),
        now_ms: 1_772_366_400_000,
    };
    let mut ids = IdGen::from_seed(u64::from(b.byte()));
    let Ok(repaired) = sesstree::fsck::repair(before, &opts, &mut ids) else { return };
    let after = load(repaired.bytes.clone());
    exercise(&after);
    let findings = sesstree::fsck::check(&after).expect("a repaired copy can be checked");
    assert!(findings.is_empty(), "the repaired copy still has problems: {findings:?}");
    let again = sesstree::fsck::repair(&after, &opts, &mut ids).expect("a clean file repairs");
    assert_eq!(again.bytes, repaired.bytes, "repairing a repaired copy changes nothing");
}
