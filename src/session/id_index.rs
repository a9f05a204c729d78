//! The index from ids to records: a hash table of record indices, hashed and compared through
//! the ids in the records, so that each id is stored once (in its record) and not again as a
//! key. At 100,000 entries that is 2 MiB (2^18 slots of 8 bytes) instead of 4.3 MB.
//!
//! It is open addressing with linear probing, and each slot keeps 32 bits of its id's hash
//! next to the record index. A probe past another id's slot then reads nothing else (a record
//! is read only when the bits match), and an insert touches one cache line. On a million
//! entries the table is far larger than the cache, and the two lines hashbrown touched per
//! insert (control bytes and slots apart) were most of what indexing an entry cost; the lines
//! can also be fetched ahead, many at once ([`IdIndex::touch`]).
//!
//! An empty slot is all zero bits, so a table is allocated zeroed, and the pages of a table
//! sized for more records than come (the loader sizes it from an estimate) take no memory
//! until a record lands in them.

use std::hash::BuildHasher;

use super::Record;
use crate::id::EntryId;

/// Ids to record indices; a later record with the same id replaces the earlier one.
#[derive(Debug, Default)]
pub(super) struct IdIndex {
    /// A power of two of slots (or none), at most half of them full: each one [`EMPTY`] or
    /// made by [`slot`].
    slots: Vec<u64>,
    len: usize,
    hasher: foldhash::fast::RandomState,
}

/// An empty slot.
const EMPTY: u64 = 0;

/// The slot of record `record` whose id has `hash`: the high half of the hash above the record
/// index plus one (so that no full slot is [`EMPTY`]). Record `u32::MAX` cannot be indexed; a
/// file of 4 billion entries would be terabytes long, and its index would not fit in memory.
fn slot(hash: u64, record: u32) -> u64 {
    debug_assert!(record < u32::MAX, "record index {record} is past what the index holds");
    (hash & 0xFFFF_FFFF_0000_0000) | u64::from(record + 1)
}

/// The record in a full slot.
fn record_of(slot: u64) -> u32 {
    (slot as u32).wrapping_sub(1)
}

impl IdIndex {
    fn hash(&self, id: &EntryId) -> u64 {
        self.hasher.hash_one(id)
    }

