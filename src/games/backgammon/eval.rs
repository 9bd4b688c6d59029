//! The hand-written evaluation, the Zobrist hash and the move-ordering hint.
//!
//! Scores are equity in thousandths of a point from the side to move's view ([`POINT`] = one
//! point). A position is first scored in "pips" (the race lead plus what the structure is
//! worth), then turned into a winning chance with a logistic curve whose width grows with the
//! pips left, as a race's spread does.

use super::board::{self, Side26, BAR, OFF};
use super::movegen::Move;
use super::Backgammon;
use crate::game::{Game, Side};
use crate::util::rng::splitmix64 as splitmix;

/// One point of equity in evaluation units.
pub const POINT: i32 = 1000;

/// What being on roll is worth in a race, in pips (about half an average roll).
const ROLL_PIPS: f32 = 4.0;

/// Value of owning each point (index = own point number), in pips: the home board points
/// near the 5 and the bar point matter most.
const POINT_VALUE: [f32; 25] = [
    0.0, 1.0, 2.0, 4.0, 6.0, 7.0, 6.0, 5.0, 3.0, 1.5, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 2.0,
    3.0, 4.0, 4.0, 3.0, 2.0, 1.5,
];

/// The heuristic evaluation (`eval=heuristic`).
pub fn heuristic(pos: &Backgammon) -> i32 {
    let mover = pos.side_to_move();
    let me = pos.checkers(mover);
    let them = pos.checkers(mover.opponent());
    let my_pips = effective_pips(me);
    let their_pips = effective_pips(them);
    let avg = ((my_pips + their_pips) / 2.0).max(1.0);
    let lead = their_pips - my_pips + ROLL_PIPS;
    let (score, spread) = if board::in_contact(me, them) {
        let structure = structure(me, them, true) - structure(them, me, false);
        (lead + structure, 2.2 * avg.sqrt() + 6.0)
    } else {
        (lead, 1.5 * avg.sqrt() + 1.0)
    };
    let win = 1.0 / (1.0 + (-1.7 * score / spread).exp());
    ((2.0 * win - 1.0) * POINT as f32) as i32
}

/// Pips still to travel, plus the waste of bearing off many checkers from low points:
/// a roll takes at most two checkers off, so a crowded home board cannot use big numbers.
pub(crate) fn effective_pips(side: &Side26) -> f32 {
    let pips = board::pips(side) as f32;
    let checkers = board::in_play(side) as f32;
    pips.max(checkers * 4.1) + checkers * 0.5
}

/// What `me`'s structure is worth against `them`, in pips. `on_roll`: `me` rolls next, so its
/// own blots are less exposed (it may cover them) than those of the side that just moved.
fn structure(me: &Side26, them: &Side26, on_roll: bool) -> f32 {
    let their_board = closed_home_points(them);
    let mut value = 0.0;
    for p in 1..=24 {
        match me[p] {
            0 => {}
            1 => {
                let risk = hit_chance(them, p);
                let loss = (25 - p) as f32 + 8.0 + 2.0 * their_board as f32;
                value -= risk * loss * if on_roll { 0.45 } else { 1.0 };
            }
            n => {
                value += POINT_VALUE[p];
                if n > 3 {
                    value -= 0.7 * (n - 3) as f32;
                }
            }
        }
    }
    value += prime_bonus(me, them);
    // A checker on the bar against a strong board may not come in for several turns.
    let closed = closed_home_points(them) as f32;
    value -= me[BAR] as f32 * (2.0 + closed * closed * 0.9);
    // Checkers off already count in the race; a little extra for being ahead in the bear-off.
    value += me[OFF] as f32 * 0.3;
    value
}

/// How many of `side`'s home board points (1..=6) it holds with two or more checkers.
fn closed_home_points(side: &Side26) -> usize {
    side[1..=6].iter().filter(|&&c| c >= 2).count()
}

