//! The transposition table: a fixed-size array sized by the `Hash` option.

use std::mem::size_of;

/// How a stored score bounds the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact value.
    Exact,
    /// The value is at least the score (a beta cut-off).
    Lower,
    /// The value is at most the score (no move raised alpha).
    Upper,
}

/// One stored search result.
#[derive(Copy, Clone, Debug)]
pub struct Entry<M> {
    /// The full hash, to tell collisions apart.
    pub key: u64,
    /// The best or refuting move found.
    pub best: Option<M>,
    /// The score, mate scores relative to this node.
    pub score: i32,
    /// The depth searched below this node.
    pub depth: i16,
    /// What the score means.
    pub bound: Bound,
}

/// A transposition table of `Entry<M>`, always-replace, indexed by the hash.
#[derive(Debug)]
pub struct Table<M> {
    entries: Vec<Option<Entry<M>>>,
}

impl<M: Copy> Table<M> {
    /// A table using at most `mib` mebibytes (at least one entry).
    pub fn new(mib: usize) -> Table<M> {
        let entry_size = size_of::<Option<Entry<M>>>().max(1);
        let len = (mib.saturating_mul(1 << 20) / entry_size).max(1);
        Table {
            entries: vec![None; len],
        }
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True if the table has no slots (never: it always has at least one).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Bytes used by the entries.
    pub fn bytes(&self) -> usize {
        self.entries.len() * size_of::<Option<Entry<M>>>()
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = None);
    }

    fn slot(&self, key: u64) -> usize {
        ((key as u128 * self.entries.len() as u128) >> 64) as usize
    }

    /// The entry stored for this hash, if any.
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        self.entries[self.slot(key)].filter(|e| e.key == key)
    }

    /// Stores an entry, replacing whatever was in its slot.
    pub fn store(&mut self, entry: Entry<M>) {
        let slot = self.slot(entry.key);
        self.entries[slot] = Some(entry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_follows_the_hash_option() {
        let table: Table<u32> = Table::new(1);
        assert!(table.bytes() <= 1 << 20);
        assert!(table.bytes() > (1 << 20) - 64);
    }

    #[test]
    fn stores_and_finds_by_key() {
        let mut table: Table<u32> = Table::new(1);
        let entry = Entry {
            key: 0xDEAD_BEEF_1234_5678,
            best: Some(7),
            score: 42,
            depth: 3,
            bound: Bound::Exact,
        };
        table.store(entry);
        assert_eq!(table.probe(entry.key).map(|e| e.score), Some(42));
        assert!(table.probe(entry.key ^ 1).is_none());
    }
}
