//! The string-level adapter the protocol uses.
//!
//! [`Slot<G>`] wraps a concrete [`crate::game::Game`] with its options, the moves played since the last
//! `position` (for `undo` and repetition), and its transposition table; [`AnyGame`] is its
//! object-safe face, so the session never names a game type: four traits, one per concern
//! (the position and its history, perft, searching and solving, the test harness).

use crate::game::{Build, Chance, Complete, Game, GameError, Laws, Outcome, Side, Solution};
use crate::search::{self, Info, Limits, Table};
use crate::strategy::{self, Chosen, Plain, RolloutLimits, RolloutStats, Strategy};
use crate::util::rng::Rng;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The position and its history: setting it, moves, notation, chance.
pub trait AnyPosition: Send {
    /// The game's `newgame` name.
    fn name(&self) -> &'static str;
    /// Its options as `key=value` tokens.
    fn options(&self) -> String;
    /// An independent copy (sharing the transposition table), e.g. for the search thread.
    fn boxed_clone(&self) -> Box<dyn AnyGame>;
    /// A new game of the same kind and options, at the start (`uginewgame`).
    fn restart(&mut self);
    /// Sets the position: start or `fen`, then every move, all or nothing.
    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), GameError>;
    /// Like [`AnyPosition::set_position`] from a position written in `format` (one of
    /// [`AnyPosition::formats`]).
    fn set_position_from(
        &mut self,
        format: &str,
        text: &str,
        moves: &[&str],
    ) -> Result<(), GameError>;
    /// The position formats this game reads and writes: `fen`, then the game's own.
    fn formats(&self) -> Vec<&'static str>;
    /// The current position written in `format`.
    fn position_in(&self, format: &str) -> Result<String, GameError>;
    /// Plays one validated move.
    fn play(&mut self, token: &str) -> Result<(), GameError>;
    /// Takes back the last move; false when none is left.
    fn undo(&mut self) -> bool;
    /// Every legal move, canonical spelling, sorted by byte order.
    fn legal_moves(&self) -> Vec<String>;
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
    /// What the player at a pending roll may do instead of rolling (backgammon's `double`),
    /// canonical spelling; empty when no roll is pending or nothing may come first (`go` then
    /// decides between these and `roll`).
    fn pre_chance_moves(&self) -> Vec<String>;
}

/// Perft: counting move sequences, whole or in pieces `stop` can come between.
pub trait AnyCounting: Send {
    /// Perft from the current position.
    fn perft(&self, depth: u32) -> u64;
    /// Perft that `stop` interrupts (`None` then), for the protocol's search thread.
    fn perft_until_stopped(&self, depth: u32, stop: &AtomicBool) -> Option<u64>;
    /// Perft per legal move (sorted by spelling); `None` when `stop` ended it first.
    fn divide(&self, depth: u32, stop: &AtomicBool) -> Option<Vec<(String, u64)>>;
}

/// Searching, solving and rolling out the current position, with its table and tablebases.
pub trait AnyThinking: Send {
    /// Resizes (and clears) the transposition table.
    fn set_hash(&mut self, mib: usize);
    /// Forgets the transposition table's contents.
    fn clear_hash(&mut self);
    /// `searchmoves`: the places of the moves `tokens` name in the current position's
    /// legal-move list (the move generator's order), ascending, each once, as
    /// [`Limits::root_moves`] wants them; a token that is no legal move is the error.
    fn root_move_places(&self, tokens: &[String]) -> Result<Vec<usize>, GameError>;
    /// The legal moves `limits.root_moves` allows, canonical spelling, sorted by byte order.
    fn allowed_moves(&self, limits: &Limits) -> Vec<String>;
    /// True when the current position's scores are chances (see
    /// [`crate::game::Hints::scores_are_chances`]).
    fn scores_are_chances(&self) -> bool;
    /// Searches the current position with the game's strategy (the registry's choice).
    fn search(&self, limits: &Limits, stop: &AtomicBool, report: &mut dyn FnMut(&Info)) -> Found;
    /// Tries to prove the value of the current position within `limits`.
    fn solve(
        &self,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info),
    ) -> Solution<String>;
    /// The static evaluation of the current position, from the mover's view.
    fn evaluate(&self) -> i32;
    /// Plays the current position out `limits.trials` times (see [`strategy::rollout`]),
    /// calling `progress` about once a second; `stop` ends it early.
    fn rollout(
        &self,
        limits: &RolloutLimits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&RolloutStats),
    ) -> RolloutStats;
    /// Points the game at endgame tables in `dir` (`None`: none), keeping the position; see
    /// [`crate::game::Exact::attach_tablebases`]. Returns a note for an `info string` line,
    /// if any.
    fn set_tablebase_path(
        &mut self,
        dir: Option<&Path>,
        loaded: Box<dyn FnOnce(String) + Send>,
    ) -> Option<String>;
    /// True while the current game's tables are still loading; see
    /// [`crate::game::Exact::tablebases_loading`].
    fn tablebases_loading(&self) -> bool;
}

