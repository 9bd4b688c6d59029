//! Tesauro's "pubeval" (1993): a public-domain linear move evaluator, the classic yardstick
//! for backgammon programs. It scores the position a play leaves, from the mover's view, as
//! the dot product of 122 inputs with one of two published weight vectors (race or contact).
//!
//! Inputs, for each point 24 down to 1 of the mover (five per point): an opposing blot, one
//! own checker, two or more, exactly three, and half the count beyond three; then half the
//! opponent's checkers on the bar and the mover's borne-off checkers over 15.

use super::board::{self, Side26, BAR, OFF};
use super::{Backgammon, Move};
use crate::game::best_play::{best_play, Judge};
use crate::game::{Game, Outcome, Side};

/// The 122 inputs for `me` (the side that just played) against `them`.
fn inputs(me: &Side26, them: &Side26) -> [f32; 122] {
    let mut x = [0f32; 122];
    for (slot, point) in (1..=24usize).rev().enumerate() {
        let unit = &mut x[5 * slot..5 * slot + 5];
        let mine = me[point];
        let theirs = them[25 - point];
        if theirs == 1 {
            unit[0] = 1.0;
        }
        if mine == 1 {
            unit[1] = 1.0;
        }
        if mine >= 2 {
            unit[2] = 1.0;
        }
        if mine == 3 {
            unit[3] = 1.0;
        }
        if mine >= 4 {
            unit[4] = (mine as f32 - 3.0) / 2.0;
        }
    }
    // Tesauro stores the opponent's bar as a negative count and negates it: a plus here.
    x[120] = them[BAR] as f32 / 2.0;
    x[121] = me[OFF] as f32 / 15.0;
    x
}

/// Pubeval's score of the position `me` just produced against `them`; `race` tells which
/// weights to use (Tesauro decides it from the position before the play).
pub fn score(me: &Side26, them: &Side26, race: bool) -> f32 {
    if me[OFF] == 15 {
        return 99_999_999.0;
    }
    let weights = if race { &RACE } else { &CONTACT };
    inputs(me, them)
        .iter()
        .zip(weights)
        .map(|(x, w)| x * w)
        .sum()
}

/// [`Game::evaluate`] with pubeval: the side to move is scored as minus the score of the
/// position for the side that just played (the race test looks at this position).
pub fn evaluate(pos: &Backgammon) -> i32 {
    let mover = pos.side_to_move();
    let me = pos.checkers(mover.opponent());
    let them = pos.checkers(mover);
    let race = !board::in_contact(me, them);
    (-score(me, them, race) * 100.0).clamp(-90_000.0, 90_000.0) as i32
}

/// The play pubeval picks with the roll already set (`None` without dice or after the game).
pub fn choose(pos: &Backgammon) -> Option<Move> {
    let mover = pos.side_to_move();
    let race = !board::in_contact(pos.checkers(mover), pos.checkers(mover.opponent()));
    let mut moves = Vec::new();
    pos.dice()?;
    pos.legal_moves(&mut moves);
    best_play(pos, &moves, &mut Pubeval { race }).map(|(index, _)| moves[index])
}

/// Pubeval as a [`Judge`]: the side asked about is always the one that just played, the
/// weights are those of the position before the play, and a finished game is the same huge
/// score whatever its points ([`score`]'s, as Tesauro wrote it).
struct Pubeval {
    race: bool,
}

impl Judge<Backgammon> for Pubeval {
    type Worth = f32;

    fn position(&mut self, pos: &Backgammon, side: Side) -> f32 {
        score(pos.checkers(side), pos.checkers(side.opponent()), self.race)
    }

    fn result(&mut self, pos: &Backgammon, _: &Outcome, side: Side) -> f32 {
        self.position(pos, side)
    }

    fn rank(worth: &f32) -> f64 {
        f64::from(*worth)
    }
}

