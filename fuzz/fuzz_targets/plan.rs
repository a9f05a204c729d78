//! Tree-shaped session files (parents earlier, later, missing or self, duplicate ids, torn
//! tails, stray lines), read in full, then a planned append checked against a model: after a
//! `label` entry is appended under the leaf, the reloaded file has that entry as its leaf, the
//! label in effect on its target, and every earlier record unchanged.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sesstree::EntryId;
use sesstree::ops::entry_line;
use sesstree::store::check_writable;
use sesstree_fuzz::{Bytes, exercise, generate, load};

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    let (bytes, ids) = generate(&mut b);
    let before = load(bytes.clone());
    exercise(&before);
    if check_writable(&before).is_err() || ids.is_empty() {
        return;
    }
    let Some(leaf) = before.leaf() else { return };
    let target = EntryId::new(ids[b.below(ids.len())].as_str());
    let Some(target_idx) = before.lookup(&target) else { return };
    let text = ["x", "checkpoint-1", "é~1", "\u{1b}]8;;x\u{7}"][b.below(4)];
    let new_id = (0..).map(|i| format!("f{i:07x}")).find(|c| before.lookup(&EntryId::new(c.as_str())).is_none()).expect("a free id");
    let line = entry_line(
        "label",
        &new_id,
        before.record(leaf).id.as_ref(),
        "2026-01-01T00:01:00.000Z",
        vec![("targetId", target.to_value()), ("label", text.into())],
    );
    // What store::append writes: a newline after a torn tail, then the line and its newline.
    let mut after_bytes = bytes.clone();
    if !before.ends_with_newline && !bytes.is_empty() {
        after_bytes.push(b'\n');
    }
    after_bytes.extend_from_slice(&line);
    after_bytes.push(b'\n');
    let after = load(after_bytes);
    exercise(&after);

    let new_leaf = after.leaf().expect("the label is the new leaf");
    assert_eq!(new_leaf as usize, before.records.len());
    assert_eq!(after.record(new_leaf).id.as_ref().map(EntryId::as_str), Some(new_id.as_str()));
    assert_eq!(after.parent(new_leaf), Some(leaf), "the label hangs under the old leaf");
    assert_eq!(after.label_of(&target).as_deref(), Some(text));
    // The label names its target as a REV, unless an id or another label takes the name first
    // (an exact id beats a label; labels are tried in the label map's order, SPEC §2).
    let same_text = after.labels().iter().filter(|(_, raw)| sesstree::session::label_text(raw) == text);
    if same_text.count() == 1 && after.lookup(&EntryId::new(text)).is_none() {
        assert_eq!(sesstree::rev::resolve(&after, text).ok(), Some(target_idx));
    }
    for (i, r) in before.records.iter().enumerate() {
        let a = after.record(i as u32);
        assert_eq!((a.line, a.offset, a.len, &a.id, &a.parent_id), (r.line, r.offset, r.len, &r.id, &r.parent_id));
    }
});
