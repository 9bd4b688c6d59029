//! Moves: removal choices before the push, the push, removal choices after it; generation with
//! one entry per distinct (push, resulting position).

use super::geometry::SEGMENT_TABLE;
use super::grid::{has_four, near_rows, to_grid, GRID_PUSHES};
use super::Gipf;
use crate::game::Side;

/// The most removal choices one phase can hold: each removes at least four of the 37 spots
/// (fewer when GIPF-pieces stay, which only happens in games far from any real one).
pub const MAX_CHOICES: usize = 9;

/// A sequence of removal choices: each the segment number of the chosen run and the
/// GIPF-pieces it keeps (bit i = the i-th spot of the run in point order).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Choices {
    runs: [u8; MAX_CHOICES],
    keeps: [u8; MAX_CHOICES],
    len: u8,
}

/// The spots of `mask` picked by `bits` (bit i = the i-th set bit of `mask`).
fn spread(mask: u64, bits: u8) -> u64 {
    let mut out = 0;
    let mut rest = mask;
    let mut i = 0;
    while rest != 0 {
        let low = rest & rest.wrapping_neg();
        if bits & (1 << i) != 0 {
            out |= low;
        }
        rest ^= low;
        i += 1;
    }
    out
}

/// The inverse of [`spread`]: which set bits of `mask` the spots `spots` are.
fn gather(mask: u64, spots: u64) -> u8 {
    let mut out = 0;
    let mut rest = mask;
    let mut i = 0;
    while rest != 0 {
        let low = rest & rest.wrapping_neg();
        if spots & low != 0 {
            out |= 1 << i;
        }
        rest ^= low;
        i += 1;
    }
    out
}

impl Choices {
    /// The chosen runs in order, each with the spots of the GIPF-pieces it keeps.
    pub fn iter(&self) -> impl Iterator<Item = (usize, u64)> + '_ {
        let n = self.len as usize;
        self.runs[..n]
            .iter()
            .zip(&self.keeps[..n])
            .map(|(&run, &keep)| {
                let run = run as usize;
                (run, spread(SEGMENT_TABLE[run].mask, keep))
            })
    }

    /// Whether no choice is written.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The sequence with run `run` keeping the spots `keep` appended, or `None` when full.
    pub fn with(mut self, run: usize, keep: u64) -> Option<Choices> {
        if (self.len as usize) < MAX_CHOICES {
            self.runs[self.len as usize] = run as u8;
            self.keeps[self.len as usize] = gather(SEGMENT_TABLE[run].mask, keep);
            self.len += 1;
            Some(self)
        } else {
            None
        }
    }
}

/// One turn: the choices of the mover's waiting rows, its push, then the choices among the rows
/// it made.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Choices written before the push (rows the opponent's last push left waiting).
    pub before: Choices,
    /// The push, an index into [`super::geometry::PUSH_TABLE`].
    pub push: u8,
    /// Whether the piece pushed in is a GIPF-piece (tournament game, `G` before the dot).
    pub gipf_piece: bool,
    /// Choices written after the push.
    pub after: Choices,
}

/// Every way `side` can clear its rows from `pos`: (choices, position after). Rows needing a
/// decision branch on which run goes and on which of its GIPF-pieces stay; everything is
/// looked at again after each choice.
pub(crate) fn resolutions(pos: &Gipf, side: Side, out: &mut Vec<(Choices, Gipf)>) {
    fn go(mut pos: Gipf, side: Side, made: Choices, out: &mut Vec<(Choices, Gipf)>) {
        let due = pos.remove_free(side);
        if due.as_slice().is_empty() {
            out.push((made, pos));
            return;
        }
        for row in due.as_slice() {
            let mask = SEGMENT_TABLE[row.run as usize].mask;
            let gipf = mask & pos.gipf;
            // Every subset of the run's GIPF-pieces, the empty one last.
            let mut keep = gipf;
            loop {
                if pos.keep_is_allowed(side, mask, keep) {
                    let mut next = pos;
                    next.remove_run(side, mask, keep);
                    if let Some(made) = made.with(row.run as usize, keep) {
                        go(next, side, made, out);
                    }
                }
                if keep == 0 {
                    break;
                }
                keep = (keep - 1) & gipf;
            }
        }
    }
    go(*pos, side, Choices::default(), out);
}

