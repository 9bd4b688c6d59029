//! The opening book (`book.txt`): the best move of a deep search for each position of the
//! basic game's first plies that the book's own moves and any replies reach (`opening-book
//! --game gipf`, docs/gipf.md). The search plays it for timed searches while the `OwnBook` engine option is
//! on. The standard and tournament games start elsewhere and have no book.

use super::{Gipf, Move, Variant};
use crate::game::Game;
use crate::util::book_text::book_lines;
use std::collections::HashMap;
use std::sync::OnceLock;

/// `POSITION MOVE` per line: the position string and the move there; `#` starts a comment.
const BOOK: &str = include_str!("book.txt");

fn book() -> &'static HashMap<String, Move> {
    static LOADED: OnceLock<HashMap<String, Move>> = OnceLock::new();
    LOADED.get_or_init(|| entries(BOOK).into_iter().collect())
}

/// The valid lines of a book text as (position string, move); lines whose position or move
/// does not parse, or whose move is not legal there, are left out (the committed book has
/// none: `every_book_line_is_valid`).
fn entries(text: &str) -> Vec<(String, Move)> {
    book_lines(text)
        .filter_map(|fields| {
            let [board, side, reserve_w, reserve_b, captured_w, captured_b, mv] = fields[..] else {
                return None;
            };
            let key = format!("{board} {side} {reserve_w} {reserve_b} {captured_w} {captured_b}");
            let pos = Gipf::read_fen(&key, Variant::Basic).ok()?;
            let mv = pos.read_move(mv).ok()?;
            let mut legal = Vec::new();
            pos.legal_moves(&mut legal);
            legal.contains(&mv).then_some((key, mv))
        })
        .collect()
}

/// The book's key of a position: its position string.
pub fn key(pos: &Gipf) -> (String, usize) {
    (pos.write_fen(), 0)
}

/// The book move of `pos`, if the book holds it (the basic game only).
pub fn lookup(pos: &Gipf) -> Option<Move> {
    if pos.variant != Variant::Basic {
        return None;
    }
    book().get(&pos.write_fen()).copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Side;

    #[test]
    fn every_book_line_is_valid() {
        let data_lines = book_lines(BOOK).count();
        let entries = entries(BOOK);
        assert_eq!(entries.len(), data_lines, "a book line does not parse");
        for (key, _) in &entries {
            let pos = Gipf::read_fen(key, Variant::Basic).expect("parses");
            assert_eq!(
                &pos.write_fen(),
                key,
                "keys are written as the engine writes them"
            );
        }
    }

    /// The book covers White's first move, Black's reply to every first move, and White's
    /// second move after each reply to its book move.
    #[test]
    fn the_book_covers_the_first_three_plies_of_its_own_lines() {
        let start = Gipf::start(&Default::default());
        let first = lookup(&start).expect("the start is in the book");
        let mut moves = Vec::new();
        start.legal_moves(&mut moves);
        for &mv in &moves {
            let after = start.after_move(mv);
            assert_eq!(after.side_to_move(), Side::Black);
            assert!(
                lookup(&after).is_some(),
                "every first move has a book reply"
            );
            if mv == first {
                let mut replies = Vec::new();
                after.legal_moves(&mut replies);
                for &answer in &replies {
                    assert!(lookup(&after.after_move(answer)).is_some());
                }
            }
        }
    }

    #[test]
    fn other_variants_have_no_book() {
        let options = super::super::Options {
            variant: Variant::Standard,
        };
        assert_eq!(lookup(&Gipf::start(&options)), None);
    }
}
