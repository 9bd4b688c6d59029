//! The race to a bottom majority counted in stones: how many stones each side still needs
//! to hold more than half of the bottom row if the other side stood still.
//!
//! A side reaches a cell through its own stones (free) and empty cells (one stone each),
//! never through the opponent's stones. On the bottom row it then holds stretches of
//! cells: a stretch costs its empty cells plus the cheapest way down onto one of them.
//! The cheapest set of stretches that adds up to a majority is the side's need. Unlike a
//! flood, which grows every front at once, this charges for every stone, so a side with
//! two fronts pays for both.

use super::board::{self, Adjacency, Rows, MAX_SIDE};
use super::Cascades;
use crate::game::Side;

/// More stones than any board needs: the side cannot get a majority.
pub const UNREACHABLE: i32 = 1_000;

/// The fewest stones `side` must still place to hold a bottom-row majority without using the
/// bottom cells in `blocked` (besides the opponent's stones), or [`UNREACHABLE`].
pub fn stones_needed(position: &Cascades, side: Side, blocked: u32) -> i32 {
    let g = position.geometry();
    let own = position.stones(side);
    let theirs = position.stones(side.opponent());
    let sideways = g.adjacency == Adjacency::SideBelow;
    let bottom = g.bottom();
    let len = g.bottom_len();
    let open: Rows = std::array::from_fn(|r| g.full_row(r) & !own[r] & !theirs[r]);
    // Breadth first in layers: after `layer` rounds, `reached` holds every cell above the
    // bottom row the side can have a stone on by placing `layer` stones.
    let mut reached = *own;
    reached[bottom] = 0;
    // `entry[c]`: stones needed before a stone may go on the empty bottom cell c.
    let mut entry = [UNREACHABLE; 32];
    let mut pending = open[bottom] & !blocked;
    let mut fresh = [0u32; MAX_SIDE];
    for layer in 0..UNREACHABLE {
        let mut newly = board::below(reached[bottom - 1]) & pending;
        pending &= !newly;
        while newly != 0 {
            entry[newly.trailing_zeros() as usize] = layer;
            newly &= newly - 1;
        }
        if pending == 0 {
            break;
        }
        let mut any = 0;
        for r in 1..bottom {
            let mut reach = board::below(reached[r - 1]);
            if sideways {
                reach |= board::beside(reached[r]);
            }
            fresh[r] = reach & open[r] & !reached[r];
            any |= fresh[r];
        }
        if any == 0 {
            break;
        }
        for r in 1..bottom {
            reached[r] |= fresh[r];
        }
    }
    cheapest_majority(
        own[bottom],
        theirs[bottom] | blocked,
        &entry[..len],
        sideways,
    )
}

