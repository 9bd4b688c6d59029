//! Engine options (`setoption`), their UGI declarations and their validation.

use crate::registry::GAMES;

/// The engine options a GUI or arbiter can set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// `Game`: the game being played.
    pub game: String,
    /// `GameOptions`: the game's `key=value` options, space separated.
    pub game_options: String,
    /// `Hash`: transposition table size in MiB.
    pub hash_mib: usize,
    /// `Threads`: search threads (Lazy SMP: helpers share the transposition table).
    pub threads: usize,
    /// `MultiPV`: how many best root moves `go` reports, each with its score and line.
    pub multipv: usize,
    /// `Seed`: seeds the dice of `roll` and any random choice.
    pub seed: u64,
    /// `MoveOverhead`: milliseconds kept back from every time limit.
    pub move_overhead: i64,
    /// `Player`: who answers `go` (the search, or a sparring partner).
    pub player: Player,
    /// `TablebasePath`: a directory of endgame tables (empty: none); each game decides which
    /// of its files it loads.
    pub tablebase_path: String,
    /// `Variety`: equally scored root moves are chosen at random (from `Seed` and the
    /// position) instead of by move order, so that games between engines differ.
    pub variety: bool,
    /// `Ponder`: the GUI may send `go ponder`; `bestmove` then names the expected reply.
    pub ponder: bool,
    /// `OwnBook`: a game's own opening book answers timed searches where it has a move.
    pub own_book: bool,
}

/// Who chooses the move on `go`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Player {
    /// The full search within the `go` limits.
    Search,
    /// A one-ply search: the move with the best static evaluation (a sparring partner).
    Greedy,
    /// A uniformly random legal move from the seeded generator (a sparring partner).
    Random,
}

impl Player {
    const ALL: [(Player, &'static str); 3] = [
        (Player::Search, "search"),
        (Player::Greedy, "greedy"),
        (Player::Random, "random"),
    ];

    fn name(self) -> &'static str {
        Player::ALL
            .iter()
            .find(|(p, _)| *p == self)
            .map_or("search", |(_, n)| n)
    }
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            game: "bombardment".into(),
            game_options: String::new(),
            hash_mib: 16,
            threads: 1,
            multipv: 1,
            seed: 0,
            move_overhead: 10,
            player: Player::Search,
            tablebase_path: default_tablebase_path(),
            variety: false,
            ponder: false,
            own_book: true,
        }
    }
}

/// Where `morris-tb` writes by default: when the engine starts in a directory holding it,
/// its tables are used without being asked for (`TablebasePath` empty switches them off).
const DEFAULT_TABLEBASES: &str = "tablebases";

fn default_tablebase_path() -> String {
    if std::path::Path::new(DEFAULT_TABLEBASES).is_dir() {
        DEFAULT_TABLEBASES.into()
    } else {
        String::new()
    }
}

const HASH_MAX: usize = 65536;
const THREADS_MAX: usize = crate::search::MAX_THREADS;
const MULTIPV_MAX: usize = 256;
const OVERHEAD_MAX: i64 = 5000;
const SEED_MAX: u64 = i64::MAX as u64;

impl EngineOptions {
    /// The `option ...` declarations printed by the handshake (without the `option ` prefix).
    pub fn declarations(&self) -> Vec<String> {
        let games: Vec<String> = GAMES.iter().map(|g| format!("var {}", g.name)).collect();
        let defaults = EngineOptions::default();
        vec![
            format!(
                "name Game type combo default {} {}",
                defaults.game,
                games.join(" ")
            ),
            "name GameOptions type string default <empty>".into(),
            format!(
                "name Hash type spin default {} min 1 max {HASH_MAX}",
                defaults.hash_mib
            ),
            format!("name Threads type spin default 1 min 1 max {THREADS_MAX}"),
            format!("name MultiPV type spin default 1 min 1 max {MULTIPV_MAX}"),
            format!(
                "name Seed type spin default {} min 0 max {SEED_MAX}",
                defaults.seed
            ),
            format!(
                "name MoveOverhead type spin default {} min 0 max {OVERHEAD_MAX}",
                defaults.move_overhead
            ),
            format!(
                "name Player type combo default {} var search var greedy var random",
                defaults.player.name()
            ),
            format!(
                "name TablebasePath type string default {}",
                match defaults.tablebase_path.as_str() {
                    "" => "<empty>",
                    path => path,
                }
            ),
            format!("name Variety type check default {}", defaults.variety),
            format!("name Ponder type check default {}", defaults.ponder),
            format!("name OwnBook type check default {}", defaults.own_book),
        ]
    }

    /// The game options as `(key, value)` pairs.
    pub fn game_option_pairs(&self) -> Vec<(&str, &str)> {
        super::option_pairs(&self.game_options)
    }

