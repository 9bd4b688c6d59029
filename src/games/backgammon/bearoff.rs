//! An exact one-sided bear-off database, computed by the engine itself on first use.
//!
//! For every layout of up to 15 checkers on the six home points (54,264 of them) it holds the
//! distribution of the number of rolls needed to bear them all off, playing each roll to
//! minimise the expected number of rolls; for the layouts of all 15 checkers (nobody off yet)
//! also the distribution of the rolls needed to bear off the first one, played to minimise
//! that (the play that saves a gammon). When both sides have every checker home the two
//! sides race independently, so these give the exact chances of winning, of winning a gammon
//! and of losing one ([`outputs`]), up to the small gap between minimising the expected rolls
//! and maximising the winning chance.

use super::board::{Side26, OFF};
use super::movegen::Roll;
use std::sync::OnceLock;

/// Checkers per side.
const CHECKERS: usize = 15;
/// Home points.
const POINTS: usize = 6;
/// Distributions are kept up to this many rolls (each roll moves at least 3 pips of at most
/// 90, so 30 rolls always finish).
const MAX_ROLLS: usize = 32;
/// Layouts of up to 15 checkers on 6 points: C(21, 6).
const LAYOUTS: usize = 54_264;

/// A distribution over the number of rolls: `p[n]` is the chance of needing exactly `n`.
type Rolls = [f32; MAX_ROLLS];

/// The two tables.
struct Tables {
    /// Rolls to bear off every checker, by [`index`].
    all_off: Vec<Rolls>,
    /// Rolls to bear off the first checker, by [`index`] (only layouts of 15 checkers).
    first_off: Vec<Rolls>,
}

/// C(n, k) for the small numbers of the index.
const fn binomial(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let mut r = 1;
    let mut i = 0;
    while i < k {
        r = r * (n - i) / (i + 1);
        i += 1;
    }
    r
}

/// The layout's number in 0..LAYOUTS: the six home points' counts and the borne-off rest are
/// 15 checkers split into 7 groups, numbered by the combinatorial number system on the
/// positions of the six separators among 21 slots.
fn index(home: &[u8; POINTS]) -> usize {
    let (mut rank, mut before) = (0, 0);
    for (i, &n) in home.iter().enumerate() {
        before += n as usize;
        rank += BINOMIALS[before + i][i + 1];
    }
    rank
}

/// `BINOMIALS[n][k]` = C(n, k) for the index (n < 21, k <= 6).
static BINOMIALS: [[usize; POINTS + 1]; CHECKERS + POINTS] = {
    let mut t = [[0; POINTS + 1]; CHECKERS + POINTS];
    let mut n = 0;
    while n < CHECKERS + POINTS {
        let mut k = 0;
        while k <= POINTS {
            t[n][k] = binomial(n, k);
            k += 1;
        }
        n += 1;
    }
    t
};

/// The home points of a side (`None` unless every checker left is home).
pub fn home(side: &Side26) -> Option<[u8; POINTS]> {
    if side[POINTS + 1..].iter().any(|&n| n > 0) {
        return None;
    }
    let mut h = [0u8; POINTS];
    h.copy_from_slice(&side[1..=POINTS]);
    Some(h)
}

/// The layouts one die `d` can leave (a checker moved down `d` points or borne off: from
/// its own point, or from the highest occupied point when the die is larger), written into
/// `out`; returns how many.
fn die_moves(h: &[u8; POINTS], d: usize, out: &mut [[u8; POINTS]; POINTS]) -> usize {
    let highest = (1..=POINTS).rev().find(|&p| h[p - 1] > 0).unwrap_or(0);
    let mut n = 0;
    for p in 1..=POINTS {
        if h[p - 1] == 0 || (p < d && p != highest) {
            continue;
        }
        let mut c = *h;
        c[p - 1] -= 1;
        if p > d {
            c[p - d - 1] += 1;
        }
        out[n] = c;
        n += 1;
    }
    n
}

