//! The session: owns the current game, the engine options and the search thread, and turns
//! each [`Command`] into responses. A failed command prints one `error` line and changes
//! nothing: new states are built aside and committed only on success.

use super::command::{Command, GoParams, Query};
use super::options::{EngineOptions, Player};
use super::parse::{parse_line, USAGE};
use super::response::{Output, Response, NO_MOVE};
use crate::bench;
use crate::game::{GameError, Proven, Side};
use crate::registry::{self, AnyGame};
use crate::search::Limits;
use crate::util::rng::Rng;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

/// A search running on its own thread.
struct SearchJob {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<()>,
    ends: Ends,
}

/// What ends a running search other than `stop`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Ends {
    /// A limit (time, depth, nodes) or the end of its work (`solve`): a command that must
    /// wait for it can, and end of input waits for its answer.
    AtLimit,
    /// Nothing (`go infinite`): end of input stops it.
    Never,
}

/// What the input loop should do after a command.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading.
    Continue,
    /// `quit` was handled: stop reading.
    Quit,
}

/// The engine state behind the protocol.
pub struct Session {
    out: Output,
    options: EngineOptions,
    game: Box<dyn AnyGame>,
    rng: Rng,
    job: Option<SearchJob>,
    pending: PendingStops,
}

/// How many `stop` and `quit` lines the input reader has read that the session has not
/// handled yet. While the session waits for a search before a command that changes the state,
/// such a line further on in the input stops that search, so a long bounded search never
/// keeps `stop` or `quit` waiting.
#[derive(Clone, Default)]
pub struct PendingStops(Arc<AtomicUsize>);

impl PendingStops {
    /// The reader calls this for every line it reads, before the session sees it.
    pub fn note(&self, line: &str) {
        if is_interrupt(line) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn handled(&self, line: &str) {
        if is_interrupt(line) {
            let _ = self
                .0
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
        }
    }

    fn any(&self) -> bool {
        self.0.load(Ordering::SeqCst) > 0
    }
}

/// `stop` or `quit`, the lines that act on a search however far ahead they are read.
fn is_interrupt(line: &str) -> bool {
    matches!(line.trim(), "stop" | "quit")
}

impl Session {
    /// A session playing the default game, printing to `out`.
    pub fn new(out: Output) -> Session {
        let options = EngineOptions::default();
        let game = registry::new_game(&options.game, &[], options.hash_mib)
            .expect("the default game builds with default options");
        Session {
            out,
            rng: Rng::new(options.seed),
            options,
            game,
            job: None,
            pending: PendingStops::default(),
        }
    }

    /// The counter the input reader keeps of `stop` and `quit` lines read ahead.
    pub fn pending_stops(&self) -> PendingStops {
        self.pending.clone()
    }

    /// Chooses the game from the command line (`gipf`, `cascades width=5`).
    pub fn startup_game(&mut self, words: &[&str]) -> Result<(), String> {
        let line = format!("newgame {}", words.join(" "));
        match parse_line(&line) {
            Ok(Some(Command::NewGame { name, options })) => {
                self.new_game(name, &options).map_err(|e| e.to_string())
            }
            _ => Err(format!(
                "usage: tabula [GAME [key=value ...]], not {}",
                words.join(" ")
            )),
        }
    }

    fn new_game(&mut self, name: &str, options: &[(&str, &str)]) -> Result<(), GameError> {
        let game = registry::new_game(name, options, self.options.hash_mib)?;
        self.game = game;
        if !self.options.tablebase_path.is_empty() {
            self.attach_tablebases();
        }
        self.options.game = name.to_owned();
        self.options.game_options = options
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ");
        Ok(())
    }

    /// Handles one input line (already stripped of its newline).
    pub fn handle(&mut self, line: &str) -> Flow {
        self.pending.handled(line);
        match parse_line(line) {
            Ok(None) => Flow::Continue,
            Ok(Some(command)) => self.execute(command),
            Err(error) => {
                self.error(error);
                Flow::Continue
            }
        }
    }

    /// End of input: a bounded search finishes and answers; an infinite one is stopped.
    pub fn finish(&mut self) {
        if let Some(job) = &self.job {
            if job.ends == Ends::Never {
                job.stop.store(true, Ordering::Relaxed);
            }
        }
        self.join_search();
    }

    fn send(&self, response: Response) {
        self.out.send(&response);
    }

