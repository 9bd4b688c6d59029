//! Endgame tablebases for the moving and flying phases (no pieces in hand), built by
//! retrograde analysis.
//!
//! A table holds every position with `m` pieces for the side to move and `o` for the other
//! (colours do not matter: the rules are the same for both), one byte each: 0 = draw, else
//! `plies + 1`, where `plies` is the distance to the end with best play (odd: the side to move
//! wins; even: it loses). Distances count plies to a capture that leaves fewer than 3 pieces
//! or to a blocked position. The draw rules (repetition, no-capture counter) are not part of
//! the tables: a position is a draw when neither side can force a win.
//!
//! Only one position of each class of the 16 board symmetries (the 8 of the square times
//! swapping the inner and outer ring) has a slot: the canonical one, the least of its images
//! (mover set first, see [`Symmetry::canonical`]). Slots come in rows, one row per mover set
//! that is least among its images, and a row holds every placement of the `o` other pieces on
//! the `24 - m` free points, ranked among those points: a slot's index is arithmetic, and only
//! the rows of mover sets that some symmetry fixes hold slots of non-canonical positions
//! (unused, stored as draws: 24 % more slots than classes at 3v3, 6 % at 5v5, 3 % over the
//! whole set 3v3..9v9). Probing maps a position to its canonical image first, so a table is
//! the same bytes in memory and on disk.
//!
//! Captures lead into the smaller table `(o - 1, m)`, built first; they are the "exits" of a
//! table. Positions are resolved in order of distance: the lost ones (blocked, or every move
//! reaching a win for the opponent, counted down per position) pass a win at `d + 1` to each
//! predecessor found by un-moving; wins through a capture enter at their own distance.
//!
//! Counting down per class needs care: un-moving from the canonical position of a class finds
//! a predecessor class as often as that class's own canonical position has moves into it,
//! times |stabilizer of the child| / |stabilizer of the parent| (count the pairs of a symmetry
//! and a move both ways). So each move of a position counts the child's stabilizer size into
//! the counter, and each predecessor found subtracts the parent's stabilizer size: the counter
//! reaches zero exactly when every move has been answered.

use super::board::{in_mill_at, pieces_in_mills, points, Points, ADJACENT, ALL_POINTS};
use super::symmetry::{classes, rank, sets_of, Symmetry, BINOMIAL};
use super::{Morris, Move};
use crate::game::Game;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU16, AtomicU64, AtomicU8, AtomicUsize, Ordering::Relaxed};
use std::sync::{LazyLock, OnceLock};
use std::time::{Duration, Instant};

/// The symmetries' lookup tables, shared by every table.
pub(super) static SYMMETRY: LazyLock<Symmetry> = LazyLock::new(Symmetry::new);

/// The rows of the tables whose side to move has `m` pieces: the mover sets that are least
/// among their images, in rank order, and the row of each mover set by rank.
pub(super) struct Rows {
    /// The least mover sets, one per row.
    pub(super) movers: Vec<Points>,
    /// The row of each mover set (by colex rank), `u32::MAX` for sets that are not least.
    row_of: Vec<u32>,
}

/// The rows for `m` pieces to move, computed once per process.
pub(super) fn rows(m: u32) -> &'static Rows {
    static ROWS: [OnceLock<Rows>; 10] = [const { OnceLock::new() }; 10];
    ROWS[m as usize].get_or_init(|| {
        let mut movers = Vec::new();
        let mut row_of = vec![u32::MAX; BINOMIAL[24][m as usize] as usize];
        for (r, set) in sets_of(m).enumerate() {
            if (0..16).all(|s| SYMMETRY.apply(s, set) >= set) {
                row_of[r] = movers.len() as u32;
                movers.push(set);
            }
        }
        Rows { movers, row_of }
    })
}

/// The colex rank of `set` among the sets of its size on the points not in `taken`.
pub(super) fn rank_among_free(set: Points, taken: Points) -> u64 {
    let free = ALL_POINTS & !taken;
    points(set)
        .enumerate()
        .map(|(i, p)| BINOMIAL[(free & ((1 << p) - 1)).count_ones() as usize][i + 1])
        .sum()
}