/// What tests and `bench` need to know.
pub trait AnyHarness: Send {
    /// The game's own invariants hold (piece counts, hash); for tests.
    fn is_consistent(&self) -> bool;
    /// The depth `bench` searches this game to.
    fn bench_depth(&self) -> u32;
    /// The rules tests check from position strings (see [`Laws`]).
    fn laws(&self) -> Laws;
}

/// A game seen through strings: what the protocol session needs, for any game. One face per
/// concern; a caller imports the ones it uses.
pub trait AnyGame: AnyPosition + AnyCounting + AnyThinking + AnyHarness {}

impl<T: AnyPosition + AnyCounting + AnyThinking + AnyHarness> AnyGame for T {}

/// What a search found, in text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The move to play; `None` only when there is no legal move.
    pub best: Option<String>,
    /// Nodes searched.
    pub nodes: u64,
    /// The strategy's summaries of the decision ([`strategy::Choice::notes`]), for
    /// `info string` lines before the `bestmove`.
    pub notes: Vec<String>,
}

/// A concrete game with the session state around it.
pub struct Slot<G: Complete> {
    options: G::Options,
    start: G,
    history: Vec<(G, G::Move)>,
    position: G,
    table: Arc<Table>,
    hash_mib: usize,
    strategy: Arc<dyn Strategy<G>>,
}

/// Builds [`Slot`]s for games that choose their position type ([`Build`]).
pub struct SlotBuilder {
    /// The `Hash` size in MiB.
    pub hash_mib: usize,
}

impl Build for SlotBuilder {
    type Output = Box<dyn AnyGame>;

    fn build<G: Complete>(self, options: G::Options) -> Box<dyn AnyGame> {
        Box::new(Slot::<G>::new(options, self.hash_mib, Arc::new(Plain)))
    }
}

impl<G: Complete> Slot<G> {
    /// The registry constructor for a game played by the search alone ([`Plain`]).
    pub fn boxed(pairs: &[(&str, &str)], hash_mib: usize) -> Result<Box<dyn AnyGame>, GameError> {
        Slot::<G>::boxed_with(pairs, hash_mib, Arc::new(Plain))
    }

    /// The registry constructor for a game with a strategy of its own.
    pub fn boxed_with(
        pairs: &[(&str, &str)],
        hash_mib: usize,
        strategy: Arc<dyn Strategy<G>>,
    ) -> Result<Box<dyn AnyGame>, GameError> {
        let options = G::parse_options(pairs)?;
        Ok(Box::new(Slot::<G>::new(options, hash_mib, strategy)))
    }

    /// A slot at the start position.
    pub fn new(options: G::Options, hash_mib: usize, strategy: Arc<dyn Strategy<G>>) -> Slot<G> {
        let start = G::start(&options);
        Slot {
            position: start.clone(),
            start,
            history: Vec::new(),
            options,
            table: Arc::new(Table::new(hash_mib)),
            hash_mib,
            strategy,
        }
    }

    fn unknown_format(&self, format: &str) -> GameError {
        GameError::NoSuchFormat {
            game: G::NAME,
            format: format.to_owned(),
            known: self.formats(),
        }
    }

    /// Plays `moves` from `start` and commits the result only if every move is legal.
    fn replay(&mut self, start: G, moves: &[&str]) -> Result<(), GameError> {
        let mut position = start.clone();
        let mut history = Vec::with_capacity(moves.len());
        for (index, token) in moves.iter().enumerate() {
            let mv = position
                .parse_move(token)
                .map_err(|e| GameError::InMoveList {
                    index: index + 1,
                    error: Box::new(e),
                })?;
            history.push((position.clone(), mv));
            position.play(mv);
        }
        self.start = start;
        self.history = history;
        self.position = position;
        Ok(())
    }
}