    fn error(&self, message: impl ToString) {
        self.send(Response::Error(message.to_string()));
    }

    fn execute(&mut self, command: Command<'_>) -> Flow {
        let searching = self.out.is_searching();
        if searching && mutates(&command) {
            // A bounded search ends by itself: let it answer first, so piped scripts work.
            // An infinite one would make us wait for ever, and a second `go` is a mistake.
            // (`stop` and `quit` still reach a search we wait for: the reader acts on them.)
            if matches!(command, Command::Go(_)) {
                self.error("already searching");
                return Flow::Continue;
            }
            if self
                .job
                .as_ref()
                .is_some_and(|job| job.ends == Ends::Never && !job.stop.load(Ordering::Relaxed))
            {
                self.error("an infinite search is running (send stop first)");
                return Flow::Continue;
            }
            self.join_search();
        }
        match command {
            Command::Handshake { uci } => {
                self.send(Response::Id(
                    "name",
                    format!("tabula {}", env!("CARGO_PKG_VERSION")),
                ));
                self.send(Response::Id("author", "the tabula developers".into()));
                for line in self.options.declarations() {
                    self.send(Response::OptionLine(line));
                }
                self.send(Response::HandshakeOk { uci });
            }
            Command::IsReady => self.send(Response::ReadyOk),
            Command::Quit => {
                if let Some(job) = &self.job {
                    job.stop.store(true, Ordering::Relaxed);
                }
                self.join_search();
                return Flow::Quit;
            }
            Command::Help => {
                let lines = USAGE
                    .iter()
                    .map(|(_, usage)| format!("help {usage}"))
                    .collect();
                self.send(Response::Text(lines));
            }
            Command::UgiNewGame => self.game.restart(),
            Command::NewGame { name, options } => {
                if let Err(error) = self.new_game(name, &options) {
                    self.error(error);
                }
            }
            Command::SetOption { name, value } => self.set_option(name, value),
            Command::Position { setup, moves } => {
                let done = match setup {
                    None => self.game.set_position(None, &moves),
                    Some((format, text)) => self.game.set_position_from(format, text, &moves),
                };
                if let Err(error) = done {
                    self.error(error);
                }
            }
            Command::Query(query) => self.send(Response::Answer(self.answer(query))),
            Command::LegalMoves => self.send(Response::LegalMoves(self.game.legal_moves())),
            Command::Perft(depth) => {
                let start = Instant::now();
                let count = self.game.perft(depth);
                let seconds = start.elapsed().as_secs_f64();
                log::info!(
                    "perft {depth}: {count} in {seconds:.3} s, {:.0} leaves/s",
                    count as f64 / seconds.max(1e-9)
                );
                self.send(Response::Perft(depth, count));
            }
            Command::Divide(depth) => {
                let rows = self.game.divide(depth);
                let total = rows.iter().map(|(_, n)| n).sum();
                for (mv, count) in rows {
                    self.send(Response::Divide(mv, count));
                }
                self.send(Response::Perft(depth, total));
            }
            Command::Move(token) => {
                if let Err(error) = self.game.play(token) {
                    self.error(error);
                }
            }
            Command::Undo => {
                if !self.game.undo() {
                    self.error("nothing to undo");
                }
            }
            Command::Fen(None) => self.send(Response::Fen(self.game.fen())),
            Command::Fen(Some(format)) => match self.game.position_in(format) {
                Ok(text) => self.send(Response::InFormat(format.to_owned(), text)),
                Err(error) => self.error(error),
            },
            Command::Solve(movetime) => self.solve(movetime),
            Command::Result => self.send(Response::Result(self.result())),
            Command::Display => self.send(Response::Text(self.board())),
            Command::Eval => self.send(Response::Eval(self.game.evaluate())),
            Command::Go(params) => self.go(&params),
            Command::Stop => {
                if let Some(job) = &self.job {
                    job.stop.store(true, Ordering::Relaxed);
                }
            }
            Command::Wait => match &self.job {
                Some(job)
                    if job.ends == Ends::Never
                        && !job.stop.load(Ordering::Relaxed)
                        && searching =>
                {
                    self.error("wait would never end: the search is infinite (send stop)")
                }
                _ => self.join_search(),
            },
            Command::Bench(nodes) => {
                let report = bench::run(nodes);
                for line in &report.lines {
                    self.send(Response::InfoString(line.clone()));
                }
                self.send(Response::Bench {
                    nodes: report.nodes,
                    time_ms: report.time_ms,
                });
            }
            Command::Dice(token) => {
                if !self.game.awaits_chance() {
                    self.error("no roll is pending");
                } else if let Err(error) = self.game.set_chance(token) {
                    self.error(error);
                }
            }
            Command::Roll => {
                if !self.game.awaits_chance() {
                    self.error("no roll is pending");
                } else {
                    match self.game.roll(&mut self.rng) {
                        Ok(roll) => self.send(Response::Roll(roll)),
                        Err(error) => self.error(error),
                    }
                }
            }
        }
        Flow::Continue
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let mut options = self.options.clone();
        if let Err(error) = options.set(name, value) {
            self.error(error);
            return;
        }
        let game_changed =
            options.game != self.options.game || options.game_options != self.options.game_options;
        if game_changed {
            let pairs = options.game_option_pairs();
            match registry::new_game(&options.game, &pairs, options.hash_mib) {
                Ok(game) => self.game = game,
                Err(error) => {
                    self.error(error);
                    return;
                }
            }
        } else if options.hash_mib != self.options.hash_mib {
            self.game.set_hash(options.hash_mib);
        }
        if options.seed != self.options.seed {
            self.rng = Rng::new(options.seed);
        }
        let attach = options.tablebase_path != self.options.tablebase_path
            || game_changed && !options.tablebase_path.is_empty();
        self.options = options;
        if attach {
            self.attach_tablebases();
        }
    }