/// The set of `k` points among those not in `taken` with colex rank `r` (inverse of
/// [`rank_among_free`]).
fn unrank_among_free(mut r: u64, k: u32, taken: Points) -> Points {
    // A fixed array: the builder unranks every position it resolves.
    let mut free = [0usize; 24];
    let mut c = 0;
    for p in points(ALL_POINTS & !taken) {
        free[c] = p;
        c += 1;
    }
    let mut set = 0;
    for j in (1..=k as usize).rev() {
        c -= 1;
        while BINOMIAL[c][j] > r {
            c -= 1;
        }
        r -= BINOMIAL[c][j];
        set |= 1 << free[c];
    }
    set
}

/// Where the positions of table `mover`v`other` sit, apart from its bytes (the builder works
/// on bytes it views as atomics, not on a [`Table`]).
#[derive(Clone, Copy)]
pub(super) struct Layout {
    mover: u32,
    other: u32,
    /// Slots a row: the placements of the other side's pieces.
    stride: usize,
    rows: &'static Rows,
}

impl Layout {
    pub(super) fn new(mover: u32, other: u32) -> Layout {
        Layout {
            mover,
            other,
            stride: BINOMIAL[24 - mover as usize][other as usize] as usize,
            rows: rows(mover),
        }
    }

    pub(super) fn slots(&self) -> usize {
        self.rows.movers.len() * self.stride
    }

    /// The slot of a canonical position.
    pub(super) fn slot_of(&self, mover: Points, other: Points) -> usize {
        self.row_start(mover) + rank_among_free(other, mover) as usize
    }

    /// The first slot of the row of a least mover set.
    pub(super) fn row_start(&self, mover: Points) -> usize {
        self.rows.row_of[rank(mover) as usize] as usize * self.stride
    }

    /// The position of a slot (canonical unless its row's mover set has symmetries).
    pub(super) fn position_at(&self, slot: usize) -> (Points, Points) {
        let mover = self.rows.movers[slot / self.stride];
        let other = unrank_among_free((slot % self.stride) as u64, self.other, mover);
        (mover, other)
    }
}

/// One table: `mover` pieces to move against `other` pieces.
pub struct Table {
    pub(super) mover: u32,
    pub(super) other: u32,
    pub(super) values: Values,
}

/// A table's bytes: built in memory, or a verified file's bytes mapped read-only (no copy:
/// a 9 GB set is ready as soon as its checksums are read, and engines on one machine share
/// the system's one copy of each file).
pub enum Values {
    /// Computed by this process.
    Built(Vec<u8>),
    /// The bytes of a table file after its header.
    Mapped(memmap2::Mmap, usize),
}

impl std::ops::Deref for Values {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Values::Built(bytes) => bytes,
            Values::Mapped(map, offset) => map.get(*offset..).unwrap_or_default(),
        }
    }
}

impl Table {
    /// The number of slots of table `mover`v`other`: rows times placements of the other side.
    pub fn slots(mover: u32, other: u32) -> u64 {
        Layout::new(mover, other).slots() as u64
    }

    /// A table of draws (all zero), or `None` when the memory cannot be had.
    #[cfg(test)]
    pub(super) fn zeroed(mover: u32, other: u32) -> Option<Table> {
        let mut values = Vec::new();
        let size = Table::slots(mover, other) as usize;
        values.try_reserve_exact(size).ok()?;
        values.resize(size, 0);
        Some(Table {
            mover,
            other,
            values: Values::Built(values),
        })
    }

    /// The slot of a canonical position.
    pub(super) fn slot_of(&self, mover: Points, other: Points) -> usize {
        Layout::new(self.mover, self.other).slot_of(mover, other)
    }

    /// The position of a slot (canonical unless its row's mover set has symmetries).
    #[cfg(test)]
    pub(super) fn position_at(&self, slot: usize) -> (Points, Points) {
        Layout::new(self.mover, self.other).position_at(slot)
    }

    /// The stored byte (0 draw, else plies + 1) for any position of this table.
    pub fn value(&self, mover: Points, other: Points) -> u8 {
        let (m, o) = SYMMETRY.canonical(mover, other);
        self.values[self.slot_of(m, o)]
    }

    /// The number of classes of positions of table `mover`v`other` under the 16 symmetries
    /// (Burnside's count): its canonical positions, one slot each.
    pub fn classes(mover: u32, other: u32) -> u64 {
        classes(mover, other)
    }

    /// The number of legal positions it describes.
    pub fn positions(&self) -> u64 {
        BINOMIAL[24][self.mover as usize] * BINOMIAL[24 - self.mover as usize][self.other as usize]
    }
}

