//! Static evaluation and move ordering, phase-aware.
//!
//! The score is a weighted sum of counts ([`terms`], [`WEIGHTS`]), each White's minus Black's
//! then seen from the side to move: men (board + hand), men in hand once more, complete mills,
//! open lines (the empty points that complete a line of two), and per phase: while placing,
//! the junction points, liberties (empty points next to one's men) and boxed-in men; while
//! moving, mobility with a growing penalty as it runs out, blocked men, mill threats that a
//! man from off the line can really close, double mills (a man that steps out of one mill
//! into another) and running mills (a mill a man can open and close again before the opponent
//! can step into the gap); while flying, every open line is a threat. Some terms belong to one
//! side: a placing opponent with one open line to block, and with two or more (one of them
//! closes); a moving opponent with two or more threats; each side's fork points while placing
//! (a placement there makes two lines of two); and the move itself (tempo), while placing and
//! after. The weights are fitted to game results by `morris-tune` (docs/morris.md).

use super::board::{in_mill_at, points, Points, ADJACENT, MILLS, MILLS_THROUGH};
use super::lines::mills_and_open;
use super::movegen::Phase;
use super::{Morris, Move, NO_POINT};
use crate::game::Side;

/// How many terms the evaluation weighs.
pub const TERMS: usize = 24;

const MEN: usize = 0;
const MILL: usize = 1;
const PLACING_GAPS: usize = 2;
const JUNCTION_MEN: usize = 3;
const BOXED_MEN: usize = 4;
const LIBERTIES: usize = 5;
const STEPS: usize = 6;
const BLOCKED_MEN: usize = 7;
/// `STEPS_LEFT + n`: a side in the moving phase with only n (0-3) steps left: one or two
/// opponent moves from being blocked, which loses.
const STEPS_LEFT: usize = 8;
const THREATS: usize = 12;
const DOUBLE_MILLS: usize = 13;
const RUNNING_MILLS: usize = 14;
const FLYING_GAPS: usize = 15;
const ONE_GAP_AGAINST: usize = 16;
const GAPS_AGAINST: usize = 17;
/// The side to move is placing / moving (or flying): the move in hand.
const TEMPO_PLACING: usize = 18;
const TEMPO_MOVING: usize = 19;
const IN_HAND: usize = 20;
/// Empty points where a placement makes two lines of two at once (a fork next turn), the
/// mover's and the opponent's.
const FORKS_OWN: usize = 21;
const FORKS_AGAINST: usize = 22;
/// A moving opponent with two or more mill threats: one of them closes.
const THREATS_AGAINST: usize = 23;

/// The terms' names, in the order of [`WEIGHTS`] (what `morris-tune` reports).
pub const TERM_NAMES: [&str; TERMS] = [
    "men",
    "mills",
    "placing-gaps",
    "junction-men",
    "boxed-men",
    "liberties",
    "steps",
    "blocked-men",
    "no-step",
    "one-step",
    "two-steps",
    "three-steps",
    "threats",
    "double-mills",
    "running-mills",
    "flying-gaps",
    "one-gap-against",
    "gaps-against",
    "tempo-placing",
    "tempo-moving",
    "men-in-hand",
    "forks-own",
    "forks-against",
    "threats-against",
];

/// The weight of each term; a man is 400. Fitted by `morris-tune` (docs/morris.md, seventh
/// round), then rounded.
pub const WEIGHTS: [i32; TERMS] = [
    400, -62, 164, 7, -54, 72, 43, -35, -3000, -412, -183, -65, 333, 97, 140, 140, 44, -87, 26, 41,
    171, 93, -85, -18,
];

/// Terms `morris-tune` leaves as they are: the scale (a man), and a blocked side, which
/// has lost (the search sees that as a result, not as a score).
pub const FIXED_TERMS: [usize; 2] = [MEN, STEPS_LEFT];

/// Evaluation from the side to move's view.
pub fn evaluate(pos: &Morris) -> i32 {
    let counts = terms(pos);
    let score: i32 = (0..TERMS).map(|i| WEIGHTS[i] * counts[i]).sum();
    score.clamp(-90_000, 90_000)
}

