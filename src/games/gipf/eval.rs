//! Static evaluation: pieces lost for good weigh most, then the reserve (a player whose reserve
//! runs dry loses), then centre control and rows about to form. With GIPF-pieces, each one on
//! the board counts, and being down to the last one is a danger (losing it loses the game).

use super::geometry::{POINTS, WINDOW_MASKS, XY};
use super::movegen::Move;
use super::Gipf;
use crate::game::Side;

/// A piece captured from the opponent: lost for good.
const CAPTURE: i32 = 120;
/// A piece in reserve: one more turn to live.
const RESERVE: i32 = 25;
/// Extra penalty per missing piece when the reserve is nearly dry.
const DRY_RESERVE: i32 = 60;
/// Reserve size under which the dry penalty starts.
const DRY_LIMIT: i32 = 4;
/// Three own pieces and an empty spot in a window of four: a row one push away.
const THREAT: i32 = 14;
/// Having the move.
const TEMPO: i32 = 10;
/// A GIPF-piece on the board (besides its two pieces, counted when captured or returned).
const GIPF_PIECE: i32 = 70;
/// Down to the last GIPF-piece: one capture from losing.
const LAST_GIPF: i32 = 200;

/// Centre bonus by hex distance from e5 (0 = e5 itself, 3 = the spots next to the rim).
const CENTRE: [i32; 4] = [16, 9, 4, 0];

/// The centre bonus of each point.
const CENTRE_BONUS: [i32; POINTS] = {
    let mut out = [0; POINTS];
    let mut p = 0;
    while p < POINTS {
        let (dx, dy) = (XY[p].0 as i32 - 4, XY[p].1 as i32 - 4);
        let (ax, ay, ad) = (dx.abs(), dy.abs(), (dx - dy).abs());
        let mut d = if ax > ay { ax } else { ay };
        if ad > d {
            d = ad;
        }
        out[p] = if d < 4 { CENTRE[d as usize] } else { 0 };
        p += 1;
    }
    out
};

/// One side's score, before subtracting the other's.
fn side_score(pos: &Gipf, side: Side) -> i32 {
    let s = side.index();
    let own = pos.pieces[s];
    let empty = !pos.occupied();
    let reserve = pos.reserve[s] as i32;
    let mut score = CAPTURE * pos.captured[s] as i32 + RESERVE * reserve;
    if reserve < DRY_LIMIT {
        score -= DRY_RESERVE * (DRY_LIMIT - reserve);
    }
    let mut bits = own;
    while bits != 0 {
        score += CENTRE_BONUS[bits.trailing_zeros() as usize];
        bits &= bits - 1;
    }
    for &w in &WINDOW_MASKS {
        if (own & w).count_ones() == 3 && (empty & w).count_ones() == 1 {
            score += THREAT;
        }
    }
    if pos.variant.has_gipf_pieces() {
        let gipf = pos.gipf_count(side) as i32;
        score += GIPF_PIECE * gipf;
        if gipf == 1 && !pos.may_bring(side) {
            score -= LAST_GIPF;
        }
    }
    score
}

/// The evaluation from the side to move's point of view.
pub fn evaluate(pos: &Gipf) -> i32 {
    let me = pos.to_move;
    side_score(pos, me) - side_score(pos, me.opponent()) + TEMPO
}

/// Captures first, then moves that take pieces back, then pushes into the centre.
pub fn move_order_hint(pos: &Gipf, mv: Move) -> i32 {
    let me = pos.to_move.index();
    let next = pos.after_move(mv);
    let captured = next.captured[me] as i32 - pos.captured[me] as i32;
    let lost = next.captured[1 - me] as i32 - pos.captured[1 - me] as i32;
    let returned = next.reserve[me] as i32 - pos.reserve[me] as i32;
    let entry = super::geometry::PUSH_TABLE[mv.push as usize].line.cells[0] as usize;
    1000 * (captured - lost) + 50 * returned + CENTRE_BONUS[entry]
}
