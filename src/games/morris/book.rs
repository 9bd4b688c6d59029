//! The opening book (`book.txt`): the best move of a deep search for each placing position of
//! the first plies that White's book moves and any replies reach, one line per class of
//! positions under the 16 board symmetries (Black's moves are left to the timed search:
//! docs/morris.md, sixth round). `opening-book --game morris` writes it
//! (docs/morris.md); the search plays it for timed searches while the `OwnBook` engine option
//! is on.

use super::board::{points, Points};
use super::symmetry::symmetries;
use super::{notation, Morris, Move, Options, NO_POINT};
use crate::game::Game;
use crate::util::book_text::book_lines;
use std::collections::HashMap;
use std::sync::OnceLock;

/// `POSITION MOVE` per line: the canonical position's string without the no-capture
/// counter (board, side to move, hands) and the move there; `#` starts a comment.
const BOOK: &str = include_str!("book.txt");

/// The book's searches looked at most about 25 plies past the start under the default
/// no-capture rule (100): a rule that could end the game within their sight would have
/// changed their answers, so the book stays silent under a shorter one.
const MIN_NOCAPTURE: u32 = 40;

struct Book {
    /// The 16 symmetries as point permutations.
    perms: Vec<[usize; 24]>,
    /// The book move of each canonical position, in that position's frame.
    moves: HashMap<String, Move>,
}

fn book() -> &'static Book {
    static LOADED: OnceLock<Book> = OnceLock::new();
    LOADED.get_or_init(|| Book {
        perms: symmetries(),
        moves: entries(BOOK).into_iter().collect(),
    })
}

/// The valid lines of a book text as (canonical key, move); lines whose position or move
/// does not parse are left out (the committed book has none: `every_book_line_is_valid`).
fn entries(text: &str) -> Vec<(String, Move)> {
    book_lines(text)
        .filter_map(|fields| {
            let [board, side, white, black, mv] = fields[..] else {
                return None;
            };
            let key = format!("{board} {side} {white} {black}");
            let pos = key_position(&key)?;
            let mv = notation::parse_move(&pos, mv).ok()?;
            let mut legal = Vec::new();
            pos.legal_moves(&mut legal);
            legal.contains(&mv).then_some((key, mv))
        })
        .collect()
}

/// The position of a book key (a position string without its counter), with the counter of a
/// game that captured nothing yet: every placement made (the key's own is not kept).
fn key_position(key: &str) -> Option<Morris> {
    let hands: u32 = key
        .split_whitespace()
        .skip(2)
        .map(|hand| hand.parse::<u32>().ok())
        .sum::<Option<u32>>()?;
    let placed = 18u32.checked_sub(hands)?;
    notation::parse_fen(&format!("{key} {placed}"), &Options::default()).ok()
}

/// The image of a point set under a permutation.
fn map_set(perm: &[usize; 24], set: Points) -> Points {
    points(set).fold(0, |acc, p| acc | 1 << perm[p])
}

/// The image of a move under a permutation.
fn map_move(perm: &[usize; 24], mv: Move) -> Move {
    let point = |p: u8| {
        if p == NO_POINT {
            p
        } else {
            perm[p as usize] as u8
        }
    };
    Move {
        from: point(mv.from),
        to: point(mv.to),
        capture: point(mv.capture),
    }
}

/// The book key of `pos` (the least image of White's and Black's men under the symmetries,
/// written as a position string without the counter) and the symmetry that maps `pos` there.
pub fn canonical(pos: &Morris) -> (String, usize) {
    let perms = &book().perms;
    let (image, s) = (0..perms.len())
        .map(|s| pos.board.map(|men| map_set(&perms[s], men)))
        .zip(0..)
        .min()
        .unwrap_or((pos.board, 0));
    let least = Morris::from_parts(image, pos.hand, pos.side, 0, Options::default());
    let fen = notation::format_fen(&least);
    let key = fen.rsplit_once(' ').map_or(fen.as_str(), |(key, _)| key);
    (key.to_owned(), s)
}

/// `mv`, a move of a position that symmetry `s` maps to its canonical position, in the
/// canonical position's frame (what the book stores).
pub fn to_canonical(mv: Move, s: usize) -> Move {
    map_move(&book().perms[s], mv)
}

/// The book move of `pos`, if the book holds its class and the rules are those the book was
/// searched under.
pub fn lookup(pos: &Morris) -> Option<Move> {
    let rules = &pos.options;
    if pos.hand == [0, 0] || (rules.nocapture != 0 && rules.nocapture < MIN_NOCAPTURE) {
        return None;
    }
    let (key, s) = canonical(pos);
    let stored = *book().moves.get(&key)?;
    // Back from the canonical frame: the inverse permutation of `s`.
    let perm = &book().perms[s];
    let mut inverse = [0; 24];
    for (p, &image) in perm.iter().enumerate() {
        inverse[image] = p;
    }
    Some(map_move(&inverse, stored))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Side;

    fn position(key: &str) -> Morris {
        key_position(key).expect("a book position")
    }

    #[test]
    fn every_book_line_is_a_canonical_position_with_a_legal_move() {
        let data_lines = book_lines(BOOK).count();
        let entries = entries(BOOK);
        assert_eq!(entries.len(), data_lines, "a book line does not parse");
        assert!(entries.len() > 50, "only {} book positions", entries.len());
        for (key, _) in &entries {
            assert_eq!(&canonical(&position(key)).0, key);
            // Black's deep-search moves lost to the mobility partner (docs/morris.md).
            assert_eq!(position(key).side_to_move(), Side::White, "{key}");
        }
    }

    #[test]
    fn every_image_of_a_book_position_gets_the_image_of_its_move() {
        let perms = symmetries();
        for (key, mv) in entries(BOOK) {
            let pos = position(&key);
            let mut after = pos.clone();
            after.play(mv);
            for perm in &perms {
                let board = [map_set(perm, pos.board[0]), map_set(perm, pos.board[1])];
                let image = Morris::from_parts(board, pos.hand, pos.side, 0, Options::default());
                let answer = lookup(&image).expect("the image is in the book");
                let mut legal = Vec::new();
                image.legal_moves(&mut legal);
                assert!(legal.contains(&answer), "{key}: {answer:?} is not legal");
                // The answer leads to the same class as the book move itself.
                let mut image_after = image.clone();
                image_after.play(answer);
                assert_eq!(canonical(&image_after).0, canonical(&after).0, "{key}");
            }
        }
    }

    #[test]
    fn the_book_is_silent_outside_its_positions_and_rules() {
        let start = Morris::start(&Options::default());
        assert!(lookup(&start).is_some());
        let short = Options {
            nocapture: 20,
            ..Options::default()
        };
        assert_eq!(lookup(&Morris::start(&short)), None);
        let moving = notation::parse_fen(
            "W.B/BW./.WB/WB..BW/B.W/.BW/W.B w 0 0 20",
            &Options::default(),
        )
        .expect("a moving-phase position");
        assert_eq!(lookup(&moving), None);
    }
}