/// The counts the evaluation weighs, from the side to move's view: the side to move's minus
/// the opponent's, and the terms that belong to one side (the opponent's open lines while it
/// places, its threats while it moves, each side's fork points, the tempo).
pub fn terms(pos: &Morris) -> [i32; TERMS] {
    let me = pos.side;
    let mut counts = [0; TERMS];
    let mine = side_terms(pos, me, 1, &mut counts);
    let against = side_terms(pos, me.opponent(), -1, &mut counts);
    if pos.phase(me.opponent()) == Phase::Placing {
        match against.open.count_ones() {
            0 => {}
            1 => counts[ONE_GAP_AGAINST] = 1,
            _ => counts[GAPS_AGAINST] = 1,
        }
    }
    counts[FORKS_OWN] = mine.forks;
    counts[FORKS_AGAINST] = against.forks;
    counts[THREATS_AGAINST] = i32::from(against.threats >= 2);
    let tempo = if pos.phase(me) == Phase::Placing {
        TEMPO_PLACING
    } else {
        TEMPO_MOVING
    };
    counts[tempo] = 1;
    counts
}

/// What the one-sided terms need to know of a side's lines.
#[derive(Default)]
struct Lines {
    /// The empty points that complete a line of two.
    open: Points,
    /// Fork points while placing.
    forks: i32,
    /// Mill threats while moving.
    threats: i32,
}

/// Adds `sign` times `side`'s counts.
fn side_terms(pos: &Morris, side: Side, sign: i32, counts: &mut [i32; TERMS]) -> Lines {
    let own = pos.pieces(side);
    let theirs = pos.pieces(side.opponent());
    let empty = pos.empty();
    let mut add = |term: usize, n: i32| counts[term] += sign * n;
    add(MEN, pos.piece_count(side) as i32);
    add(IN_HAND, i32::from(pos.in_hand(side)));
    let (mills, open) = mills_and_open(own, empty);
    add(MILL, mills as i32);
    let mut lines = Lines {
        open,
        ..Lines::default()
    };
    match pos.phase(side) {
        Phase::Placing => {
            add(PLACING_GAPS, open.count_ones() as i32);
            let mut liberties = 0;
            for p in points(own) {
                let free = ADJACENT[p] & empty;
                liberties |= free;
                add(JUNCTION_MEN, i32::from(ADJACENT[p].count_ones() == 4));
                add(BOXED_MEN, i32::from(free == 0));
            }
            add(LIBERTIES, liberties.count_ones() as i32);
            lines.forks = fork_points(own, theirs, empty);
        }
        Phase::Moving => {
            let mut mobility = 0;
            let mut blocked = 0;
            for p in points(own) {
                let steps = (ADJACENT[p] & empty).count_ones() as i32;
                mobility += steps;
                blocked += i32::from(steps == 0);
            }
            add(STEPS, mobility);
            add(BLOCKED_MEN, blocked);
            if mobility <= 3 {
                add(STEPS_LEFT + mobility as usize, 1);
            }
            // A threat counts only if a piece outside the line can step in.
            lines.threats = points(open)
                .filter(|&e| {
                    points(ADJACENT[e] & own).any(|p| in_mill_at((own & !(1 << p)) | (1 << e), e))
                })
                .count() as i32;
            add(THREATS, lines.threats);
            let (double, running) = mill_play(own, theirs, empty);
            add(DOUBLE_MILLS, double as i32);
            add(RUNNING_MILLS, running as i32);
        }
        Phase::Flying => {
            // Any piece can fly in, so every open line is a threat; two cannot both be
            // blocked.
            add(FLYING_GAPS, open.count_ones() as i32);
        }
    }
    lines
}

/// Empty points on two lines that each hold one man of `own` and no man of `theirs`.
fn fork_points(own: Points, theirs: Points, empty: Points) -> i32 {
    points(empty)
        .filter(|&p| {
            MILLS_THROUGH[p]
                .iter()
                .all(|&m| (own & m).count_ones() == 1 && theirs & m == 0)
        })
        .count() as i32
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
