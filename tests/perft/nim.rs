//! Perft for Nim (the template game), every count checked against an independent reference.
//!
//! How the numbers were obtained: each count is computed by the engine (`Game::perft`) and by
//! [`reference`] below, a naive recursion over a plain list of heap sizes written apart from
//! the game. Depths 1 and 2 from the start also follow from a formula: with S counters on the
//! table a position has S moves (take 1..h from each heap h), so perft 1 = S = 12 and
//! perft 2 = the sum over every move of the counters it leaves, S - k:
//! (11+10+9) + (11+10+9+8) + (11+10+9+8+7) = 30 + 38 + 45 = 113.

use tabula::game::Game;
use tabula::games::nim::{Nim, Options};

/// Move sequences of length `depth` from `heaps` (terminal positions end a sequence early
/// and count nothing beyond depth 0).
fn reference(heaps: &[u8], depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut total = 0;
    for (i, &h) in heaps.iter().enumerate() {
        for k in 1..=h {
            let mut next = heaps.to_vec();
            next[i] -= k;
            total += reference(&next, depth - 1);
        }
    }
    total
}

fn engine(fen: &str, depth: u32) -> u64 {
    Nim::from_fen(fen, &Options::default())
        .expect("a valid position")
        .perft(depth)
}

#[test]
fn perft_from_the_start_matches_the_formula_and_the_reference() {
    assert_eq!(engine("3/4/5 w", 1), 12);
    assert_eq!(engine("3/4/5 w", 2), 113);
    for depth in 0..=6 {
        assert_eq!(
            engine("3/4/5 w", depth),
            reference(&[3, 4, 5], depth),
            "depth {depth}"
        );
    }
}

#[test]
fn perft_of_other_positions_matches_the_reference() {
    for (fen, heaps) in [
        ("0/0/1 b", vec![0, 0, 1]),
        ("7 w", vec![7]),
        ("1/2/3/4/5/6/7/8 w", vec![1, 2, 3, 4, 5, 6, 7, 8]),
        ("0/0/0 w", vec![0, 0, 0]),
    ] {
        for depth in 0..=4 {
            assert_eq!(
                engine(fen, depth),
                reference(&heaps, depth),
                "{fen} {depth}"
            );
        }
    }
}