/// The result of a position for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TbResult {
    /// The side to move wins in this many plies.
    Win(u32),
    /// The side to move loses in this many plies.
    Loss(u32),
    /// Neither side can force a win.
    Draw,
}

/// Decodes a table byte.
pub fn decode(value: u8) -> TbResult {
    match value {
        0 => TbResult::Draw,
        v if (v - 1) % 2 == 1 => TbResult::Win(u32::from(v - 1)),
        v => TbResult::Loss(u32::from(v - 1)),
    }
}

/// A set of tables for one `flying` setting, indexed by piece counts 3..=9.
pub struct Tablebase {
    pub(super) flying: bool,
    pub(super) tables: Vec<Option<Table>>,
}

/// Where table `mover`v`other` sits in [`Tablebase::tables`].
pub(super) fn slot(mover: u32, other: u32) -> usize {
    (mover as usize) * 10 + other as usize
}

/// Marks a slot whose result has been passed on to its predecessors (or that holds no
/// canonical position).
const DONE: u16 = u16::MAX;

/// Slots a thread takes at a time in a level pass: enough to make taking them cheap, few
/// enough that the threads finish a pass together.
const CHUNK: usize = 1 << 16;

/// How far the build of a pair has come, and what became of its checkpoints (for progress
/// lines).
#[derive(Clone, Debug)]
pub enum Step {
    /// Seeding: `done` of `of` slots classified by their captures and moves.
    Seeding { done: u64, of: u64 },
    /// Resolving the positions at distance `level`; `pending` results wait for their level.
    Level { level: u32, pending: u64 },
    /// The build goes on from the checkpoint `path`, at `level`.
    Resumed { path: PathBuf, level: u32 },
    /// A checkpoint that does not verify (the error names it) was removed; the pair is built
    /// from the start.
    Refused(String),
    /// A checkpoint was written: the level it resumes at, its bytes and the seconds taken.
    Saved {
        level: u32,
        bytes: u64,
        seconds: f64,
    },
    /// A checkpoint could not be written (the error names the file); the build goes on
    /// without it.
    NotSaved(String),
}

/// How [`Tablebase::build_pair_with`] builds a pair. The tables do not depend on it.
#[derive(Clone, Debug)]
pub struct BuildSettings {
    /// Threads working on the pair (at least one).
    pub threads: usize,
    /// The directory of the pair's checkpoint (`morris-fly-MvO.partial`,
    /// [`Tablebase::partial_name`]): resumed from on start when it verifies, written as
    /// `checkpoint_every` says.
    pub checkpoints: Option<PathBuf>,
    /// The least time between two checkpoints, which are taken at the end of seeding and of
    /// a level pass; `None`: none are written.
    pub checkpoint_every: Option<Duration>,
    /// Stops the build with an error after the pass of this level (and its checkpoint), as a
    /// run killed there would stop: for tests of resuming.
    pub stop_after_level: Option<u32>,
}

impl Default for BuildSettings {
    /// One thread, no checkpoints.
    fn default() -> BuildSettings {
        BuildSettings {
            threads: 1,
            checkpoints: None,
            checkpoint_every: None,
            stop_after_level: None,
        }
    }
}

/// The state of a pair's build between two passes: what a checkpoint holds.
pub(super) struct PairState {
    /// The values of the tables (m, o) and (o, m) (one table when m = o).
    pub(super) values: Vec<Vec<u8>>,
    /// Their counters: the weighted moves not yet answered, or [`DONE`].
    pub(super) counters: Vec<Vec<u16>>,
    /// The next level to resolve.
    pub(super) level: u32,
    /// Results set but not yet passed on.
    pub(super) pending: u64,
    /// The longest distance resolved so far.
    pub(super) longest: u32,
}

/// When and where the state of a pair's build is saved.
struct Checkpoints {
    path: Option<PathBuf>,
    every: Option<Duration>,
    last: Instant,
    flying: bool,
    pair: (u32, u32),
}

impl Checkpoints {
    /// Saves `state` when a checkpoint is due. A failed write (a full disk) is reported and
    /// the build goes on: the final tables are what matters, and a checkpoint left from
    /// before is still a true state of the build.
    fn save_if_due(&mut self, state: &PairState, progress: &mut dyn FnMut(Step)) {
        let (Some(path), Some(every)) = (&self.path, self.every) else {
            return;
        };
        if self.last.elapsed() < every {
            return;
        }
        let start = Instant::now();
        let (m, o) = self.pair;
        progress(match state.write(path, self.flying, m, o) {
            Ok(bytes) => Step::Saved {
                level: state.level,
                bytes,
                seconds: start.elapsed().as_secs_f64(),
            },
            Err(error) => Step::NotSaved(error.to_string()),
        });
        self.last = Instant::now();
    }
}

