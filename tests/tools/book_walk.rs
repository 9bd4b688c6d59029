//! The book walk of `opening-book` (`tabula::search::walk_book`) on Nim: it searches only the
//! book sides it is given, each position once.

use std::collections::HashSet;
use tabula::game::{Game, Side};
use tabula::games::nim::{Nim, Options};
use tabula::search::{walk_book, Limits, Table};

/// The sides to move of the positions a walk searches, and whether every one was new.
fn walk(sides: &[Side]) -> (Vec<Side>, bool) {
    let start = Nim::start(&Options::default());
    let limits = Limits {
        nodes: Some(2_000),
        threads: 1,
        ..Limits::default()
    };
    let table = Table::new(1);
    let mut movers = Vec::new();
    let mut keys = HashSet::new();
    let mut fresh = true;
    walk_book(
        &start,
        4,
        sides,
        &limits,
        &table,
        &|pos: &Nim| (pos.to_fen(), 0),
        &mut |pos, entry| {
            movers.push(pos.side_to_move());
            fresh &= keys.insert(entry.key.clone());
            Ok(())
        },
    )
    .expect("the walk");
    (movers, fresh)
}

#[test]
fn a_walk_searches_only_the_sides_asked_for() {
    let (white, fresh) = walk(&[Side::White]);
    assert!(fresh && white.len() > 1);
    assert!(white.iter().all(|&side| side == Side::White));
    let (black, fresh) = walk(&[Side::Black]);
    assert!(fresh && black.len() > 1);
    assert!(black.iter().all(|&side| side == Side::Black));
    let (both, _) = walk(&[Side::White, Side::Black]);
    assert_eq!(both.len(), white.len() + black.len());
}
