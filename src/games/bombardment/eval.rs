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
    let rank = square / position.geometry.size;
    match side {
        Side::White => rank as i32,
        Side::Black => (position.geometry.size - 1 - rank) as i32,
    }
}

fn side_score<B: Bits>(position: &Bombardment<B>, side: Side) -> i32 {
    let n = position.geometry.size as i32;
    position.pieces[side.index()]
        .squares()
        .map(|square| {
            let advanced = advance(position, side, square);
            // Quadratic: the last ranks before the goal matter far more than the first.
            let progress = advanced * advanced * 60 / ((n - 1) * (n - 1));
            PIECE + progress
        })
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
