//! The sparring partner's own evaluation: material and the inner board, nothing else. It is
//! written without looking at the engine's evaluation, so that matches against it measure
//! the engine against a different view of the game.
//!
//! Every piece a side owns is on the board, in its reserve or captured by the opponent, and
//! the three add up to a constant; so two counts say everything about material. A captured
//! piece is gone for good (worth most); a piece in reserve is one more push before the
//! reserve runs dry and its owner loses. The one positional term counts pieces on the 19
//! inner spots: they lie on longer lines than the rim spots, so they take part in more rows,
//! and a push from the rim reaches them last.

use tabula::game::Side;
use tabula::games::gipf::Gipf;

/// An opposing piece captured (a GIPF-piece counts two, as the rules count it).
const CAPTURED: i32 = 100;
/// A piece in reserve.
const RESERVE: i32 = 20;
/// A piece on an inner spot.
const INNER: i32 = 6;

/// The inner spots (hex distance at most 2 from e5), as a board mask, derived from the
/// point names so nothing of the engine's geometry is used.
pub fn inner_spots() -> u64 {
    (0..64)
        .filter_map(|p| Some((p, Gipf::point_name(p)?)))
        .filter(|(_, name)| distance_from_centre(name) <= 2)
        .fold(0, |mask, (p, _)| mask | 1 << p)
}

/// Hex distance of a point from e5, from its name (`a1` .. `i5`): column x = a..i, and along
/// the column y = row - 1, shifted up by the columns past e where rows start lower down.
fn distance_from_centre(name: &str) -> i32 {
    let bytes = name.as_bytes();
    let x = i32::from(bytes[0]) - i32::from(b'a');
    let row = i32::from(bytes[1]) - i32::from(b'0');
    let y = row - 1 + (x - 4).max(0);
    let (dx, dy) = (x - 4, y - 4);
    dx.abs().max(dy.abs()).max((dx - dy).abs())
}

/// The score of `pos` for the side to move.
pub fn evaluate(inner: u64, pos: &Gipf, me: Side) -> i32 {
    side(inner, pos, me) - side(inner, pos, me.opponent())
}

fn side(inner: u64, pos: &Gipf, s: Side) -> i32 {
    CAPTURED * pos.captured(s) as i32
        + RESERVE * pos.reserve(s) as i32
        + INNER * (pos.board(s) & inner).count_ones() as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inner_spots_are_the_nineteen_around_e5() {
        let inner = inner_spots();
        assert_eq!(inner.count_ones(), 19);
        let named = |n: &str| (0..64).find(|&p| Gipf::point_name(p).as_deref() == Some(n));
        // The centre, a corner of the inner hexagon and its neighbours outside it.
        for (name, is_inner) in [("e5", true), ("c3", true), ("e7", true), ("g5", true)] {
            assert_eq!(inner & 1 << named(name).unwrap() != 0, is_inner, "{name}");
        }
        for name in ["b2", "e8", "h5", "e2", "a1", "e9"] {
            assert_eq!(inner & 1 << named(name).unwrap(), 0, "{name}");
        }
    }
}
