//! One engine as a child process: start, handshake, options, and the request/answer exchange
//! of a game, each with a deadline.
//!
//! Everything the engine prints is external input: it is read on its own thread (so a silent
//! engine cannot block the arbiter) by the rules of [`crate::util::child`], and judged line by
//! line. A fault never
//! panics the arena; it comes back as a [`Fault`] that the referee turns into a lost game.

use super::tc::TimeControl;
use crate::util::child::{Child, Line, ReadError};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How an engine is started and configured: `cmd=PATH ARGS,name=N,dir=DIR,option.K=V,tc=...`.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// The name in results and records.
    pub name: String,
    /// Program and arguments (the `cmd` value split on spaces).
    pub command: Vec<String>,
    /// Engine options sent with `setoption` after the handshake, in the order given.
    pub options: Vec<(String, String)>,
    /// A time control for this engine only (else the match's `--tc`).
    pub tc: Option<TimeControl>,
    /// The folder the engine runs in (else the arena's), as cutechess-cli's `dir=`: where it
    /// finds the files it looks for by relative paths (tablebases, books), and a relative
    /// `cmd` too.
    pub dir: Option<PathBuf>,
}

impl EngineSpec {
    /// Parses the `--engine` value; unnamed engines are called `engine1`, `engine2` by `index`.
    pub fn parse(text: &str, index: usize) -> Result<EngineSpec, String> {
        let mut spec = EngineSpec {
            name: format!("engine{}", index + 1),
            command: Vec::new(),
            options: Vec::new(),
            tc: None,
            dir: None,
        };
        for item in text.split(',').filter(|s| !s.trim().is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| format!("--engine: expected key=value, not {item}"))?;
            match key.trim() {
                "cmd" => spec.command = value.split_whitespace().map(str::to_owned).collect(),
                "name" => spec.name = value.trim().to_owned(),
                "tc" => spec.tc = Some(TimeControl::parse(value)?),
                "dir" => spec.dir = Some(PathBuf::from(value.trim())),
                other => match other.strip_prefix("option.") {
                    Some(name) if !name.is_empty() => {
                        spec.options.push((name.to_owned(), value.to_owned()))
                    }
                    _ => return Err(format!("--engine: unknown key {other}")),
                },
            }
        }
        if spec.command.is_empty() {
            return Err(format!("--engine: no cmd= in {text}"));
        }
        if let Some(dir) = spec.dir.as_ref().filter(|dir| !dir.is_dir()) {
            return Err(format!("--engine: dir={} is not a folder", dir.display()));
        }
        Ok(spec)
    }
}

/// Why an exchange with an engine failed: the engine loses the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The process could not start, exited, or closed its output.
    Crash(String),
    /// No answer before the deadline of a `go` (a time forfeit).
    Time(String),
    /// No answer before the deadline of a handshake or `isready` (a hang).
    Hang(String),
    /// A line that is not part of the protocol, or a malformed `bestmove`.
    Garbage(String),
}

impl Fault {
    /// The one-word reason recorded for the lost game.
    pub fn reason(&self) -> &'static str {
        match self {
            Fault::Crash(_) => "crash",
            Fault::Time(_) => "time-forfeit",
            Fault::Hang(_) => "hang",
            Fault::Garbage(_) => "garbage",
        }
    }

    /// The details.
    pub fn detail(&self) -> &str {
        match self {
            Fault::Crash(d) | Fault::Time(d) | Fault::Hang(d) | Fault::Garbage(d) => d,
        }
    }
}

/// A running engine process.
pub struct Engine {
    child: Child,
    declared: Vec<String>,
    name: String,
    /// The last `error ...` the engine printed, to explain what follows.
    last_error: Option<String>,
}

