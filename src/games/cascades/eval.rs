//! Static evaluation: a race to the bottom row.
//!
//! Each side's distance (in stones) to every empty cell is a flood fill through empty cells
//! along its placement rule; a side places two stones a turn, so a cell `d` stones away is
//! `ceil(d / 2)` turns away, and the side to move wins ties. A bottom cell counts for whoever
//! gets there first; cells held already count more. Cells higher up count a little for
//! whoever reaches them first, since they are the room later races run through.

use super::board::{self, Rows, MAX_SIDE};
use super::{Cascades, Move};
use crate::game::{Game, Side};

/// A bottom cell held.
const HELD: i32 = 100;
/// An empty bottom cell the side reaches first.
const CLAIMED: i32 = 40;
/// Any other empty cell the side reaches first, per row depth.
const ROOM_PER_ROW: i32 = 1;
/// The distance at which a cell counts as unreachable.
const FAR: u8 = u8::MAX;

/// The flood fill of one side: for every cell, the number of its stones needed to reach it
/// (0 for its own stones, [`FAR`] if the opponent's stones wall it off).
fn distances(position: &Cascades, side: Side) -> [[u8; 32]; MAX_SIDE] {
    let g = position.geometry();
    let opponent = position.stones(side.opponent());
    let mut dist = [[FAR; 32]; MAX_SIDE];
    let mut reached: Rows = *position.stones(side);
    board::for_each_cell(&reached, |cell| {
        dist[cell.row as usize][cell.col as usize] = 0
    });
    let mut step = 0u8;
    loop {
        let blocked = board::union(&reached, opponent);
        let frontier = g.targets(&reached, &blocked);
        if board::count(&frontier) == 0 || step == FAR - 1 {
            break;
        }
        step += 1;
        board::for_each_cell(&frontier, |cell| {
            dist[cell.row as usize][cell.col as usize] = step
        });
        reached = board::union(&reached, &frontier);
    }
    dist
}

/// The evaluation from the side to move's point of view.
pub fn evaluate(position: &Cascades) -> i32 {
    let g = position.geometry();
    let me = position.side_to_move();
    let mine = distances(position, me);
    let theirs = distances(position, me.opponent());
    let bottom = g.bottom();
    let mut score =
        HELD * (position.bottom_count(me) as i32 - position.bottom_count(me.opponent()) as i32);
    let occupied = position.occupied();
    for r in 1..g.row_count() {
        let weight = if r == bottom {
            CLAIMED
        } else {
            ROOM_PER_ROW * r as i32
        };
        for c in 0..g.row_len(r) {
            if occupied[r] >> c & 1 == 1 {
                continue;
            }
            let (a, b) = (mine[r][c], theirs[r][c]);
            if a == FAR && b == FAR {
                continue;
            }
            // Turns needed; the side to move gets there first on equal turns.
            let (ta, tb) = (turns(a), turns(b));
            if ta <= tb {
                score += weight;
            } else {
                score -= weight;
            }
        }
    }
    score
}

fn turns(distance: u8) -> u32 {
    if distance == FAR {
        u32::MAX
    } else {
        (distance as u32).div_ceil(2)
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
