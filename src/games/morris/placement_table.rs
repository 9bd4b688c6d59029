//! Tables of the placement phase: the value (win, draw or loss for the side to move, under
//! the pure rules) of every position while pieces are in hand, one layer per ply.
//!
//! A position at ply `p` (0..18 placements made) has `p / 2` of the mover's pieces placed
//! and `(p + 1) / 2` of the other side's, whatever the colours (the rules are the same for
//! both), so the hands follow from the ply and a layer holds one part per material: `m`
//! pieces of the mover on the board against `o`, `m` and `o` lowered from the pieces placed
//! by the captures the other side can have made (a capture needs a mill, so at most one per
//! own placement after the second). Each part has the slots of the moving-phase table
//! `m`v`o` (`tablebase.rs`'s index: one row per least mover set, so one slot per class of the
//! 16 symmetries, a few more where a mover set is symmetric), two bits a slot.
//!
//! Placement never repeats a position, so no retrograde iteration is needed: ply 17's layer
//! is the best of each position's moves into the moving-phase tables, and each earlier layer
//! the best of its moves into the next. The draw rules are left out, as in the moving-phase
//! tables: they can only turn a result into a draw, so a draw here is a draw under any draw
//! rules, and a win here is at least a draw.

use super::board::{in_mill_at, pieces_in_mills, points, Points, ADJACENT, ALL_POINTS};
use super::tablebase::{
    decode, on_threads, rank_among_free, Layout, Tablebase, TbResult, Values, SYMMETRY,
};
use super::tablefile::{error, header_of, map_checked, write_atomically};
use super::Morris;
use crate::game::Game;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;

/// Placements in a game: nine a side.
pub const PLIES: u32 = 18;

/// The first bytes of a layer file.
const MAGIC: &[u8; 8] = b"MORRISPL";
/// The layout of a layer file's bytes.
const VERSION: u32 = 1;
/// A layer file's header: magic, version, rule set, ply, the length of the values and
/// their checksum.
pub const HEADER: u64 = 32;
/// Two-bit codes; 0 marks a slot never written (a fault, read as unknown).
const LOSS: u8 = 1;
const DRAW: u8 = 2;
const WIN: u8 = 3;
/// Bytes a thread takes at a time (64 Ki slots).
const CHUNK_BYTES: usize = 1 << 14;

/// The pieces in hand of the side to move and of the other side at `ply`.
pub fn hands(ply: u32) -> (u32, u32) {
    (9 - ply / 2, 9 - ply.div_ceil(2))
}

/// The ply of a position with these hands (side to move's, other's), if placement can
/// reach them: the mover places next, so it has as many as the other side or one more.
pub fn ply_of(mover_hand: u32, other_hand: u32) -> Option<u32> {
    (1..=9)
        .contains(&mover_hand)
        .then(|| 2 * (9 - mover_hand) + u32::from(mover_hand == other_hand + 1))
        .filter(|&ply| hands(ply) == (mover_hand, other_hand))
}

/// The materials (mover's pieces, other's pieces on the board) of the layer of `ply`.
pub fn materials(ply: u32) -> Vec<(u32, u32)> {
    let (mover_placed, other_placed) = (ply / 2, ply.div_ceil(2));
    let lowest =
        |placed: u32, taker_placed: u32| placed - taker_placed.saturating_sub(2).min(placed);
    let mut out = Vec::new();
    for m in lowest(mover_placed, other_placed)..=mover_placed {
        for o in lowest(other_placed, mover_placed)..=other_placed {
            out.push((m, o));
        }
    }
    out
}

/// One material's slots in a layer.
#[derive(Clone, Copy)]
struct Part {
    mover: u32,
    other: u32,
    /// The part's first byte in the layer's values.
    start: usize,
    /// Rows keyed by the other side's set (odd plies) or by the mover's (even plies).
    by_other: bool,
    /// The index of (key side, entry side): `Layout::new(other, mover)` when `by_other`.
    layout: Layout,
}

impl Part {
    fn bytes(&self) -> usize {
        self.layout.slots().div_ceil(4)
    }

