//! The one place that lists every game, and the string-level adapter the protocol uses.
//!
//! [`Slot<G>`] wraps a concrete [`Game`] with its options, the moves played since the last
//! `position` (for `undo` and repetition), and its transposition table; [`AnyGame`] is its
//! object-safe face, so the session never names a game type.

use crate::game::{Chance, Game, GameError, Outcome, Side};
use crate::games;
use crate::search::{self, Info, Limits, Table};
use crate::util::rng::Rng;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

/// A registered game: its `newgame` name and how to build it from `key=value` options.
pub struct Entry {
    /// The name used by `newgame` and the `Game` option.
    pub name: &'static str,
    /// Builds a new game at its start position with the given options and `Hash` size.
    pub new: fn(&[(&str, &str)], usize) -> Result<Box<dyn AnyGame>, GameError>,
}

/// Every game the engine plays. Adding a game adds one line here.
pub const GAMES: &[Entry] = &[
    Entry {
        name: "bombardment",
        new: games::bombardment::new_game,
    },
    Entry {
        name: games::morris::Morris::NAME,
        new: Slot::<games::morris::Morris>::boxed,
    },
];

/// Finds a game by name and builds it.
pub fn new_game(
    name: &str,
    options: &[(&str, &str)],
    hash_mib: usize,
) -> Result<Box<dyn AnyGame>, GameError> {
    let entry = GAMES
        .iter()
        .find(|entry| entry.name == name)
        .ok_or_else(|| GameError::UnknownGame(name.to_owned()))?;
    (entry.new)(options, hash_mib)
}

/// A game seen through strings: what the protocol session needs, for any game.
pub trait AnyGame: Send {
    /// The game's `newgame` name.
    fn name(&self) -> &'static str;
    /// Its options as `key=value` tokens.
    fn options(&self) -> String;
    /// An independent copy (sharing the transposition table), e.g. for the search thread.
    fn boxed_clone(&self) -> Box<dyn AnyGame>;
    /// A new game of the same kind and options, at the start (`uginewgame`).
    fn restart(&mut self);
    /// Sets the position: start or `fen`, then every move, all or nothing.
    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), String>;
    /// Plays one validated move.
    fn play(&mut self, token: &str) -> Result<(), GameError>;
    /// Takes back the last move; false when none is left.
    fn undo(&mut self) -> bool;
    /// Every legal move, canonical spelling, sorted by byte order.
    fn legal_moves(&self) -> Vec<String>;
    /// Perft from the current position.
    fn perft(&self, depth: u32) -> u64;
    /// Perft per legal move (sorted by spelling).
    fn divide(&self, depth: u32) -> Vec<(String, u64)>;
    /// The current position string.
    fn fen(&self) -> String;
    /// The result, once over.
    fn outcome(&self) -> Option<Outcome>;
    /// Who moves (or rolls) next.
    fn side_to_move(&self) -> Side;
    /// The `d` board drawing.
    fn board_lines(&self) -> Vec<String>;
    /// The last move played since `position`, canonical spelling.
    fn last_move(&self) -> Option<String>;
    /// Number of moves played since `position`.
    fn plies(&self) -> usize;
    /// True when a chance event (a roll) must be fixed before anyone moves.
    fn awaits_chance(&self) -> bool;
    /// Fixes the pending roll from its spelling (`dice 31`).
    fn set_chance(&mut self, token: &str) -> Result<(), GameError>;
    /// Rolls the pending chance event with `rng`; returns its spelling.
    fn roll(&mut self, rng: &mut Rng) -> Result<String, GameError>;
    /// Resizes (and clears) the transposition table.
    fn set_hash(&mut self, mib: usize);
    /// Forgets the transposition table's contents.
    fn clear_hash(&mut self);
    /// Searches the current position.
    fn search(&self, limits: &Limits, stop: &AtomicBool, report: &mut dyn FnMut(&Info)) -> Found;
    /// The static evaluation of the current position, from the mover's view.
    fn evaluate(&self) -> i32;
    /// The game's own invariants hold (piece counts, hash); for tests.
    fn is_consistent(&self) -> bool;
}

/// What a search found, in text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The move to play; `None` only when there is no legal move.
    pub best: Option<String>,
    /// Nodes searched.
    pub nodes: u64,
}

/// A concrete game with the session state around it.
pub struct Slot<G: Game> {
    options: G::Options,
    start: G,
    history: Vec<(G, G::Move)>,
    position: G,
    table: Arc<Mutex<Table<G::Move>>>,
}

impl<G: Game> Slot<G> {
    /// The registry constructor for `G`.
    pub fn boxed(pairs: &[(&str, &str)], hash_mib: usize) -> Result<Box<dyn AnyGame>, GameError> {
        let options = G::parse_options(pairs)?;
        Ok(Box::new(Slot::<G>::new(options, hash_mib)))
    }

