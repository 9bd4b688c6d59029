//! Static evaluation: a race to the bottom row, played out as a flood.
//!
//! Both sides grow their territory in turns, the side to move first: a turn adds two layers
//! of cells (two stones a move) along the side's placement rule, through cells nobody has
//! claimed yet, so a side's stones and claims wall the other side off just as stones would.
//! An empty bottom cell counts for whoever floods it, more the sooner (so that the search
//! keeps walking down instead of admiring a claim); bottom cells held count most. Cells
//! higher up count for nothing themselves: they only matter as the way down.

use super::board::{self, Adjacency, Rows, MAX_SIDE};
use super::{Cascades, Move};
use crate::game::Game;

/// A bottom cell held.
const HELD: i32 = 100;
/// An empty bottom cell flooded in the first turn (the most a claim is worth).
const CLAIMED: i32 = 60;
/// What each later turn takes off a claim.
const CLAIM_DECAY: i32 = 5;
/// Turns after which nobody's claims change much; also bounds the loop.
const MAX_TURNS: i32 = 40;

/// The evaluation from the side to move's point of view.
pub fn evaluate(position: &Cascades) -> i32 {
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
    score
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
