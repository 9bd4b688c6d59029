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

use super::board::{check_step, Side26, OFF};
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
        rank += binomial(before + i, i + 1);
    }
    rank
}

/// The home points of a side (`None` unless every checker left is home).
pub fn home(side: &Side26) -> Option<[u8; POINTS]> {
    if side[POINTS + 1..].iter().any(|&n| n > 0) {
        return None;
    }
    let mut h = [0u8; POINTS];
    h.copy_from_slice(&side[1..=POINTS]);
    Some(h)
}

/// Every layout reachable by playing `roll` (both orders of the dice, all four steps of a
/// double), as distinct home layouts.
fn successors(from: &[u8; POINTS], roll: Roll, out: &mut Vec<[u8; POINTS]>) {
    out.clear();
    let mut side: Side26 = [0; 26];
    side[1..=POINTS].copy_from_slice(from);
    side[OFF] = (CHECKERS - from.iter().map(|&n| n as usize).sum::<usize>()) as u8;
    let empty: Side26 = [0; 26];
    let dice: &[&[u8]] = if roll.is_double() {
        &[&[roll.hi; 4]]
    } else {
        &[&[roll.hi, roll.lo], &[roll.lo, roll.hi]]
    };
    for order in dice {
        play(&mut side, &empty, order, roll.is_double(), POINTS, out);
    }
    out.sort_unstable();
    out.dedup();
}

/// Plays `dice` one step at a time on `side`, pushing each finished layout. The steps of a
/// double start from non-increasing points (`top`), which covers all its plays.
fn play(
    side: &mut Side26,
    empty: &Side26,
    dice: &[u8],
    double: bool,
    top: usize,
    out: &mut Vec<[u8; POINTS]>,
) {
    let Some((&die, rest)) = dice.split_first() else {
        out.push(home(side).unwrap_or_default());
        return;
    };
    if side[OFF] as usize == CHECKERS {
        out.push([0; POINTS]);
        return;
    }
    for from in (1..=top).rev() {
        if side[from] == 0 {
            continue;
        }
        if let Ok(to) = check_step(side, empty, from, die as usize) {
            side[from] -= 1;
            side[to] += 1;
            play(
                side,
                empty,
                rest,
                double,
                if double { from } else { POINTS },
                out,
            );
            side[to] -= 1;
            side[from] += 1;
        }
    }
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

/// Builds a table: `done` says which layouts need no more rolls, and only layouts for which
/// `wanted` holds are filled (their successors must be wanted or done).
fn build(
    order: &[[u8; POINTS]],
    done: impl Fn(&[u8; POINTS]) -> bool,
    wanted: impl Fn(&[u8; POINTS]) -> bool,
) -> Vec<Rolls> {
    let mut table = vec![[0f32; MAX_ROLLS]; LAYOUTS];
    let mut means = vec![0f32; LAYOUTS];
    let mut next = Vec::new();
    for h in order {
        let i = index(h);
        if done(h) {
            table[i][0] = 1.0;
            continue;
        }
        if !wanted(h) {
            continue;
        }
        let mut dist = [0f32; MAX_ROLLS];
        for (roll, chance) in Roll::all(false) {
            successors(h, roll, &mut next);
            let best = next
                .iter()
                .map(index)
                .min_by(|&a, &b| means[a].total_cmp(&means[b]))
                .expect("a home layout always has a play");
            for n in 1..MAX_ROLLS {
                dist[n] += chance as f32 * table[best][n - 1];
            }
            // The last bucket keeps what would fall beyond it (never reached in practice).
            dist[MAX_ROLLS - 1] += chance as f32 * table[best][MAX_ROLLS - 1];
        }
        means[i] = mean(&dist);
        table[i] = dist;
    }
    table
}

/// The tables, built on first use (a fraction of a second).
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