    /// A slot at the start position.
    pub fn new(options: G::Options, hash_mib: usize) -> Slot<G> {
        let start = G::start(&options);
        Slot {
            position: start.clone(),
            start,
            history: Vec::new(),
            options,
            table: Arc::new(Mutex::new(Table::new(hash_mib))),
        }
    }

    fn table(&self) -> std::sync::MutexGuard<'_, Table<G::Move>> {
        // A search thread that panicked cannot have left the table half-written in a way
        // that matters: entries are plain values. Keep using it.
        self.table
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }
}

impl<G: Game> AnyGame for Slot<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn options(&self) -> String {
        G::format_options(&self.options)
    }

    fn boxed_clone(&self) -> Box<dyn AnyGame> {
        Box::new(Slot {
            options: self.options.clone(),
            start: self.start.clone(),
            history: self.history.clone(),
            position: self.position.clone(),
            table: Arc::clone(&self.table),
        })
    }

    fn restart(&mut self) {
        self.start = G::start(&self.options);
        self.position = self.start.clone();
        self.history.clear();
        self.clear_hash();
    }

    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), String> {
        let start = match fen {
            None => G::start(&self.options),
            Some(text) => G::from_fen(text, &self.options).map_err(|e| e.to_string())?,
        };
        let mut position = start.clone();
        let mut history = Vec::with_capacity(moves.len());
        for (index, token) in moves.iter().enumerate() {
            let mv = position
                .parse_move(token)
                .map_err(|e| format!("{e} (move {} of the list)", index + 1))?;
            history.push((position.clone(), mv));
            position.play(mv);
        }
        self.start = start;
        self.history = history;
        self.position = position;
        Ok(())
    }

    fn play(&mut self, token: &str) -> Result<(), GameError> {
        let mv = self.position.parse_move(token)?;
        self.history.push((self.position.clone(), mv));
        self.position.play(mv);
        Ok(())
    }

    fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some((before, _)) => {
                self.position = before;
                true
            }
            None => false,
        }
    }

    fn legal_moves(&self) -> Vec<String> {
        let mut moves = Vec::new();
        self.position.legal_moves(&mut moves);
        let mut text: Vec<String> = moves
            .iter()
            .map(|&mv| self.position.format_move(mv))
            .collect();
        text.sort_unstable();
        text
    }

    fn perft(&self, depth: u32) -> u64 {
        self.position.perft(depth)
    }

    fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        let mut moves = Vec::new();
        self.position.legal_moves(&mut moves);
        let mut rows: Vec<(String, u64)> = moves
            .iter()
            .map(|&mv| {
                let mut child = self.position.clone();
                child.play(mv);
                let count = if depth <= 1 {
                    1
                } else {
                    child.perft(depth - 1)
                };
                (self.position.format_move(mv), count)
            })
            .collect();
        rows.sort_unstable();
        rows
    }

    fn fen(&self) -> String {
        self.position.to_fen()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.position.outcome()
    }

    fn side_to_move(&self) -> Side {
        self.position.side_to_move()
    }

    fn board_lines(&self) -> Vec<String> {
        self.position.board_lines()
    }

    fn last_move(&self) -> Option<String> {
        self.history
            .last()
            .map(|(before, mv)| before.format_move(*mv))
    }

    fn plies(&self) -> usize {
        self.history.len()
    }

    fn awaits_chance(&self) -> bool {
        let mut events = Vec::new();
        self.position.chance_events(&mut events);
        !events.is_empty()
    }

    fn set_chance(&mut self, token: &str) -> Result<(), GameError> {
        let event = self.position.parse_chance(token)?;
        self.position.apply_chance(event);
        Ok(())
    }

    fn roll(&mut self, rng: &mut Rng) -> Result<String, GameError> {
        let mut events: Vec<Chance> = Vec::new();
        self.position.chance_events(&mut events);
        if events.is_empty() {
            return Err(GameError::Unsupported("a roll now"));
        }
        let mut draw = rng.unit();
        let mut chosen = events[events.len() - 1].event;
        for event in &events {
            if draw < event.probability {
                chosen = event.event;
                break;
            }
            draw -= event.probability;
        }
        self.position.apply_chance(chosen);
        Ok(self.position.format_chance(chosen))
    }

    fn set_hash(&mut self, mib: usize) {
        self.table = Arc::new(Mutex::new(Table::new(mib)));
    }

    fn clear_hash(&mut self) {
        self.table().clear();
    }

    fn search(&self, limits: &Limits, stop: &AtomicBool, report: &mut dyn FnMut(&Info)) -> Found {
        let mut table = self.table();
        let result = search::search(&self.position, limits, &mut table, stop, report);
        Found {
            best: result.best.map(|mv| self.position.format_move(mv)),
            nodes: result.nodes,
        }
    }

    fn evaluate(&self) -> i32 {
        self.position.evaluate()
    }

    fn is_consistent(&self) -> bool {
        self.position.is_consistent()
    }
}