/// The cheapest way to hold a majority of the bottom row: stretches of cells free of the
/// opponent, each paying its empty cells and the entry of one of its cells (an own stone's
/// is free). Without sideways moves a stretch is a single cell. Stretches never share the
/// stones above them, so where they could (two bottom cells below one stone, under
/// `adjacency=below`, or two stretches fed by one chain) the count is somewhat high.
fn cheapest_majority(own: u32, theirs: u32, entry: &[i32], sideways: bool) -> i32 {
    let majority = entry.len() / 2 + 1;
    // Left to right, by cells taken so far (capped at a majority): the cheapest cost
    // outside a stretch, inside one whose entry is still to come, inside one entered.
    let mut outside = [UNREACHABLE; 17];
    let mut unpaid = [UNREACHABLE; 17];
    let mut paid = [UNREACHABLE; 17];
    outside[0] = 0;
    for (c, &cell_entry) in entry.iter().enumerate() {
        let mut next_outside = [UNREACHABLE; 17];
        let mut next_unpaid = [UNREACHABLE; 17];
        let mut next_paid = [UNREACHABLE; 17];
        for k in 0..=majority {
            next_outside[k] = outside[k].min(paid[k]);
        }
        if theirs >> c & 1 == 0 {
            let (stone, way_in) = if own >> c & 1 == 1 {
                (0, 0)
            } else {
                (1, cell_entry)
            };
            for k in 0..=majority {
                let taken = (k + 1).min(majority);
                let open = if sideways {
                    outside[k].min(unpaid[k])
                } else {
                    outside[k]
                };
                let entered = (open + stone + way_in).min(UNREACHABLE);
                if sideways {
                    next_unpaid[taken] = next_unpaid[taken].min(open + stone);
                    next_paid[taken] = next_paid[taken].min(entered).min(paid[k] + stone);
                } else {
                    next_outside[taken] = next_outside[taken].min(entered);
                }
            }
        }
        outside = next_outside;
        unpaid = next_unpaid;
        paid = next_paid;
    }
    outside[majority].min(paid[majority]).min(UNREACHABLE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::cascades::board::Geometry;

    fn after(geometry: Geometry, moves: &[&str]) -> Cascades {
        let mut position = Cascades::start(&geometry);
        for token in moves {
            let mv = position.parse_move(token).unwrap();
            position.play(mv);
        }
        position
    }

    fn board(width: u8, rows: u8, adjacency: Adjacency) -> Geometry {
        Geometry {
            width,
            rows,
            adjacency,
        }
    }

    #[test]
    fn the_start_of_8x8_needs_fourteen_stones_each() {
        // A majority is 8 of the 15 bottom cells, and a path from row a to the bottom has
        // a stone in each of rows b to g (6) besides its bottom cell: at least 6 + 8. A
        // straight line down and then 7 cells along the bottom row achieves it.
        let position = Cascades::start(&Geometry::default());
        assert_eq!(stones_needed(&position, Side::White, 0), 14);
        assert_eq!(stones_needed(&position, Side::Black, 0), 14);
    }

    #[test]
    fn a_wall_leaves_the_other_side_short_of_a_majority() {
        // White's stones a8 to h8 cut the board: Black keeps h1..h7 (7 of 15) and cannot
        // win; White holds h8 and needs h9..h15, seven empty cells beside it.
        let position = after(
            Geometry::default(),
            &["b8", "b2,c3", "c8,d8", "d4,e5", "e8,f8", "f6,g7", "g8,h8"],
        );
        assert_eq!(stones_needed(&position, Side::Black, 0), UNREACHABLE);
        assert_eq!(stones_needed(&position, Side::White, 0), 7);
    }

    #[test]
    fn blocked_cells_are_not_counted_on() {
        // Without h1..h8 White has 7 bottom cells left, one short of a majority; without
        // h1 only, the cheapest plan (any 8 cells in a row) is unchanged.
        let position = Cascades::start(&Geometry::default());
        assert_eq!(stones_needed(&position, Side::White, 0xff), UNREACHABLE);
        assert_eq!(stones_needed(&position, Side::White, 0x1), 14);
    }

    #[test]
    fn sideways_moves_save_stones_on_the_bottom_row() {
        // 3x3: a1 black, a2 white, a3 black; three of the five c cells win. White reaches
        // b2 and b3 first: b2, c2, c3, c4 (three bottom cells and at least one above them).
        // Black the same from b1 or b4.
        let position = Cascades::start(&board(3, 3, Adjacency::SideBelow));
        assert_eq!(stones_needed(&position, Side::White, 0), 4);
        assert_eq!(stones_needed(&position, Side::Black, 0), 4);
    }

    #[test]
    fn below_only_each_bottom_cell_comes_from_above() {
        // 2x2 below: a1 black, a2 white; two of b1..b3 win. White may use b2 and b3 (below
        // a2), Black b1 and b2: two stones each. With b2 blocked neither has two cells.
        let position = Cascades::start(&board(2, 2, Adjacency::Below));
        assert_eq!(stones_needed(&position, Side::White, 0), 2);
        assert_eq!(stones_needed(&position, Side::Black, 0), 2);
        assert_eq!(stones_needed(&position, Side::White, 0b010), UNREACHABLE);
    }
}
