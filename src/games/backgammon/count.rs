//! Counting the distinct plays of a roll without generating them (perft's last ply).
//!
//! While no checker can be borne off during the turn, a step's legality depends only on where
//! the mover's checkers are: whether the landing point is blocked never changes within a turn
//! (hits only empty points). Then plays can be counted from bitmasks of points:
//!
//! - A non-double `h > l`: every play using both dice either moves two checkers from `a` by `h`
//!   and from `b` by `l`, both standing there before the turn (legal in either order; distinct
//!   pairs give distinct positions unless `b = a - h` or `a = b - l`, which are one checker
//!   moving `h + l`), or moves one checker `c` by `h + l` through `c - h` or `c - l`, which
//!   are two positions exactly when both ways are open and one of them hits on the way.
//! - A double: playing its steps highest starting point first writes every play exactly once,
//!   and different sets of steps leave different positions (the steps can be read back from
//!   the difference, lowest point first), so counting those sequences counts the plays.
//!
//! Turns that may bear off fall back to generating the plays ([`movegen::plays`]).

use super::board::{Side26, BAR};
use super::movegen::{self, Roll};

/// Bit `p` stands for the mover's point `p` (25: the bar).
const POINTS: u32 = ((1 << 26) - 1) & !1;
const BAR_BIT: u32 = 1 << BAR;

/// What decides the legality of the steps of a turn, once per position.
struct Masks {
    /// Points holding a checker of the mover.
    occupied: u32,
    /// Points holding exactly one.
    singles: u32,
    /// The opponent's blots, on the mover's points.
    blots: u32,
    /// `open[d]`: points from which a step of `d` lands on a point of the board not blocked.
    open: [u32; 7],
    /// The mover's checkers outside its home board (points 7..=24 and the bar).
    outside: u32,
}

impl Masks {
    fn new(me: &Side26, them: &Side26) -> Masks {
        let (mut occupied, mut singles, mut blots, mut free) = (0, 0, 0, 0);
        for (p, &n) in me.iter().enumerate().skip(1) {
            occupied |= u32::from(n > 0) << p;
            singles |= u32::from(n == 1) << p;
        }
        for p in 1..BAR {
            blots |= u32::from(them[25 - p] == 1) << p;
            free |= u32::from(them[25 - p] < 2) << p;
        }
        let mut open = [0; 7];
        for (d, o) in open.iter_mut().enumerate().skip(1) {
            *o = (free << d) & POINTS;
        }
        let outside = me[7..=BAR].iter().map(|&n| u32::from(n)).sum();
        Masks {
            occupied,
            singles,
            blots,
            open,
            outside,
        }
    }
}

/// Counts the distinct plays over `rolls` for the mover `me` against `them`, as
/// [`movegen::plays`] would list them (a pass counts one).
pub fn count_plays(me: &Side26, them: &Side26, rolls: impl Iterator<Item = Roll>) -> u64 {
    let masks = Masks::new(me, them);
    let mut plays = Vec::new();
    rolls
        .map(|roll| {
            let counted = if roll.is_double() {
                double(me, &masks, roll.hi as usize)
            } else {
                non_double(me, &masks, roll.hi as usize, roll.lo as usize)
            };
            counted.unwrap_or_else(|| {
                plays.clear();
                movegen::plays(me, them, roll, &mut plays);
                plays.len() as u64
            })
        })
        .sum()
}

fn ones(mask: u32) -> u64 {
    u64::from(mask.count_ones())
}

