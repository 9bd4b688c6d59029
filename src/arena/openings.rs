//! Openings: move lists from a file, or random first plies; and the seeds of each game pair.
//!
//! Games are played in pairs: both games of pair `p` start from the same opening and roll the
//! same dice, with colours swapped, so neither engine profits from a lucky opening or lucky
//! dice (for backgammon this is "duplicate" play).

use crate::registry::{self, AnyGame};
use crate::util::rng::Rng;

/// Where the opening moves of each pair come from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Openings {
    /// Every game starts from the start position.
    #[default]
    None,
    /// Pair `p` plays list `p mod len`.
    List(Vec<Vec<String>>),
    /// Pair `p` plays this many random legal plies, drawn from the pair's seed.
    Random(usize),
}

/// The independent random streams drawn for a pair.
#[derive(Copy, Clone, Debug)]
pub enum Stream {
    /// The random opening moves.
    Opening = 1,
    /// The dice.
    Dice = 2,
    /// The engines' `Seed` option (drawn per game, with the game index for `pair`).
    Engine = 3,
}

/// A seed for `stream` of pair `pair`, fixed by the match seed. Engine seeds stay below
/// 2^62 so that every engine accepts them as a signed 64-bit option value.
pub fn pair_seed(seed: u64, pair: usize, stream: Stream) -> u64 {
    let mut rng = Rng::new(seed ^ (pair as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93));
    let mut value = 0;
    for _ in 0..stream as u8 {
        value = rng.next_u64();
    }
    value >> 2
}

/// Reads an openings file: one game per line, moves separated by spaces, optionally after
/// `position startpos moves`; blank lines and `#` comments skipped. Every line is checked
/// against the rules of the game (with its options).
pub fn load(text: &str, game: &dyn AnyGame) -> Result<Vec<Vec<String>>, String> {
    let mut lists = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let line = line
            .strip_prefix("position startpos moves")
            .or_else(|| line.strip_prefix("position startpos"))
            .unwrap_or(line);
        let moves: Vec<&str> = line.split_whitespace().collect();
        let mut probe = game.boxed_clone();
        probe
            .set_position(None, &moves)
            .map_err(|e| format!("openings line {}: {e}", number + 1))?;
        if probe.outcome().is_some() {
            return Err(format!("openings line {}: the game is over", number + 1));
        }
        lists.push(moves.into_iter().map(str::to_owned).collect());
    }
    if lists.is_empty() {
        return Err("the openings file has no move list".into());
    }
    Ok(lists)
}

impl Openings {
    /// The opening of pair `pair`. Random openings never end the game: a ply that would is
    /// not played, and the opening is shorter.
    pub fn for_pair(
        &self,
        game: &str,
        options: &[(&str, &str)],
        seed: u64,
        pair: usize,
    ) -> Result<Vec<String>, String> {
        match self {
            Openings::None => Ok(Vec::new()),
            Openings::List(lists) => Ok(lists
                .get(pair % lists.len().max(1))
                .cloned()
                .unwrap_or_default()),
            Openings::Random(plies) => {
                let mut position =
                    registry::new_game(game, options, 0).map_err(|e| e.to_string())?;
                let mut moves_rng = Rng::new(pair_seed(seed, pair, Stream::Opening));
                let mut dice = Rng::new(pair_seed(seed, pair, Stream::Dice) ^ 0x0BE1);
                let mut moves = Vec::new();
                while moves.len() < *plies && position.outcome().is_none() {
                    if position.awaits_chance() {
                        position.roll(&mut dice).map_err(|e| e.to_string())?;
                    }
                    let legal = position.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    let pick = &legal[moves_rng.below(legal.len() as u64) as usize];
                    position.play(pick).map_err(|e| e.to_string())?;
                    if position.outcome().is_some() {
                        break;
                    }
                    moves.push(pick.clone());
                }
                Ok(moves)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_openings_are_reproducible_and_differ_by_pair() {
        let random = Openings::Random(4);
        let a = random.for_pair("bombardment", &[], 1, 0).expect("plays");
        assert_eq!(a.len(), 4);
        assert_eq!(a, random.for_pair("bombardment", &[], 1, 0).expect("plays"));
        let others: Vec<_> = (1..6)
            .map(|p| random.for_pair("bombardment", &[], 1, p).expect("plays"))
            .collect();
        assert!(others.iter().any(|o| *o != a));
    }

    #[test]
    fn files_are_checked_move_by_move() {
        let game = registry::new_game("bombardment", &[], 0).expect("builds");
        let text = "# two openings\nd2d3 e7e6\n\nposition startpos moves a2a3\n";
        let lists = load(text, game.as_ref()).expect("loads");
        assert_eq!(lists, vec![vec!["d2d3", "e7e6"], vec!["a2a3"]]);
        assert!(load("d2d5", game.as_ref()).is_err());
        assert!(load("# nothing", game.as_ref()).is_err());
    }

    #[test]
    fn streams_are_distinct() {
        assert_ne!(
            pair_seed(1, 0, Stream::Dice),
            pair_seed(1, 0, Stream::Opening)
        );
        assert_ne!(pair_seed(1, 0, Stream::Dice), pair_seed(1, 1, Stream::Dice));
        assert!(pair_seed(u64::MAX, 7, Stream::Engine) < 1 << 62);
    }
}
