//! Static evaluation: pieces lost for good weigh most, then the reserve (a player whose reserve
//! runs dry loses), then rows one push away (found along the push lines and valued by what
//! their removal takes: own pieces back, opposing pieces of the extension captured), then
//! centre control. With GIPF-pieces, each one on the board counts, and being down to the last
//! one is a danger (losing it loses the game). The search follows row-making pushes past its
//! horizon (`tactical_moves`).

use super::geometry::{POINTS, XY};
use super::grid::{has_four, near_rows, threes, to_grid, GRID_PUSHES};
use super::movegen::Move;
use super::Gipf;
use crate::game::{Game, Side};

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
/// Percent of the best row the side to move can make now that the evaluation counts (the
/// quiescence search plays it out; the rest allows for what the opponent gets back).
const OWN_THREAT: i32 = 50;
/// Percent of the best row the opponent could make next that the evaluation takes off: the
/// side to move may block it or strike first.
const THEIR_THREAT: i32 = 30;
/// Percent of the opponent's second row threat, on another run: one push rarely stops both.
const THEIR_SECOND_THREAT: i32 = 50;
/// Having the move.
const TEMPO: i32 = 10;
/// A GIPF-piece on the board (besides its two pieces, counted when captured or returned).
const GIPF_PIECE: i32 = 70;
/// Down to the last GIPF-piece: one capture from losing.
const LAST_GIPF: i32 = 200;

/// Centre bonus by hex distance from e5 (0 = e5 itself; none at distance 3, next to the rim).
const CENTRE: [i32; 3] = [16, 9, 4];

/// The spots at hex distance 0, 1 and 2 from e5 (the centre bonus's rings).
const RINGS: [u64; 3] = {
    let mut out = [0u64; 3];
    let mut p = 0;
    while p < POINTS {
        let (dx, dy) = (XY[p].0 as i32 - 4, XY[p].1 as i32 - 4);
        let (ax, ay, ad) = (dx.abs(), dy.abs(), (dx - dy).abs());
        let mut d = if ax > ay { ax } else { ay };
        if ad > d {
            d = ad;
        }
        if d < 3 {
            out[d as usize] |= 1 << p;
        }
        p += 1;
    }
    out
};

/// The centre bonus of the pieces `bits`.
fn centre_bonus(bits: u64) -> i32 {
    (0..3)
        .map(|d| CENTRE[d] * (bits & RINGS[d]).count_ones() as i32)
        .sum()
}

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
    score += centre_bonus(own);
    score += THREAT * threes(to_grid(own), to_grid(empty)) as i32;
    if pos.variant.has_gipf_pieces() {
        let gipf = pos.gipf_count(side) as i32;
        score += GIPF_PIECE * gipf;
        if gipf == 1 && !pos.may_bring(side) {
            score -= LAST_GIPF;
        }
    }
    score
}

/// The pushes (one bit per push number) that would make a row of `side`'s pieces now, found
/// along the push lines: only lines meeting a window with three of its pieces can. Empty when
/// `side` has no piece to push or a row of its own already waits.
pub fn row_pushes(pos: &Gipf, side: Side) -> u64 {
    if pos.reserve[side.index()] == 0 {
        return 0;
    }
    let own = to_grid(pos.pieces[side.index()]);
    let near = near_rows(own);
    if near == 0 || has_four(own) {
        return 0;
    }
    let occupied = to_grid(pos.occupied());
    let mut out = 0;
    for (push, grid_push) in GRID_PUSHES.iter().enumerate() {
        if grid_push.line & near != 0 && grid_push.pushed(own, occupied).is_some_and(has_four) {
            out |= 1 << push;
        }
    }
    out
}

/// What `side`'s row-making pushes `pushes` would win, the best and the second best (on
/// another line of removal): its own pieces back to the reserve and opposing pieces of the
/// runs captured.
fn threat_values(pos: &Gipf, side: Side, mut pushes: u64) -> (i32, i32) {
    let (mut best, mut second) = (0, 0);
    let mut best_run = 0u64;
    while pushes != 0 {
        let push = pushes.trailing_zeros() as usize;
        pushes &= pushes - 1;
        let mut next = *pos;
        next.apply_push(push, side, false);
        let own = next.pieces[side.index()];
        let theirs = next.pieces[side.opponent().index()];
        for row in next.rows(side).as_slice() {
            let value = RESERVE * (row.run_mask & own).count_ones() as i32
                + CAPTURE * (row.run_mask & theirs).count_ones() as i32;
            if value > best {
                if row.run_mask & best_run == 0 {
                    second = best;
                }
                best = value;
                best_run = row.run_mask;
            } else if value > second && row.run_mask & best_run == 0 {
                second = value;
            }
        }
    }
    (best, second)
}

/// The evaluation from the side to move's point of view.
pub fn evaluate(pos: &Gipf) -> i32 {
    let me = pos.to_move;
    let mut score = side_score(pos, me) - side_score(pos, me.opponent()) + TEMPO;
    let mine = row_pushes(pos, me);
    let theirs = row_pushes(pos, me.opponent());
    if mine != 0 {
        let (best, _) = threat_values(pos, me, mine);
        score += OWN_THREAT * best / 100;
    }
    if theirs != 0 {
        let (best, second) = threat_values(pos, me.opponent(), theirs);
        score -= (THEIR_THREAT * best + THEIR_SECOND_THREAT * second) / 100;
    }
    score
}

/// The mover's row-making pushes (and every move when a row of its own waits for a choice):
/// the moves that change the material at once, followed past the horizon.
pub fn tactical_moves(pos: &Gipf, out: &mut Vec<Move>) {
    let me = pos.to_move;
    if pos.has_row(me) {
        pos.legal_moves(out);
        return;
    }
    let pushes = row_pushes(pos, me);
    if pushes != 0 {
        pos.legal_moves(out);
        out.retain(|mv| pushes & (1 << mv.push) != 0);
    }
}

/// Captures first, then moves that take pieces back, then pushes into the centre.
pub fn move_order_hint(pos: &Gipf, mv: Move) -> i32 {
    let me = pos.to_move.index();
    let next = pos.after_move(mv);
    let captured = next.captured[me] as i32 - pos.captured[me] as i32;
    let lost = next.captured[1 - me] as i32 - pos.captured[1 - me] as i32;
    let returned = next.reserve[me] as i32 - pos.reserve[me] as i32;
    let entry = super::geometry::PUSH_TABLE[mv.push as usize].line.cells[0] as usize;
    1000 * (captured - lost) + 50 * returned + centre_bonus(1 << entry)
}