// The level passes view the builder's arrays as atomics: the same size and alignment.
const _: () = assert!(
    std::mem::size_of::<AtomicU16>() == std::mem::size_of::<u16>()
        && std::mem::align_of::<AtomicU16>() == std::mem::align_of::<u16>()
);

/// `bytes` as atomics, shared by the threads of one pass.
fn atomic_u8(bytes: &mut [u8]) -> &[AtomicU8] {
    // SAFETY: AtomicU8 has the size, alignment and bit validity of u8, and the exclusive
    // borrow keeps every other access out while the atomic view lives.
    unsafe { &*(bytes as *mut [u8] as *const [AtomicU8]) }
}

/// `counters` as atomics, shared by the threads of one pass.
fn atomic_u16(counters: &mut [u16]) -> &[AtomicU16] {
    // SAFETY: AtomicU16 has the size and bit validity of u16 and here its alignment (checked
    // above at compile time), and the exclusive borrow keeps every other access out while
    // the atomic view lives.
    unsafe { &*(counters as *mut [u16] as *const [AtomicU16]) }
}

/// Runs `work` on the calling thread and on up to `threads - 1` more, and returns each one's
/// result; only the calling thread reports (the reporter need not be `Send`). A thread the
/// system refuses is done without: the work is handed out as it is asked for, so the other
/// threads do its share.
pub(super) fn on_threads<R: Send, W: Fn(&mut dyn FnMut(u64)) -> R + Sync>(
    threads: usize,
    work: &W,
    report: &mut dyn FnMut(u64),
) -> Vec<R> {
    std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads)
            .filter_map(|_| {
                std::thread::Builder::new()
                    .spawn_scoped(scope, || work(&mut |_| {}))
                    .ok()
            })
            .collect();
        let mut results = vec![work(report)];
        for helper in helpers {
            results.push(
                helper
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            );
        }
        results
    })
}

/// The captures of a position, summarised for the side to move.
#[derive(Default)]
struct Exits {
    has_moves: bool,
    /// The moves inside the pair, each weighted by its child's stabilizer size.
    internal: u32,
    best_win: Option<u32>,
    worst_loss: u32,
    draw: bool,
}

/// What one step of the side to move leads to.
enum Child {
    /// A position of table (other, mover) or (other - 1, mover), as (mover, other) sets.
    Position(u32, u32, Points, Points),
    /// The capture leaves the opponent with 2 pieces: an immediate win.
    Won,
}

impl Tablebase {
    /// An empty tablebase.
    pub fn new(flying: bool) -> Tablebase {
        Tablebase {
            flying,
            tables: (0..100).map(|_| None).collect(),
        }
    }

    /// The table for these counts, if built or loaded.
    pub fn table(&self, mover: u32, other: u32) -> Option<&Table> {
        self.tables.get(slot(mover, other))?.as_ref()
    }

    /// Looks up a position (side to move's pieces, the other side's), if its table is present.
    pub fn probe(&self, mover: Points, other: Points) -> Option<TbResult> {
        let table = self.table(mover.count_ones(), other.count_ones())?;
        Some(decode(table.value(mover, other)))
    }

    fn for_each_child(
        &self,
        mover: Points,
        other: Points,
        mut visit: impl FnMut(Child) -> bool,
    ) -> bool {
        let empty = ALL_POINTS & !(mover | other);
        let m = mover.count_ones();
        let o = other.count_ones();
        let fly = self.flying && m == 3;
        let free = other & !pieces_in_mills(other);
        let capturable = if free != 0 { free } else { other };
        let mut any = false;
        for from in points(mover) {
            let targets = if fly { empty } else { ADJACENT[from] & empty };
            for to in points(targets) {
                any = true;
                let after = (mover & !(1 << from)) | (1 << to);
                if in_mill_at(after, to) {
                    for c in points(capturable) {
                        let child = if o == 3 {
                            Child::Won
                        } else {
                            Child::Position(o - 1, m, other & !(1 << c), after)
                        };
                        if !visit(child) {
                            return any;
                        }
                    }
                } else if !visit(Child::Position(o, m, other, after)) {
                    return any;
                }
            }
        }
        any
    }

