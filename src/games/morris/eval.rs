//! Static evaluation and move ordering, phase-aware.
//!
//! Terms, each White minus Black then seen from the side to move: men (board + hand),
//! complete mills, open lines (two men and an empty point), and per phase: while placing, the
//! junction points, liberties (empty points next to one's men) and boxed-in men; while moving,
//! mobility with a growing penalty as it runs out, blocked men, mill threats that a man from
//! off the line can really close, double mills (a man that steps out of one mill into another)
//! and running mills (a mill a man can open and close again before the opponent can step into
//! the gap); while flying, every open line is a threat.

use super::board::{in_mill_at, points, Points, ADJACENT, MILLS, MILLS_THROUGH};
use super::lines::mills_and_open;
use super::movegen::Phase;
use super::{Morris, Move, NO_POINT};
use crate::game::Side;

const PIECE: i32 = 400;
const MILL: i32 = 40;
const OPEN_LINE_PLACING: i32 = 35;
const THREAT: i32 = 70;
const DOUBLE_MILL: i32 = 160;
const RUNNING_MILL: i32 = 200;
const MOBILITY: i32 = 30;
const BLOCKED_PIECE: i32 = 50;
/// Extra penalty for a side in the moving phase with only 1, 2 or 3 steps left: one or two
/// opponent moves from being blocked, which loses.
const LOW_MOBILITY: [i32; 4] = [0, 400, 180, 70];
/// Empty points next to one's men while placing: room to move once the hands are empty.
const LIBERTY: i32 = 8;
/// A man with no empty neighbour while placing: boxed in before the moving phase starts.
const BOXED_PIECE: i32 = 25;
/// Centre-of-side points with four neighbours, worth more while placing.
const JUNCTION: i32 = 8;
/// A side that will be blocked on its turn has lost; short of the search seeing it, score it
/// as nearly lost.
const NO_MOBILITY: i32 = 3000;

/// Evaluation from the side to move's view.
pub fn evaluate(pos: &Morris) -> i32 {
    let me = pos.side;
    let score = side_score(pos, me) - side_score(pos, me.opponent());
    score.clamp(-90_000, 90_000)
}

fn side_score(pos: &Morris, side: Side) -> i32 {
    let own = pos.pieces(side);
    let theirs = pos.pieces(side.opponent());
    let empty = pos.empty();
    let mut score = PIECE * pos.piece_count(side) as i32;
    let (mills, open) = mills_and_open(own, empty);
    score += MILL * mills as i32;
    match pos.phase(side) {
        Phase::Placing => {
            score += OPEN_LINE_PLACING * open.count_ones() as i32;
            let mut liberties = 0;
            for p in points(own) {
                let free = ADJACENT[p] & empty;
                liberties |= free;
                score += JUNCTION * i32::from(ADJACENT[p].count_ones() == 4);
                score -= BOXED_PIECE * i32::from(free == 0);
            }
            score += LIBERTY * liberties.count_ones() as i32;
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
            score -= match mobility {
                0 => NO_MOBILITY,
                1..=3 => LOW_MOBILITY[mobility as usize],
                _ => 0,
            };
            // A threat counts only if a piece outside the line can step in.
            let threats = points(open)
                .filter(|&e| {
                    points(ADJACENT[e] & own).any(|p| in_mill_at((own & !(1 << p)) | (1 << e), e))
                })
                .count() as i32;
            score += THREAT * threats;
            let (double, running) = mill_play(own, theirs, empty);
            score += DOUBLE_MILL * double as i32 + RUNNING_MILL * running as i32;
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

/// Men that can step out of a complete mill into a point that completes another one (double
/// mills), and men that can step out of a mill to a point from which they return next turn
/// while no opposing man stands next to the gap to fill it (running mills).
fn mill_play(own: Points, theirs: Points, empty: Points) -> (u32, u32) {
    let (mut double, mut running) = (0, 0);
    for &m in MILLS.iter().filter(|&&m| own & m == m) {
        for p in points(m) {
            let rest = own & !(1 << p);
            let exits = ADJACENT[p] & empty;
            if exits == 0 {
                continue;
            }
            double += points(exits)
                .filter(|&e| in_mill_at(rest | (1 << e), e))
                .count() as u32;
            running += u32::from(ADJACENT[p] & theirs == 0);
        }
    }
    (double, running)
}

/// The mills through `point` that `owner` holds two points of, the third being empty.
fn open_lines_through(owner: Points, empty: Points, point: usize) -> u32 {
    MILLS_THROUGH[point]
        .iter()
        .filter(|&&m| (owner & m).count_ones() == 2 && empty & m != 0)
        .count() as u32
}

/// Captures first (taking a man of an open line of theirs best, then a mobile one), then
/// blocks of the opponent's open lines, then moves that make a line of two.
pub fn move_order_hint(pos: &Morris, mv: Move) -> i32 {
    let me = pos.side;
    let theirs = pos.pieces(me.opponent());
    let empty = pos.empty();
    let to = mv.to as usize;
    let mut hint = 0;
    if mv.is_capture() {
        let c = mv.capture as usize;
        hint += 10_000 + 300 * open_lines_through(theirs, empty, c) as i32;
        hint += (ADJACENT[c] & empty).count_ones() as i32 * 10;
    }
    // The gap of a line of two of theirs: stepping or placing there blocks it.
    hint += 2_000 * open_lines_through(theirs, empty, to).min(1) as i32;
    let after = pos.own_after(mv);
    let new_empty = empty & !(1 << to) | if mv.from == NO_POINT { 0 } else { 1 << mv.from };
    // Lines of two with an empty third that the move makes.
    let made = MILLS_THROUGH[to]
        .iter()
        .filter(|&&m| (after & m).count_ones() == 2 && new_empty & m != 0)
        .count() as i32;
    hint + 100 * made
}
