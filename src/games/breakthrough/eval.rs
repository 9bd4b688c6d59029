//! Breakthrough's evaluation, move ordering and hash.

use super::{Breakthrough, Move};
use crate::game::Side;

/// A man's worth before its advance.
const MAN: i32 = 100;
/// A man's worth grows with the square of its advance (a runner near the far rank is worth
/// several men).
const ADVANCE: i32 = 6;
/// A man with no enemy man ahead in its file or the two beside it: hard to stop (an enemy
/// man further off can still come across diagonally).
const RUNNER: i32 = 400;

/// From the side to move's view: men, their advance, and unstoppable runners.
pub fn evaluate(pos: &Breakthrough) -> i32 {
    let score = |side: Side| -> i32 {
        let mut total = 0;
        let mut men = pos.men[side.index()];
        while men != 0 {
            let square = men.trailing_zeros() as u8;
            men &= men - 1;
            let advance = i32::from(pos.advance(side, square));
            total += MAN + ADVANCE * advance * advance;
            if unstoppable(pos, side, square) {
                total += RUNNER + 40 * advance;
            }
        }
        total
    };
    score(pos.side) - score(pos.side.opponent())
}

/// True when no enemy man stands ahead of `square` in its file or the files beside it.
fn unstoppable(pos: &Breakthrough, side: Side, square: u8) -> bool {
    let (rank, file) = (square / 8, square % 8);
    let files = (file.saturating_sub(1)..=(file + 1).min(pos.size - 1))
        .fold(0u64, |all, f| all | pos.file(f));
    let ahead = match side {
        Side::White => files & u64::MAX.checked_shl(8 * (u32::from(rank) + 1)).unwrap_or(0),
        Side::Black => files & ((1u64 << (8 * rank)) - 1),
    };
    ahead & pos.men[side.opponent().index()] == 0
}

/// Captures first (of the most advanced enemy man), then the most advanced steps.
pub fn move_order_hint(pos: &Breakthrough, mv: Move) -> i32 {
    let capture = if pos.captures(mv) {
        1000 + 10 * i32::from(pos.advance(pos.side.opponent(), mv.to))
    } else {
        0
    };
    capture + i32::from(pos.advance(pos.side, mv.to))
}

/// Zobrist-style: a mixed key per (side, square), XOR-ed, and one for Black to move.
pub fn hash(pos: &Breakthrough) -> u64 {
    let mut key = if pos.side == Side::Black { mix(128) } else { 0 };
    for (index, &men) in pos.men.iter().enumerate() {
        let mut rest = men;
        while rest != 0 {
            let square = u64::from(rest.trailing_zeros());
            rest &= rest - 1;
            key ^= mix(index as u64 * 64 + square);
        }
    }
    key ^ mix(256 + u64::from(pos.size))
}

/// SplitMix64's finaliser: a well-spread 64-bit key for each small number.
fn mix(n: u64) -> u64 {
    let mut z = n.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