/// Every layout, ordered by pip count (a play always lowers it).
fn layouts_by_pips() -> Vec<[u8; POINTS]> {
    let mut all = Vec::with_capacity(LAYOUTS);
    let mut h = [0u8; POINTS];
    fn fill(h: &mut [u8; POINTS], at: usize, left: u8, all: &mut Vec<[u8; POINTS]>) {
        if at == POINTS {
            all.push(*h);
            return;
        }
        for n in 0..=left {
            h[at] = n;
            fill(h, at + 1, left - n, all);
        }
        h[at] = 0;
    }
    fill(&mut h, 0, CHECKERS as u8, &mut all);
    let pips = |h: &[u8; POINTS]| -> usize {
        h.iter()
            .enumerate()
            .map(|(i, &n)| (i + 1) * n as usize)
            .sum()
    };
    all.sort_by_key(pips);
    all
}

/// The mean of a distribution.
fn mean(d: &Rolls) -> f32 {
    d.iter().enumerate().map(|(n, p)| n as f32 * p).sum()
}

/// The best end (lowest mean rolls, its index) of `k + 1` more steps of die `d + 1` from a
/// layout: `[d][k]`.
type StepBest = [[(f32, u32); 4]; POINTS];

/// Builds a table: `done` says which layouts need no more rolls, and only layouts for which
/// `wanted` holds are filled (the layouts they lead to must be wanted or done). Each roll is
/// played to the end with the lowest mean; the best end of k steps of one die is kept per
/// layout, so a roll costs a few lookups in the layouts one die leaves.
fn build(
    order: &[[u8; POINTS]],
    done: impl Fn(&[u8; POINTS]) -> bool,
    wanted: impl Fn(&[u8; POINTS]) -> bool,
) -> Vec<Rolls> {
    let mut table = vec![[0f32; MAX_ROLLS]; LAYOUTS];
    let mut means = vec![0f32; LAYOUTS];
    let mut step_best: Vec<StepBest> = vec![[[(0.0, 0); 4]; POINTS]; LAYOUTS];
    let mut moves = [[0u8; POINTS]; POINTS];
    // The layouts each die leaves from the current one, by index.
    let mut children = [[0usize; POINTS]; POINTS];
    let mut counts = [0usize; POINTS];
    let better = |a: (f32, u32), b: (f32, u32)| if b.0 < a.0 { b } else { a };
    for h in order {
        let i = index(h);
        if done(h) {
            table[i][0] = 1.0;
            step_best[i] = [[(0.0, i as u32); 4]; POINTS];
            continue;
        }
        if !wanted(h) {
            continue;
        }
        for d in 1..=POINTS {
            let n = die_moves(h, d, &mut moves);
            counts[d - 1] = n;
            for (slot, m) in children[d - 1].iter_mut().zip(&moves[..n]) {
                *slot = index(m);
            }
            let mut best = [(f32::INFINITY, 0u32); 4];
            for &c in &children[d - 1][..n] {
                best[0] = better(best[0], (means[c], c as u32));
                for k in 1..4 {
                    best[k] = better(best[k], step_best[c][d - 1][k - 1]);
                }
            }
            step_best[i][d - 1] = best;
        }
        let mut dist = [0f32; MAX_ROLLS];
        for (roll, chance) in Roll::all(false) {
            let (hi, lo) = (roll.hi as usize, roll.lo as usize);
            let best = if hi == lo {
                step_best[i][hi - 1][3]
            } else {
                let mut best = (f32::INFINITY, 0);
                for (first, second) in [(hi, lo), (lo, hi)] {
                    for &c in &children[first - 1][..counts[first - 1]] {
                        best = better(best, step_best[c][second - 1][0]);
                    }
                }
                best
            };
            let end = &table[best.1 as usize];
            for n in 1..MAX_ROLLS {
                dist[n] += chance as f32 * end[n - 1];
            }
            // The last bucket keeps what would fall beyond it (never reached in practice).
            dist[MAX_ROLLS - 1] += chance as f32 * end[MAX_ROLLS - 1];
        }
        means[i] = mean(&dist);
        table[i] = dist;
    }
    table
}

/// Builds the tables now (when the network is loaded, at the first evaluation), so that
/// no later search, deep in a game and perhaps short of time, pays for them.
pub fn prepare() {
    tables();
}

