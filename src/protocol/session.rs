//! The session: owns the current game, the engine options and the search job, and turns
//! each [`Command`] into responses. A failed command prints one `error` line and changes
//! nothing: new states are built aside and committed only on success. The commands that run
//! on the search thread are in `searches.rs`, those that replace the game in `setup.rs`.

use super::command::{Command, Query};
use super::lag::LagMeter;
use super::options::EngineOptions;
use super::parse::{command_word, parse_line, USAGE};
use super::read_ahead::PendingStops;
use super::response::{Output, Response, NO_MOVE};
use super::search_job::SearchJob;
use crate::bench;
use crate::game::Side;
use crate::registry::{self, AnyGame};
use crate::util::rng::Rng;
use std::time::Instant;

/// What the input loop should do after a command.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep reading.
    Continue,
    /// `quit` was handled, or nobody reads the output any more: stop reading.
    Quit,
}

/// The engine state behind the protocol.
pub struct Session {
    pub(super) out: Output,
    pub(super) options: EngineOptions,
    pub(super) game: Box<dyn AnyGame>,
    pub(super) rng: Rng,
    pub(super) job: Option<SearchJob>,
    /// What each side's clock has lost beyond the searches (`lag`).
    pub(super) lag: LagMeter,
    pending: PendingStops,
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
            lag: LagMeter::default(),
            pending: PendingStops::default(),
        }
    }

    /// The record the input reader keeps of `stop`, `quit` and `wait` lines read ahead.
    pub fn pending_stops(&self) -> PendingStops {
        self.pending.clone()
    }

    /// Handles one input line (already stripped of its newline).
    pub fn handle(&mut self, line: &str) -> Flow {
        self.pending.handled(line);
        let flow = match parse_line(line) {
            Ok(None) => Flow::Continue,
            Ok(Some(command)) => self.execute(command),
            Err(error) if command_word(line) == "go" => {
                // A malformed `go` still gets its one `bestmove`, in its turn.
                if self.queue_behind_job(true) {
                    self.error(error);
                    self.send(Response::BestMove(NO_MOVE.into()));
                }
                Flow::Continue
            }
            Err(error) => {
                self.error(error);
                Flow::Continue
            }
        };
        if self.out.is_closed() {
            self.close();
            return Flow::Quit;
        }
        flow
    }

    /// End of input: a bounded job finishes and answers; an endless one is stopped.
    pub fn finish(&mut self) {
        if let Some(job) = self.job.as_ref().filter(|job| job.is_endless()) {
            job.stop();
        }
        self.join_job(false);
    }

    /// Nobody reads the output any more: stops the job and waits for its thread.
    pub fn close(&mut self) {
        if let Some(job) = &self.job {
            job.stop();
        }
        self.join_job(false);
    }

    pub(super) fn send(&self, response: Response) {
        self.out.send(&response);
    }

    pub(super) fn error(&self, message: impl ToString) {
        self.send(Response::Error(message.to_string()));
    }

    /// True while a job runs that only `stop` can end.
    fn endless_job(&self) -> bool {
        self.out.is_searching() && self.job.as_ref().is_some_and(SearchJob::is_endless)
    }

    /// Before a command that must not run beside the job: a bounded job ends by itself, so
    /// the command waits for its answer (piped scripts just work); an endless one would make
    /// it wait for ever, so it is refused (false). A `go` during an endless job is refused
    /// as `already searching` and gets no `bestmove` of its own: the next `bestmove` is the
    /// running search's.
    fn queue_behind_job(&mut self, go: bool) -> bool {
        if self.endless_job() {
            self.error(if go {
                "already searching"
            } else {
                "an infinite search is running (send stop first)"
            });
            return false;
        }
        self.join_job(true);
        true
    }

    /// Waits for the job to end. With `interruptible`, a `stop` or `quit` read ahead (with
    /// no `wait` before it) stops it at once; a closed output always does.
    pub(super) fn join_job(&mut self, interruptible: bool) {
        if let Some(job) = self.job.take() {
            let pending = self.pending.clone();
            let out = self.out.clone();
            job.join(|| out.is_closed() || interruptible && pending.interrupt_ahead());
        }
    }

    /// Waits while the current game's tables load, as UCI asks of `isready` after a
    /// tablebase path is set, so an arbiter's first game is played with them; a `stop` or
    /// `quit` read ahead ends the wait (the tables go on loading), and so does a closed
    /// output.
    fn wait_for_tables(&self) {
        while self.game.tablebases_loading()
            && !self.out.is_closed()
            && !self.pending.interrupt_ahead()
        {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }

    fn execute(&mut self, command: Command<'_>) -> Flow {
        if queues(&command) && !self.queue_behind_job(matches!(command, Command::Go(_))) {
            return Flow::Continue;
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
            Command::IsReady => {
                // A job told to stop answers within milliseconds: its answer comes first,
                // so `stop`, `isready` always gives `bestmove` before `readyok`. A count
                // answers first too (a `stop` read ahead still cuts it short).
                if let Some(job) = &self.job {
                    if job.delays_ready() {
                        let interruptible = !job.is_stopped();
                        self.join_job(interruptible);
                    }
                }
                if !self.out.is_searching() {
                    self.wait_for_tables();
                }
                self.send(Response::ReadyOk)
            }
            Command::Quit => {
                self.close();
                return Flow::Quit;
            }
            Command::Help => self.send(Response::Text(help_lines())),
            Command::UgiNewGame => {
                self.game.restart();
                self.lag.forget();
            }
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
            Command::Perft(depth) => self.perft(depth),
            Command::Divide(depth) => self.divide(depth),
            Command::Rollout(params) => self.rollout(params),
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
                    job.stop();
                }
            }
            Command::PonderHit => {
                if let Some(job) = &self.job {
                    job.ponder_hit(Instant::now());
                }
            }
            Command::Wait => {
                if self.endless_job() {
                    self.error("wait would never end: the search is infinite (send stop)");
                } else {
                    // `stop` and `quit` after the `wait` act after it, not on this search.
                    self.join_job(false);
                }
            }
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

    pub(super) fn result(&self) -> Option<(&'static str, &'static str, u32)> {
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
}

fn bool_text(value: bool) -> &'static str {
    if value {
        "true"
    } else {
        "false"
    }
}

/// Commands that wait for (or are refused during) a job: they change what it is about, or
/// (`go`, `solve`, `perft`, `divide`) are jobs themselves.
fn queues(command: &Command<'_>) -> bool {
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
            | Command::Perft(_)
            | Command::Divide(_)
            | Command::Rollout(_)
            | Command::Dice(_)
            | Command::Roll
    )
}

/// `help`: every command's syntax, and after `newgame` every game's options from their
/// declarations, one `help USAGE` line each.
fn help_lines() -> Vec<String> {
    let mut lines = Vec::new();
    for (word, usage) in USAGE {
        lines.push(format!("help {usage}"));
        if *word == "newgame" {
            for game in registry::GAMES {
                for option in game.options {
                    lines.push(format!(
                        "help newgame {} {}: {} (default {})",
                        game.name,
                        option.usage(),
                        option.doc,
                        option.default
                    ));
                }
            }
        }
    }
    lines
}
