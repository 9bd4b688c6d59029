//! The parser against the move generator, for every registered game through the registry's
//! string interface: over random positions (playouts from the start of every option
//! variant), each text `legalmoves` lists is accepted as that very move, and texts it does not
//! list (other positions' moves, mutated moves) are refused. A game may accept another
//! spelling of a listed move (backgammon's step orders and routes, GIPF's run ends,
//! Cascades' independent stones in either order): such a text must resolve to a listed move
//! and look like its spelling ([`is_respelling`]).

use super::{new_game, AnyGame, Entry, GAMES};
use crate::game::{GameError, NOT_LEGAL};
use crate::util::rng::Rng;
use std::collections::HashSet;

/// Positions checked per game.
const POSITIONS: usize = 300;
/// A playout longer than this stops (a drawn Morris or Nim game can go on).
const MAX_PLIES: usize = 300;
/// A position is checked with probability 1/`CHECK_EVERY`, so that the positions spread
/// over playouts and variants.
const CHECK_EVERY: u64 = 3;
/// Listed moves that are mutated per position, and other positions' moves tried.
const MUTATED: usize = 12;
const FOREIGN: usize = 24;
/// Texts appended to a listed move.
const SUFFIXES: &[&str] = &["1", "a", "x", ",", ":", "/", "-", "*", "xa1", ",a1", "/1"];
/// Characters a mutation writes in place of another.
const ALPHABET: &[u8] = b"abcdefgx0123456789:/,-*G";

/// What one game's check counted.
#[derive(Default)]
struct Tally {
    positions: usize,
    legal: usize,
    refused: usize,
    /// Accepted texts that `legalmoves` does not list: other spellings of listed moves.
    respellings: usize,
    /// Refusals with the generic reason: the game's reasons found no rule broken.
    generic: usize,
    variants: usize,
}

/// The option sets a game is played with: its defaults, then each other value its
/// declaration offers, with the options that value needs.
fn variants(entry: &Entry) -> Vec<Vec<(&'static str, String)>> {
    let mut out = vec![Vec::new()];
    for option in entry.options {
        for value in option.menu().into_iter().skip(1) {
            let mut pairs: Vec<(&str, String)> = option
                .needs
                .iter()
                .map(|&(k, v)| (k, v.to_owned()))
                .collect();
            pairs.push((option.key, value));
            out.push(pairs);
        }
    }
    out
}

/// The square-like pieces of a text (letters then digits, or digits), as byte ranges.
fn pieces(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_lowercase() {
            i += 1;
        }
        let digits = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        if i > digits {
            out.push((start, i));
        } else if i == start {
            i += 1;
        }
    }
    out
}

/// Texts near `text`: a character changed, two pieces swapped, cut short, lengthened.
fn mutations(text: &str, rng: &mut Rng) -> Vec<String> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    for _ in 0..3 {
        let mut changed = bytes.to_vec();
        let at = rng.below(changed.len() as u64) as usize;
        changed[at] = ALPHABET[rng.below(ALPHABET.len() as u64) as usize];
        out.extend(String::from_utf8(changed).ok());
    }
    let found = pieces(text);
    for pair in found.windows(2) {
        let ((a, b), (c, d)) = (pair[0], pair[1]);
        out.push(format!(
            "{}{}{}{}{}",
            &text[..a],
            &text[c..d],
            &text[b..c],
            &text[a..b],
            &text[d..]
        ));
    }
    for cut in [&text[..text.len() - 1], &text[1..]] {
        if !cut.is_empty() {
            out.push(cut.to_owned());
        }
    }
    out.extend(SUFFIXES.iter().map(|suffix| format!("{text}{suffix}")));
    out
}

/// Whether `text` may spell the same move as `canonical`: its characters in another order
/// (hit marks aside), or the same first and last square-like pieces with others between
/// (backgammon's `20/14` for `20/18,18/16,16/14`, or `bar/20,20/14` for `bar/19,19/14`).
fn is_respelling(text: &str, canonical: &str) -> bool {
    let sorted = |s: &str| {
        let mut chars: Vec<char> = s.chars().filter(|&c| c != '*').collect();
        chars.sort_unstable();
        chars
    };
    let ends = |s: &str| {
        let found = pieces(s);
        let piece = |p: Option<&(usize, usize)>| p.map(|&(a, b)| s[a..b].to_owned());
        (piece(found.first()), piece(found.last()))
    };
    sorted(text) == sorted(canonical) || ends(text) == ends(canonical)
}