/// The tables, built on first use (about 60 ms of CPU).
fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let order = layouts_by_pips();
        let count = |h: &[u8; POINTS]| h.iter().map(|&n| n as usize).sum::<usize>();
        Tables {
            all_off: build(&order, |h| count(h) == 0, |_| true),
            first_off: build(&order, |h| count(h) < CHECKERS, |h| count(h) == CHECKERS),
        }
    })
}

/// The distribution of the rolls `side` needs to bear off (all home).
pub fn rolls_to_finish(home: &[u8; POINTS]) -> &'static Rolls {
    &tables().all_off[index(home)]
}

/// The chance that a distribution needs at least `n` rolls.
fn at_least(d: &Rolls, n: usize) -> f32 {
    d[n.min(MAX_ROLLS)..].iter().sum()
}

/// The five network outputs (win, win gammon, win backgammon, lose gammon, lose backgammon)
/// for the side to move `me` against `them`, exact when every checker of both is home (and
/// neither has finished); `None` otherwise.
pub fn outputs(me: &Side26, them: &Side26) -> Option<[f32; 5]> {
    let (mine, theirs) = (home(me)?, home(them)?);
    if me[OFF] as usize == CHECKERS || them[OFF] as usize == CHECKERS {
        return None;
    }
    let t = tables();
    let (my_all, their_all) = (&t.all_off[index(&mine)], &t.all_off[index(&theirs)]);
    // The side to move rolls first: it wins when it needs no more rolls than the other.
    let win: f32 = (1..MAX_ROLLS)
        .map(|n| my_all[n] * at_least(their_all, n))
        .sum();
    // A gammon: one side finishes before the other's first checker is off.
    let win_gammon = if them[OFF] == 0 {
        let first = &t.first_off[index(&theirs)];
        (1..MAX_ROLLS).map(|n| my_all[n] * at_least(first, n)).sum()
    } else {
        0.0
    };
    let lose_gammon = if me[OFF] == 0 {
        let first = &t.first_off[index(&mine)];
        (1..MAX_ROLLS)
            .map(|n| their_all[n] * at_least(first, n + 1))
            .sum()
    } else {
        0.0
    };
    Some([win, win_gammon, 0.0, lose_gammon, 0.0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_numbers_every_layout_once() {
        let order = layouts_by_pips();
        assert_eq!(order.len(), LAYOUTS);
        assert_eq!(binomial(21, 6), LAYOUTS);
        let mut seen = vec![false; LAYOUTS];
        for h in &order {
            let i = index(h);
            assert!(!seen[i]);
            seen[i] = true;
        }
    }

    #[test]
    fn small_bear_offs_by_hand() {
        let t = |h: [u8; 6]| rolls_to_finish(&h);
        // One checker on the 6 point: one roll unless the dice total less than 6 (11, 21,
        // 31, 41, 32: 9 of 36); then it is on 1..=5 and the next roll takes it off.
        let one = t([0, 0, 0, 0, 0, 1]);
        assert!((one[1] - 27.0 / 36.0).abs() < 1e-6);
        assert!((one[2] - 9.0 / 36.0).abs() < 1e-6);
        // Two checkers on the 1 point: one roll. Two on the 6 point: only 66, 55, 44 and 33
        // (a double of at least 3) take both off at once, 4 of 36.
        assert!((t([2, 0, 0, 0, 0, 0])[1] - 1.0).abs() < 1e-6);
        assert!((t([0, 0, 0, 0, 0, 2])[1] - 4.0 / 36.0).abs() < 1e-6);
        // Three on the 1 point: a double takes all (6 of 36), else two rolls.
        let three = t([3, 0, 0, 0, 0, 0]);
        assert!((three[1] - 6.0 / 36.0).abs() < 1e-6);
        // Every distribution sums to 1.
        for h in layouts_by_pips().iter().step_by(97) {
            let total: f32 = t(*h).iter().sum();
            assert!((total - 1.0).abs() < 1e-4, "{h:?} {total}");
        }
    }
}
