//! The play whose resulting position evaluates best: how the 1-ply players, the policy of a
//! rollout, backgammon's replies inside its lookahead, its answer to a double and the
//! self-play of its training all choose, each with an evaluation of its own ([`Judge`]).
//!
//! One convention for all of them. A position is valued from the view of the side that made
//! the play (the side to move before it), higher being better for that side, whatever the
//! evaluation's own view is: the judge turns it. A play that ends the game (bearing off the
//! last checker, dropping a double) is worth the game's value as the judge's
//! [`Judge::result`] states it, never a guess at the finished position. Of plays worth the
//! same the first given wins, so a choice follows the move generator's order.

use super::{Dice, Game, Outcome, Side};
use std::ops::Neg;

/// An evaluation for [`best_play`]: the worth to a given side of the position a play left.
pub trait Judge<G: Game> {
    /// What a play is worth: a number, or whatever the caller wants back with it (a
    /// network's outputs), ordered by [`Judge::rank`].
    type Worth;
    /// The worth to `side` of `pos`, a game still being played.
    fn position(&mut self, pos: &G, side: Side) -> Self::Worth;
    /// The worth to `side` of `pos`, a game over with `outcome`: the game's value.
    fn result(&mut self, pos: &G, outcome: &Outcome, side: Side) -> Self::Worth;
    /// The number plays are compared by, higher better (every `i32` and `f32` is exact).
    fn rank(worth: &Self::Worth) -> f64;
}

/// Of `plays` (moves of `pos`), the one whose resulting position `judge` values most for the
/// side making it, the first of equals: its index in `plays` and its worth. `None` when
/// there is no play.
pub fn best_play<G: Game, J: Judge<G>>(
    pos: &G,
    plays: &[G::Move],
    judge: &mut J,
) -> Option<(usize, J::Worth)> {
    let side = pos.side_to_move();
    let mut best: Option<(usize, J::Worth)> = None;
    for (index, &mv) in plays.iter().enumerate() {
        let mut child = pos.clone();
        child.play(mv);
        let worth = match child.outcome() {
            Some(outcome) => judge.result(&child, &outcome, side),
            None => judge.position(&child, side),
        };
        if best
            .as_ref()
            .is_none_or(|(_, b)| J::rank(&worth) > J::rank(b))
        {
            best = Some((index, worth));
        }
    }
    best
}

/// The game's own values as a [`Judge`]: [`Game::evaluate`] for a position, and
/// [`Dice::terminal_value`] for a finished game (0 for a game without one), both turned to
/// the side asked about.
pub struct GameValue;

impl<G: Dice> Judge<G> for GameValue {
    type Worth = i32;

    fn position(&mut self, pos: &G, side: Side) -> i32 {
        seen_by(pos, side, pos.evaluate())
    }

    fn result(&mut self, pos: &G, outcome: &Outcome, side: Side) -> i32 {
        seen_by(pos, side, pos.terminal_value(outcome).unwrap_or(0))
    }

    fn rank(worth: &i32) -> f64 {
        f64::from(*worth)
    }
}

/// `value`, a value for the side to move at `pos`, seen from `side`: the evaluations and
/// results of [`Game`] are zero-sum, so the other side's view is its negation.
pub fn seen_by<G: Game, V: Neg<Output = V>>(pos: &G, side: Side, value: V) -> V {
    if pos.side_to_move() == side {
        value
    } else {
        -value
    }
}