/// Checks the current position of `game`: its listed moves, then texts it must refuse.
fn check_position(game: &mut dyn AnyGame, foreign: &[String], rng: &mut Rng, tally: &mut Tally) {
    let name = game.name();
    let fen = game.fen();
    let legal = game.legal_moves();
    for text in &legal {
        if let Err(e) = game.play(text) {
            panic!("{name} {fen}: listed move {text} refused: {e}");
        }
        assert_eq!(
            game.last_move().as_deref(),
            Some(text.as_str()),
            "{name} {fen}: {text} read as another move"
        );
        game.undo();
    }
    tally.legal += legal.len();
    let listed: HashSet<&str> = legal.iter().map(String::as_str).collect();
    let mut candidates = Vec::new();
    for _ in 0..MUTATED.min(legal.len()) {
        let text = &legal[rng.below(legal.len() as u64) as usize];
        candidates.extend(mutations(text, rng));
    }
    for _ in 0..FOREIGN.min(foreign.len()) {
        candidates.push(foreign[rng.below(foreign.len() as u64) as usize].clone());
    }
    for text in candidates.iter().filter(|t| !listed.contains(t.as_str())) {
        match game.play(text) {
            Err(GameError::IllegalMove { reason, .. }) if reason == NOT_LEGAL => {
                tally.generic += 1;
                tally.refused += 1;
            }
            Err(_) => tally.refused += 1,
            Ok(()) => {
                let read = game.last_move().unwrap_or_default();
                game.undo();
                assert!(
                    listed.contains(read.as_str()) && is_respelling(text, &read),
                    "{name} {fen}: {text} is not listed but was accepted as {read}"
                );
                tally.respellings += 1;
            }
        }
    }
    tally.positions += 1;
}

/// Plays `entry` out from the start of each variant in turn until enough positions are
/// checked (every variant at least once).
fn check_game(entry: &Entry, seed: u64) -> Tally {
    let mut rng = Rng::new(seed);
    let variants = variants(entry);
    let mut tally = Tally {
        variants: variants.len(),
        ..Tally::default()
    };
    let mut foreign: Vec<String> = Vec::new();
    let mut round = 0;
    while tally.positions < POSITIONS || round < variants.len() {
        let pairs = &variants[round % variants.len()];
        round += 1;
        let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let mut game = new_game(entry.name, &pairs, 1)
            .unwrap_or_else(|e| panic!("{} {pairs:?}: {e}", entry.name));
        for _ in 0..MAX_PLIES {
            let legal = game.legal_moves();
            if legal.is_empty() {
                break;
            }
            if rng.below(CHECK_EVERY) == 0 {
                check_position(&mut *game, &foreign, &mut rng, &mut tally);
            }
            foreign.push(legal[rng.below(legal.len() as u64) as usize].clone());
            if game.awaits_chance() && rng.below(2) == 0 {
                game.roll(&mut rng).expect("a roll is pending");
                continue;
            }
            let text = &legal[rng.below(legal.len() as u64) as usize];
            game.play(text).expect("a listed move");
        }
        // The last position too: when the game is over, nothing may be played.
        check_position(&mut *game, &foreign, &mut rng, &mut tally);
    }
    tally
}

#[test]
fn every_game_accepts_exactly_its_listed_moves() {
    for (i, entry) in GAMES.iter().enumerate() {
        let tally = check_game(entry, 41 + i as u64);
        eprintln!(
            "{}: {} positions over {} variants, {} listed moves accepted, {} other texts \
             refused ({} with the generic reason), {} other spellings accepted",
            entry.name,
            tally.positions,
            tally.variants,
            tally.legal,
            tally.refused,
            tally.generic,
            tally.respellings
        );
        assert!(tally.legal > 0 && tally.refused > 0, "{}", entry.name);
    }
}