    /// What the captures of a position lead to (they leave the pair being built), and the
    /// weighted count of the non-capture moves that stay inside it.
    fn exits(&self, mover: Points, other: Points) -> Exits {
        let mut exits = Exits::default();
        let pair = (other.count_ones(), mover.count_ones());
        exits.has_moves = self.for_each_child(mover, other, |child| {
            let value = match child {
                Child::Won => 1,
                Child::Position(cm, co, cmover, cother) if (cm, co) == pair => {
                    exits.internal += SYMMETRY.canonical_with_stabilizer(cmover, cother).2;
                    return true;
                }
                Child::Position(cm, co, cmover, cother) => {
                    self.table(cm, co).map_or(0, |t| t.value(cmover, cother))
                }
            };
            match decode(value) {
                TbResult::Draw => exits.draw = true,
                TbResult::Loss(p) => {
                    exits.best_win = Some(exits.best_win.map_or(p + 1, |w: u32| w.min(p + 1)))
                }
                TbResult::Win(p) => exits.worst_loss = exits.worst_loss.max(p + 1),
            }
            true
        });
        exits
    }

    /// The tables that captures from the pair (m, o) and (o, m) lead into, which
    /// [`Tablebase::build_pair`] needs: `(o - 1)v m` and `(m - 1)v o`, when 3 pieces are left.
    pub fn captures_into(m: u32, o: u32) -> Vec<(u32, u32)> {
        let mut needed = vec![(o - 1, m), (m - 1, o)];
        needed.retain(|&(a, _)| a >= 3);
        needed.dedup();
        needed
    }

    /// Builds the tables (m, o) and (o, m) together by retrograde analysis on one thread; the
    /// smaller tables their captures lead into must be present. Returns the longest distance
    /// found.
    pub fn build_pair(&mut self, m: u32, o: u32) -> u32 {
        self.build_pair_with(m, o, &BuildSettings::default(), &mut |_| {})
            .expect("memory for the tables being built")
    }

    /// [`Tablebase::build_pair`] with `settings` (threads, checkpoints), telling `progress` how
    /// far it has come; an error when the memory for the tables (3 bytes a slot while
    /// building) cannot be had, or when `settings.stop_after_level` stopped the build.
    pub fn build_pair_with(
        &mut self,
        m: u32,
        o: u32,
        settings: &BuildSettings,
        progress: &mut dyn FnMut(Step),
    ) -> Result<u32, String> {
        let counts = if m == o {
            vec![(m, o)]
        } else {
            vec![(m, o), (o, m)]
        };
        let no_memory = |(a, b): (u32, u32)| {
            format!(
                "no memory for table {a}v{b} ({} slots, 3 bytes each while building)",
                Table::slots(a, b)
            )
        };
        let mut state = PairState {
            values: Vec::new(),
            counters: Vec::new(),
            level: 0,
            pending: 0,
            longest: 0,
        };
        for &c in &counts {
            let size = Table::slots(c.0, c.1) as usize;
            let mut values = Vec::new();
            values.try_reserve_exact(size).map_err(|_| no_memory(c))?;
            values.resize(size, 0);
            state.values.push(values);
            let mut counter = Vec::new();
            counter.try_reserve_exact(size).map_err(|_| no_memory(c))?;
            counter.resize(size, DONE);
            state.counters.push(counter);
        }
        let layouts: Vec<Layout> = counts.iter().map(|&(a, b)| Layout::new(a, b)).collect();
        let threads = settings.threads.max(1);
        let partial = settings
            .checkpoints
            .as_ref()
            .map(|dir| Tablebase::partial_name(dir, self.flying, m, o));
        let resumed = match &partial {
            Some(path) if path.exists() => match state.read(path, self.flying, m, o) {
                Ok(()) => {
                    progress(Step::Resumed {
                        path: path.clone(),
                        level: state.level,
                    });
                    true
                }
                Err(error) => {
                    // Whatever was read is not to be trusted: start from a fresh state.
                    for (values, counters) in state.values.iter_mut().zip(&mut state.counters) {
                        values.fill(0);
                        counters.fill(DONE);
                    }
                    state.level = 0;
                    state.pending = 0;
                    state.longest = 0;
                    let removed = std::fs::remove_file(path)
                        .map_or_else(|e| format!(" (not removed: {e})"), |()| String::new());
                    progress(Step::Refused(format!("{error}{removed}")));
                    false
                }
            },
            _ => false,
        };
        let mut checkpoints = Checkpoints {
            path: partial,
            every: settings.checkpoint_every,
            last: Instant::now(),
            flying: self.flying,
            pair: (m, o),
        };
        if !resumed {
            state.pending = self.seed(&layouts, &mut state, threads, progress);
            checkpoints.save_if_due(&state, progress);
        }
        while state.pending > 0 && state.level < 254 {
            progress(Step::Level {
                level: state.level,
                pending: state.pending,
            });
            let (change, resolved) = self.pass(&layouts, &mut state, threads);
            state.pending = state.pending.wrapping_add_signed(change);
            if resolved {
                state.longest = state.level;
            }
            state.level += 1;
            checkpoints.save_if_due(&state, progress);
            if settings.stop_after_level == Some(state.level - 1) {
                return Err(format!("stopped after level {}", state.level - 1));
            }
        }
        for ((a, b), values) in counts.into_iter().zip(state.values) {
            self.tables[slot(a, b)] = Some(Table {
                mover: a,
                other: b,
                values: Values::Built(values),
            });
        }
        Ok(state.longest)
    }