    /// Hands the `TablebasePath` directory to the game (which may ignore it) and prints its
    /// notes, the one about a background load finishing too.
    fn attach_tablebases(&mut self) {
        let path = &self.options.tablebase_path;
        let dir = (!path.is_empty()).then(|| Path::new(path));
        let out = self.out.clone();
        let loaded = Box::new(move |note: String| out.send(&Response::InfoString(note)));
        if let Some(note) = self.game.set_tablebase_path(dir, loaded) {
            self.send(Response::InfoString(note));
        }
    }

    fn answer(&self, query: Query) -> &'static str {
        let outcome = self.game.outcome();
        match query {
            Query::GameOver => bool_text(outcome.is_some()),
            Query::P1Turn => bool_text(self.game.side_to_move() == Side::White),
            Query::Result => match outcome {
                None => "none",
                Some(o) => match o.winner {
                    Some(Side::White) => "p1win",
                    Some(Side::Black) => "p2win",
                    None => "draw",
                },
            },
        }
    }

    fn result(&self) -> Option<(&'static str, &'static str, u32)> {
        self.game
            .outcome()
            .map(|o| (o.winner.map_or("draw", Side::name), o.reason, o.points))
    }

    fn board(&self) -> Vec<String> {
        let mut lines = self.game.board_lines();
        lines.push(format!("game {} {}", self.game.name(), self.game.options()));
        lines.push(format!("fen {}", self.game.fen()));
        lines.push(format!("side to move {}", self.game.side_to_move().name()));
        lines.push(format!(
            "last move {}",
            self.game.last_move().unwrap_or_else(|| "none".into())
        ));
        lines.extend(Response::Result(self.result()).lines());
        lines
    }

    fn go(&mut self, params: &GoParams) {
        self.join_search();
        if let Some((who, reason, _)) = self.result() {
            self.error(format!("the game is over ({who} {reason})"));
            self.send(Response::BestMove(NO_MOVE.into()));
            return;
        }
        let before_roll = self.game.awaits_chance();
        if before_roll && !self.game.acts_before_chance() {
            self.error("no roll yet: send dice ROLL or roll first");
            self.send(Response::BestMove(NO_MOVE.into()));
            return;
        }
        if before_roll && self.options.player == Player::Random {
            // The random player never acts before its roll: it only ever plays dice.
            self.send(Response::BestMove("roll".into()));
            return;
        }
        if self.options.player == Player::Random {
            let moves = self.game.legal_moves();
            let pick = moves[self.rng.below(moves.len() as u64) as usize].clone();
            self.send(Response::BestMove(pick));
            return;
        }
        let mut limits = self.limits(params);
        if self.options.player == Player::Greedy {
            limits = Limits {
                depth: Some(1),
                variety: limits.variety,
                ..Limits::default()
            };
        }
        let ends = if params.infinite || limits.is_unbounded() {
            Ends::Never
        } else {
            Ends::AtLimit
        };
        self.spawn(ends, move |game, flag, out| {
            let found = catch_unwind(AssertUnwindSafe(|| {
                game.search(&limits, flag, &mut |info| {
                    out.send(&Response::Info(info.clone()))
                })
            }));
            let best = match found {
                Ok(found) => found.best.unwrap_or_else(|| NO_MOVE.to_owned()),
                Err(_) => {
                    log::error!("the search panicked; answering the null move");
                    NO_MOVE.to_owned()
                }
            };
            Response::BestMove(best)
        });
    }

