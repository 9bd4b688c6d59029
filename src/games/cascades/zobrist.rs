//! Zobrist keys: one per (colour, cell), plus the side to move, the pass count, the
//! first-move flag and the board options, so that positions of different boards never share
//! a transposition-table entry.

use super::board::{Adjacency, Cell, Geometry};
use crate::game::Side;

const STONE_KEYS: [u64; 2 * 16 * 32] = keys::<{ 2 * 16 * 32 }>(0x00ca_5cad_e500_0001);
const MISC_KEYS: [u64; 8] = keys::<8>(0x00ca_5cad_e500_0002);

/// Toggled when Black is to move.
pub const BLACK_TO_MOVE: u64 = MISC_KEYS[0];
/// Toggled while White's one-stone first move is still to come.
pub const FIRST_MOVE: u64 = MISC_KEYS[1];

/// The key of a `side` stone on `cell`.
pub fn stone(side: Side, cell: Cell) -> u64 {
    STONE_KEYS[side.index() * 512 + cell.row as usize * 32 + cell.col as usize]
}

/// The key of `passes` passes in a row (0 has none).
pub fn passes(passes: u8) -> u64 {
    match passes {
        0 => 0,
        1 => MISC_KEYS[2],
        _ => MISC_KEYS[3],
    }
}

/// The key of the board shape and rule.
pub fn geometry(geometry: Geometry) -> u64 {
    let rule = match geometry.adjacency {
        Adjacency::SideBelow => MISC_KEYS[4],
        Adjacency::Below => MISC_KEYS[5],
    };
    rule ^ MISC_KEYS[6].wrapping_mul(geometry.width as u64)
        ^ MISC_KEYS[7].wrapping_mul(geometry.rows as u64 + 17)
}

/// `N` pseudo-random keys from splitmix64, computed at compile time.
const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        out[i] = z ^ (z >> 31);
        i += 1;
    }
    out
}