/// The plays of `h > l`, or `None` when a checker might be borne off.
fn non_double(me: &Side26, m: &Masks, h: usize, l: usize) -> Option<u64> {
    let bar = me[BAR];
    if bar >= 2 {
        // Both dice enter if they can; either way one play (or the pass).
        return Some(1);
    }
    if bar == 0 && m.outside < 2 {
        return None;
    }
    let sh = m.occupied & m.open[h];
    let sl = m.occupied & m.open[l];
    // One checker moving h + l: first by h (through c - h) or first by l.
    let mut by_h = sh & (m.open[l] << h);
    let mut by_l = sl & (m.open[h] << l);
    let pairs = if bar == 1 {
        // The entering checker moves first; the other step may be by any checker.
        by_h &= BAR_BIT;
        by_l &= BAR_BIT;
        let others = |s: u32| ones(s & !BAR_BIT);
        let enter_h = ones(sh & BAR_BIT) * (others(sl) - ones(sl & (1 << (BAR - h))));
        let enter_l = ones(sl & BAR_BIT) * (others(sh) - ones(sh & (1 << (BAR - l))));
        enter_h + enter_l
    } else {
        ones(sh) * ones(sl)
            - ones(sh & sl & m.singles)
            - ones(sh & (sl << h))
            - ones(sl & (sh << l))
    };
    let hits_on_the_way = (m.blots << h) | (m.blots << l);
    let chains = ones(by_h | by_l) + ones(by_h & by_l & hits_on_the_way);
    let both = pairs + chains;
    Some(if both > 0 || bar == 1 {
        // With one checker on the bar and no play of both dice: it enters with one die
        // (the larger if it can) or the roll passes, one play either way.
        both.max(1)
    } else if sh != 0 {
        ones(sh)
    } else {
        ones(sl).max(1)
    })
}

/// The plays of the double `d`, or `None` when a checker might be borne off.
fn double(me: &Side26, m: &Masks, d: usize) -> Option<u64> {
    let bar = me[BAR] as usize;
    let open = m.open[d];
    let mut c = Checkers {
        count: *me,
        occupied: m.occupied,
        singles: m.singles,
    };
    let mut left = 4;
    if bar > 0 {
        // The bar's checkers enter first (a checker entered stays out of the home board
        // for the rest of the turn, so nothing is borne off).
        if open & BAR_BIT == 0 || bar >= 4 {
            return Some(1);
        }
        for _ in 0..bar {
            c.step(BAR, BAR - d);
        }
        left -= bar;
    } else if m.outside < 4 {
        return None;
    }
    let mut by_length = [0u64; 5];
    by_length[0] = 1;
    sequences(&c, open, d, BAR, left, &mut by_length[..=left]);
    Some(by_length.into_iter().rev().find(|&n| n > 0).unwrap_or(1))
}

/// The mover's checkers during a double's enumeration.
#[derive(Copy, Clone)]
struct Checkers {
    count: Side26,
    /// Points with a checker.
    occupied: u32,
    /// Points with exactly one.
    singles: u32,
}

impl Checkers {
    /// Moves a checker from `from` to `to`.
    fn step(&mut self, from: usize, to: usize) {
        (self.occupied, self.singles) = self.masks_after(from, to);
        self.count[from] -= 1;
        self.count[to] += 1;
    }

    /// The occupied and single points once a checker moved from `from` to `to`.
    fn masks_after(&self, from: usize, to: usize) -> (u32, u32) {
        let (f, t) = (self.count[from] - 1, self.count[to] + 1);
        let occupied = (self.occupied & !(u32::from(f == 0) << from)) | 1 << to;
        let singles = (self.singles & !(1 << from | 1 << to))
            | u32::from(f == 1) << from
            | u32::from(t == 1) << to;
        (occupied, singles)
    }
}