    /// Seeds every canonical slot of the pair from its moves and captures (wins through a
    /// capture, blocked positions, positions whose every move leads out of the pair into a
    /// loss) and sets its counter; returns how many results wait for their level. Each row
    /// is independent of the others and writes only its own slots: threads take rows one at
    /// a time.
    fn seed(
        &self,
        layouts: &[Layout],
        state: &mut PairState,
        threads: usize,
        progress: &mut dyn FnMut(Step),
    ) -> u64 {
        let values: Vec<&[AtomicU8]> = state.values.iter_mut().map(|v| atomic_u8(v)).collect();
        let counters: Vec<&[AtomicU16]> =
            state.counters.iter_mut().map(|c| atomic_u16(c)).collect();
        let first_rows = layouts[0].rows.movers.len();
        let all_rows: usize = layouts.iter().map(|l| l.rows.movers.len()).sum();
        let of: u64 = layouts.iter().map(|l| l.slots() as u64).sum();
        let next_row = AtomicUsize::new(0);
        let seeded = AtomicU64::new(0);
        let work = |report: &mut dyn FnMut(u64)| {
            let mut pending = 0u64;
            loop {
                let mut row = next_row.fetch_add(1, Relaxed);
                if row >= all_rows {
                    return pending;
                }
                let t = usize::from(row >= first_rows);
                if t == 1 {
                    row -= first_rows;
                }
                let layout = &layouts[t];
                let mover = layout.rows.movers[row];
                let stabilizer: Vec<usize> = (1..16)
                    .filter(|&s| SYMMETRY.apply(s, mover) == mover)
                    .collect();
                let free: Vec<usize> = points(ALL_POINTS & !mover).collect();
                for (j, compact) in sets_of_width(layout.other, free.len() as u32).enumerate() {
                    let other = points(compact).fold(0, |acc, i| acc | 1 << free[i]);
                    if !SYMMETRY.is_least(&stabilizer, other) {
                        continue;
                    }
                    let i = row * layout.stride + j;
                    let exits = self.exits(mover, other);
                    counters[t][i].store(exits.internal as u16, Relaxed);
                    let value = if !exits.has_moves {
                        1
                    } else if let Some(w) = exits.best_win {
                        w as u8 + 1
                    } else if exits.internal == 0 && !exits.draw {
                        exits.worst_loss as u8 + 1
                    } else {
                        0
                    };
                    if value != 0 {
                        values[t][i].store(value, Relaxed);
                        pending += 1;
                    }
                }
                let done = seeded.fetch_add(layout.stride as u64, Relaxed);
                if row.is_multiple_of(64) {
                    report(done + layout.stride as u64);
                }
            }
        };
        on_threads(threads, &work, &mut |done| {
            progress(Step::Seeding { done, of })
        })
        .into_iter()
        .sum()
    }

