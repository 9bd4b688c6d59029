//! The network's inputs: the raw board in Tesauro's encoding plus expert features.
//!
//! Everything is from the side to move's view: its checkers first, then the opponent's, so a
//! position and its colour-swapped twin have the same inputs and every training position
//! teaches both colours. Per side and point 1..=24 four units (at least 1, 2, 3 checkers,
//! half the count beyond 3), its bar / 2 and its borne-off checkers / 15 (2 x 98); then per
//! side [`PER_SIDE`] expert units ([`expert_side`]) and a contact flag. The expert units
//! carry what a small network learns slowly from the raw board alone: the race, the risk of
//! being hit and what it costs, blockades and how well a back checker can escape them,
//! anchors, and the chance of staying on the bar.

use super::board::{highest_point, in_contact, pips, Side26, BAR, OFF};
use super::Backgammon;
use crate::game::Game;

/// Expert units per side.
pub const PER_SIDE: usize = 8;
/// First expert unit: [`PER_SIDE`] for the side to move, as many for the opponent.
const EXPERT: usize = 196;
/// Input units: the raw board, the expert units and the contact flag.
pub const INPUTS: usize = EXPERT + 2 * PER_SIDE + 1;

/// The active inputs of a position as (index, value) pairs (most inputs are zero).
pub fn encode(pos: &Backgammon, out: &mut Vec<(usize, f32)>) {
    out.clear();
    let mover = pos.side_to_move();
    let me = pos.checkers(mover);
    let them = pos.checkers(mover.opponent());
    let contact = in_contact(me, them);
    for (s, (a, b)) in [(me, them), (them, me)].into_iter().enumerate() {
        raw_side(a, s * 98, out);
        let at = EXPERT + PER_SIDE * s;
        for (i, v) in expert_side(a, b, contact).into_iter().enumerate() {
            if v != 0.0 {
                out.push((at + i, v));
            }
        }
    }
    if contact {
        out.push((INPUTS - 1, 1.0));
    }
}

/// Tesauro's 98 units of one side, from `base`.
fn raw_side(c: &Side26, base: usize, out: &mut Vec<(usize, f32)>) {
    for (p, &n) in c.iter().enumerate().take(25).skip(1) {
        let at = base + (p - 1) * 4;
        if n >= 1 {
            out.push((at, 1.0));
        }
        if n >= 2 {
            out.push((at + 1, 1.0));
        }
        if n >= 3 {
            out.push((at + 2, 1.0));
        }
        if n > 3 {
            out.push((at + 3, (n - 3) as f32 / 2.0));
        }
    }
    if c[BAR] > 0 {
        out.push((base + 96, c[BAR] as f32 / 2.0));
    }
    if c[OFF] > 0 {
        out.push((base + 97, c[OFF] as f32 / 15.0));
    }
}

/// The expert units of side `me` against `them`: pips / 100; the chance its blots are hit
/// and the pips that costs on average / 12; its longest prime / 6; how trapped its rearmost
/// checker is (the share of the 36 rolls that do not get it past the opponent's points in
/// front); how well it contains the opponent (the same for the best-escaping opposing checker
/// on the opponent's points 15..=24); its most advanced anchor in the opponent's half; the
/// chance it stays on the bar. The contact-only units are 0 in a race.
pub fn expert_side(me: &Side26, them: &Side26, contact: bool) -> [f32; PER_SIDE] {
    let mut x = [0f32; PER_SIDE];
    x[0] = pips(me) as f32 / 100.0;
    x[3] = longest_prime(me) as f32 / 6.0;
    if !contact {
        return x;
    }
    let shots = shots(me, them);
    x[1] = shots.chance;
    x[2] = shots.pip_loss / 12.0;
    x[4] = 1.0 - escapes(them, highest_point(me)) as f32 / 36.0;
    let mine = held(me);
    let best_escape = (15..=24).map(|q| escapes_past(mine, q)).max().unwrap_or(36);
    x[5] = 1.0 - best_escape as f32 / 36.0;
    x[6] = (13..=24)
        .rev()
        .find(|&p| me[p] >= 2)
        .map_or(0.0, |p| (p - 12) as f32 / 12.0);
    if me[BAR] > 0 {
        let closed = them[1..=6].iter().filter(|&&n| n >= 2).count() as f32;
        x[7] = (closed / 6.0) * (closed / 6.0);
    }
    x
}

