//! Game-independent search: iterative-deepening alpha-beta with a transposition table, and
//! expectimax averaging at chance nodes (dice); `solve` by that search. It sees games only
//! through [`crate::game::Complete`]; a game's own way of choosing moves around it lives in
//! the strategy layer (`src/strategy/`).

mod alphabeta;
mod book;
mod limits;
mod searcher;
mod solve;
mod tt;

pub use alphabeta::{search, SearchResult, MAX_THREADS};
pub use book::{walk_book, BookEntry};
pub use limits::{Budget, Limits, PonderHit};
pub use searcher::{AlphaBeta, Searcher};
pub use solve::solve_by_search;
pub use tt::Table;

use std::fmt;

/// Scores at or beyond this magnitude are proven results (a win or loss in some plies).
pub const MATE: i32 = 1_000_000;
/// Scores beyond this magnitude are proven results (distance to the end below 1000 plies).
pub const PROVEN: i32 = MATE - 1000;
/// The longest line the search follows.
pub const MAX_PLY: usize = 128;

/// A search score as reported in `info` lines.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawn-like evaluation from the mover's view.
    Cp(i32),
    /// A proven result in this many moves of the mover (negative: the mover loses).
    Mate(i32),
}

impl Score {
    /// Converts an internal score (mate scores count plies from the root).
    pub fn from_internal(score: i32) -> Score {
        if score.abs() > PROVEN {
            let distance = MATE - score.abs();
            let moves = (distance + 1) / 2;
            Score::Mate(if score > 0 { moves } else { -moves })
        } else {
            Score::Cp(score)
        }
    }

    /// The win chance in thousandths that a score of `1000 (2 P - 1)` stands for (see
    /// [`crate::game::Hints::scores_are_chances`]); halves round up, a proven win is 1000.
    pub fn win_per_mille(self) -> u32 {
        match self {
            Score::Cp(cp) => ((1001 + i64::from(cp)) / 2).clamp(0, 1000) as u32,
            Score::Mate(moves) if moves > 0 => 1000,
            Score::Mate(_) => 0,
        }
    }

    /// Back on the internal scale (mate distances as plies from the root).
    pub fn to_internal(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(moves) if moves > 0 => MATE - (2 * moves - 1),
            Score::Mate(moves) => -(MATE - 2 * moves.abs()),
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(moves) => write!(f, "mate {moves}"),
        }
    }
}

/// What one finished iteration found, for an `info` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// The depth completed.
    pub depth: u32,
    /// The score of the best line.
    pub score: Score,
    /// Nodes visited so far in this search.
    pub nodes: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// The best line, as move tokens.
    pub pv: Vec<String>,
    /// With `MultiPV` above 1: which line this is (1 the best); `None` otherwise.
    pub multipv: Option<u32>,
}

impl Info {
    /// Nodes per second, as an integer.
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::Score;

    #[test]
    fn a_chance_score_reads_back_as_per_mille() {
        // 29/36 = 0.80556: 2P - 1 = 0.611 in thousandths.
        assert_eq!(Score::Cp(611).win_per_mille(), 806);
        assert_eq!(Score::Cp(0).win_per_mille(), 500);
        assert_eq!(Score::Cp(-1).win_per_mille(), 500);
        assert_eq!(Score::Cp(-82).win_per_mille(), 459);
        assert_eq!(Score::Cp(1000).win_per_mille(), 1000);
        assert_eq!(Score::Cp(i32::MAX).win_per_mille(), 1000);
        assert_eq!(Score::Cp(i32::MIN).win_per_mille(), 0);
        assert_eq!(Score::Mate(2).win_per_mille(), 1000);
        assert_eq!(Score::Mate(-1).win_per_mille(), 0);
    }
}