    /// One level pass: every result at distance `state.level` that has not been passed on
    /// yet is passed to its predecessors. Returns the change of the pending count and whether
    /// any result was at this level.
    ///
    /// Threads take chunks of slots as they come, so the order of the updates varies from run
    /// to run, but the tables do not, for these reasons. The results a pass passes on are
    /// fixed when it starts: slots worth `level + 1` whose counter is not `DONE`; the pass
    /// writes `level + 2` or more, and never changes a slot worth `level + 1` but its own
    /// counter (to `DONE`, by the one thread that owns the slot's chunk). In a lost level
    /// (even) a parent becomes a win at `level + 1` when it is a draw so far or a slower
    /// result: the final value is the same whichever thread gets there first, and a
    /// compare-exchange lets exactly one thread see the draw it replaced (the pending count).
    /// In a won level (odd) the counter of an undecided parent (worth 0) falls by one weight
    /// per predecessor found, atomically; the counter reaches zero only once every move of
    /// the parent has been answered, so exactly one thread brings it to zero, no thread
    /// subtracts after that, and that thread alone decides the parent (a loss, unless a
    /// capture draws) from `exits`, which reads only the finished smaller tables and the
    /// symmetries, never the tables being built. Which thread sees a parent's counter at
    /// `DONE` only saves work: such parents are skipped by their value as well. The passes are
    /// separated by the end of a thread scope (which joins every thread), so each pass starts
    /// from all the writes of the one before, and `Relaxed` ordering is enough inside one.
    fn pass(&self, layouts: &[Layout], state: &mut PairState, threads: usize) -> (i64, bool) {
        let d = state.level as usize;
        let lost = d.is_multiple_of(2);
        let values: Vec<&[AtomicU8]> = state.values.iter_mut().map(|v| atomic_u8(v)).collect();
        let counters: Vec<&[AtomicU16]> =
            state.counters.iter_mut().map(|c| atomic_u16(c)).collect();
        let first_chunks = layouts[0].slots().div_ceil(CHUNK);
        let all_chunks: usize = layouts.iter().map(|l| l.slots().div_ceil(CHUNK)).sum();
        // The table of a position's side to move, by its number of pieces.
        let table_of = |mover: Points| {
            usize::from(layouts.len() == 2 && mover.count_ones() != layouts[0].mover)
        };
        let next_chunk = AtomicUsize::new(0);
        let work = |_: &mut dyn FnMut(u64)| {
            let mut change = 0i64;
            let mut resolved = false;
            loop {
                let mut chunk = next_chunk.fetch_add(1, Relaxed);
                if chunk >= all_chunks {
                    return (change, resolved);
                }
                let t = usize::from(chunk >= first_chunks);
                if t == 1 {
                    chunk -= first_chunks;
                }
                let start = chunk * CHUNK;
                for i in start..(start + CHUNK).min(layouts[t].slots()) {
                    if usize::from(values[t][i].load(Relaxed)) != d + 1
                        || counters[t][i].load(Relaxed) == DONE
                    {
                        continue;
                    }
                    counters[t][i].store(DONE, Relaxed);
                    change -= 1;
                    resolved = true;
                    let (mover, other) = layouts[t].position_at(i);
                    // Predecessors: the other side made a non-capture move into this position.
                    let empty = ALL_POINTS & !(mover | other);
                    let fly = self.flying && other.count_ones() == 3;
                    let pt = table_of(other);
                    for to in points(other).filter(|&to| !in_mill_at(other, to)) {
                        let sources = if fly { empty } else { ADJACENT[to] & empty };
                        for from in points(sources) {
                            let parent = (other & !(1 << to)) | (1 << from);
                            let (pm, po, weight) =
                                SYMMETRY.canonical_with_stabilizer(parent, mover);
                            let pi = layouts[pt].slot_of(pm, po);
                            if counters[pt][pi].load(Relaxed) == DONE {
                                continue;
                            }
                            if lost {
                                // A win at d + 1, unless a capture already wins as fast.
                                let win = d as u8 + 2;
                                let set = values[pt][pi].fetch_update(Relaxed, Relaxed, |v| {
                                    (v == 0 || v > win).then_some(win)
                                });
                                change += i64::from(set == Ok(0));
                                continue;
                            }
                            if values[pt][pi].load(Relaxed) != 0 {
                                continue;
                            }
                            let weight = weight as u16;
                            if counters[pt][pi].fetch_sub(weight, Relaxed) == weight {
                                let exits = self.exits(pm, po);
                                if exits.best_win.is_none() && !exits.draw {
                                    let loss = exits.worst_loss.max(d as u32 + 1);
                                    values[pt][pi].store(loss as u8 + 1, Relaxed);
                                    change += 1;
                                }
                            }
                        }
                    }
                }
            }
        };
        on_threads(threads, &work, &mut |_| {})
            .into_iter()
            .fold((0, false), |(c, r), (change, resolved)| {
                (c + change, r || resolved)
            })
    }

