//! The transposition table: a fixed-size array sized by the `Hash` option, shared by every
//! search thread without locks. Each slot is two atomic words, the key XOR-ed with the data and
//! the data, so a slot torn by two threads writing at once fails the key check and reads as a
//! miss instead of a wrong entry. The best move is stored as its index in the position's
//! move list (the move generator's order is fixed), so the table holds plain numbers for
//! any game.

use std::sync::atomic::{AtomicU64, Ordering};

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
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The full hash, to tell collisions apart.
    pub key: u64,
    /// The index of the best or refuting move in the position's legal move list.
    pub best: Option<usize>,
    /// The score, mate scores relative to this node.
    pub score: i32,
    /// The depth searched below this node.
    pub depth: i16,
    /// What the score means.
    pub bound: Bound,
}

/// Move indices from this one up are not stored (no game lists that many moves).
const NO_MOVE: u64 = (1 << 14) - 1;

impl Entry {
    /// Score (32 bits), depth (16), bound (2) and move index + 1 (14) in one word; 0 is empty.
    fn pack(&self) -> u64 {
        let best = self
            .best
            .map_or(0, |index| (index as u64 + 1).min(NO_MOVE) % NO_MOVE);
        let bound = match self.bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        (self.score as u32 as u64) | (self.depth as u16 as u64) << 32 | bound << 48 | best << 50
    }

    fn unpack(key: u64, data: u64) -> Option<Entry> {
        let bound = match (data >> 48) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        let best = data >> 50;
        Some(Entry {
            key,
            best: (best != 0).then(|| best as usize - 1),
            score: data as u32 as i32,
            depth: (data >> 32) as u16 as i16,
            bound,
        })
    }
}

/// A transposition table, always-replace, indexed by the hash.
#[derive(Debug)]
pub struct Table {
    /// Two words per slot: key ^ data, data.
    words: Vec<AtomicU64>,
}

/// Bytes per slot.
const SLOT_BYTES: usize = 16;

impl Table {
    /// A table using at most `mib` mebibytes (at least one slot), and at most half the
    /// memory the system has available: `Hash 65536` on a smaller machine must give a
    /// smaller table, not abort the engine when the allocation fails. The memory comes zeroed
    /// from the system, so pages are only touched (and resident) once the search writes them:
    /// a large table costs no time before `readyok`.
    pub fn new(mib: usize) -> Table {
        let wanted = mib.saturating_mul(1 << 20);
        let mut slots = (affordable(wanted, available_bytes()) / SLOT_BYTES).max(1);
        let words = loop {
            match zeroed_words(slots * 2) {
                Some(words) => break words,
                None if slots > 1 => slots /= 2,
                None => break vec![AtomicU64::new(0), AtomicU64::new(0)],
            }
        };
        if slots * SLOT_BYTES < wanted / 2 {
            log::warn!("Hash {mib} MiB does not fit in memory: the table has {slots} slots");
        }
        Table { words }
    }

    /// The number of slots.
    pub fn len(&self) -> usize {
        self.words.len() / 2
    }

    /// True if the table has no slots (never: it always has at least one).
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Bytes used by the slots.
    pub fn bytes(&self) -> usize {
        self.words.len() * 8
    }

    /// Forgets everything.
    pub fn clear(&self) {
        self.words
            .iter()
            .for_each(|word| word.store(0, Ordering::Relaxed));
    }

    fn slot(&self, key: u64) -> usize {
        ((key as u128 * self.len() as u128) >> 64) as usize * 2
    }

    /// The entry stored for this hash, if any.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slot(key);
        let check = self.words[slot].load(Ordering::Relaxed);
        let data = self.words[slot + 1].load(Ordering::Relaxed);
        if data == 0 || check ^ data != key {
            return None;
        }
        Entry::unpack(key, data)
    }

    /// Stores an entry, replacing whatever was in its slot.
    pub fn store(&self, entry: Entry) {
        let slot = self.slot(entry.key);
        let data = entry.pack();
        self.words[slot].store(entry.key ^ data, Ordering::Relaxed);
        self.words[slot + 1].store(data, Ordering::Relaxed);
    }
}

/// `len` zeroed words from the allocator's zeroed memory (calloc: untouched pages stay
/// unmapped until written), or `None` when the memory cannot be had.
fn zeroed_words(len: usize) -> Option<Vec<AtomicU64>> {
    let mut plain: Vec<u64> = Vec::new();
    plain.try_reserve_exact(len).ok()?;
    drop(plain);
    // `vec![0; n]` asks the allocator for zeroed memory rather than writing the zeros.
    let zeros: Vec<u64> = vec![0; len];
    let mut zeros = std::mem::ManuallyDrop::new(zeros);
    let (ptr, len, capacity) = (zeros.as_mut_ptr(), zeros.len(), zeros.capacity());
    // SAFETY: AtomicU64 has the same size, alignment and bit validity as u64 (its documented
    // in-memory representation), and the vector's allocation is handed over whole.
    Some(unsafe { Vec::from_raw_parts(ptr.cast::<AtomicU64>(), len, capacity) })
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
        let table = Table::new(1);
        assert_eq!(table.bytes(), 1 << 20);
    }

    #[test]
    fn a_hash_larger_than_memory_is_capped_at_half_of_it() {
        assert_eq!(affordable(64 << 30, Some(8 << 30)), 4 << 30);
        assert_eq!(affordable(16 << 20, Some(8 << 30)), 16 << 20);
        assert_eq!(affordable(16 << 20, None), 16 << 20);
    }

    #[test]
    fn stores_and_finds_by_key() {
        let table = Table::new(1);
        let entry = Entry {
            key: 0xDEAD_BEEF_1234_5678,
            best: Some(7),
            score: -42,
            depth: 3,
            bound: Bound::Upper,
        };
        table.store(entry);
        assert_eq!(table.probe(entry.key), Some(entry));
        assert!(table.probe(entry.key ^ 1).is_none());
        table.clear();
        assert!(table.probe(entry.key).is_none());
    }

    #[test]
    fn every_field_survives_packing() {
        for (best, score, depth, bound) in [
            (None, 0, 0, Bound::Exact),
            (Some(0), i32::MIN, i16::MIN, Bound::Lower),
            (Some(16_381), i32::MAX, i16::MAX, Bound::Upper),
            (Some(5), -1_000_000, -1, Bound::Exact),
        ] {
            let entry = Entry {
                key: 99,
                best,
                score,
                depth,
                bound,
            };
            assert_eq!(Entry::unpack(99, entry.pack()), Some(entry));
        }
        // An index too large to store reads back as no move, not as a wrong one.
        let far = Entry {
            key: 1,
            best: Some(20_000),
            score: 1,
            depth: 1,
            bound: Bound::Exact,
        };
        assert_eq!(Entry::unpack(1, far.pack()).map(|e| e.best), Some(None));
    }

    #[test]
    fn a_large_table_is_ready_at_once() {
        let start = std::time::Instant::now();
        let table = Table::new(4096);
        assert!(table.bytes() >= 1 << 30 || available_bytes().is_some_and(|a| a < 8 << 30));
        assert!(start.elapsed() < std::time::Duration::from_millis(500));
    }
}