    /// `solve`: proves the value on the search thread, so `stop` and `isready` still work.
    /// Without a time limit it runs until it is done (or stopped): end of input waits for it.
    fn solve(&mut self, movetime: Option<i64>) {
        self.join_search();
        if let Some(outcome) = self.game.outcome() {
            let value = match outcome.winner {
                None => Proven::Draw,
                Some(w) if w == self.game.side_to_move() => Proven::Win(0),
                Some(_) => Proven::Loss(0),
            };
            self.send(Response::Solve {
                value: Some(value),
                best: None,
                nodes: 0,
                time_ms: 0,
            });
            return;
        }
        if self.game.awaits_chance() {
            self.error("solve needs a position without a pending roll");
            return;
        }
        let limits = Limits {
            movetime,
            ..Limits::default()
        };
        self.spawn(Ends::AtLimit, move |game, flag, out| {
            let start = Instant::now();
            let solved = catch_unwind(AssertUnwindSafe(|| {
                game.solve(&limits, flag, &mut |info| {
                    out.send(&Response::Info(info.clone()))
                })
            }));
            let (value, best, nodes) = match solved {
                Ok(solved) => (solved.value, solved.best, solved.nodes),
                Err(_) => {
                    log::error!("the solver panicked; answering unknown");
                    (None, None, 0)
                }
            };
            Response::Solve {
                value,
                best,
                nodes,
                time_ms: start.elapsed().as_millis() as u64,
            }
        });
    }

    /// Runs `work` on a copy of the game on the search thread; its response ends the search.
    fn spawn<F>(&mut self, ends: Ends, work: F)
    where
        F: FnOnce(&dyn AnyGame, &AtomicBool, &Output) -> Response + Send + 'static,
    {
        let stop = Arc::new(AtomicBool::new(false));
        let game = self.game.boxed_clone();
        let out = self.out.clone();
        let flag = Arc::clone(&stop);
        self.out.begin_search();
        let handle = std::thread::spawn(move || {
            let last = work(game.as_ref(), &flag, &out);
            out.end_search(&last);
        });
        self.job = Some(SearchJob { stop, handle, ends });
    }

    fn limits(&self, params: &GoParams) -> Limits {
        let white = self.game.side_to_move() == Side::White;
        let (time_left, increment) = if white {
            (params.white_time, params.white_increment)
        } else {
            (params.black_time, params.black_increment)
        };
        Limits {
            depth: params.depth,
            nodes: params.nodes,
            movetime: params.movetime,
            time_left,
            increment: increment.unwrap_or(0).max(0),
            infinite: params.infinite,
            overhead: self.options.move_overhead,
            received: Some(Instant::now()),
            variety: self.options.variety.then_some(self.options.seed),
            threads: self.options.threads,
            multipv: self.options.multipv,
        }
    }

    fn join_search(&mut self) {
        if let Some(job) = self.job.take() {
            // A `stop` or `quit` later in the input is meant for this search (or ends the
            // session): let it act now rather than after the search has run its course.
            while !job.handle.is_finished() {
                if self.pending.any() {
                    job.stop.store(true, Ordering::Relaxed);
                }
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            if job.handle.join().is_err() {
                log::error!("the search thread ended abnormally");
            }
        }
    }
}

fn bool_text(value: bool) -> &'static str {
    if value {
        "true"
    } else {
        "false"
    }
}

/// Commands that wait for (or are refused during) a search: they change what it is about.
fn mutates(command: &Command<'_>) -> bool {
    matches!(
        command,
        Command::UgiNewGame
            | Command::NewGame { .. }
            | Command::SetOption { .. }
            | Command::Position { .. }
            | Command::Move(_)
            | Command::Undo
            | Command::Go(_)
            | Command::Bench(_)
            | Command::Solve(_)
            | Command::Dice(_)
            | Command::Roll
    )
}
