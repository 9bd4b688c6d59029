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
    /// A table using at most `mib` mebibytes (at least one entry), and at most half the
    /// memory the system has available: `Hash 65536` on a smaller machine must give a
    /// smaller table, not abort the engine when the allocation fails.
    pub fn new(mib: usize) -> Table<M> {
        let entry_size = size_of::<Option<Entry<M>>>().max(1);
        let wanted = mib.saturating_mul(1 << 20);
        let mut len = affordable(wanted, available_bytes()) / entry_size;
        let mut entries = Vec::new();
        while len > 1 && entries.try_reserve_exact(len).is_err() {
            len /= 2;
        }
        let len = len.max(1);
        if len * entry_size < wanted / 2 {
            log::warn!("Hash {mib} MiB does not fit in memory: the table has {len} entries");
        }
        entries.resize(len, None);
        Table { entries }
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

/// The bytes a table may take: what was asked, capped at half of `available` when known.
fn affordable(wanted: usize, available: Option<usize>) -> usize {
    available.map_or(wanted, |free| wanted.min(free / 2))
}

/// `MemAvailable` from `/proc/meminfo` (Linux), in bytes; `None` elsewhere.
fn available_bytes() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
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
    fn a_hash_larger_than_memory_is_capped_at_half_of_it() {
        assert_eq!(affordable(64 << 30, Some(8 << 30)), 4 << 30);
        assert_eq!(affordable(16 << 20, Some(8 << 30)), 16 << 20);
        assert_eq!(affordable(16 << 20, None), 16 << 20);
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