impl<G: Complete> AnyPosition for Slot<G> {
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
            hash_mib: self.hash_mib,
            strategy: Arc::clone(&self.strategy),
        })
    }

    fn restart(&mut self) {
        self.start = G::start(&self.options);
        self.position = self.start.clone();
        self.history.clear();
        self.clear_hash();
    }

    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), GameError> {
        let start = match fen {
            None => G::start(&self.options),
            Some(text) => G::from_fen(text, &self.options)?,
        };
        self.replay(start, moves)
    }

    fn set_position_from(
        &mut self,
        format: &str,
        text: &str,
        moves: &[&str],
    ) -> Result<(), GameError> {
        if format == "fen" {
            return self.set_position(Some(text), moves);
        }
        if !G::formats().contains(&format) {
            return Err(GameError::BadPosition(
                self.unknown_format(format).to_string(),
            ));
        }
        let start = G::from_format(format, text, &self.options)?;
        self.replay(start, moves)
    }

    fn formats(&self) -> Vec<&'static str> {
        let mut formats = vec!["fen"];
        formats.extend_from_slice(G::formats());
        formats
    }

    fn position_in(&self, format: &str) -> Result<String, GameError> {
        if format == "fen" {
            return Ok(self.position.to_fen());
        }
        if !G::formats().contains(&format) {
            return Err(self.unknown_format(format));
        }
        self.position
            .to_format(format)
            .ok_or_else(|| GameError::CannotWrite(format.to_owned()))
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
        self.allowed_moves(&Limits::default())
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
        let chosen = Chance::draw(&events, rng.unit());
        self.position.apply_chance(chosen);
        Ok(self.position.format_chance(chosen))
    }

    fn pre_chance_moves(&self) -> Vec<String> {
        if !self.awaits_chance() {
            return Vec::new();
        }
        self.strategy
            .pre_chance_moves(&self.position)
            .into_iter()
            .map(|mv| self.position.format_move(mv))
            .collect()
    }
}

impl<G: Complete> AnyCounting for Slot<G> {
    fn perft(&self, depth: u32) -> u64 {
        self.position.perft(depth)
    }

    fn perft_until_stopped(&self, depth: u32, stop: &AtomicBool) -> Option<u64> {
        let start = Instant::now();
        let count = Pieces::new(stop).count(&self.position, depth);
        let seconds = start.elapsed().as_secs_f64();
        match count {
            Some(n) => log::info!(
                "perft {depth}: {n} in {seconds:.3} s, {:.0} leaves/s",
                n as f64 / seconds.max(1e-9)
            ),
            None => log::info!("perft {depth}: stopped after {seconds:.3} s"),
        }
        count
    }

    fn divide(&self, depth: u32, stop: &AtomicBool) -> Option<Vec<(String, u64)>> {
        let mut moves = Vec::new();
        self.position.legal_moves(&mut moves);
        let mut pieces = Pieces::new(stop);
        let mut rows = Vec::with_capacity(moves.len());
        for mv in moves {
            let mut child = self.position.clone();
            child.play(mv);
            let count = pieces.count(&child, depth.saturating_sub(1))?;
            rows.push((self.position.format_move(mv), count));
        }
        rows.sort_unstable();
        Some(rows)
    }
}

impl<G: Complete> AnyThinking for Slot<G> {
    fn set_hash(&mut self, mib: usize) {
        self.hash_mib = mib;
        self.table = Arc::new(Table::new(mib));
    }

    fn clear_hash(&mut self) {
        // A fresh table rather than zeroing this one: its memory comes zeroed and untouched,
        // so a large `Hash` is cleared at once (a search thread may still hold the old one).
        self.table = Arc::new(Table::new(self.hash_mib));
    }

    fn search(&self, limits: &Limits, stop: &AtomicBool, report: &mut dyn FnMut(&Info)) -> Found {
        let choice = self
            .strategy
            .choose(&self.position, limits, &self.table, stop, report);
        Found {
            best: choice.best.map(|chosen| match chosen {
                Chosen::Roll => "roll".to_owned(),
                Chosen::Move(mv) => self.position.format_move(mv),
            }),
            nodes: choice.nodes,
            notes: choice.notes,
        }
    }