    /// The (mover, other) sets of a slot.
    fn position_at(&self, slot: usize) -> (Points, Points) {
        let (key, entry) = self.layout.position_at(slot);
        if self.by_other {
            (entry, key)
        } else {
            (key, entry)
        }
    }
}

/// Whether the rows of the layer of `ply` are keyed by the other side's set. The layers
/// alternate, so that the positions of one row of a layer all move into one row of the
/// next (or into a few, one per point placed on): rows keyed by the side to move lead, after
/// a placement, to positions whose other side is the mover plus one piece, which index the
/// next layer by the other side; rows keyed by the other side lead to positions with that
/// side to move, which is how the next layer, and the moving-phase tables after ply 17, are
/// keyed. The builder then reads the next layer from a few hot rows instead of at random.
fn keyed_by_other(ply: u32) -> bool {
    ply % 2 == 1
}

/// The parts of the layer of `ply` and the layer's length in bytes.
fn parts(ply: u32) -> (Vec<Part>, usize) {
    parts_of(ply, materials(ply))
}

/// The parts of a layer of `ply` with these materials, in this order, and its length in
/// bytes.
fn parts_of(ply: u32, materials: Vec<(u32, u32)>) -> (Vec<Part>, usize) {
    let by_other = keyed_by_other(ply);
    let mut start = 0;
    let parts = materials
        .into_iter()
        .map(|(mover, other)| {
            let part = Part {
                mover,
                other,
                start,
                by_other,
                layout: if by_other {
                    Layout::new(other, mover)
                } else {
                    Layout::new(mover, other)
                },
            };
            start += part.bytes();
            part
        })
        .collect();
    (parts, start)
}

/// The values of every position of one ply.
pub struct Layer {
    ply: u32,
    flying: bool,
    parts: Vec<Part>,
    /// The part of each material (mover, other), `u8::MAX` where the layer has none.
    part_of: [[u8; 10]; 10],
    values: Values,
}

/// What the moves of a layer's positions lead into.
pub enum Next<'a> {
    /// The layer of the next ply.
    Placing(&'a Layer),
    /// The moving-phase tables (after the last placement).
    Moving(&'a Tablebase),
}

impl Next<'_> {
    /// Whether its rows are keyed by the other side's set.
    fn by_other(&self) -> bool {
        match self {
            Next::Placing(layer) => keyed_by_other(layer.ply),
            Next::Moving(_) => false,
        }
    }

    /// The value of any position after a placement for its side to move (`None`: a table
    /// missing).
    fn value(&self, mover: Points, other: Points) -> Option<i8> {
        let (m, o) = (mover.count_ones(), other.count_ones());
        if self.by_other() {
            let (key, entry) = SYMMETRY.canonical(other, mover);
            self.row(key, m, o)?.value(entry)
        } else {
            let (key, entry) = SYMMETRY.canonical(mover, other);
            self.row(key, m, o)?.value(entry)
        }
    }

    /// The row of the least set `key` (the mover's or the other side's, as the rows are
    /// keyed) in the material `mover`v`other`.
    fn row(&self, key: Points, mover: u32, other: u32) -> Option<Row<'_>> {
        Some(match self {
            Next::Placing(layer) => {
                let part = layer.part(mover, other)?;
                Row::Placing {
                    values: &layer.values,
                    first: part.start * 4 + part.layout.row_start(key),
                    key,
                }
            }
            Next::Moving(_) if mover < 3 => Row::Lost,
            Next::Moving(tables) => Row::Moving {
                values: match tables.table(mover, other) {
                    Some(table) => &table.values[Layout::new(mover, other).row_start(key)..],
                    None if other < 3 => &[],
                    None => return None,
                },
                mover: key,
                reach: points(key).fold(0, |acc, p| acc | ADJACENT[p]),
                flies: tables.flying() && mover == 3,
            },
        })
    }
}

/// The values of the positions of one row: one least set on the side the rows are keyed by,
/// read by the other side's set (its image under the symmetries that fix the key).
#[derive(Clone, Copy)]
enum Row<'a> {
    /// A placement layer's two-bit codes, the row starting at slot `first`.
    Placing {
        values: &'a [u8],
        first: usize,
        key: Points,
    },
    /// A moving-phase table's bytes from the row's first slot on (none when the other side has
    /// fewer than three pieces), with the points next to the mover's pieces.
    Moving {
        values: &'a [u8],
        mover: Points,
        reach: Points,
        flies: bool,
    },
    /// The side to move has fewer than three pieces and none in hand.
    Lost,
}