/// Where the generator puts its moves: a list, or a count for perft's last ply (which then
/// skips building the moves and their spellings).
trait MoveSink {
    /// Takes one move.
    fn add(&mut self, mv: Move);

    /// Takes one move per push of `legal` (bit i = push i), no choices, the kind of piece
    /// given.
    fn add_pushes(&mut self, legal: u64, gipf_piece: bool);

    /// Takes one move per distinct resulting position among `candidates` (all of one push
    /// from `pos`).
    fn add_distinct(&mut self, pos: &Gipf, candidates: &[(Move, Gipf)]);
}

impl MoveSink for Vec<Move> {
    fn add(&mut self, mv: Move) {
        self.push(mv);
    }

    fn add_pushes(&mut self, legal: u64, gipf_piece: bool) {
        let mut rest = legal;
        while rest != 0 {
            self.push(Move {
                before: Choices::default(),
                push: rest.trailing_zeros() as u8,
                gipf_piece,
                after: Choices::default(),
            });
            rest &= rest - 1;
        }
    }

    fn add_distinct(&mut self, pos: &Gipf, candidates: &[(Move, Gipf)]) {
        pos.push_distinct(candidates, self);
    }
}

/// A [`MoveSink`] that only counts.
#[derive(Default)]
struct MoveCount(u64);

impl MoveSink for MoveCount {
    fn add(&mut self, _: Move) {
        self.0 += 1;
    }

    fn add_pushes(&mut self, legal: u64, _: bool) {
        self.0 += legal.count_ones() as u64;
    }

    fn add_distinct(&mut self, _: &Gipf, candidates: &[(Move, Gipf)]) {
        let ends = |i: usize| candidates[i].1;
        self.0 += (0..candidates.len())
            .filter(|&i| (0..i).all(|j| ends(j) != ends(i)))
            .count() as u64;
    }
}

/// Which pieces `side` may push in from `pos` (after its choices before the push): a single
/// piece, a GIPF-piece. A side that may still bring GIPF-pieces in but has none on the board
/// must bring one (the tournament game's first move).
fn piece_kinds(pos: &Gipf, side: Side) -> [bool; 2] {
    let reserve = pos.reserve[side.index()];
    if !pos.may_bring(side) {
        return [reserve >= 1, false];
    }
    [reserve >= 1 && pos.gipf_count(side) > 0, reserve >= 2]
}

impl Gipf {
    /// Plays `mv` without checks: choices before, push, choices after, then the opponent's
    /// rows that need no decision.
    pub(crate) fn apply(&mut self, mv: Move) {
        let mover = self.to_move;
        for (run, keep) in mv.before.iter() {
            self.remove_chosen(mover, run, keep);
        }
        self.clear_free(mover);
        self.apply_push(mv.push as usize, mover, mv.gipf_piece);
        if !mv.gipf_piece {
            // The first single piece ends the bringing in of GIPF-pieces.
            self.may_bring &= !(1 << mover.index());
        }
        for (run, keep) in mv.after.iter() {
            self.remove_chosen(mover, run, keep);
        }
        self.clear_free(mover);
        self.finish_turn(mover);
    }

    /// The legal pushes, one bit each, when they are the whole story: no row of the mover's
    /// waits and no legal push makes one, so every legal push (of each kind of piece the mover
    /// may bring) is exactly one move without choices. `None` otherwise.
    fn quiet_pushes(&self) -> Option<u64> {
        let mover = self.to_move;
        let own = to_grid(self.pieces[mover.index()]);
        if has_four(own) {
            return None;
        }
        let occupied = to_grid(self.occupied());
        let near = near_rows(own);
        let mut legal = 0u64;
        for (push, grid_push) in GRID_PUSHES.iter().enumerate() {
            if grid_push.line & !occupied == 0 {
                continue;
            }
            legal |= 1 << push;
            if grid_push.line & near != 0 && grid_push.pushed(own, occupied).is_some_and(has_four) {
                return None;
            }
        }
        Some(legal)
    }

    /// How many moves [`Gipf::generate`] would append, without building them.
    pub(crate) fn count_moves(&self) -> u64 {
        let mut count = MoveCount::default();
        self.generate_into(&mut count);
        count.0
    }