    /// The slot `record` is in, or the empty slot where it would go, for an id with `hash`.
    fn find(&self, records: &[Record], id: &EntryId, hash: u64) -> usize {
        let mask = self.slots.len() - 1;
        let tag = hash >> 32;
        let mut i = hash as usize & mask;
        loop {
            let slot = self.slots[i];
            if slot == EMPTY
                || (slot >> 32 == tag && records[record_of(slot) as usize].id.as_ref() == Some(id))
            {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// The record with this id.
    pub(super) fn get(&self, records: &[Record], id: &EntryId) -> Option<u32> {
        if self.slots.is_empty() {
            return None;
        }
        let slot = self.slots[self.find(records, id, self.hash(id))];
        (slot != EMPTY).then(|| record_of(slot))
    }

    /// Reads the slot where the probe for `id` starts, so that it is in the cache when the
    /// record is inserted: touching the slots of a few hundred records before inserting them
    /// lets their cache misses overlap instead of waiting for each in turn. Only a hint.
    ///
    /// It writes the slot (the value it holds), not just reads it: the table is allocated
    /// zeroed, and a read of a page not yet written maps the kernel's shared zero page, which
    /// the insert's write then has to copy, a second fault that also flushes every core's
    /// TLB (1.7% of `log`'s time on the 100k-entry benchmark file).
    pub(super) fn touch(&mut self, id: &EntryId) {
        if !self.slots.is_empty() {
            let i = self.hash(id) as usize & (self.slots.len() - 1);
            // One read-modify-write instruction (`or` of a zero the compiler cannot see),
            // which faults as a write.
            self.slots[i] |= std::hint::black_box(0);
        }
    }

    /// Makes record `idx` the one its id names; returns the record it named before, if any.
    /// Records without an id are not indexed.
    pub(super) fn insert(&mut self, records: &[Record], idx: u32) -> Option<u32> {
        let id = records[idx as usize].id.as_ref()?;
        self.reserve(records, 1);
        let hash = self.hash(id);
        let i = self.find(records, id, hash);
        let old = std::mem::replace(&mut self.slots[i], slot(hash, idx));
        if old == EMPTY {
            self.len += 1;
            None
        } else {
            Some(record_of(old))
        }
    }

    /// Makes room for `additional` more records, so that the table does not grow (and rehash
    /// every id through its record) while they are inserted.
    pub(super) fn reserve(&mut self, records: &[Record], additional: usize) {
        let wanted = self.len.saturating_add(additional).saturating_mul(2);
        if wanted <= self.slots.len() {
            return;
        }
        let size = wanted.checked_next_power_of_two().unwrap_or(usize::MAX).max(16);
        // Zeroed memory (all slots empty) that the system maps as it is written.
        let old = std::mem::replace(&mut self.slots, vec![EMPTY; size]);
        for slot in old.into_iter().filter(|&s| s != EMPTY) {
            let Some(id) = records[record_of(slot) as usize].id.as_ref() else { continue };
            let i = self.find(records, id, self.hash(id));
            self.slots[i] = slot;
        }
    }

    /// The number of slots.
    #[cfg(test)]
    pub(super) fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// The indexed records, in no particular order.
    pub(super) fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.slots.iter().filter(|&&s| s != EMPTY).map(|&s| record_of(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::Kind;

    fn record(id: Option<&str>) -> Record {
        Record {
            line: 1,
            offset: 0,
            len: 0,
            kind: Kind::Message,
            id: id.map(EntryId::new),
            parent_id: None,
            time: None,
        }
    }

    /// Growing from empty through many sizes, with duplicates and records without an id, the
    /// index agrees with a map kept alongside.
    #[test]
    fn agrees_with_a_map_through_growth_and_duplicates() {
        let mut index = IdIndex::default();
        let mut records = Vec::new();
        let mut map = std::collections::HashMap::new();
        for n in 0..5000u32 {
            // Every seventh id repeats an earlier one; every eleventh record has none.
            let id = if n % 11 == 0 {
                None
            } else if n % 7 == 0 {
                Some(format!("e{}", n / 3))
            } else {
                Some(format!("e{n}"))
            };
            records.push(record(id.as_deref()));
            let before = index.insert(&records, n);
            let expected = id.map(|id| map.insert(id, n));
            assert_eq!(before, expected.flatten(), "record {n}");
        }
        for (id, &n) in &map {
            assert_eq!(index.get(&records, &EntryId::new(id)), Some(n));
        }
        assert_eq!(index.get(&records, &EntryId::new("missing")), None);
        assert_eq!(index.get(&records, &EntryId::from_non_string("1")), None);
        let mut all: Vec<u32> = index.iter().collect();
        all.sort_unstable();
        let mut expected: Vec<u32> = map.values().copied().collect();
        expected.sort_unstable();
        assert_eq!(all, expected);
        assert!(index.slots.len() >= 2 * map.len() && index.slots.len().is_power_of_two());
    }

    /// The resident bytes of the mapping that holds `at`, from /proc/self/smaps: the table's
    /// own pages, whatever other tests allocate meanwhile.
    #[cfg(target_os = "linux")]
    fn resident_at(at: usize) -> usize {
        let smaps = std::fs::read_to_string("/proc/self/smaps").expect("/proc/self/smaps");
        let mut inside = false;
        for line in smaps.lines() {
            let range = line.split(' ').next().and_then(|r| r.split_once('-'));
            let bounds = range.and_then(|(a, b)| {
                Some((usize::from_str_radix(a, 16).ok()?, usize::from_str_radix(b, 16).ok()?))
            });
            if let Some((start, end)) = bounds.filter(|_| !line.ends_with(" kB")) {
                inside = (start..end).contains(&at);
            } else if inside && let Some(kb) = line.strip_prefix("Rss:") {
                return kb.trim().trim_end_matches(" kB").trim().parse::<usize>().unwrap() << 10;
            }
        }
        panic!("no mapping holds {at:#x}");
    }

    /// Records `a` and `b`, and an empty table with room for 2^24 records reserved: 2^25
    /// slots, 256 MiB.
    #[cfg(target_os = "linux")]
    fn two_records_in_a_big_table() -> (Vec<Record>, IdIndex) {
        let records = vec![record(Some("a")), record(Some("b"))];
        let mut index = IdIndex::default();
        index.reserve(&records, 1 << 24);
        (records, index)
    }

    /// The loader sizes the table from an estimate that a file can inflate (a first megabyte of
    /// short records, then lines without an id): room that no record uses must cost no memory.
    #[test]
    #[cfg(target_os = "linux")]
    fn room_reserved_and_not_used_is_not_resident() {
        let (records, mut index) = two_records_in_a_big_table();
        assert_eq!(index.slots.len() * 8, 256 << 20);
        index.insert(&records, 0);
        index.insert(&records, 1);
        let resident = resident_at(index.slots.as_ptr() as usize);
        assert!(resident < 64 << 20, "{resident} bytes resident for a table of two records");
        assert_eq!(index.get(&records, &EntryId::new("b")), Some(1));
    }

    /// A touched slot on a page not yet written is faulted in as written: a read would map the
    /// kernel's zero page (not resident), which the insert would then copy with a second fault
    /// and a TLB flush on every core. Touching changes nothing the index holds.
    #[test]
    #[cfg(target_os = "linux")]
    fn touch_faults_its_page_in_as_written_and_changes_nothing() {
        let (records, mut index) = two_records_in_a_big_table();
        index.insert(&records, 0);
        let before = resident_at(index.slots.as_ptr() as usize);
        for n in 0..64 {
            index.touch(&EntryId::new(format!("missing-{n}")));
        }
        index.touch(&EntryId::new("a"));
        let after = resident_at(index.slots.as_ptr() as usize);
        assert!(after >= before + 4096, "{before} -> {after} bytes resident");
        assert_eq!(index.get(&records, &EntryId::new("a")), Some(0));
        assert_eq!(index.get(&records, &EntryId::new("missing-0")), None);
        assert_eq!(index.iter().collect::<Vec<_>>(), [0]);
    }

    #[test]
    fn an_empty_index_finds_nothing() {
        let mut index = IdIndex::default();
        index.touch(&EntryId::new("a"));
        assert_eq!(index.get(&[], &EntryId::new("a")), None);
        assert_eq!(index.iter().count(), 0);
    }
}
