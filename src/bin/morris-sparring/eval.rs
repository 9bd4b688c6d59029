//! The sparring partner's own evaluation: men, mills and mobility, nothing else. It is
//! written without looking at the engine's evaluation, so that matches against it measure
//! the engine against a different view of the game.

use super::geometry::Geometry;
use tabula::game::{Game, Side};
use tabula::games::morris::{Morris, Phase};

const MAN: i32 = 1000;
const CLOSED_MILL: i32 = 50;
const OPEN_MILL_PLACING: i32 = 60;
const OPEN_MILL_MOVING: i32 = 90;
const OPEN_MILL_FLYING: i32 = 250;
const STEP: i32 = 15;
const STUCK_MAN: i32 = 25;
const NO_STEP: i32 = 5000;
const LIBERTY_PLACING: i32 = 4;

/// What the evaluation looks at (`--eval`, `setoption name Eval`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    /// Men, mills and mobility (the default).
    Full,
    /// Men alone (board and hand): the simplest evaluation a deep search can carry, so that
    /// the partner wins by tactics only, the way material-counting engines play.
    Material,
}

/// The score of `pos` for the side to move.
pub fn evaluate(g: &Geometry, pos: &Morris, kind: Kind) -> i32 {
    let me = pos.side_to_move();
    match kind {
        Kind::Full => side(g, pos, me) - side(g, pos, me.opponent()),
        Kind::Material => {
            MAN * (pos.piece_count(me) as i32 - pos.piece_count(me.opponent()) as i32)
        }
    }
}

fn side(g: &Geometry, pos: &Morris, s: Side) -> i32 {
    let own = pos.pieces(s);
    let empty = pos.empty();
    let mut score = MAN * pos.piece_count(s) as i32;
    let mut open = 0u32;
    for &m in &g.mills {
        let mine = (own & m).count_ones();
        if mine == 3 {
            score += CLOSED_MILL;
        } else if mine == 2 && empty & m != 0 {
            open |= empty & m;
        }
    }
    match pos.phase(s) {
        Phase::Placing => {
            score += OPEN_MILL_PLACING * open.count_ones() as i32;
            let liberties: u32 = bits(own)
                .map(|p| (g.adjacent[p] & empty).count_ones())
                .sum();
            score += LIBERTY_PLACING * liberties as i32;
        }
        Phase::Moving => {
            let mut steps = 0;
            for p in bits(own) {
                let n = (g.adjacent[p] & empty).count_ones() as i32;
                steps += n;
                if n == 0 {
                    score -= STUCK_MAN;
                }
            }
            score += STEP * steps;
            if steps == 0 {
                score -= NO_STEP;
            }
            // An open mill counts when a man from off the line can step into the gap.
            for e in bits(open) {
                let closes = |p: usize| {
                    g.mills.iter().any(|&m| {
                        m & (1 << e) != 0 && m & (1 << p) == 0 && (own & m).count_ones() == 2
                    })
                };
                if bits(g.adjacent[e] & own).any(closes) {
                    score += OPEN_MILL_MOVING;
                }
            }
        }
        Phase::Flying => score += OPEN_MILL_FLYING * open.count_ones() as i32,
    }
    score
}

/// The indices of the set bits.
pub fn bits(mut set: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            i
        })
    })
}
