//! Static evaluation: a race to a bottom majority, counted in stones and turns.
//!
//! Two parts. A flood decides which bottom cells each side can still hope for: both sides
//! grow their territory in turns, the side to move first, a turn adding two layers of cells
//! (two stones a move) along the side's placement rule through cells nobody has claimed yet,
//! so claims wall the other side off just as stones would. Then [`race::stones_needed`]
//! counts the stones each side must still place to hold a majority of the bottom row using
//! only cells the other side does not hold or claim; the side that needs fewer turns wins
//! the race, the side to move winning a tie. The flood alone credits a side with every
//! front it could grow at once; counting stones charges it for each one, two a turn.
//! (The flood's own score, bottom cells held and claimed, orders the solver's moves.)

use super::board::{self, Adjacency, Rows, MAX_SIDE};
use super::race;
use super::{Cascades, Move};
use crate::game::Game;

/// A bottom cell held, in the flood's score.
const HELD: i32 = 100;
/// An empty bottom cell flooded in the first turn (the most a claim is worth).
const CLAIMED: i32 = 60;
/// What each later turn takes off a claim.
const CLAIM_DECAY: i32 = 5;
/// Turns after which nobody's claims change much; also bounds the loop.
const MAX_TURNS: i32 = 40;
/// What one stone less to place is worth.
const STONE: i32 = 30;
/// What one turn ahead in the race is worth (on top of its stones).
const TURN: i32 = 100;
/// Needs are capped here, so a side that cannot win a majority still prefers fewer stones
/// for the cells it can get (and scores stay far from the proven-result range).
const MAX_NEED: i32 = 40;

/// The evaluation from the side to move's point of view: the race in stones and turns.
pub fn evaluate(position: &Cascades) -> i32 {
    let me = position.side_to_move();
    let flood = flood(position);
    let mine = race::stones_needed(position, me, flood.bottom[1]).min(MAX_NEED);
    let theirs = race::stones_needed(position, me.opponent(), flood.bottom[0]).min(MAX_NEED);
    STONE * (theirs - mine) + TURN * turns_ahead(mine, theirs)
}

/// How many turns the side to move finishes before the opponent (at least 1 when it gets
/// there first, as it moves first), or how many after (negative), with two stones a turn.
fn turns_ahead(mine: i32, theirs: i32) -> i32 {
    let (my_turns, their_turns) = ((mine + 1) / 2, (theirs + 1) / 2);
    if my_turns <= their_turns {
        1 + their_turns - my_turns
    } else {
        their_turns - my_turns
    }
}

/// The flood's score, from the side to move's point of view: bottom cells held, and empty
/// bottom cells flooded first, worth more the sooner. The solver orders moves by it.
pub fn flood_score(position: &Cascades) -> i32 {
    flood(position).score
}

/// What the flood found.
struct Flood {
    /// Bottom cells held, and empty ones flooded first, worth more the sooner.
    score: i32,
    /// The bottom row's cells each side holds or floods first (side to move first).
    bottom: [u32; 2],
}

/// Floods the board from both sides' stones, the side to move first (see the module doc).
fn flood(position: &Cascades) -> Flood {
    let g = position.geometry();
    let me = position.side_to_move();
    let rows = g.row_count();
    let bottom = g.bottom();
    let sideways = g.adjacency == Adjacency::SideBelow;
    let full: Rows = std::array::from_fn(|r| g.full_row(r));
    let mut claims: [Rows; 2] = [*position.stones(me), *position.stones(me.opponent())];
    let mut taken = board::union(&claims[0], &claims[1]);
    let held = [
        position.bottom_count(me) as i32,
        position.bottom_count(me.opponent()) as i32,
    ];
    let mut score = HELD * (held[0] - held[1]);
    let mut fresh = [0u32; MAX_SIDE];
    for turn in 1..=MAX_TURNS {
        let mut grew = false;
        for (side, own) in claims.iter_mut().enumerate() {
            for _layer in 0..2 {
                // One layer: the cells next to the side's claims that nobody has taken
                // (the placement rule of `Geometry::targets`, inlined over the board's rows).
                let mut any = 0;
                for r in 1..rows {
                    let mut reach = board::below(own[r - 1]);
                    if sideways {
                        reach |= board::beside(own[r]);
                    }
                    fresh[r] = reach & full[r] & !taken[r];
                    any |= fresh[r];
                }
                if any == 0 {
                    break;
                }
                grew = true;
                for r in 1..rows {
                    own[r] |= fresh[r];
                    taken[r] |= fresh[r];
                }
                let value =
                    (CLAIMED - CLAIM_DECAY * turn.min(8)) * fresh[bottom].count_ones() as i32;
                score += if side == 0 { value } else { -value };
            }
        }
        if !grew {
            break;
        }
    }
    Flood {
        score,
        bottom: [claims[0][bottom], claims[1][bottom]],
    }
}

/// Deeper stones first, bottom-row stones far first, two stones before one, `pass` last.
pub fn move_order_hint(position: &Cascades, mv: Move) -> i32 {
    let bottom = position.geometry().bottom() as i32;
    let stone = |row: u8| {
        let row = row as i32;
        if row == bottom {
            1000
        } else {
            10 * row
        }
    };
    match mv {
        Move::Pass => -10_000,
        Move::One(cell) => stone(cell.row),
        Move::Two(a, b) => stone(a.row) + stone(b.row) + 5,
    }
}
