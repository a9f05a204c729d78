//! The index from ids to records: a hash table of record indices, hashed and compared through
//! the ids in the records, so that each id is stored once (in its record) and not again as a
//! key. At 100,000 entries that is 1 MB instead of 4.3 MB.
//!
//! It is open addressing with linear probing, and each slot keeps 32 bits of its id's hash
//! next to the record index. A probe past another id's slot then reads nothing else (a record
//! is read only when the bits match), and an insert touches one cache line. On a million
//! entries the table is far larger than the cache, and the two lines hashbrown touched per
//! insert (control bytes and slots apart) were most of what indexing an entry cost; the lines
//! can also be fetched ahead, many at once ([`IdIndex::touch`]).

use std::hash::BuildHasher;

use super::Record;
use crate::id::EntryId;

/// Ids to record indices; a later record with the same id replaces the earlier one.
#[derive(Debug, Default)]
pub(super) struct IdIndex {
    /// A power of two of slots (or none), at most half of them full.
    slots: Vec<Slot>,
    len: usize,
    hasher: foldhash::fast::RandomState,
}

/// One slot: a record and the high half of its id's hash, or [`EMPTY`].
#[derive(Debug, Clone, Copy)]
struct Slot {
    tag: u32,
    record: u32,
}

/// The `record` of an empty slot: an index no record has (a file of 4 billion entries would
/// be terabytes long, and its index would not fit in memory first).
const EMPTY: u32 = u32::MAX;

const EMPTY_SLOT: Slot = Slot { tag: 0, record: EMPTY };

impl IdIndex {
    fn hash(&self, id: &EntryId) -> u64 {
        self.hasher.hash_one(id)
    }

    /// The slot `record` is in, or the empty slot where it would go, for an id with `hash`.
    fn find(&self, records: &[Record], id: &EntryId, hash: u64) -> usize {
        let mask = self.slots.len() - 1;
        let tag = (hash >> 32) as u32;
        let mut i = hash as usize & mask;
        loop {
            let slot = self.slots[i];
            if slot.record == EMPTY
                || (slot.tag == tag && records[slot.record as usize].id.as_ref() == Some(id))
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
        let record = self.slots[self.find(records, id, self.hash(id))].record;
        (record != EMPTY).then_some(record)
    }

    /// Reads the slot where the probe for `id` starts, so that it is in the cache when the
    /// record is inserted: touching the slots of a few hundred records before inserting them
    /// lets their cache misses overlap instead of waiting for each in turn. Only a hint.
    pub(super) fn touch(&self, id: &EntryId) {
        if !self.slots.is_empty() {
            let i = self.hash(id) as usize & (self.slots.len() - 1);
            std::hint::black_box(self.slots[i]);
        }
    }

    /// Makes record `idx` the one its id names; returns the record it named before, if any.
    /// Records without an id are not indexed.
    pub(super) fn insert(&mut self, records: &[Record], idx: u32) -> Option<u32> {
        let id = records[idx as usize].id.as_ref()?;
        self.reserve(records, 1);
        let hash = self.hash(id);
        let i = self.find(records, id, hash);
        let slot = &mut self.slots[i];
        if slot.record == EMPTY {
            *slot = Slot { tag: (hash >> 32) as u32, record: idx };
            self.len += 1;
            None
        } else {
            Some(std::mem::replace(&mut slot.record, idx))
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
        let old = std::mem::replace(&mut self.slots, vec![EMPTY_SLOT; size]);
        for slot in old.into_iter().filter(|s| s.record != EMPTY) {
            let Some(id) = records[slot.record as usize].id.as_ref() else { continue };
            let i = self.find(records, id, self.hash(id));
            self.slots[i] = slot;
        }
    }

    /// The indexed records, in no particular order.
    pub(super) fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.slots.iter().filter(|s| s.record != EMPTY).map(|s| s.record)
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

    #[test]
    fn an_empty_index_finds_nothing() {
        let index = IdIndex::default();
        index.touch(&EntryId::new("a"));
        assert_eq!(index.get(&[], &EntryId::new("a")), None);
        assert_eq!(index.iter().count(), 0);
    }
}