/// The most consecutive points `side` holds with two or more checkers.
pub fn longest_prime(side: &Side26) -> u32 {
    let (mut best, mut run) = (0, 0);
    for &n in &side[1..25] {
        run = if n >= 2 { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// How many of the 36 rolls let a checker on point `p` (in its own numbering, the bar is 25)
/// get past every point `blockers` holds among the 12 in front of it, moving by whole dice
/// through open points only. A checker with nothing in front of it escapes with every roll.
pub fn escapes(blockers: &Side26, p: usize) -> u32 {
    escapes_past(held(blockers), p)
}

/// The points (in the other side's numbering, shifted up by 12) that `side` holds with two
/// or more checkers: bit `t + 12` for the other side's point `t`, so that the 12 points in
/// front of any point are one window of bits.
fn held(side: &Side26) -> u64 {
    (1..25)
        .filter(|&t| side[25 - t] >= 2)
        .fold(0, |mask, t| mask | 1 << (t + 12))
}

/// [`escapes`] from the [`held`] mask of the blockers.
fn escapes_past(held: u64, p: usize) -> u32 {
    // Bit j of the window: the point 12 - j pips in front of `p`.
    ESCAPES[((held >> p) & 0xfff) as usize] as u32
}

/// [`escapes`] for every window of the 12 points in front of the checker (bit `j`: the point
/// `12 - j` pips ahead is held).
static ESCAPES: [u8; 4096] = {
    let mut table = [0u8; 4096];
    let mut window = 0;
    while window < 4096 {
        // The same points as a mask with bit d - 1 for the point d pips ahead.
        let mask = (window as u32).reverse_bits() >> 20;
        table[window] = escape_rolls(mask);
        window += 1;
    }
    table
};

/// The rolls (of 36) escaping a block `mask` (bit d-1: the point d pips ahead is held).
const fn escape_rolls(mask: u32) -> u8 {
    // Past the block: further than its farthest held point.
    let last = 32 - mask.leading_zeros();
    let mut count = 0;
    let mut a = 1;
    while a <= 6 {
        let mut b = 1;
        while b <= 6 {
            let escaped = if a == b {
                let mut k = 1;
                let mut ok = false;
                while k <= 4 && is_open(mask, k * a) {
                    if k * a > last {
                        ok = true;
                    }
                    k += 1;
                }
                ok
            } else {
                (is_open(mask, a) && (a > last || (is_open(mask, a + b) && a + b > last)))
                    || (is_open(mask, b) && (b > last || (is_open(mask, a + b) && a + b > last)))
            };
            if escaped {
                count += 1;
            }
            b += 1;
        }
        a += 1;
    }
    count
}

/// Whether the point `d` pips ahead is free in the block `mask` (of the 12 points ahead).
const fn is_open(mask: u32, d: u32) -> bool {
    d > 12 || mask & (1 << (d - 1)) == 0
}

/// The opponent's shots at one side's blots.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Shots {
    /// The fraction of the 36 rolls that hit at least one blot.
    pub chance: f32,
    /// The pips a hit sets the side back, averaged over the 36 rolls (the farthest-advanced
    /// blot a roll can hit).
    pub pip_loss: f32,
}

/// The shots `them` has at `me`'s blots.
///
/// A shot travels by one die, both dice (through a landing point `me` does not hold) or, on a
/// double, up to four steps of it. While `them` has checkers on the bar only shots from the
/// bar count (the entering checker must come in first). Hits on the way of a combined shot
/// count too. An estimate for the network, not a rule check: bear-off limits do not apply in
/// contact, and a second checker on the bar stopping the other die is ignored.
pub fn shots(me: &Side26, them: &Side26) -> Shots {
    // Bit r: `me` holds `them`'s point r (its own point 25 - r).
    let blocked = (held(me) >> 12) as u32;
    // One pass over the points: `me`'s blots, `them`'s occupied points.
    let (mut blots, mut occupied) = (0u32, 0u32);
    for p in 1..25 {
        blots |= u32::from(me[p] == 1) << p;
        occupied |= u32::from(them[p] > 0) << p;
    }
    // Shooters stand on `them`'s points (only the bar while `them` has checkers there).
    let shooters = if them[BAR] > 0 { 1u32 << BAR } else { occupied };
    // The rolls hitting some blot so far, one bit per [high die - 1][low die - 1]; blots are
    // taken from the costliest (the lowest point) up, so a roll's first hit is its worst.
    let (mut covered, mut loss) = (0u64, 0u32);
    while blots != 0 {
        let p = blots.trailing_zeros() as usize;
        blots &= blots - 1;
        // The blot stands on `them`'s point t = 25 - p; shooters 1..=24 pips behind it, and
        // the points between, u pips above the blot, blocked where `ahead` has bit u.
        let t = 25 - p;
        let ahead = blocked >> t;
        let mut behind = shooters & !((2u32 << t) - 1);
        let mut rolls = 0u64;
        while behind != 0 {
            let q = behind.trailing_zeros() as usize;
            behind &= behind - 1;
            rolls |= HITS[q - t].rolls(ahead);
        }
        loss += t as u32 * weight(rolls & !covered);
        covered |= rolls;
    }
    Shots {
        chance: weight(covered) as f32 / 36.0,
        pip_loss: loss as f32 / 36.0,
    }
}

/// The bit of the roll `hi`, `lo` (`hi >= lo`) in a set of rolls.
const fn roll_bit(hi: usize, lo: usize) -> u64 {
    1 << ((hi - 1) * 6 + (lo - 1))
}

/// The doubles among the rolls.
const DOUBLES: u64 = {
    let (mut mask, mut d) = (0, 1);
    while d <= 6 {
        mask |= roll_bit(d, d);
        d += 1;
    }
    mask
};

/// How many of the 36 rolls a set of rolls stands for (non-doubles come two ways).
fn weight(rolls: u64) -> u32 {
    (rolls & DOUBLES).count_ones() + 2 * (rolls & !DOUBLES).count_ones()
}

/// The rolls that hit a blot some pips ahead of a shooter, as masks of the points between
/// them (bit u: the point u pips above the blot, the shooter's side of it): one die needs no
/// landing point, two dice either of theirs, two to four steps of a double every one of
/// theirs. A table, built once, in the inputs' hottest loop.
#[derive(Copy, Clone)]
struct Hits {
    /// The rolls with a die of the distance.
    direct: u64,
    /// (roll, its two landing points): hits unless both are blocked.
    either: [(u64, u32); 3],
    /// (double, its landing points): hits if none is blocked.
    every: [(u64, u32); 3],
}

impl Hits {
    const NONE: Hits = Hits {
        direct: 0,
        either: [(0, 0); 3],
        every: [(0, 0); 3],
    };

    /// The hitting rolls, `blocked` holding bit u where the point u pips above the blot is
    /// held by the blot's side. (An unused slot has no roll, so it adds nothing.)
    fn rolls(&self, blocked: u32) -> u64 {
        let mut rolls = self.direct;
        for &(roll, points) in &self.either {
            if points & !blocked != 0 {
                rolls |= roll;
            }
        }
        for &(roll, points) in &self.every {
            if points & blocked == 0 {
                rolls |= roll;
            }
        }
        rolls
    }
}

/// `HITS[dist]`: the hitting rolls of a shooter `dist` pips (1..=24) behind a blot.
static HITS: [Hits; 25] = {
    let mut table = [Hits::NONE; 25];
    let mut dist = 1;
    while dist <= 24 {
        let mut hits = Hits::NONE;
        if dist <= 6 {
            let mut other = 1;
            while other <= 6 {
                let (hi, lo) = if dist > other {
                    (dist, other)
                } else {
                    (other, dist)
                };
                hits.direct |= roll_bit(hi, lo);
                other += 1;
            }
        }
        let (mut either, mut every) = (0, 0);
        let mut a = 1;
        while a <= 6 {
            // Two dice a < b: the landing points are a and b pips above the blot too.
            let b = dist.wrapping_sub(a);
            if dist > a && b > a && b <= 6 {
                hits.either[either] = (roll_bit(b, a), 1 << a | 1 << b);
                either += 1;
            }
            // k steps of the double a: landing points a, 2a, .. (k - 1)a above the blot.
            let mut k = 2;
            while k <= 4 {
                if k * a == dist {
                    let (mut points, mut j) = (0u32, 1);
                    while j < k {
                        points |= 1 << (j * a);
                        j += 1;
                    }
                    hits.every[every] = (roll_bit(a, a), points);
                    every += 1;
                }
                k += 1;
            }
            a += 1;
        }
        table[dist] = hits;
        dist += 1;
    }
    table
};
