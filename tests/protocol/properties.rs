//! Seeded property tests from random positions of every game, with per-game rules read from the
//! public position strings (never from the engine's internals) by each game's
//! [`tabula::game::Laws`], taken from the registry:
//! - a random position (random plies from the start, rolls included) written with `fen` and
//!   loaded into a fresh game gives the same string and the same legal moves;
//! - from there a random game goes on; at every ply, for every listed move (up to a bound):
//!   the move applies, the text of the applied move played on a reloaded copy of the parent
//!   gives the same position, and the pieces change exactly as the game's rules say;
//! - `undo` gives the position back, `perft 1` counts the listed moves;
//! - the game is over exactly when no move is listed, and every rule that ends a game (read
//!   from the position string) agrees with the reported outcome;
//! - every game's declared options ([`tabula::game::Game::OPTIONS`]) are what its parser takes:
//!   the defaults print in the declared order, every listed value and both ends of a range
//!   are accepted (printed back as given), values just outside and unknown keys refused.
//!
//! `conformance.rs` runs the generic battery from the start; this file adds what depends on
//! each game's rules. Run time is bounded by the constants below (a few seconds).

use tabula::game::{Laws, OptionKind};
use tabula::registry::{new_game, AnyGame, Entry, GAMES};
use tabula::util::rng::Rng;

/// Random positions per game.
const POSITIONS_PER_GAME: u64 = 48;
/// At most this many random plies reach a start position for the checks.
const MAX_LEAD_IN: u64 = 80;
/// Plies played (and checked) after the reload.
const CHECKED_PLIES: usize = 40;
/// Listed moves checked in full at each position.
const MOVES_PER_POSITION: usize = 24;

/// Plays `plies` random moves (rolling dice when due); stops early at the end of the game.
fn random_plies(game: &mut dyn AnyGame, plies: u64, rng: &mut Rng) {
    for _ in 0..plies {
        if game.awaits_chance() {
            game.roll(rng).expect("a pending roll can be rolled");
        }
        let legal = game.legal_moves();
        if legal.is_empty() {
            return;
        }
        let pick = &legal[rng.below(legal.len() as u64) as usize];
        game.play(pick).expect("listed move plays");
    }
}

/// A fresh game of `name` set to `fen`.
fn reload(name: &str, fen: &str) -> Box<dyn AnyGame> {
    let mut game = new_game(name, &[], 1).expect("builds");
    game.set_position(Some(fen), &[])
        .unwrap_or_else(|e| panic!("{name}: {fen} does not load: {e}"));
    game
}

/// Checks one position and every listed move (up to the bound); returns the moves checked.
fn check_position(game: &dyn AnyGame, name: &str) -> u64 {
    let laws: Laws = game.laws();
    let fen = game.fen();
    let legal = game.legal_moves();
    let outcome = game.outcome();
    assert_eq!(
        outcome.is_some(),
        legal.is_empty(),
        "{name} {fen}: over exactly when no move"
    );
    assert_eq!(game.perft(1), legal.len() as u64, "{name} {fen}: perft 1");
    if let Some(over) = (laws.over)(&fen) {
        assert_eq!(
            outcome.is_some(),
            over,
            "{name} {fen}: the end rule disagrees ({outcome:?})"
        );
    }
    if let Err(broken) = (laws.position)(&fen) {
        panic!("{name} {fen}: {broken}");
    }
    let mut checked = 0;
    for token in legal.iter().take(MOVES_PER_POSITION) {
        let mut child = game.boxed_clone();
        child
            .play(token)
            .unwrap_or_else(|e| panic!("{name} {fen}: listed {token} refused: {e}"));
        let after = child.fen();
        let text = child.last_move().expect("a move was played");
        // The applied move's text, read again by a game that only knows the position string.
        let mut again = reload(name, &fen);
        again
            .play(&text)
            .unwrap_or_else(|e| panic!("{name} {fen}: text {text} of {token} refused: {e}"));
        assert_eq!(again.fen(), after, "{name} {fen}: {text} read back differs");
        assert!(child.undo(), "{name} {fen}: undo after {token}");
        assert_eq!(child.fen(), fen, "{name} {fen}: undo after {token}");
        if let Err(broken) = (laws.step)(&fen, &after) {
            panic!("{name} {fen} {text}: {broken}");
        }
        if let Some(expected) = (laws.pieces_after)(&fen, &text) {
            assert_eq!(
                (laws.pieces)(&after),
                Some(expected),
                "{name} {fen}: pieces after {text}"
            );
        }
        checked += 1;
    }
    checked
}

#[test]
fn random_positions_of_every_game_follow_the_rules() {
    let (mut positions, mut moves) = (0u64, 0u64);
    for entry in GAMES {
        for seed in 0..POSITIONS_PER_GAME {
            let mut rng = Rng::new(seed.wrapping_mul(0x9E37_79B9) ^ 0xC0FFEE);
            let mut original = (entry.new)(&[], 1).expect("default options build");
            let lead_in = rng.below(MAX_LEAD_IN + 1);
            random_plies(original.as_mut(), lead_in, &mut rng);
            let fen = original.fen();
            let mut game = reload(entry.name, &fen);
            assert_eq!(game.fen(), fen, "{}: fen round trip", entry.name);
            if original.outcome().is_none_or(|o| o.reason != "repetition") {
                assert_eq!(game.legal_moves(), original.legal_moves(), "{fen}");
            }
            for _ in 0..CHECKED_PLIES {
                if game.awaits_chance() {
                    game.roll(&mut rng).expect("a pending roll can be rolled");
                }
                moves += check_position(game.as_ref(), entry.name);
                positions += 1;
                let legal = game.legal_moves();
                if legal.is_empty() {
                    break;
                }
                game.play(&legal[rng.below(legal.len() as u64) as usize])
                    .expect("listed move plays");
            }
        }
    }
    println!("{positions} positions and {moves} moves checked");
    assert!(
        positions > 1000,
        "the battery ran too few cases: {positions}"
    );
}

