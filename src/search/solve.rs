//! `solve` by the generic search: deepening until a win or a loss is proven.

use super::{Info, Limits, Score, Searcher, Table, MATE};
use crate::game::{Complete, Proven, Solution};
use std::sync::atomic::AtomicBool;

/// Deepens until the search proves a win or a loss (a mate score at a depth that rules out a
/// faster one),
/// or `limits` or `stop` end it. Draws are never proven this way.
pub fn solve_by_search<G: Complete>(
    root: &G,
    searcher: &dyn Searcher<G>,
    limits: &Limits,
    table: &Table,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Info),
) -> Solution<G::Move> {
    let result = searcher.search(root, limits, table, stop, report);
    let value = result.info.as_ref().and_then(|info| match info.score {
        // Mate scores come only from finished games (or a game's own proven values), so
        // any mate score is a proof, if not always of the fastest result.
        Score::Mate(moves) => {
            let plies = (MATE - info.score.to_internal().abs()) as u32;
            Some(if moves > 0 {
                Proven::Win(plies)
            } else {
                Proven::Loss(plies)
            })
        }
        _ => None,
    });
    Solution {
        best: value.and(result.best),
        value,
        nodes: result.nodes,
    }
}