    fn solve(
        &self,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Info),
    ) -> Solution<String> {
        let deadline = limits
            .movetime
            .map(|ms| Instant::now() + Duration::from_millis(ms.max(0) as u64));
        let found = self.position.solve(deadline, stop).or_else(|| {
            let prover = self.strategy.prover(&self.position)?;
            let table = &self.table;
            Some(search::solve_by_search(
                &self.position,
                prover,
                limits,
                table,
                stop,
                report,
            ))
        });
        found
            .unwrap_or(Solution {
                value: None,
                best: None,
                nodes: 0,
            })
            .map(|mv| self.position.format_move(mv))
    }

    fn evaluate(&self) -> i32 {
        self.position.evaluate()
    }

    fn scores_are_chances(&self) -> bool {
        self.position.scores_are_chances()
    }

    fn root_move_places(&self, tokens: &[String]) -> Result<Vec<usize>, GameError> {
        let mut moves = Vec::new();
        self.position.legal_moves(&mut moves);
        let spelled: Vec<String> = moves
            .iter()
            .map(|&mv| self.position.format_move(mv))
            .collect();
        let mut places = Vec::with_capacity(tokens.len());
        for token in tokens {
            let canonical = self.position.format_move(self.position.parse_move(token)?);
            let place = spelled
                .iter()
                .position(|text| *text == canonical)
                .ok_or_else(|| GameError::IllegalMove {
                    token: token.clone(),
                    reason: "not among the legal moves".into(),
                })?;
            places.push(place);
        }
        places.sort_unstable();
        places.dedup();
        Ok(places)
    }

    fn allowed_moves(&self, limits: &Limits) -> Vec<String> {
        let mut moves = Vec::new();
        self.position.legal_moves(&mut moves);
        limits.keep_root_moves(&mut moves);
        let mut text: Vec<String> = moves
            .iter()
            .map(|&mv| self.position.format_move(mv))
            .collect();
        text.sort_unstable();
        text
    }

    fn rollout(
        &self,
        limits: &RolloutLimits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&RolloutStats),
    ) -> RolloutStats {
        strategy::rollout(&self.position, limits, stop, progress)
    }

    fn set_tablebase_path(
        &mut self,
        dir: Option<&Path>,
        loaded: Box<dyn FnOnce(String) + Send>,
    ) -> Option<String> {
        let mut options = self.options.clone();
        let note = G::attach_tablebases(&mut options, dir, loaded)?;
        // Positions may carry their options: rebuild the current one under the new options
        // by replaying its moves from the same start (the start has no history of its own).
        let tokens: Vec<String> = self
            .history
            .iter()
            .map(|(before, mv)| before.format_move(*mv))
            .collect();
        let tokens: Vec<&str> = tokens.iter().map(String::as_str).collect();
        let saved = self.options.clone();
        self.options = options;
        let replayed = G::from_fen(&self.start.to_fen(), &self.options)
            .and_then(|start| self.replay(start, &tokens));
        if replayed.is_err() {
            self.options = saved;
        }
        Some(note)
    }

    fn tablebases_loading(&self) -> bool {
        G::tablebases_loading(&self.options)
    }
}

impl<G: Complete> AnyHarness for Slot<G> {
    fn is_consistent(&self) -> bool {
        self.position.is_consistent()
    }

    fn bench_depth(&self) -> u32 {
        G::BENCH_DEPTH
    }

    fn laws(&self) -> Laws {
        G::laws()
    }
}

/// Perft in pieces that `stop` can come between: a subtree is handed to the game's own (bulk
/// counting) [`Game::perft`] only when it should take at most [`Pieces::PIECE`]; bigger ones
/// are split into their children. The size of a subtree is estimated as its root's number of
/// moves to the power of its depth, and that estimate is turned into time with the seconds
/// per estimated leaf the pieces counted so far took (a cautious guess to begin with).
struct Pieces<'a> {
    stop: &'a AtomicBool,
    estimated: f64,
    seconds: f64,
}

impl<'a> Pieces<'a> {
    /// The longest a piece should take: `stop` then ends perft within about this long, even
    /// when a piece takes a few times its estimate.
    const PIECE: f64 = 0.01;
    /// The first guess: 10 million leaves per second, worth one millisecond of measurement.
    const PRIOR_SECONDS: f64 = 0.001;
    const PRIOR_LEAVES: f64 = 1e4;

    fn new(stop: &'a AtomicBool) -> Pieces<'a> {
        Pieces {
            stop,
            estimated: 0.0,
            seconds: 0.0,
        }
    }

    fn count<G: Game>(&mut self, pos: &G, depth: u32) -> Option<u64> {
        if self.stop.load(Ordering::Relaxed) {
            return None;
        }
        if depth <= 1 {
            return Some(pos.perft(depth));
        }
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let estimate = (moves.len() as f64).powi(depth as i32);
        let per_leaf = (self.seconds + Self::PRIOR_SECONDS) / (self.estimated + Self::PRIOR_LEAVES);
        if estimate * per_leaf <= Self::PIECE {
            let start = Instant::now();
            let count = pos.perft(depth);
            self.seconds += start.elapsed().as_secs_f64();
            self.estimated += estimate;
            return Some(count);
        }
        let mut total = 0;
        for mv in moves {
            let mut child = pos.clone();
            child.play(mv);
            total += self.count(&child, depth - 1)?;
        }
        Some(total)
    }
}
