//! Evaluation: material, advancement (a piece near the far rank is a threat the opponent must
//! answer, often by a detonation), and move ordering hints.

use super::bits::Bits;
use super::{Bombardment, Move};
use crate::game::Side;

const PIECE: i32 = 100;

/// Score from the side to move's view.
pub fn evaluate<B: Bits>(position: &Bombardment<B>) -> i32 {
    let white = side_score(position, Side::White);
    let black = side_score(position, Side::Black);
    let score = white - black;
    if position.side == Side::White {
        score
    } else {
        -score
    }
}

/// How many ranks a piece of `side` on `square` has advanced from its own back rank.
fn advance<B: Bits>(position: &Bombardment<B>, side: Side, square: u32) -> i32 {
    ADVANCE[position.geometry.size as usize][side.index()][square as usize] as i32
}

/// [`advance`] for every board size (up to 16), side and square, worked out at compile time:
/// the search asks for it at every node, and a table read is far cheaper than a division.
const ADVANCE: [[[u8; 256]; 2]; 17] = square_table(false);

/// The advancement bonus of a piece of each side on each square, for every board size:
/// quadratic, as the last ranks before the goal matter far more than the first.
const PROGRESS: [[[u8; 256]; 2]; 17] = square_table(true);

/// Per size, side and square: the ranks advanced, or (with `progress`) the bonus for them.
const fn square_table(progress: bool) -> [[[u8; 256]; 2]; 17] {
    let mut table = [[[0; 256]; 2]; 17];
    let mut size = 2;
    while size <= 16 {
        let last = (size - 1) * (size - 1);
        let mut square = 0;
        while square < size * size {
            let rank = square / size;
            let advanced = [rank, size - 1 - rank];
            let mut side = 0;
            while side < 2 {
                let a = advanced[side];
                table[size][side][square] = if progress { a * a * 60 / last } else { a } as u8;
                side += 1;
            }
            square += 1;
        }
        size += 1;
    }
    table
}

fn side_score<B: Bits>(position: &Bombardment<B>, side: Side) -> i32 {
    let bonus = &PROGRESS[position.geometry.size as usize][side.index()];
    position.pieces[side.index()]
        .squares()
        .map(|square| PIECE + bonus[square as usize] as i32)
        .sum()
}

/// Detonations that remove more enemy than own pieces first, then advanced steps.
pub fn move_order_hint<B: Bits>(position: &Bombardment<B>, mv: Move) -> i32 {
    let side = position.side;
    match mv {
        Move::Detonate(square) => {
            let blast = position.geometry.blast(square as u32);
            let theirs = (position.pieces[side.opponent().index()] & blast).count() as i32;
            let ours = (position.pieces[side.index()] & blast).count() as i32;
            (theirs - ours) * 100 + if theirs > 0 { 50 } else { -1000 }
        }
        Move::Step(_, to) => advance(position, side, to as u32) * 10,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_hold_the_formulas() {
        // 8x8: h8 is 7 ranks up for White (the whole 60), a1 7 ranks up for Black; a piece
        // on rank 4 is 3 ranks up for White: 9 * 60 / 49 = 11.
        assert_eq!((ADVANCE[8][0][63], PROGRESS[8][0][63]), (7, 60));
        assert_eq!((ADVANCE[8][1][0], PROGRESS[8][1][0]), (7, 60));
        assert_eq!((ADVANCE[8][0][24], PROGRESS[8][0][24]), (3, 11));
        assert_eq!((ADVANCE[8][1][24], PROGRESS[8][1][24]), (4, 19));
        assert_eq!(PROGRESS[16][0][255], 60);
        assert_eq!(PROGRESS[5][0][4], 0);
    }
}