#[test]
fn every_game_states_its_laws() {
    // A game whose laws check nothing would pass the battery above without being tested.
    for entry in GAMES {
        let game = (entry.new)(&[], 1).expect("default options build");
        let laws = game.laws();
        let fen = game.fen();
        assert!(
            (laws.pieces)(&fen).is_some(),
            "{}: no piece law (Harness::laws)",
            entry.name
        );
        assert!(
            (laws.over)(&fen).is_some() || (laws.pieces_after)(&fen, "").is_some(),
            "{}: no end or move law",
            entry.name
        );
    }
}

/// Moves tried at each position from the pool of moves listed elsewhere in the game.
const FOREIGN_MOVES_PER_POSITION: usize = 200;

/// A move missing from `legalmoves` is refused: at random positions of every game, moves
/// listed at other positions of random games (mostly illegal here) are played. Each one
/// either plays as one of the listed moves (another accepted spelling of it: its canonical
/// text is listed) or is refused with the position unchanged.
#[test]
fn a_move_missing_from_legalmoves_is_refused_in_every_game() {
    let (mut refused, mut accepted) = (0u64, 0u64);
    for entry in GAMES {
        let mut rng = Rng::new(0x5EED ^ entry.name.len() as u64);
        let mut pool: Vec<String> = Vec::new();
        for _ in 0..24 {
            let mut game = (entry.new)(&[], 1).expect("default options build");
            for _ in 0..60 {
                if game.awaits_chance() {
                    game.roll(&mut rng).expect("a pending roll can be rolled");
                }
                let legal = game.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let fen = game.fen();
                for k in 0..FOREIGN_MOVES_PER_POSITION.min(pool.len()) {
                    let token =
                        &pool[(k * 7919 + rng.below(pool.len() as u64) as usize) % pool.len()];
                    let mut probe = game.boxed_clone();
                    match probe.play(token) {
                        Ok(()) => {
                            let text = probe.last_move().expect("a move was played");
                            assert!(
                                legal.contains(&text),
                                "{} {fen}: {token} played as {text}, which is not listed",
                                entry.name
                            );
                            accepted += 1;
                        }
                        Err(_) => {
                            assert_eq!(
                                probe.fen(),
                                fen,
                                "{}: a refused {token} changed the position",
                                entry.name
                            );
                            refused += 1;
                        }
                    }
                }
                for _ in 0..3 {
                    pool.push(legal[rng.below(legal.len() as u64) as usize].clone());
                }
                game.play(&legal[rng.below(legal.len() as u64) as usize])
                    .expect("listed move plays");
            }
        }
    }
    println!("{refused} foreign moves refused, {accepted} accepted as listed moves");
    assert!(refused > 10_000, "too few refusals tried: {refused}");
}

/// The game's own parser (the registry's constructor, without the generic check of the
/// declaration), what it prints back, or its error.
fn parsed(entry: &Entry, pairs: &[(&str, &str)]) -> Result<String, String> {
    (entry.new)(pairs, 1)
        .map(|game| game.options())
        .map_err(|e| e.to_string())
}

#[test]
fn every_game_declares_the_options_its_parser_takes() {
    for entry in GAMES {
        let name = entry.name;
        let declared: Vec<String> = entry
            .options
            .iter()
            .map(|o| format!("{}={}", o.key, o.default))
            .collect();
        assert_eq!(
            parsed(entry, &[]).as_deref(),
            Ok(declared.join(" ").as_str()),
            "{name}: the declared defaults, in order"
        );
        assert!(
            parsed(entry, &[("no-such-key", "1")]).is_err(),
            "{name}: an unknown key"
        );
        for option in entry.options {
            let key = option.key;
            let mut accepted: Vec<String> = option.menu();
            let mut refused: Vec<String> = Vec::new();
            match option.kind {
                OptionKind::Choice(values) => {
                    accepted.extend(values.iter().map(|v| v.to_string()));
                    refused.push(format!("{}-not", values[0]));
                }
                OptionKind::Number { min, max, zero, .. } => {
                    accepted.extend([min.to_string(), max.to_string()]);
                    if zero {
                        accepted.push("0".into());
                    }
                    if min > 1 || (min == 1 && !zero) {
                        refused.push((min - 1).to_string());
                    }
                    refused.push((max + 1).to_string());
                }
                OptionKind::Text { .. } => refused.push(String::new()),
            }
            for value in &accepted {
                let mut pairs = option.needs.to_vec();
                pairs.push((key, value));
                let printed = parsed(entry, &pairs);
                assert!(
                    printed
                        .as_ref()
                        .is_ok_and(|p| p.split(' ').any(|kv| kv == format!("{key}={value}"))),
                    "{name}: {key}={value} is declared, the parser says {printed:?}"
                );
                assert!(option.allows(value), "{name}: {key}={value} in the menu");
            }
            for value in &refused {
                let mut pairs = option.needs.to_vec();
                pairs.push((key, value));
                assert!(
                    parsed(entry, &pairs).is_err(),
                    "{name}: {key}={value} is outside the declaration, the parser takes it"
                );
                assert!(!option.allows(value), "{name}: {key}={value} allowed");
            }
            if let Some((needed, _)) = option.needs.first() {
                let other = option.menu().into_iter().nth(1).expect("a second value");
                assert!(
                    parsed(entry, &[(key, &other)]).is_err(),
                    "{name}: {key}={other} without {needed}"
                );
            }
        }
    }
}
