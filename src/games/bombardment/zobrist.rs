//! Zobrist keys: one random number per (side, square) and per side to move, fixed at compile
//! time so hashes are the same in every run.

use crate::game::Side;
use crate::util::rng::splitmix64 as splitmix;

const SQUARES: usize = 256;

const fn keys() -> [u64; 2 * SQUARES + 2] {
    let mut out = [0; 2 * SQUARES + 2];
    let mut i = 0;
    while i < out.len() {
        out[i] = splitmix(0xB0B_5EED ^ (i as u64).wrapping_mul(0x2545_F491_4F6C_DD1D));
        i += 1;
    }
    out
}

static KEYS: [u64; 2 * SQUARES + 2] = keys();

/// The key of a piece of `side` on `square`.
#[inline]
pub fn piece_key(side: Side, square: u32) -> u64 {
    KEYS[side.index() * SQUARES + square as usize]
}

/// The key of `side` being to move.
#[inline]
pub fn side_key(side: Side) -> u64 {
    KEYS[2 * SQUARES + side.index()]
}
