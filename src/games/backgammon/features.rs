//! The network's inputs: the raw board in Tesauro's encoding plus a few expert features.
//!
//! Everything is from white's side. Per side and point 1..=24 four units (at least 1, 2, 3
//! checkers, half the count beyond 3), its bar / 2 and its borne-off checkers / 15 (2 x 98);
//! two units for the side to move; then per side its pip count / 100, the chance (of 36
//! rolls) that the opponent hits one of its blots, its longest prime / 6; and a contact flag.
//! The expert units carry what a small network learns slowly from the raw board alone: the
//! race, the risk of being hit and the strength of a blockade.

use super::board::{in_contact, pips, Side26, BAR, OFF};
use super::Backgammon;
use crate::game::{Game, Side};

/// Input units.
pub const INPUTS: usize = 205;
/// First expert unit: three per side, then the contact flag.
const EXPERT: usize = 198;

/// The active inputs of a position as (index, value) pairs (most inputs are zero).
pub fn encode(pos: &Backgammon, out: &mut Vec<(usize, f32)>) {
    out.clear();
    let white = pos.checkers(Side::White);
    let black = pos.checkers(Side::Black);
    let contact = in_contact(white, black);
    for (s, (me, them)) in [(white, black), (black, white)].into_iter().enumerate() {
        raw_side(me, s * 98, out);
        let at = EXPERT + 3 * s;
        out.push((at, pips(me) as f32 / 100.0));
        if contact {
            let shots = hit_chance(me, them);
            if shots > 0.0 {
                out.push((at + 1, shots));
            }
        }
        let prime = longest_prime(me);
        if prime > 1 {
            out.push((at + 2, prime as f32 / 6.0));
        }
    }
    out.push((196 + pos.side_to_move().index(), 1.0));
    if contact {
        out.push((EXPERT + 6, 1.0));
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

/// The most consecutive points `side` holds with two or more checkers.
pub fn longest_prime(side: &Side26) -> u32 {
    let (mut best, mut run) = (0, 0);
    for &n in &side[1..25] {
        run = if n >= 2 { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

/// The fraction of the 36 rolls with which `them` can hit at least one blot of `me`.
///
/// A shot travels by one die, both dice (through a landing point `me` does not hold) or, on a
/// double, up to four steps of it. While `them` has checkers on the bar only shots from the
/// bar count (the entering checker must come in first). Hits on the way of a combined shot
/// count too. An estimate for the network, not a rule check: bear-off limits do not apply in
/// contact, and a second checker on the bar stopping the other die is ignored.
pub fn hit_chance(me: &Side26, them: &Side26) -> f32 {
    // `them`'s point r is the blot's point 25 - r; `me` blocks r when it holds 25 - r.
    let blocked = |r: usize| me[25 - r] >= 2;
    let mut pairs: Vec<(usize, usize)> = Vec::new(); // (shooter point, distance)
    let shooters: Vec<usize> = if them[BAR] > 0 {
        vec![BAR]
    } else {
        (1..25).filter(|&q| them[q] > 0).collect()
    };
    for p in (1..25).filter(|&p| me[p] == 1) {
        for &q in &shooters {
            // The blot stands on `them`'s point 25 - p.
            if q + p > 25 {
                pairs.push((q, q + p - 25));
            }
        }
    }
    if pairs.is_empty() {
        return 0.0;
    }
    let mut hits = 0u32;
    for a in 1..=6usize {
        for b in a..=6usize {
            let weight = if a == b { 1 } else { 2 };
            let hit = pairs.iter().any(|&(q, dist)| {
                if a == b {
                    (1..=4)
                        .any(|k| k * a == dist && (1..k).all(|i| q > i * a && !blocked(q - i * a)))
                } else {
                    dist == a
                        || dist == b
                        || (dist == a + b
                            && ((q > a && !blocked(q - a)) || (q > b && !blocked(q - b))))
                }
            });
            if hit {
                hits += weight;
            }
        }
    }
    hits as f32 / 36.0
}
