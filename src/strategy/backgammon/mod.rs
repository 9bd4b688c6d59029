//! Backgammon's way of choosing: checker play by few-candidate passes of 1, 2 and 3 plies
//! ([`lookahead`]), and the decisions around the doubling cube ([`decide`]), each weighed with
//! the same searches. Written against [`CubeGame`], what it needs of the game beyond the
//! contract, so each part can be read for what it asks.

mod decide;
mod lookahead;
#[cfg(test)]
mod lookahead_tests;

pub use decide::{decide_answer, decide_before_chance, Answer, Decision, Weighed};
pub use lookahead::{CANDIDATES, DEEP_CANDIDATES, DEEP_MARGIN, MARGIN};

use super::{Choice, Chosen, Strategy};
use crate::game::Complete;
use crate::games::backgammon::{Backgammon, Move};
use crate::search::{AlphaBeta, Info, Limits, SearchResult, Searcher, Table};
use std::sync::atomic::AtomicBool;

/// What the strategy asks of a dice game with a doubling cube.
pub trait CubeGame: Complete {
    /// True when the roll is known and checker play is to be chosen.
    fn checker_play(&self) -> bool;
    /// What the player on roll may do instead of rolling (`double` when legal).
    fn pre_chance_moves(&self, out: &mut Vec<Self::Move>);
    /// How much more than rolling `mv` must be worth to be played when the answer to it is
    /// `answer` (`None`: it has none), in evaluation units; -1 lets it win ties.
    fn pre_chance_margin(&self, mv: Self::Move, answer: Option<Self::Move>) -> i32;
    /// True when the side to move answers the opponent's pre-chance move.
    fn answers_pre_chance(&self) -> bool;
    /// The summary line of a decision (see [`Backgammon::decision_note`]).
    fn decision_note(&self, roll: Option<i32>, answers: &[(Self::Move, i32)]) -> Option<String>;
    /// The value checker plays are chosen by when it is not [`crate::game::Game::evaluate`].
    fn choice_value(&self) -> Option<i32>;
    /// The position the decisions around the cube search from: values there may come from
    /// another evaluation than checker play's.
    fn for_cube_decision(&self) -> Self;
    /// The deepest depth a cube decision here searches when `go` names none.
    fn cube_depth(&self) -> u32;
    /// Evaluation units per point of equity normalized to the stake (the doubling cube's
    /// value, a match's score), the unit of the checker-play passes' margins.
    fn equity_unit(&self) -> f64;
}

impl CubeGame for Backgammon {
    fn checker_play(&self) -> bool {
        Backgammon::checker_play(self)
    }
    fn pre_chance_moves(&self, out: &mut Vec<Move>) {
        Backgammon::pre_chance_moves(self, out)
    }
    fn pre_chance_margin(&self, mv: Move, answer: Option<Move>) -> i32 {
        Backgammon::pre_chance_margin(self, mv, answer)
    }
    fn answers_pre_chance(&self) -> bool {
        Backgammon::answers_pre_chance(self)
    }
    fn decision_note(&self, roll: Option<i32>, answers: &[(Move, i32)]) -> Option<String> {
        Backgammon::decision_note(self, roll, answers)
    }
    fn choice_value(&self) -> Option<i32> {
        Backgammon::choice_value(self)
    }
    fn for_cube_decision(&self) -> Self {
        Backgammon::for_cube_decision(self)
    }
    fn cube_depth(&self) -> u32 {
        Backgammon::cube_depth(self)
    }
    fn equity_unit(&self) -> f64 {
        Backgammon::equity_unit(self)
    }
}

/// The checker-play searcher: [`lookahead::search`]'s passes where the roll is known and
/// `go depth` asks for 3 plies at most; [`AlphaBeta`] everywhere else (deeper fixed depths).
#[derive(Copy, Clone, Debug, Default)]
pub struct Lookahead;

impl<G: CubeGame> Searcher<G> for Lookahead {
    fn search(
        &self,
        root: &G,
        limits: &Limits,
        table: &Table,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info),
    ) -> SearchResult<G::Move> {
        lookahead::search(root, root.checker_play(), limits, stop, report)
            .unwrap_or_else(|| AlphaBeta.search(root, limits, table, stop, report))
    }
}

impl<G: CubeGame> Strategy<G> for Lookahead {
    fn choose(
        &self,
        root: &G,
        limits: &Limits,
        table: &Table,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info),
    ) -> Choice<G::Move> {
        let mut events = Vec::new();
        root.chance_events(&mut events);
        if !events.is_empty() {
            let decision = decide_before_chance(root, self, limits, table, stop, report);
            let notes = decision.weighed.map_or_else(Vec::new, |weighed| {
                weighed
                    .moves
                    .iter()
                    .filter_map(|(_, answers)| root.decision_note(Some(weighed.roll), answers))
                    .collect()
            });
            return Choice {
                best: Some(decision.choice),
                nodes: decision.nodes,
                notes,
            };
        }
        if root.answers_pre_chance() {
            let answer = decide_answer(root, self, limits, table, stop, report);
            return Choice {
                best: answer.best.map(Chosen::Move),
                nodes: answer.nodes,
                notes: root
                    .decision_note(None, &answer.values)
                    .into_iter()
                    .collect(),
            };
        }
        let result = self.search(root, limits, table, stop, report);
        Choice {
            best: result.best.map(Chosen::Move),
            nodes: result.nodes,
            notes: Vec::new(),
        }
    }

    fn pre_chance_moves(&self, root: &G) -> Vec<G::Move> {
        let mut moves = Vec::new();
        root.pre_chance_moves(&mut moves);
        moves
    }

    fn prover(&self, root: &G) -> Option<&dyn Searcher<G>> {
        (!root.answers_pre_chance()).then_some(self as &dyn Searcher<G>)
    }
}
