//! The transposition table of the placement proof (`placement.rs`), and the one copy of it
//! the engine keeps between proofs. A timed search proves what it can at every placement;
//! the bounds a proof stores stay true for later proofs under the same tables and draw
//! rules, so the work of a move whose proof ran out of time is not lost: the next move's
//! proof, a ply shorter, starts from it.

use super::tables::Tables;
use super::Morris;
use std::ops::{Deref, DerefMut};
use std::sync::{Mutex, MutexGuard, TryLockError};
use std::time::{Duration, Instant};

/// Slots at most: 2^26 of 16 bytes, 1 GiB (2^(12 + pieces in hand) below that, so
/// small proofs stay cheap to set up). The start's proof visits 13 million positions.
const MAX_BITS: u32 = 26;
/// Entries looked at per probe.
const BUCKET: usize = 4;

/// A stored position's bounds for its side to move.
#[derive(Copy, Clone)]
pub(super) struct Entry {
    /// The worst value the side to move can be held to.
    pub low: i8,
    /// The best value it can reach.
    pub high: i8,
    /// Pieces in hand at this position: how much work the entry saves, and whether a later
    /// root can still reach it.
    depth: u8,
    /// True when the bounds rest on a leaf known only within a range (a missing table, a
    /// table result the draw rules may cut short).
    pub open: bool,
}

impl Entry {
    fn pack(self) -> u64 {
        u64::from(self.low as u8)
            | u64::from(self.high as u8) << 8
            | u64::from(self.depth) << 16
            | u64::from(self.open) << 24
    }

    fn unpack(word: u64) -> Entry {
        Entry {
            low: word as u8 as i8,
            high: (word >> 8) as u8 as i8,
            depth: (word >> 16) as u8,
            open: (word >> 24) & 1 == 1,
        }
    }
}

/// A table of proven bounds keyed by [`super::placement`]'s position keys: slot `i` is the
/// key at `2 i` (0: empty; stored positions have pieces in hand, so their key is never 0)
/// and the packed [`Entry`] at `2 i + 1`. All zeros is an empty table, which the system
/// hands out without touching it: a 1 GiB table costs nothing until used.
pub(super) struct ProofTable {
    words: Vec<u64>,
    /// Pieces in hand at the latest root: entries with more can no longer be reached in
    /// this game and are replaced first.
    horizon: u8,
}

impl ProofTable {
    /// An empty table sized for a proof from `pos`.
    pub fn for_position(pos: &Morris) -> ProofTable {
        let mut table = ProofTable {
            words: vec![0; 2 << bits_for(pos)],
            horizon: 18,
        };
        table.set_root(pos);
        table
    }

    fn slots(&self) -> usize {
        self.words.len() / 2
    }

    /// Notes the root of the next proof (see `horizon`).
    fn set_root(&mut self, pos: &Morris) {
        self.horizon = pos.hand[0] + pos.hand[1];
    }

    /// The entry of `key`, if the table holds it.
    pub fn get(&self, key: u64) -> Option<Entry> {
        let i = self.slot(key);
        (self.words[2 * i] == key).then(|| Entry::unpack(self.words[2 * i + 1]))
    }

    /// Narrows the bounds stored for `key` (a position with `depth` pieces in hand), or
    /// stores them in place of the entry that saves the least work.
    pub fn store(&mut self, key: u64, low: i8, high: i8, depth: u8, open: bool) {
        let i = self.slot(key);
        let entry = if self.words[2 * i] == key {
            let old = Entry::unpack(self.words[2 * i + 1]);
            Entry {
                low: old.low.max(low),
                high: old.high.min(high),
                depth,
                open: old.open | open,
            }
        } else {
            Entry {
                low,
                high,
                depth,
                open,
            }
        };
        self.words[2 * i] = key;
        self.words[2 * i + 1] = entry.pack();
    }

    /// The slot of `key`: its own entry, else an empty one, else one the root can no longer
    /// reach, else the one with the least placement below it.
    fn slot(&self, key: u64) -> usize {
        let start = (mix(key) as usize) & (self.slots() - 1) & !(BUCKET - 1);
        let bucket = start..start + BUCKET;
        let horizon = self.horizon;
        bucket
            .clone()
            .find(|&i| self.words[2 * i] == key)
            .unwrap_or_else(|| {
                bucket
                    .min_by_key(|&i| {
                        let depth = Entry::unpack(self.words[2 * i + 1]).depth;
                        (self.words[2 * i] != 0, depth <= horizon, depth)
                    })
                    .unwrap_or(start)
            })
    }
}

/// 2^(12 + pieces in hand) slots, at most 2^[`MAX_BITS`].
fn bits_for(pos: &Morris) -> u32 {
    (12 + u32::from(pos.hand[0] + pos.hand[1])).min(MAX_BITS)
}

/// What the kept table's bounds depend on besides the position: the tables (which fix the
/// `flying` setting) and the draw rules.
#[derive(Copy, Clone, PartialEq, Eq)]
struct Stamp {
    tables: Option<Tables>,
    nocapture: u32,
    repetition: u32,
}

/// The kept table and the stamp of its last user (`None`: never used, no entries).
struct KeptState {
    stamp: Option<Stamp>,
    table: ProofTable,
}

static KEPT: Mutex<KeptState> = Mutex::new(KeptState {
    stamp: None,
    table: ProofTable {
        words: Vec::new(),
        horizon: 18,
    },
});

/// The kept table, held for one proof: other proofs in the process wait for it.
pub(super) struct Kept(MutexGuard<'static, KeptState>);

/// The kept table for a proof from `pos`: emptied first when the tables or draw rules
/// differ from its last user's, or when it is too small for `pos`. While another proof holds
/// it (another session's `solve`), waits at most `until`: `None` after that.
pub(super) fn kept(pos: &Morris, until: Option<Instant>) -> Option<Kept> {
    let stamp = Stamp {
        tables: pos.options.tables,
        nocapture: pos.options.nocapture,
        repetition: pos.options.repetition,
    };
    let mut state = loop {
        let Some(until) = until else {
            break KEPT.lock().unwrap_or_else(|poison| poison.into_inner());
        };
        match KEPT.try_lock() {
            Ok(state) => break state,
            Err(TryLockError::Poisoned(poison)) => break poison.into_inner(),
            Err(TryLockError::WouldBlock) if Instant::now() >= until => return None,
            Err(TryLockError::WouldBlock) => std::thread::sleep(Duration::from_millis(1)),
        }
    };
    if state.stamp != Some(stamp) || state.table.slots() < 1 << bits_for(pos) {
        // The old table goes first: two of them need not fit in memory together.
        state.table.words = Vec::new();
        state.table = ProofTable::for_position(pos);
        state.stamp = Some(stamp);
    }
    state.table.set_root(pos);
    Some(Kept(state))
}

impl Deref for Kept {
    type Target = ProofTable;

    fn deref(&self) -> &ProofTable {
        &self.0.table
    }
}

impl DerefMut for Kept {
    fn deref_mut(&mut self) -> &mut ProofTable {
        &mut self.0.table
    }
}

/// A 64-bit finaliser (splitmix64) spreading keys over the table.
fn mix(key: u64) -> u64 {
    let mut z = key.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
