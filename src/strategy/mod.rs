//! How a game's moves are chosen, above the generic search: the registry gives every game a
//! [`Strategy`]. Most games play [`Plain`] (the alpha-beta search alone); backgammon plays
//! [`backgammon::Lookahead`]: few-candidate passes for checker play and weighed decisions
//! around the doubling cube. Rollouts, which play a position out instead of searching it,
//! live here too. This layer may name games; [`crate::search`] below it does not.

pub mod backgammon;
mod rollout;

pub use rollout::{luck, rollout, RolloutLimits, RolloutStats, MAX_TRIAL_PLIES};

use crate::game::Complete;
use crate::search::{AlphaBeta, Info, Limits, Searcher, Table};
use std::sync::atomic::AtomicBool;

/// What `go` chose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice<M> {
    /// The move to play, or [`Chosen::Roll`] at a chance node; `None` only without a legal
    /// move.
    pub best: Option<Chosen<M>>,
    /// Nodes searched.
    pub nodes: u64,
    /// The strategy's summaries of the decision, for `info string` lines before `bestmove`.
    pub notes: Vec<String>,
}

/// A choice: a move, or letting the dice fall.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Chosen<M> {
    /// Let the dice fall (`bestmove roll`).
    Roll,
    /// Play this move.
    Move(M),
}

/// A game's way of choosing moves.
pub trait Strategy<G: Complete>: Send + Sync {
    /// `go`: the best move of `root` within `limits`, reporting each finished iteration.
    /// `stop` ends it as soon as it is seen; `go infinite` and an unanswered `go ponder`
    /// do not return before `stop`.
    fn choose(
        &self,
        root: &G,
        limits: &Limits,
        table: &Table,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info),
    ) -> Choice<G::Move>;

    /// What the player at a pending roll may do instead of rolling (backgammon's `double`);
    /// `go` there weighs them against rolling. Default: nothing.
    fn pre_chance_moves(&self, _root: &G) -> Vec<G::Move> {
        Vec::new()
    }

    /// The searcher `solve` deepens with, or `None` where a search can prove nothing (the
    /// dice fall right after the move, and deepening through every roll would never end).
    fn prover(&self, _root: &G) -> Option<&dyn Searcher<G>>;
}

/// The alpha-beta search alone: the strategy of every game that has no other.
#[derive(Copy, Clone, Debug, Default)]
pub struct Plain;

impl<G: Complete> Strategy<G> for Plain {
    fn choose(
        &self,
        root: &G,
        limits: &Limits,
        table: &Table,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info),
    ) -> Choice<G::Move> {
        let result = AlphaBeta.search(root, limits, table, stop, report);
        Choice {
            best: result.best.map(Chosen::Move),
            nodes: result.nodes,
            notes: Vec::new(),
        }
    }

    fn prover(&self, _root: &G) -> Option<&dyn Searcher<G>> {
        Some(&AlphaBeta)
    }
}