/// Race weights (used once neither side can hit the other).
const RACE: [f32; 122] = [
    0.00000, -0.17160, 0.27010, 0.29906, -0.08471, 0.00000, -1.40375, -1.05121, 0.07217, -0.01351,
    0.00000, -1.29506, -2.16183, 0.13246, -1.03508, 0.00000, -2.29847, -2.34631, 0.17253, 0.08302,
    0.00000, -1.27266, -2.87401, -0.07456, -0.34240, 0.00000, -1.34640, -2.46556, -0.13022,
    -0.01591, 0.00000, 0.27448, 0.60015, 0.48302, 0.25236, 0.00000, 0.39521, 0.68178, 0.05281,
    0.09266, 0.00000, 0.24855, -0.06844, -0.37646, 0.05685, 0.00000, 0.17405, 0.00430, 0.74427,
    0.00576, 0.00000, 0.12392, 0.31202, -0.91035, -0.16270, 0.00000, 0.01418, -0.10839, -0.02781,
    -0.88035, 0.00000, 1.07274, 2.00366, 1.16242, 0.22520, 0.00000, 0.85631, 1.06349, 1.49549,
    0.18966, 0.00000, 0.37183, -0.50352, -0.14818, 0.12039, 0.00000, 0.13681, 0.13978, 1.11245,
    -0.12707, 0.00000, -0.22082, 0.20178, -0.06285, -0.52728, 0.00000, -0.13597, -0.19412,
    -0.09308, -1.26062, 0.00000, 3.05454, 5.16874, 1.50680, 5.35000, 0.00000, 2.19605, 3.85390,
    0.88296, 2.30052, 0.00000, 0.92321, 1.08744, -0.11696, -0.78560, 0.00000, -0.09795, -0.83050,
    -1.09167, -4.94251, 0.00000, -1.00316, -3.66465, -2.56906, -9.67677, 0.00000, -2.77982,
    -7.26713, -3.40177, -12.32252, 0.00000, 3.42040,
];
/// Weights for positions where the sides can still hit each other.
const CONTACT: [f32; 122] = [
    0.25696, -0.66937, -1.66135, -2.02487, -2.53398, -0.16092, -1.11725, -1.06654, -0.92830,
    -1.99558, -1.10388, -0.80802, 0.09856, -0.62086, -1.27999, -0.59220, -0.73667, 0.89032,
    -0.38933, -1.59847, -1.50197, -0.60966, 1.56166, -0.47389, -1.80390, -0.83425, -0.97741,
    -1.41371, 0.24500, 0.10970, -1.36476, -1.05572, 1.15420, 0.11069, -0.38319, -0.74816, -0.59244,
    0.81116, -0.39511, 0.11424, -0.73169, -0.56074, 1.09792, 0.15977, 0.13786, -1.18435, -0.43363,
    1.06169, -0.21329, 0.04798, -0.94373, -0.22982, 1.22737, -0.13099, -0.06295, -0.75882,
    -0.13658, 1.78389, 0.30416, 0.36797, -0.69851, 0.13003, 1.23070, 0.40868, -0.21081, -0.64073,
    0.31061, 1.59554, 0.65718, 0.25429, -0.80789, 0.08240, 1.78964, 0.54304, 0.41174, -1.06161,
    0.07851, 2.01451, 0.49786, 0.91936, -0.90750, 0.05941, 1.83120, 0.58722, 1.28777, -0.83711,
    -0.33248, 2.64983, 0.52698, 0.82132, -0.58897, -1.18223, 3.35809, 0.62017, 0.57353, -0.07276,
    -0.36214, 4.37655, 0.45481, 0.21746, 0.10504, -0.61977, 3.54001, 0.04612, -0.18108, 0.63211,
    -0.87046, 2.47673, -0.48016, -1.27157, 0.86505, -1.11342, 1.24612, -0.82385, -2.77082, 1.23606,
    -1.59529, 0.10438, -1.30206, -4.11520, 5.62596, -2.75800,
];
