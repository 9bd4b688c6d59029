//! A way of choosing a move for `go`, as a value: the generic [`AlphaBeta`], or a game's own
//! searcher built on it (see `src/strategy/`).

use super::{alphabeta, Info, Limits, SearchResult, Table};
use crate::game::Complete;
use std::sync::atomic::AtomicBool;

/// A way of choosing a move for `go`.
pub trait Searcher<G: Complete>: Send + Sync {
    /// Searches `root` within `limits`, reporting each finished iteration to `report`.
    /// `stop` ends the search as soon as it is seen; the best move found so far is returned.
    /// `go infinite` (`limits.infinite`) does not return before `stop`.
    fn search(
        &self,
        root: &G,
        limits: &Limits,
        table: &Table,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult<G::Move>;
}

/// Iterative-deepening alpha-beta with expectimax at chance nodes: the searcher of every game
/// unless the registry says otherwise.
#[derive(Copy, Clone, Debug, Default)]
pub struct AlphaBeta;

impl<G: Complete> Searcher<G> for AlphaBeta {
    fn search(
        &self,
        root: &G,
        limits: &Limits,
        table: &Table,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult<G::Move> {
        alphabeta::search(root, limits, table, stop, report)
    }
}