    /// Appends every distinct legal move. A move is its push plus the position it leads to:
    /// choice sequences reaching the same position are one move, spelt the byte-smallest way.
    pub(crate) fn generate(&self, out: &mut Vec<Move>) {
        self.generate_into(out);
    }

    /// [`Gipf::generate`] into any sink.
    #[inline]
    fn generate_into<S: MoveSink>(&self, out: &mut S) {
        let mover = self.to_move;
        let mut starts = Vec::new();
        if let Some(legal) = self.quiet_pushes() {
            // The common case: nothing waits and no push makes a row of the mover's
            // (whichever kind of piece goes in). Without GIPF-pieces to bring in (every basic
            // and standard position) only single pieces go in, and the reserve is not empty
            // (or the game is over).
            if self.may_bring == 0 {
                out.add_pushes(legal, false);
            } else {
                let kinds = piece_kinds(self, mover);
                // GIPF-pieces first: `G` sorts before every other first byte of a move.
                for gipf_piece in [true, false] {
                    if kinds[gipf_piece as usize] {
                        out.add_pushes(legal, gipf_piece);
                    }
                }
            }
            return;
        }
        if self.has_row(mover) {
            resolutions(self, mover, &mut starts);
        } else {
            starts.push((Choices::default(), *self));
        }
        let mut ends = Vec::new();
        let mut candidates: Vec<(Move, Gipf)> = Vec::new();
        // With one start, a push making no row of the mover's is one move with no choices
        // after it, whatever it does to the opponent: no need to play it out.
        let lone = match starts.as_slice() {
            [(before, start)] => Some((
                *before,
                piece_kinds(start, mover),
                to_grid(start.pieces[mover.index()]),
                to_grid(start.occupied()),
            )),
            _ => None,
        };
        // GIPF-pieces first: `G` sorts before every other first byte of a move.
        for gipf_piece in [true, false] {
            for (push, grid_push) in GRID_PUSHES.iter().enumerate() {
                if let Some((before, kinds, own, occupied)) = lone {
                    let Some(after) = grid_push.pushed(own, occupied) else {
                        continue;
                    };
                    if !kinds[gipf_piece as usize] {
                        continue;
                    }
                    if !has_four(after) {
                        out.add(Move {
                            before,
                            push: push as u8,
                            gipf_piece,
                            after: Choices::default(),
                        });
                        continue;
                    }
                }
                candidates.clear();
                for (before, start) in &starts {
                    if !piece_kinds(start, mover)[gipf_piece as usize] || !start.push_is_legal(push)
                    {
                        continue;
                    }
                    let mut pushed = *start;
                    pushed.apply_push(push, mover, gipf_piece);
                    if !gipf_piece {
                        pushed.may_bring &= !(1 << mover.index());
                    }
                    ends.clear();
                    if pushed.has_row(mover) {
                        resolutions(&pushed, mover, &mut ends);
                    } else {
                        ends.push((Choices::default(), pushed));
                    }
                    for (after, mut end) in ends.drain(..) {
                        end.finish_turn(mover);
                        let mv = Move {
                            before: *before,
                            push: push as u8,
                            gipf_piece,
                            after,
                        };
                        candidates.push((mv, end));
                    }
                }
                if candidates.len() == 1 {
                    out.add(candidates[0].0);
                } else {
                    out.add_distinct(self, &candidates);
                }
            }
        }
    }

    /// Keeps one move per resulting position among `candidates` (all of one push), the one with
    /// the byte-smallest spelling.
    fn push_distinct(&self, candidates: &[(Move, Gipf)], out: &mut Vec<Move>) {
        let mut kept: Vec<(String, Move, Gipf)> = Vec::new();
        for &(mv, end) in candidates {
            let spelling = self.spell(mv);
            match kept.iter_mut().find(|(_, _, e)| *e == end) {
                Some(entry) if spelling < entry.0 => *entry = (spelling, mv, end),
                Some(_) => {}
                None => kept.push((spelling, mv, end)),
            }
        }
        kept.sort_by(|a, b| a.0.cmp(&b.0));
        out.extend(kept.into_iter().map(|(_, mv, _)| mv));
    }
}