impl Engine {
    /// Starts the engine and completes `ugi` ... `ugiok`, within `timeout`.
    pub fn start(spec: &EngineSpec, timeout: Duration) -> Result<Engine, Fault> {
        let program = spec.command.first().map_or("", String::as_str);
        let mut command = Command::new(program);
        command
            .args(spec.command.iter().skip(1))
            .stderr(Stdio::null());
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        let child = Child::spawn(&mut command)
            .map_err(|e| Fault::Crash(format!("cannot start {program}: {e}")))?;
        let mut engine = Engine {
            child,
            declared: Vec::new(),
            name: spec.name.clone(),
            last_error: None,
        };
        engine.send("ugi")?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = engine.next_line(deadline, timeout, "ugiok")?.text;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("ugiok") => break,
                Some("option") if words.next() == Some("name") => {
                    // Option names may contain spaces: they run up to the word `type`.
                    let name: Vec<&str> = words.take_while(|w| *w != "type").collect();
                    engine.declared.push(name.join(" ").to_ascii_lowercase());
                }
                _ => {}
            }
        }
        Ok(engine)
    }

    /// Chooses the game (through the `Game` and `GameOptions` options, when the engine has
    /// them: that is what UGI arbiters can send), then the user's options, then waits for
    /// `readyok`. An `error` answer to any of it is a fault: the engine would play something else.
    pub fn configure(
        &mut self,
        game: &str,
        game_options: &str,
        options: &[(String, String)],
        timeout: Duration,
    ) -> Result<(), Fault> {
        if self.has_option("Game") {
            self.send(&format!("setoption name Game value {game}"))?;
        }
        if self.has_option("GameOptions") {
            self.send(&format!("setoption name GameOptions value {game_options}"))?;
        }
        for (name, value) in options {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        match self.sync(timeout)? {
            Some(error) => Err(Fault::Garbage(format!(
                "setup refused: {}",
                printable(&error)
            ))),
            None => Ok(()),
        }
    }

    /// The engine's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether the handshake declared option `name` (case-insensitive, as UCI says).
    pub fn has_option(&self, name: &str) -> bool {
        self.declared.contains(&name.to_ascii_lowercase())
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.child
            .send(line)
            .map_err(|e| self.crashed(&format!("cannot write to it ({e})")))
    }

    /// Sends `isready` and waits for `readyok`; any `error` seen meanwhile is returned.
    pub fn sync(&mut self, timeout: Duration) -> Result<Option<String>, Fault> {
        self.last_error = None;
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.next_line(deadline, timeout, "readyok")?.text;
            match line.split_whitespace().next() {
                Some("readyok") => return Ok(self.last_error.take()),
                Some("error") => self.last_error = Some(line),
                _ => {}
            }
        }
    }

    /// Sends the lines that set up and start a search, then waits for `bestmove` until
    /// `limit`. Returns the move and the time it took, measured from the `go`.
    pub fn search(&mut self, setup: &[String], limit: Duration) -> Result<Move, Fault> {
        self.last_error = None;
        let (go, before) = setup.split_last().ok_or(Fault::Garbage("no go".into()))?;
        for line in before {
            self.send(line)?;
        }
        self.send(go)?;
        let start = Instant::now();
        let deadline = start + limit;
        loop {
            let Line { text: line, at } = self.next_line(deadline, limit, "bestmove")?;
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.first().copied() {
                None | Some("info" | "id" | "option" | "readyok" | "ugiok" | "response") => {}
                Some("error") => self.last_error = Some(line.clone()),
                // `bestmove M` or, from an engine with `Ponder` on, `bestmove M ponder P`.
                Some("bestmove")
                    if words.len() == 2 || words.len() == 4 && words[2] == "ponder" =>
                {
                    return Ok(Move {
                        token: words[1].to_owned(),
                        elapsed: at.saturating_duration_since(start),
                        complaint: self.last_error.take(),
                    });
                }
                Some(_) => return Err(Fault::Garbage(printable(&line))),
            }
        }
    }

    /// Asks the engine to quit and gives it a moment; it is killed when dropped anyway.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        self.child.status_within(Duration::from_millis(500));
    }

    /// The next line, or the fault of not getting one by `deadline` (`allowed` after the
    /// request, for the message). A line cut to the reader's limit is judged by what was
    /// kept: a long `info` line is still an `info` line.
    fn next_line(
        &mut self,
        deadline: Instant,
        allowed: Duration,
        waiting_for: &str,
    ) -> Result<Line, Fault> {
        match self.child.read_line(deadline) {
            Ok(line) | Err(ReadError::TooLong(line)) => Ok(line),
            Err(ReadError::Closed) => Err(self.crashed(&format!(
                "it closed its output while we waited for {waiting_for}"
            ))),
            Err(ReadError::Exited(status)) => Err(Fault::Crash(format!(
                "it exited while we waited for {waiting_for}; {status}"
            ))),
            Err(ReadError::Timeout) => {
                let message = format!("no {waiting_for} within {} ms", allowed.as_millis());
                Err(if waiting_for == "bestmove" {
                    Fault::Time(message)
                } else {
                    Fault::Hang(message)
                })
            }
        }
    }

    /// The crash fault, with the exit status when the process has ended.
    fn crashed(&mut self, what: &str) -> Fault {
        match self.child.status_within(Duration::from_millis(200)) {
            Some(status) => Fault::Crash(format!("{what}; {status}")),
            None => Fault::Crash(what.to_owned()),
        }
    }
}

/// A `bestmove` answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    /// The move token as sent.
    pub token: String,
    /// Time from `go` to the answer.
    pub elapsed: Duration,
    /// The last `error ...` line printed during the search, if any (it explains a `0000`).
    pub complaint: Option<String>,
}

/// Engine output made safe to print in one line of a report.
pub fn printable(text: &str) -> String {
    let mut out: String = text
        .chars()
        .take(120)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if text.chars().count() > 120 {
        out.push_str("...");
    }
    out
}