/// Where a position's value is: known without reading (the rules decide it), or at a slot
/// of its row's values.
enum Located {
    Value(i8),
    Slot(usize),
}

impl Row<'_> {
    /// The value for the side to move of the row's position with the canonical `entry`.
    fn value(&self, entry: Points) -> Option<i8> {
        match self.locate(entry) {
            Located::Value(value) => Some(value),
            Located::Slot(slot) => self.read(slot),
        }
    }

    /// Where the value of the row's position with the canonical `entry` is (for a
    /// moving-phase row, the other side's set).
    fn locate(&self, entry: Points) -> Located {
        let other = entry;
        match *self {
            Row::Placing { first, key, .. } => {
                Located::Slot(first + rank_among_free(entry, key) as usize)
            }
            Row::Moving {
                mover,
                reach,
                flies,
                ..
            } => {
                let empty = ALL_POINTS & !(mover | other);
                let blocked = if flies {
                    empty == 0
                } else {
                    reach & empty == 0
                };
                if blocked {
                    Located::Value(-1)
                } else if other.count_ones() < 3 {
                    // Any move leaves the other side to move with fewer than three.
                    Located::Value(1)
                } else {
                    Located::Slot(rank_among_free(other, mover) as usize)
                }
            }
            Row::Lost => Located::Value(-1),
        }
    }

    /// The value at a slot [`Row::locate`] gave (`None`: a slot never written).
    fn read(&self, slot: usize) -> Option<i8> {
        match *self {
            Row::Placing { values, .. } => match values[slot / 4] >> (2 * (slot % 4)) & 3 {
                LOSS => Some(-1),
                DRAW => Some(0),
                WIN => Some(1),
                _ => None,
            },
            Row::Moving { values, .. } => Some(match decode(values[slot]) {
                TbResult::Win(_) => 1,
                TbResult::Draw => 0,
                TbResult::Loss(_) => -1,
            }),
            Row::Lost => Some(-1),
        }
    }
}

/// The pure-rules value of a position with no pieces in hand for its side to move: the
/// rules' own verdicts (fewer than three pieces, blocked) first, then the tables (`None`
/// when the table is missing).
pub fn moving_value(tables: &Tablebase, mover: Points, other: Points) -> Option<i8> {
    Next::Moving(tables).value(mover, other)
}

/// A set's least image under the 16 symmetries and the symmetries that give it: what the
/// canonical form of every position keyed by this set needs (usually one symmetry).
#[derive(Clone, Copy)]
struct LeastImage {
    least: Points,
    symmetries: [u8; 16],
    count: usize,
}

impl LeastImage {
    fn of(set: Points) -> LeastImage {
        let mut image = LeastImage {
            least: Points::MAX,
            symmetries: [0; 16],
            count: 0,
        };
        for s in 0..16 {
            let candidate = SYMMETRY.apply(s, set);
            if candidate < image.least {
                (image.least, image.count) = (candidate, 0);
            }
            if candidate == image.least {
                image.symmetries[image.count] = s as u8;
                image.count += 1;
            }
        }
        image
    }

    /// The entry side's set in the canonical position: its least image under the
    /// symmetries that make the key's set least.
    fn entry(&self, other: Points) -> Points {
        self.symmetries[..self.count]
            .iter()
            .map(|&s| SYMMETRY.apply(s as usize, other))
            .min()
            .unwrap_or(other)
    }
}