    /// Sets one option by (case-insensitive) name; the value is checked, never clamped.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let value = value.map(str::trim);
        let number = |max: u64| -> Result<u64, String> {
            value
                .and_then(|v| v.parse::<u64>().ok())
                .filter(|n| *n <= max)
                .ok_or_else(|| format!("bad value for {name}: expected a number 0..{max}"))
        };
        let count = |max: usize| -> Result<usize, String> {
            value
                .and_then(|v| v.parse::<usize>().ok())
                .filter(|n| (1..=max).contains(n))
                .ok_or_else(|| format!("bad value for {name}: expected a number 1..{max}"))
        };
        match name.to_ascii_lowercase().as_str() {
            "game" => {
                let wanted = value.unwrap_or("");
                let game = GAMES
                    .iter()
                    .find(|g| g.name.eq_ignore_ascii_case(wanted))
                    .ok_or_else(|| {
                        let names: Vec<&str> = GAMES.iter().map(|g| g.name).collect();
                        format!("bad value for Game: expected one of {}", names.join(", "))
                    })?;
                self.game = game.name.to_owned();
            }
            "gameoptions" => {
                let text = value.unwrap_or("");
                let text = if text == "<empty>" { "" } else { text };
                // A word without `=` is judged by the registry, as after `newgame`.
                self.game_options = text.split_whitespace().collect::<Vec<_>>().join(" ");
            }
            "hash" => self.hash_mib = count(HASH_MAX)?,
            "threads" => self.threads = count(THREADS_MAX)?,
            "multipv" => self.multipv = count(MULTIPV_MAX)?,
            "seed" => self.seed = number(SEED_MAX)?,
            "moveoverhead" | "move overhead" => {
                self.move_overhead = number(OVERHEAD_MAX as u64)? as i64
            }
            "player" => {
                let wanted = value.unwrap_or("");
                self.player = Player::ALL
                    .iter()
                    .find(|(_, n)| n.eq_ignore_ascii_case(wanted))
                    .map(|(p, _)| *p)
                    .ok_or_else(|| {
                        "bad value for Player: expected search, greedy or random".to_string()
                    })?;
            }
            "tablebasepath" => {
                let text = value.unwrap_or("");
                let text = if text == "<empty>" { "" } else { text };
                if !text.is_empty() && !std::path::Path::new(text).is_dir() {
                    return Err(format!(
                        "bad value for TablebasePath: {text} is not a directory"
                    ));
                }
                self.tablebase_path = text.to_owned();
            }
            "variety" => self.variety = check(value, "Variety")?,
            "ownbook" => self.own_book = check(value, "OwnBook")?,
            "ponder" => self.ponder = check(value, "Ponder")?,
            _ => return Err(format!("no such option: {name}")),
        }
        Ok(())
    }
}

/// A `check` option's value: `true` or `false` (any case).
fn check(value: Option<&str>, name: &str) -> Result<bool, String> {
    match value.map(str::to_ascii_lowercase).as_deref() {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        _ => Err(format!("bad value for {name}: expected true or false")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_checked_not_clamped() {
        let mut options = EngineOptions::default();
        assert!(options.set("Hash", Some("0")).is_err());
        assert!(options.set("Hash", Some("lots")).is_err());
        assert!(options.set("hash", Some("64")).is_ok());
        assert_eq!(options.hash_mib, 64);
        assert!(options.set("Threads", Some("0")).is_err());
        assert!(options.set("Threads", Some("257")).is_err());
        assert!(options.set("Threads", Some("-1")).is_err());
        assert!(options.set("Threads", Some("2")).is_ok());
        assert_eq!(options.threads, 2);
        assert!(options.set("MultiPV", Some("0")).is_err());
        assert!(options.set("multipv", Some("3")).is_ok());
        assert_eq!(options.multipv, 3);
        assert!(options.set("Colour", Some("2")).is_err());
        assert!(options.set("Game", Some("chess")).is_err());
        assert!(options.set("Ponder", Some("yes")).is_err());
        assert!(options.set("ponder", Some("TRUE")).is_ok());
        assert!(options.ponder);
        assert_eq!(options.hash_mib, 64);
    }

    #[test]
    fn tablebase_path_must_be_a_directory() {
        let mut options = EngineOptions::default();
        let dir = std::env::temp_dir();
        assert!(options.set("TablebasePath", dir.to_str()).is_ok());
        assert_eq!(options.tablebase_path, dir.to_str().unwrap());
        assert!(options
            .set("TablebasePath", Some("/no/such/tabula/dir"))
            .is_err());
        assert_eq!(options.tablebase_path, dir.to_str().unwrap());
        options.set("tablebasepath", Some("<empty>")).unwrap();
        assert!(options.tablebase_path.is_empty());
    }

    #[test]
    fn game_options_split_into_pairs() {
        let mut options = EngineOptions::default();
        options.set("GameOptions", Some(" size=6  ")).unwrap();
        assert_eq!(options.game_option_pairs(), vec![("size", "6")]);
        // Left for the registry to refuse, in the words it uses after `newgame`.
        options.set("GameOptions", Some("size")).unwrap();
        assert_eq!(options.game_option_pairs(), vec![("size", "")]);
        options.set("GameOptions", Some("<empty>")).unwrap();
        assert!(options.game_option_pairs().is_empty());
    }
}
