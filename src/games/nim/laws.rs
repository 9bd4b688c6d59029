//! Nim's rules as tests check them from position strings alone (see [`Laws`]).

use crate::game::Laws;

/// The laws: the counters on the table (counted as White's; nobody owns them) drop by exactly
/// the count a move names; the game is over exactly when none is left.
pub const LAWS: Laws = Laws {
    pieces: |fen| Some([counters(fen)?, 0]),
    pieces_after: |before, token| {
        let taken: i64 = token.get(1..)?.parse().ok()?;
        Some([counters(before)? - taken, 0])
    },
    over: |fen| Some(counters(fen)? == 0),
    position: |_| Ok(()),
    step: |_, _| Ok(()),
};

fn counters(fen: &str) -> Option<i64> {
    let heaps = fen.split_whitespace().next()?;
    heaps.split('/').map(|h| h.parse::<i64>().ok()).sum()
}