/// Where the placements from the positions of one row of a layer lead, found once per row.
// One value per row of the layer being built, on the stack: boxing the large variant would
// allocate for every row.
#[allow(clippy::large_enum_variant)]
enum Targets<'a> {
    /// Rows keyed by the other side `O`: every quiet placement leaves `O` to move, so one row
    /// of the next layer (or table) holds them all, and each capture of a piece `t` one row
    /// of `O` without `t` to move.
    One {
        quiet: Row<'a>,
        image: LeastImage,
        taken: [Option<(Row<'a>, LeastImage)>; 24],
    },
    /// Rows keyed by the mover `M`: the placement on each point `q` leads to positions of the
    /// next layer keyed by the other side, `M` plus `q`: one row for the quiet placement and
    /// one for its captures.
    PerPoint([Option<(Row<'a>, Option<Row<'a>>, LeastImage)>; 24]),
}

impl<'a> Targets<'a> {
    /// The rows the placements of the row of `key` in `part` lead into. A capture row the
    /// next layer lacks is left out (its positions are then read one by one, which names
    /// a missing table).
    fn of(part: &Part, key: Points, next: &'a Next) -> Option<Targets<'a>> {
        let (m, o) = (part.mover, part.other);
        // A capture needs a mill: three of the mover's pieces after the placement.
        let captures = m + 1 >= 3 && o > 0;
        if part.by_other {
            let image = LeastImage::of(key);
            let quiet = next.row(image.least, o, m + 1)?;
            let mut taken = [None; 24];
            if captures {
                for t in points(key) {
                    let image = LeastImage::of(key & !(1 << t));
                    taken[t] = next.row(image.least, o - 1, m + 1).map(|row| (row, image));
                }
            }
            Some(Targets::One {
                quiet,
                image,
                taken,
            })
        } else {
            let mut rows = [None; 24];
            for to in points(ALL_POINTS & !key) {
                let image = LeastImage::of(key | 1 << to);
                let quiet = next.row(image.least, o, m + 1)?;
                let captured = if captures {
                    next.row(image.least, o - 1, m + 1)
                } else {
                    None
                };
                rows[to] = Some((quiet, captured, image));
            }
            Some(Targets::PerPoint(rows))
        }
    }

    /// Where the position after placing on `to` without a capture (the mover's pieces then
    /// `after`) is.
    fn locate(&self, to: usize, after: Points, other: Points) -> Option<Located> {
        Some(match self {
            Targets::One { quiet, image, .. } => quiet.locate(image.entry(after)),
            Targets::PerPoint(rows) => {
                let (row, _, image) = rows[to].as_ref()?;
                row.locate(image.entry(other))
            }
        })
    }

    /// The row the quiet placement on `to` leads into.
    fn row(&self, to: usize) -> Option<&Row<'a>> {
        match self {
            Targets::One { quiet, .. } => Some(quiet),
            Targets::PerPoint(rows) => rows[to].as_ref().map(|(row, _, _)| row),
        }
    }

    /// The value after placing on `to` and taking `taken`, for the side then to move, if
    /// its row was found.
    fn captured(&self, to: usize, taken: usize, after: Points, other: Points) -> Option<i8> {
        match self {
            Targets::One { taken: rows, .. } => {
                let (row, image) = rows[taken].as_ref()?;
                row.value(image.entry(after))
            }
            Targets::PerPoint(rows) => {
                let (_, row, image) = rows[to].as_ref()?;
                row.as_ref()?.value(image.entry(other & !(1 << taken)))
            }
        }
    }
}

/// The value of the position (mover, other) at `ply` from the values after each placement:
/// a loss with fewer than three pieces on the board and in hand, else the best of the
/// placements (with each capture a mill allows). `targets`: the rows the placements of the
/// position's row lead into. `None` when `next` lacks a table.
fn value_by_moves(
    ply: u32,
    mover: Points,
    other: Points,
    next: &Next,
    targets: &Targets,
) -> Option<i8> {
    if mover.count_ones() + hands(ply).0 < 3 {
        return Some(-1);
    }
    let free = other & !pieces_in_mills(other);
    let capturable = if free != 0 { free } else { other };
    let mut best = -1;
    // The quiet placements' slots are gathered first and read together: independent reads
    // overlap when they miss the caches.
    let mut reads = [(0usize, 0usize); 24];
    let mut count = 0;
    // While placing, at most 17 pieces stand on the 24 points: never blocked.
    for to in points(ALL_POINTS & !(mover | other)) {
        let after = mover | 1 << to;
        if capturable != 0 && in_mill_at(after, to) {
            for taken in points(capturable) {
                let value = match targets.captured(to, taken, after, other) {
                    Some(value) => value,
                    None => next.value(other & !(1 << taken), after)?,
                };
                best = best.max(-value);
            }
        } else {
            match targets.locate(to, after, other)? {
                Located::Value(value) => best = best.max(-value),
                Located::Slot(slot) => {
                    reads[count] = (to, slot);
                    count += 1;
                }
            }
        }
        if best == 1 {
            return Some(1);
        }
    }
    for &(to, slot) in &reads[..count] {
        best = best.max(-targets.row(to)?.read(slot)?);
    }
    Some(best)
}

impl Layer {
    fn new(ply: u32, flying: bool, parts: Vec<Part>, values: Values) -> Layer {
        let mut part_of = [[u8::MAX; 10]; 10];
        for (i, part) in parts.iter().enumerate() {
            part_of[part.mover as usize][part.other as usize] = i as u8;
        }
        Layer {
            ply,
            flying,
            parts,
            part_of,
            values,
        }
    }

    /// The materials the layer holds, in its order.
    #[cfg(test)]
    pub(super) fn materials(&self) -> Vec<(u32, u32)> {
        self.parts.iter().map(|p| (p.mover, p.other)).collect()
    }

    /// The whole layer of `ply` with the value `value(slot)` in each slot (for tests of the
    /// files).
    #[cfg(test)]
    pub(super) fn filled(ply: u32, flying: bool, value: impl Fn(usize) -> i8) -> Layer {
        let (parts, len) = parts(ply);
        let mut values = vec![0u8; len];
        for part in &parts {
            for slot in 0..part.layout.slots() {
                let at = part.start * 4 + slot;
                values[at / 4] |= ((value(slot) + 2) as u8) << (2 * (at % 4));
            }
        }
        Layer::new(ply, flying, parts, Values::Built(values))
    }

    /// The ply whose positions this layer holds.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The length of the layer of `ply` in bytes.
    pub fn bytes(ply: u32) -> u64 {
        parts(ply).1 as u64
    }

    /// The value (1 win, 0 draw, -1 loss) for the side to move of a position of this ply, by
    /// its mover's and other side's pieces; `None` for a material the layer does not hold.
    pub fn value(&self, mover: Points, other: Points) -> Option<i8> {
        Next::Placing(self).value(mover, other)
    }

    /// The part of the material (mover, other), if the layer has it.
    fn part(&self, mover: u32, other: u32) -> Option<&Part> {
        let index = *self.part_of.get(mover as usize)?.get(other as usize)?;
        self.parts.get(index as usize)
    }

    /// Builds the layer of `ply` from the values after its moves (the layer of `ply + 1`, or
    /// the moving-phase tables for ply 17) on `threads` threads, reporting the slots done.
    /// Fails with the material whose table `next` lacks, or when the memory cannot be had.
    pub fn build(
        ply: u32,
        flying: bool,
        next: &Next,
        threads: usize,
        report: &mut dyn FnMut(u64, u64),
    ) -> Result<Layer, String> {
        Layer::build_materials(ply, flying, materials(ply), next, threads, report)
    }

    /// [`Layer::build`] of some of the layer's materials only (tests build the corner of
    /// the placement phase that small tables close).
    pub(super) fn build_materials(
        ply: u32,
        flying: bool,
        materials: Vec<(u32, u32)>,
        next: &Next,
        threads: usize,
        report: &mut dyn FnMut(u64, u64),
    ) -> Result<Layer, String> {
        let (parts, len) = parts_of(ply, materials);
        let mut values = Vec::new();
        values
            .try_reserve_exact(len)
            .map_err(|_| format!("no memory for the {len} bytes of placement ply {ply}"))?;
        values.resize(len, 0);
        let total: u64 = parts.iter().map(|p| p.layout.slots() as u64).sum();
        let mut jobs = Vec::new();
        let mut rest = values.as_mut_slice();
        for part in &parts {
            let (mine, after) = rest.split_at_mut(part.bytes());
            rest = after;
            for (i, chunk) in mine.chunks_mut(CHUNK_BYTES).enumerate() {
                jobs.push((*part, i * CHUNK_BYTES * 4, chunk));
            }
        }
        jobs.reverse();
        let jobs = Mutex::new(jobs);
        let done = AtomicU64::new(0);
        let failed = AtomicBool::new(false);
        let missing = Mutex::new(None);
        let work = |report: &mut dyn FnMut(u64)| loop {
            let job = jobs.lock().unwrap_or_else(|e| e.into_inner()).pop();
            let Some((part, first, chunk)) = job else {
                break;
            };
            if failed.load(Relaxed) {
                break;
            }
            let slots = (part.layout.slots() - first).min(chunk.len() * 4);
            // The rows the placements lead into, for the row being worked on.
            let mut row: Option<(Points, Targets)> = None;
            for i in 0..slots {
                let (mover, other) = part.position_at(first + i);
                let key = if part.by_other { other } else { mover };
                if row.as_ref().is_none_or(|(k, _)| *k != key) {
                    row = Targets::of(&part, key, next).map(|targets| (key, targets));
                }
                let value = row
                    .as_ref()
                    .and_then(|(_, targets)| value_by_moves(ply, mover, other, next, targets));
                let Some(value) = value else {
                    failed.store(true, Relaxed);
                    *missing.lock().unwrap_or_else(|e| e.into_inner()) = Some((mover, other));
                    break;
                };
                chunk[i / 4] |= ((value + 2) as u8) << (2 * (i % 4));
            }
            report(done.fetch_add(slots as u64, Relaxed) + slots as u64);
        };
        on_threads(threads.max(1), &work, &mut |d| report(d, total));
        if let Some((mover, other)) = missing.into_inner().unwrap_or_else(|e| e.into_inner()) {
            let (m, o) = (mover.count_ones(), other.count_ones());
            return Err(format!(
                "placement ply {ply}: a table its moves lead into is missing ({o}v{} or, \
                 after a capture, {}v{}, from the position with {m}v{o})",
                m + 1,
                o.saturating_sub(1),
                m + 1
            ));
        }
        Ok(Layer::new(ply, flying, parts, Values::Built(values)))
    }

    /// The file of the layer of `ply` in `dir`: `morris-fly-placing-17.tb`,
    /// `morris-nofly-placing-0.tb`.
    pub fn file_name(dir: &Path, flying: bool, ply: u32) -> PathBuf {
        let kind = if flying { "fly" } else { "nofly" };
        dir.join(format!("morris-{kind}-placing-{ply}.tb"))
    }

    /// The length of the file of the layer of `ply`.
    pub fn file_len(ply: u32) -> u64 {
        HEADER + Layer::bytes(ply)
    }

    /// Writes the layer to its file in `dir` (through a temporary file, so the final name
    /// only ever holds a whole file).
    pub fn save(&self, dir: &Path) -> std::io::Result<()> {
        let values: &[u8] = &self.values;
        let holds = [u8::from(self.flying), self.ply as u8, 0, 0];
        let head = header_of(MAGIC, VERSION, holds, values);
        let path = Layer::file_name(dir, self.flying, self.ply);
        write_atomically(&path, "placement table", |file| {
            use std::io::Write;
            file.write_all(&head)?;
            file.write_all(values)
        })
    }

    /// Reads and verifies the file of the layer of `ply` for `flying` games (header, length,
    /// checksum), mapped read-only. Every failure is an error naming the file.
    pub fn read(path: &Path, flying: bool, ply: u32) -> std::io::Result<Layer> {
        let values = map_checked(
            path,
            MAGIC,
            "not a placement table file",
            Layer::file_len(ply),
            |head| {
                let version = u32::from_le_bytes(head[8..12].try_into().unwrap_or_default());
                if version != VERSION || head[14..16] != [0, 0] {
                    return Err(format!("format version {version}, not {VERSION}"));
                }
                if head[12] != u8::from(flying) || u32::from(head[13]) != ply {
                    return Err(format!(
                        "holds ply {} for flying={}, not ply {ply} for flying={flying}",
                        head[13],
                        head[12] != 0
                    ));
                }
                Ok(())
            },
        )?;
        Ok(Layer::new(ply, flying, parts(ply).0, values))
    }
}

/// What [`build_layers`] is doing, for progress lines.
pub enum LayerStep {
    /// The file of this ply verified and is used as it is.
    Reused(u32),
    /// The file of this ply did not verify (the error names it) and is built again.
    Refused(String),
    /// Building the layer of `ply`: `done` of `of` slots.
    Building { ply: u32, done: u64, of: u64 },
    /// The layer of `ply` was written: its bytes and the seconds it took.
    Written { ply: u32, bytes: u64, seconds: f64 },
}

/// Builds the placement layers of `tables`' rule set into `dir`, ply 17 down to ply 0, each
/// from the one after it (ply 17 from `tables`, which must hold every material from 3v3 to
/// 9v9), reusing the layer files that verify. Each layer is written as soon as it is built,
/// so a stopped run resumes from the last layer written. Errors name the file or table.
pub fn build_layers(
    dir: &Path,
    tables: &Tablebase,
    threads: usize,
    report: &mut dyn FnMut(LayerStep),
) -> Result<(), String> {
    let flying = tables.flying();
    let mut next: Option<Layer> = None;
    for ply in (0..PLIES).rev() {
        let path = Layer::file_name(dir, flying, ply);
        if path.exists() {
            match Layer::read(&path, flying, ply) {
                Ok(layer) => {
                    report(LayerStep::Reused(ply));
                    next = Some(layer);
                    continue;
                }
                Err(e) => {
                    report(LayerStep::Refused(e.to_string()));
                    std::fs::remove_file(&path).map_err(|e| error(&path, e).to_string())?;
                }
            }
        }
        let start = std::time::Instant::now();
        let into = match &next {
            Some(layer) => Next::Placing(layer),
            None => Next::Moving(tables),
        };
        let layer = Layer::build(ply, flying, &into, threads, &mut |done, of| {
            report(LayerStep::Building { ply, done, of })
        })?;
        layer.save(dir).map_err(|e| e.to_string())?;
        report(LayerStep::Written {
            ply,
            bytes: Layer::file_len(ply),
            seconds: start.elapsed().as_secs_f64(),
        });
        // The layer just built is what the next one's moves lead into.
        next = Some(layer);
    }
    Ok(())
}

/// What an attached directory holds for one `flying` setting: the moving-phase tables and,
/// beside them, the placement phase's layers.
pub struct Loaded {
    /// The moving-phase tables.
    pub moving: Tablebase,
    /// The placement layers by ply, where loaded.
    layers: Vec<Option<Layer>>,
}

impl Loaded {
    /// The moving-phase tables without placement layers.
    pub fn new(moving: Tablebase) -> Loaded {
        Loaded {
            moving,
            layers: (0..PLIES).map(|_| None).collect(),
        }
    }

    /// The placement layer of `ply`, if loaded.
    pub fn layer(&self, ply: u32) -> Option<&Layer> {
        self.layers.get(ply as usize)?.as_ref()
    }

    /// Adds (or replaces) a placement layer.
    pub fn insert_layer(&mut self, layer: Layer) {
        let ply = layer.ply as usize;
        self.layers[ply] = Some(layer);
    }

    /// The pure-rules value of a game position with pieces in hand for its side to move
    /// (1 win, 0 draw, -1 loss; the draw rules left out), when the layer of its ply is
    /// loaded and its `flying` setting matches. Positions whose hands placement cannot reach
    /// (set up by hand) have none.
    pub fn placing_value(&self, pos: &Morris) -> Option<i8> {
        let me = pos.side_to_move();
        let them = me.opponent();
        if pos.options().flying != self.moving.flying() {
            return None;
        }
        let ply = ply_of(u32::from(pos.in_hand(me)), u32::from(pos.in_hand(them)))?;
        self.layer(ply)?.value(pos.pieces(me), pos.pieces(them))
    }

    /// The pure-rules value of a game position for its side to move: from the placement
    /// layers while pieces are in hand, else from the moving-phase tables (and the rules
    /// where they decide).
    pub fn pure_value(&self, pos: &Morris) -> Option<i8> {
        let me = pos.side_to_move();
        let them = me.opponent();
        if pos.in_hand(me) + pos.in_hand(them) > 0 {
            return self.placing_value(pos);
        }
        (pos.options().flying == self.moving.flying())
            .then(|| moving_value(&self.moving, pos.pieces(me), pos.pieces(them)))?
    }
}
