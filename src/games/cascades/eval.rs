//! Static evaluation: a race to the bottom row, played out as a flood.
//!
//! Both sides grow their territory in turns, the side to move first: a turn adds two layers
//! of cells (two stones a move) along the side's placement rule, through cells nobody has
//! claimed yet, so a side's stones and claims wall the other side off just as stones would.
//! An empty bottom cell counts for whoever floods it, more the sooner (so that the search
//! keeps walking down instead of admiring a claim); bottom cells held count most. Higher
//! cells count a little for their owner: they are the room later races run through.

use super::board::{self, Rows};
use super::{Cascades, Move};
use crate::game::Game;

/// A bottom cell held.
const HELD: i32 = 100;
/// An empty bottom cell flooded in the first turn (the most a claim is worth).
const CLAIMED: i32 = 60;
/// What each later turn takes off a claim.
const CLAIM_DECAY: i32 = 5;
/// An upper cell held or flooded.
const ROOM: i32 = 0;
/// Turns after which nobody's claims change much; also bounds the loop.
const MAX_TURNS: i32 = 40;

/// The evaluation from the side to move's point of view.
pub fn evaluate(position: &Cascades) -> i32 {
    let g = position.geometry();
    let me = position.side_to_move();
    let bottom = g.bottom();
    let mut claims: [Rows; 2] = [*position.stones(me), *position.stones(me.opponent())];
    let held = [
        position.bottom_count(me) as i32,
        position.bottom_count(me.opponent()) as i32,
    ];
    let mut score = HELD * (held[0] - held[1]);
    for turn in 1..=MAX_TURNS {
        let mut grew = false;
        for side in 0..2 {
            for _layer in 0..2 {
                let taken = board::union(&claims[0], &claims[1]);
                let frontier = g.targets(&claims[side], &taken);
                if board::count(&frontier) == 0 {
                    break;
                }
                grew = true;
                let value = ROOM * (board::count(&frontier) - frontier[bottom].count_ones()) as i32
                    + (CLAIMED - CLAIM_DECAY * turn.min(8)) * frontier[bottom].count_ones() as i32;
                score += if side == 0 { value } else { -value };
                claims[side] = board::union(&claims[side], &frontier);
            }
        }
        if !grew {
            break;
        }
    }
    // Stones already placed below the top row are room too.
    let placed = |rows: &Rows| (board::count(rows) - rows[0].count_ones()) as i32;
    score += ROOM * (placed(position.stones(me)) - placed(position.stones(me.opponent())));
    score - ROOM * (held[0] - held[1])
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
