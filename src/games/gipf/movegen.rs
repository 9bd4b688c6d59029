//! Moves: removal choices before the push, the push, removal choices after it; generation with
//! one entry per distinct (push, resulting position).

use super::geometry::{PUSHES, SEGMENT_TABLE};
use super::Gipf;
use crate::game::Side;

/// The most removal choices one phase can hold: each removes at least four of the 37 spots.
pub const MAX_CHOICES: usize = 9;

/// A sequence of removal choices, each the segment number of the chosen run.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Choices {
    runs: [u8; MAX_CHOICES],
    len: u8,
}

impl Choices {
    /// The chosen runs in order.
    pub fn as_slice(&self) -> &[u8] {
        &self.runs[..self.len as usize]
    }

    /// Whether no choice is written.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The sequence with `run` appended, or `None` when full.
    pub fn with(mut self, run: u8) -> Option<Choices> {
        if (self.len as usize) < MAX_CHOICES {
            self.runs[self.len as usize] = run;
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
    /// Choices written after the push.
    pub after: Choices,
}

/// Every way `side` can clear its rows from `pos`: (choices, position after). Contested rows
/// branch on the owner's choice; everything is looked at again after each choice.
pub(crate) fn resolutions(pos: &Gipf, side: Side, out: &mut Vec<(Choices, Gipf)>) {
    fn go(mut pos: Gipf, side: Side, made: Choices, out: &mut Vec<(Choices, Gipf)>) {
        let contested = pos.remove_uncontested(side);
        if contested.as_slice().is_empty() {
            out.push((made, pos));
            return;
        }
        for row in contested.as_slice() {
            let mut next = pos;
            next.remove_run(side, SEGMENT_TABLE[row.run as usize].mask);
            if let Some(made) = made.with(row.run) {
                go(next, side, made, out);
            }
        }
    }
    go(*pos, side, Choices::default(), out);
}

impl Gipf {
    /// Plays `mv` without checks: choices before, push, choices after, then the opponent's
    /// uncontested rows.
    pub(crate) fn apply(&mut self, mv: Move) {
        let mover = self.to_move;
        for &run in mv.before.as_slice() {
            self.remove_chosen(mover, run as usize);
        }
        self.remove_uncontested(mover);
        self.apply_push(mv.push as usize, mover);
        for &run in mv.after.as_slice() {
            self.remove_chosen(mover, run as usize);
        }
        self.remove_uncontested(mover);
        self.finish_turn(mover);
    }

    /// Appends every distinct legal move. A move is its push plus the position it leads to:
    /// choice sequences reaching the same position are one move, spelt the byte-smallest way.
    pub(crate) fn generate(&self, out: &mut Vec<Move>) {
        let mover = self.to_move;
        let mut starts = Vec::new();
        if self.has_row(mover) {
            resolutions(self, mover, &mut starts);
        } else {
            // The common case: nothing waits, and most pushes make no row of the mover's.
            for push in 0..PUSHES {
                if self.push_is_legal(push) {
                    let mut pushed = *self;
                    pushed.apply_push(push, mover);
                    if pushed.has_row(mover) {
                        starts.push((Choices::default(), *self));
                        break;
                    }
                }
            }
            if starts.is_empty() {
                out.extend(
                    (0..PUSHES)
                        .filter(|&p| self.push_is_legal(p))
                        .map(|p| Move {
                            before: Choices::default(),
                            push: p as u8,
                            after: Choices::default(),
                        }),
                );
                return;
            }
        }
        let mut ends = Vec::new();
        let mut candidates: Vec<(Move, Gipf)> = Vec::new();
        for push in 0..PUSHES {
            candidates.clear();
            for (before, start) in &starts {
                if !start.push_is_legal(push) {
                    continue;
                }
                let mut pushed = *start;
                pushed.apply_push(push, mover);
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
                        after,
                    };
                    candidates.push((mv, end));
                }
            }
            if candidates.len() == 1 {
                out.push(candidates[0].0);
            } else {
                self.push_distinct(&candidates, out);
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
