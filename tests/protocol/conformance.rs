//! The battery every registered game passes, with no per-game code: seeded random games from
//! the start, checking at every ply that
//! - legal moves are byte-sorted and distinct, and `perft 1` counts them;
//! - the game is over exactly when no move is listed;
//! - every listed move is accepted, and the canonical spelling of the move played is the
//!   listed one;
//! - the position string round-trips through `position fen`;
//! - `undo` restores the exact previous position;
//! - the game's own invariants (piece counts, incremental hash) hold;
//! - the game ends within a bound.

use tabula::registry::{new_game, AnyGame, GAMES};
use tabula::util::rng::Rng;

const GAMES_PER_KIND: u64 = 12;
const MAX_PLIES: usize = 3000;

fn check_position(game: &dyn AnyGame, name: &str) {
    let legal = game.legal_moves();
    let context = format!("{name} at {}", game.fen());
    assert!(game.is_consistent(), "{context}: invariants broken");
    assert!(
        legal.windows(2).all(|w| w[0] < w[1]),
        "{context}: legal moves not sorted and distinct"
    );
    assert_eq!(game.perft(1), legal.len() as u64, "{context}: perft 1");
    assert_eq!(
        game.outcome().is_some(),
        legal.is_empty(),
        "{context}: over exactly when no move"
    );
    let mut copy = new_game(name, &[], 1).expect("builds");
    copy.set_position(Some(&game.fen()), &[])
        .unwrap_or_else(|e| panic!("{context}: fen does not parse back: {e}"));
    assert_eq!(copy.fen(), game.fen(), "{context}: fen round trip");
    for token in legal.iter().take(40) {
        let mut child = game.boxed_clone();
        child
            .play(token)
            .unwrap_or_else(|e| panic!("{context}: listed move {token} refused: {e}"));
        assert_eq!(
            child.last_move().as_deref(),
            Some(token.as_str()),
            "{context}: spelling of {token}"
        );
        assert!(
            child.is_consistent(),
            "{context}: invariants broken after {token}"
        );
        assert!(child.undo(), "{context}: undo after {token}");
        assert_eq!(child.fen(), game.fen(), "{context}: undo after {token}");
    }
}

#[test]
fn every_game_passes_the_battery() {
    let mut positions = 0;
    for entry in GAMES {
        for seed in 0..GAMES_PER_KIND {
            let mut rng = Rng::new(seed * 7919 + 1);
            let mut game = (entry.new)(&[], 1).expect("default options build");
            let mut plies = 0;
            loop {
                if game.awaits_chance() {
                    game.roll(&mut rng).expect("a pending roll can be rolled");
                }
                check_position(game.as_ref(), entry.name);
                positions += 1;
                let legal = game.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let pick = &legal[rng.below(legal.len() as u64) as usize];
                game.play(pick).expect("listed move plays");
                plies += 1;
                assert!(
                    plies < MAX_PLIES,
                    "{} game {seed} did not end in {MAX_PLIES} plies",
                    entry.name
                );
            }
        }
    }
    println!(
        "{positions} positions checked in {} games",
        GAMES.len() as u64 * GAMES_PER_KIND
    );
}

#[test]
fn bad_tokens_are_errors_never_panics() {
    let junk = [
        "",
        "x",
        "zz",
        "a0a0",
        "\u{0}",
        "é",
        "99999999999999999999",
        "a1-",
        ":",
        ",",
        "pass,pass",
        "xa",
        "-1",
    ];
    for entry in GAMES {
        let mut game = (entry.new)(&[], 1).expect("builds");
        let before = game.fen();
        for token in junk {
            let _ = game.play(token);
            let _ = game.set_position(Some(token), &[]);
            let _ = game.set_chance(token);
        }
        assert_eq!(game.fen(), before, "{}: junk changed the state", entry.name);
    }
}
