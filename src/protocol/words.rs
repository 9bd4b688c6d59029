//! Protocol words the engine's grammar does not own, for the tools that speak a minimal
//! protocol of their own (the sparring partners, the tuner, the arena's game options): the
//! words of a `position` command, and `key=value` game options.

use crate::game::Game;

/// The position of `startpos [moves M...]` or `fen FIELDS... [moves M...]` (the words after
/// `position`), every move checked by the rules: what the sparring partners' minimal
/// protocol reads (the engine's own `position` goes through its grammar and the registry).
pub fn position_from_words<G: Game>(words: &[&str], options: &G::Options) -> Result<G, String> {
    let (head, moves) = match words.iter().position(|&w| w == "moves") {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &[][..]),
    };
    let mut pos = match head {
        ["startpos"] => G::start(options),
        ["fen", fields @ ..] if !fields.is_empty() => {
            G::from_fen(&fields.join(" "), options).map_err(|e| e.to_string())?
        }
        _ => return Err("position: expected startpos or fen FIELDS, then moves".into()),
    };
    for token in moves {
        if pos.outcome().is_some() {
            return Err(format!("move {token} after the end of the game"));
        }
        let mv = pos
            .parse_move(token)
            .map_err(|e| format!("move {token}: {e}"))?;
        pos.play(mv);
    }
    Ok(pos)
}

/// Game options as written after `newgame NAME` (`"k=v k=v"`) split into the pairs
/// [`Game::parse_options`] takes; a word without `=` becomes a key with an empty value, which
/// [`check_options`] refuses by name (as it does after `newgame`).
pub fn option_pairs(text: &str) -> Vec<(&str, &str)> {
    text.split_whitespace()
        .map(|pair| pair.split_once('=').unwrap_or((pair, "")))
        .collect()
}
