//! The transposition table: a fixed-size array sized by the `Hash` option, in zeroed memory
//! that becomes resident only as the search writes it.

use std::alloc::Layout;
use std::mem::{size_of, MaybeUninit};

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

/// One slot of the table. All-zero bytes are a valid empty slot (`bound` 0), so the table can
/// take zeroed pages from the operating system without writing them: a large `Hash` costs
/// no time and no memory until the search uses it.
#[repr(C)]
struct Slot<M> {
    key: u64,
    score: i32,
    depth: i16,
    /// 0: empty; 1, 2, 3: [`Bound::Exact`], [`Bound::Lower`], [`Bound::Upper`].
    bound: u8,
    /// Initialised whenever `bound` is not 0.
    best: MaybeUninit<Option<M>>,
}

impl<M: Copy> Copy for Slot<M> {}

impl<M: Copy> Clone for Slot<M> {
    fn clone(&self) -> Self {
        *self
    }
}

/// A transposition table of `Entry<M>`, always-replace, indexed by the hash.
pub struct Table<M> {
    slots: Vec<Slot<M>>,
}

impl<M> std::fmt::Debug for Table<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table({} entries)", self.slots.len())
    }
}

/// `len` empty slots in zeroed memory from the allocator (`calloc`: fresh pages from the
/// operating system stay unmapped until written), or `None` when the allocation fails.
fn zeroed_slots<M: Copy>(len: usize) -> Option<Vec<Slot<M>>> {
    let layout = Layout::array::<Slot<M>>(len).ok()?;
    if layout.size() == 0 {
        return Some(Vec::new());
    }
    // SAFETY: the layout has a non-zero size; all-zero bytes are a valid `Slot<M>` (integers
    // and a `MaybeUninit`); the vector owns memory from the global allocator with exactly
    // this layout (capacity = length = `len`), as `Vec::from_raw_parts` requires.
    unsafe {
        let memory = std::alloc::alloc_zeroed(layout) as *mut Slot<M>;
        (!memory.is_null()).then(|| Vec::from_raw_parts(memory, len, len))
    }
}

impl<M: Copy> Table<M> {
    /// A table using at most `mib` mebibytes (at least one entry), and at most half the
    /// memory the system has available: `Hash 65536` on a smaller machine must give a
    /// smaller table, not abort the engine when the allocation fails. The memory is zeroed
    /// by the system and becomes resident only as entries are written.
    pub fn new(mib: usize) -> Table<M> {
        let entry_size = size_of::<Slot<M>>();
        let wanted = mib.saturating_mul(1 << 20);
        let len = affordable(wanted, available_bytes()) / entry_size;
        let slots = Table::allocate(len);
        if slots.len() * entry_size < wanted / 2 {
            log::warn!(
                "Hash {mib} MiB does not fit in memory: the table has {} entries",
                slots.len()
            );
        }
        Table { slots }
    }

    /// `len` empty slots, or as many as the allocator gives (halving), at least one.
    fn allocate(mut len: usize) -> Vec<Slot<M>> {
        loop {
            let len_here = len.max(1);
            if let Some(slots) = zeroed_slots(len_here) {
                return slots;
            }
            assert!(len_here > 1, "cannot allocate one table entry");
            len /= 2;
        }
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// True if the table has no slots (never: it always has at least one).
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Bytes used by the entries.
    pub fn bytes(&self) -> usize {
        self.slots.len() * size_of::<Slot<M>>()
    }

    /// Forgets everything (a new game): fresh zeroed memory rather than writing every
    /// entry, which would make every page of a large table resident.
    pub fn clear(&mut self) {
        let len = self.slots.len();
        self.slots = Vec::new();
        self.slots = Table::allocate(len);
    }

    fn slot(&self, key: u64) -> usize {
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }

    /// The entry stored for this hash, if any.
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        let slot = &self.slots[self.slot(key)];
        let bound = match slot.bound {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        if slot.key != key {
            return None;
        }
        Some(Entry {
            key,
            // SAFETY: a slot with a bound was written by `store`, which set `best`.
            best: unsafe { slot.best.assume_init() },
            score: slot.score,
            depth: slot.depth,
            bound,
        })
    }

    /// Stores an entry, replacing whatever was in its slot.
    pub fn store(&mut self, entry: Entry<M>) {
        let index = self.slot(entry.key);
        self.slots[index] = Slot {
            key: entry.key,
            score: entry.score,
            depth: entry.depth,
            bound: match entry.bound {
                Bound::Exact => 1,
                Bound::Lower => 2,
                Bound::Upper => 3,
            },
            best: MaybeUninit::new(entry.best),
        };
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
        table.clear();
        assert!(table.probe(entry.key).is_none());
    }

    #[test]
    fn a_fresh_table_is_empty_everywhere() {
        let table: Table<(u8, u16)> = Table::new(1);
        assert!((0..4096u64).all(|i| table.probe(i.wrapping_mul(0x9E37_79B9_7F4A_7C15)).is_none()));
        assert!(table.probe(0).is_none());
    }
}