    /// Builds every missing table with at most `max` pieces a side and `max_total` pieces in
    /// all, smallest first; `report` gets each built pair's counts and longest distance.
    pub fn build_up_to(&mut self, max: u32, max_total: u32, mut report: impl FnMut(u32, u32, u32)) {
        for (m, o) in pairs(max, max_total) {
            if self.table(m, o).is_some() && self.table(o, m).is_some() {
                continue;
            }
            let longest = self.build_pair(m, o);
            report(m, o, longest);
        }
    }
}

/// The pairs (m, o), m <= o, with at most `max` pieces a side and `max_total` in all, in the
/// order they can be built (smallest total first).
pub fn pairs(max: u32, max_total: u32) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for total in 6..=max_total.min(2 * max) {
        for m in 3..=max {
            if total >= m && (m..=max).contains(&(total - m)) {
                out.push((m, total - m));
            }
        }
    }
    out
}

/// Every set of `k` of the first `n` indices, in colex order (as [`sets_of`] on 24 points).
fn sets_of_width(k: u32, n: u32) -> impl Iterator<Item = u32> {
    let limit = (1u32 << n) - 1;
    sets_of(k).take_while(move |&s| s <= limit)
}

// Probing from a game position

impl TbResult {
    /// The result one ply earlier, for the player who made the move leading here.
    fn before(self) -> TbResult {
        match self {
            TbResult::Win(n) => TbResult::Loss(n + 1),
            TbResult::Loss(n) => TbResult::Win(n + 1),
            TbResult::Draw => TbResult::Draw,
        }
    }

    /// Orders results for the side to move: quick wins first, slow losses last.
    fn preference(self) -> i64 {
        match self {
            TbResult::Win(n) => 1_000 - i64::from(n),
            TbResult::Draw => 0,
            TbResult::Loss(n) => -1_000 + i64::from(n),
        }
    }
}

impl Tablebase {
    /// The result of a game position in the moving or flying phase, if its table is loaded
    /// and its `flying` setting matches.
    pub fn probe_position(&self, pos: &Morris) -> Option<TbResult> {
        let me = pos.side_to_move();
        if pos.options().flying != self.flying || pos.in_hand(me) + pos.in_hand(me.opponent()) > 0 {
            return None;
        }
        if let Some(outcome) = pos.outcome() {
            return Some(match outcome.winner {
                Some(w) if w == me => TbResult::Win(0),
                Some(_) => TbResult::Loss(0),
                None => TbResult::Draw,
            });
        }
        self.probe(pos.pieces(me), pos.pieces(me.opponent()))
    }

    /// The best move of a position by the tables, with its result for the side to move:
    /// the fastest win, else a draw, else the slowest loss; among moves of the same result,
    /// the one leaving the opponent the most replies that lose ground
    /// ([`Tablebase::mistakes`]). `None` when a table is missing.
    pub fn best_move(&self, pos: &Morris) -> Option<(Move, TbResult)> {
        self.probe_position(pos)?;
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        // The best so far, with its child's mistakes once a tie has needed them.
        let mut best: Option<(Move, TbResult, Morris, Option<usize>)> = None;
        for mv in moves {
            let mut child = pos.clone();
            child.play(mv);
            let result = self.probe_position(&child)?.before();
            let mut mistakes = None;
            let better = match &mut best {
                None => true,
                Some((_, b, _, _)) if result.preference() != b.preference() => {
                    result.preference() > b.preference()
                }
                Some((_, _, best_child, best_mistakes)) => {
                    let theirs = match *best_mistakes {
                        Some(n) => n,
                        None => *best_mistakes.insert(self.mistakes(best_child)?),
                    };
                    let ours = self.mistakes(&child)?;
                    mistakes = Some(ours);
                    ours > theirs
                }
            };
            if better {
                best = Some((mv, result, child, mistakes));
            }
        }
        best.map(|(mv, result, _, _)| (mv, result))
    }

    /// The replies of the side to move that lose ground: those whose result for it is worse
    /// than the position's own (a win given up, a draw turned into a loss, a slower win or a
    /// faster loss). `None` when a table is missing.
    pub fn mistakes(&self, pos: &Morris) -> Option<usize> {
        let value = self.probe_position(pos)?.preference();
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut count = 0;
        for mv in moves {
            let mut child = pos.clone();
            child.play(mv);
            count += usize::from(self.probe_position(&child)?.before().preference() < value);
        }
        Some(count)
    }
}