/// The chance that an opposing checker hits a blot on `me`'s point `p` next roll (rough:
/// direct shots count 11/36 each distance, indirect 3/36).
fn hit_chance(them: &Side26, p: usize) -> f32 {
    let mut direct = 0;
    let mut indirect = 0;
    // The opponent moves up through my numbering; its checker on its point q is on my 25 - q,
    // and its bar checkers enter as if from my point 0.
    for d in 1..=12usize {
        let Some(q) = p.checked_sub(d) else { break };
        let shooters = if q == 0 { them[BAR] } else { them[25 - q] };
        if shooters > 0 {
            if d <= 6 {
                direct += 1;
            } else {
                indirect += 1;
            }
        }
    }
    (direct as f32 * 11.0 / 36.0 + indirect as f32 * 3.0 / 36.0).min(0.95)
}

/// Consecutive made points trap the checkers behind them; the bonus grows with the square of
/// the longest run that still has opposing checkers behind it.
fn prime_bonus(me: &Side26, them: &Side26) -> f32 {
    let their_back = board::highest_point(them);
    // Their rearmost checker sits on my point 25 - their_back (my 0 = their bar).
    let behind_from = 25usize.saturating_sub(their_back);
    let mut best = 0usize;
    let mut run = 0usize;
    for (p, &count) in me.iter().enumerate().take(25).skip(1) {
        if count >= 2 {
            run += 1;
            if p > behind_from {
                best = best.max(run);
            }
        } else {
            run = 0;
        }
    }
    (best * best) as f32 * 0.9
}

/// Orders captures and safe plays first: hits and made points score high.
pub fn move_hint(pos: &Backgammon, mv: Move) -> i32 {
    let mover = pos.side_to_move();
    let them = pos.checkers(mover.opponent());
    let mut hint = 0;
    for s in mv.steps() {
        let to = s.to as usize;
        if to != OFF && them[25 - to] == 1 {
            hint += 100;
        }
        if to == OFF {
            hint += 50;
        }
    }
    hint
}

/// Random keys for (side, index 0..26, count 0..16); count 0 keys are never used.
static KEYS: [[[u64; 16]; 26]; 2] = {
    let mut keys = [[[0u64; 16]; 26]; 2];
    let mut n = 0u64;
    let mut s = 0;
    while s < 2 {
        let mut p = 0;
        while p < 26 {
            let mut c = 1;
            while c < 16 {
                n += 1;
                keys[s][p][c] = splitmix(n.wrapping_mul(0x1234_5678_9ABC_DEF1));
                c += 1;
            }
            p += 1;
        }
        s += 1;
    }
    keys
};

const BLACK_TO_MOVE: u64 = splitmix(0xB1AC);
const OPENING: u64 = splitmix(0x0BE7);
const CUBE_NET: u64 = splitmix(0x0C0B_E4E7);

/// Zobrist hash of everything that decides the future: checkers, side to move, roll, opening
/// flag, cube and match score.
pub fn zobrist(pos: &Backgammon) -> u64 {
    let mut h = board_key(pos);
    if let Some(roll) = pos.dice() {
        h ^= splitmix(0xD1CE + roll.event() as u64);
    }
    let cube = pos.cube();
    let owner = cube.owner.map_or(0, |s| s.index() as u64 + 1);
    let state =
        cube.log2 as u64 | owner << 4 | (cube.offered as u64) << 6 | (cube.dropped as u64) << 7;
    if state != 0 {
        h ^= splitmix(0xC0BE_0000 + state);
    }
    let score = pos.match_score();
    if score.is_match() {
        let fields = u64::from(score.length)
            | u64::from(score.score[0]) << 16
            | u64::from(score.score[1]) << 32
            | u64::from(score.crawford) << 48;
        h ^= splitmix(0x5C0E_0000_0000_0000 ^ fields);
    }
    h
}

/// The part of [`zobrist`] a network's chances depend on: checkers, side to move, opening
/// flag and which network values the position (not the roll, the cube or the score).
pub fn board_key(pos: &Backgammon) -> u64 {
    let mut h = 0;
    for side in [Side::White, Side::Black] {
        let checkers = pos.checkers(side);
        for (p, &c) in checkers.iter().enumerate().skip(1) {
            h ^= KEYS[side.index()][p][c as usize & 15];
        }
    }
    if pos.side_to_move() == Side::Black {
        h ^= BLACK_TO_MOVE;
    }
    if pos.is_opening() {
        h ^= OPENING;
    }
    // A cube decision's positions are valued by another network: never the same entry.
    if pos.uses_cube_net() {
        h ^= CUBE_NET;
    }
    h
}
