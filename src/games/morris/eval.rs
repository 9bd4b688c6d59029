//! Static evaluation and move ordering, phase-aware.
//!
//! Terms, each White minus Black then seen from the side to move: material (board + hand),
//! complete mills, open lines (two pieces and an empty point), mill threats that can really be
//! closed next turn, double mills (a piece that steps out of one mill into another), mobility
//! and blocked pieces in the moving phase, and the junction points while placing.

use super::board::{in_mill_at, points, Points, ADJACENT, MILLS};
use super::movegen::Phase;
use super::{Morris, Move};
use crate::game::Side;

const PIECE: i32 = 400;
const MILL: i32 = 40;
const OPEN_LINE_PLACING: i32 = 35;
const THREAT: i32 = 70;
const DOUBLE_MILL: i32 = 160;
const MOBILITY: i32 = 6;
const BLOCKED_PIECE: i32 = 12;
/// Centre-of-side points with four neighbours, worth more while placing.
const JUNCTION: i32 = 8;
/// A side to move that will be blocked on its turn has lost; short of the search seeing it,
/// score it as nearly lost.
const NO_MOBILITY: i32 = 3000;

/// The empty points where `own` would complete a mill (two pieces of a line plus the point).
pub fn mill_points(own: Points, empty: Points) -> Points {
    MILLS
        .iter()
        .filter(|&&m| (own & m).count_ones() == 2 && (empty & m).count_ones() == 1)
        .fold(0, |acc, &m| acc | (m & empty))
}

/// Evaluation from the side to move's view.
pub fn evaluate(pos: &Morris) -> i32 {
    let me = pos.side;
    let score = side_score(pos, me) - side_score(pos, me.opponent());
    score.clamp(-90_000, 90_000)
}

fn side_score(pos: &Morris, side: Side) -> i32 {
    let own = pos.pieces(side);
    let empty = pos.empty();
    let mut score = PIECE * pos.piece_count(side) as i32;
    score += MILL * MILLS.iter().filter(|&&m| own & m == m).count() as i32;
    let open = mill_points(own, empty);
    match pos.phase(side) {
        Phase::Placing => {
            score += OPEN_LINE_PLACING * open.count_ones() as i32;
            score += JUNCTION
                * points(own)
                    .filter(|&p| ADJACENT[p].count_ones() == 4)
                    .count() as i32;
        }
        Phase::Moving => {
            let mut mobility = 0;
            let mut blocked = 0;
            for p in points(own) {
                let steps = (ADJACENT[p] & empty).count_ones() as i32;
                mobility += steps;
                blocked += i32::from(steps == 0);
            }
            score += MOBILITY * mobility - BLOCKED_PIECE * blocked;
            if mobility == 0 {
                score -= NO_MOBILITY;
            }
            // A threat counts only if a piece outside the line can step in.
            let threats = points(open)
                .filter(|&e| {
                    points(ADJACENT[e] & own).any(|p| in_mill_at((own & !(1 << p)) | (1 << e), e))
                })
                .count() as i32;
            score += THREAT * threats;
            score += DOUBLE_MILL * double_mills(own, empty) as i32;
        }
        Phase::Flying => {
            // Any piece can fly in, so every open line is a threat; two cannot both be
            // blocked.
            let threats = open.count_ones() as i32;
            score += THREAT * 2 * threats;
        }
    }
    score
}

/// Pieces that can step out of a complete mill into a point that completes another one.
fn double_mills(own: Points, empty: Points) -> u32 {
    let mut count = 0;
    for &m in MILLS.iter().filter(|&&m| own & m == m) {
        for p in points(m) {
            let rest = own & !(1 << p);
            count += points(ADJACENT[p] & empty)
                .filter(|&e| in_mill_at(rest | (1 << e), e))
                .count() as u32;
        }
    }
    count
}

/// Captures first (taking pieces that threaten a mill best), then blocks of the opponent's
/// threats, then moves that make a line of two.
pub fn move_order_hint(pos: &Morris, mv: Move) -> i32 {
    let me = pos.side;
    let own = pos.pieces(me);
    let theirs = pos.pieces(me.opponent());
    let empty = pos.empty();
    let mut hint = 0;
    let their_open = mill_points(theirs, empty);
    if mv.is_capture() {
        hint += 10_000;
        let c = mv.capture as usize;
        // Taking a piece of an open line of theirs removes a threat.
        let after = theirs & !(1 << c);
        hint += 300
            * (their_open.count_ones() as i32
                - mill_points(after, empty | (1 << c)).count_ones() as i32);
        hint += (ADJACENT[c] & empty).count_ones() as i32 * 10;
    }
    if their_open >> mv.to & 1 == 1 {
        hint += 2_000;
    }
    let after = pos.own_after(mv);
    let new_empty = (empty & !(1 << mv.to))
        | if mv.from == super::NO_POINT {
            0
        } else {
            1 << mv.from
        };
    hint += 100 * mill_points(after, new_empty).count_ones() as i32
        - 100 * mill_points(own, empty).count_ones() as i32;
    hint
}