/// Adds to `by_length[k]` the legal sequences of `k` more steps of `d` from points at most
/// `max_from`, in non-increasing order of starting points (`by_length[0]` is this one).
fn sequences(
    c: &Checkers,
    open: u32,
    d: usize,
    max_from: usize,
    left: usize,
    by_length: &mut [u64],
) {
    let mut movable = c.occupied & open & below(max_from);
    by_length[1] += ones(movable);
    if left == 1 {
        return;
    }
    if left == 2 {
        by_length[2] += second_steps(c.occupied, c.singles, open, d, movable);
        return;
    }
    while movable != 0 {
        let p = 31 - movable.leading_zeros() as usize;
        movable &= !(1 << p);
        if left == 3 {
            // Inlined `sequences(.., left 2)`: the two last steps are counted, not walked.
            let (occupied, singles) = c.masks_after(p, p - d);
            let next = occupied & open & below(p);
            by_length[2] += ones(next);
            by_length[3] += second_steps(occupied, singles, open, d, next);
        } else {
            let mut after = *c;
            after.step(p, p - d);
            sequences(&after, open, d, p, left - 1, &mut by_length[1..]);
        }
    }
}

/// Points `1..=max_from` (and bit 0).
fn below(max_from: usize) -> u32 {
    (2 << max_from) - 1
}

/// The pairs of steps of `d`, the second from a point no higher than the first, the first
/// from a point of `movable`: for a first step from `p`, the movable points up to `p`, less
/// `p` when its last checker left, plus `p - d` when the step brought the first checker there.
fn second_steps(occupied: u32, singles: u32, open: u32, d: usize, movable: u32) -> u64 {
    let k = ones(movable);
    let opened = (open & !occupied) << d;
    k * (k + 1) / 2 - ones(movable & singles) + ones(movable & opened)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::rng::Rng;

    /// Random layouts: every checker of each side on a random point, the bar or off (more
    /// often in the home board for one side in three, to reach the bear-off), no point shared.
    fn layout(rng: &mut Rng) -> (Side26, Side26) {
        let mut sides = [[0u8; 26]; 2];
        let home = rng.below(3) == 0;
        for s in 0..2 {
            let mut placed = 0;
            while placed < 15 {
                let p = if home && s == 0 {
                    rng.below(7) as usize
                } else {
                    rng.below(26) as usize
                };
                let theirs = if (1..25).contains(&p) {
                    sides[1 - s][25 - p]
                } else {
                    0
                };
                if theirs == 0 {
                    sides[s][p] += 1;
                    placed += 1;
                }
            }
        }
        (sides[0], sides[1])
    }

    #[test]
    fn counts_equal_the_generated_plays_roll_by_roll() {
        let mut rng = Rng::new(7);
        let mut plays = Vec::new();
        for _ in 0..20_000 {
            let (me, them) = layout(&mut rng);
            for (roll, _) in Roll::all(false) {
                plays.clear();
                movegen::plays(&me, &them, roll, &mut plays);
                let counted = count_plays(&me, &them, std::iter::once(roll));
                assert_eq!(counted, plays.len() as u64, "{me:?} {them:?} {roll:?}");
            }
        }
    }

    /// Perft's last ply equals the moves listed in every state of random cube games with
    /// beavers: before and after the roll, with a double offered and once the game is over.
    #[test]
    fn perft_one_counts_the_listed_moves_in_cube_games() {
        use super::super::Backgammon;
        use crate::game::{Dice, Game};
        let options = Backgammon::parse_options(&[("cube", "on"), ("beaver", "on")]).unwrap();
        let mut rng = Rng::new(11);
        let (mut moves, mut events) = (Vec::new(), Vec::new());
        for _ in 0..40 {
            let mut pos = Backgammon::start(&options);
            loop {
                moves.clear();
                pos.legal_moves(&mut moves);
                assert_eq!(pos.perft(1), moves.len() as u64, "{}", pos.to_fen());
                if pos.outcome().is_some() {
                    break;
                }
                events.clear();
                pos.chance_events(&mut events);
                // Act before the roll half the time when a move (the double) is allowed.
                if !events.is_empty() && (moves.is_empty() || rng.below(2) == 0) {
                    pos.apply_chance(events[rng.below(events.len() as u64) as usize].event);
                } else {
                    pos.play(moves[rng.below(moves.len() as u64) as usize]);
                }
            }
        }
    }
}
