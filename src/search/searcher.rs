//! The searchers a game can be played with. The registry chooses one per game: most games use
//! [`AlphaBeta`]; dice games whose roll is known use [`Lookahead`]'s few-candidate passes.

use super::{alphabeta, lookahead, Info, Limits, SearchResult, Table};
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

/// For dice games: [`lookahead::search`]'s 1-, 2- and 3-ply passes where `rolled` says the
/// roll is known (backgammon's checker play) and `go depth` asks for 3 plies at most;
/// [`AlphaBeta`] everywhere else (cube decisions, deeper fixed depths).
pub struct Lookahead<G> {
    rolled: fn(&G) -> bool,
}

impl<G> Lookahead<G> {
    /// The searcher for a game whose positions `rolled` says have their roll known.
    pub const fn new(rolled: fn(&G) -> bool) -> Lookahead<G> {
        Lookahead { rolled }
    }
}

impl<G: Complete> Searcher<G> for Lookahead<G> {
    fn search(
        &self,
        root: &G,
        limits: &Limits,
        table: &Table,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult<G::Move> {
        match lookahead::search(root, (self.rolled)(root), limits, stop, report) {
            Some(result) => {
                wait_for_stop(limits, stop);
                result
            }
            None => alphabeta::search(root, limits, table, stop, report),
        }
    }
}

/// `go infinite` (and `go ponder` before `ponderhit`) must not answer before `stop`, even
/// when the result is known.
pub(super) fn wait_for_stop(limits: &Limits, stop: &AtomicBool) {
    limits.hold_answer(stop);
}
