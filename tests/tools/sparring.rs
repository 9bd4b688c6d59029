//! A sparring binary under a pipe, driven as arena drives it.

use crate::common::Engine;
use std::time::Duration;

/// How long a sparring partner may take for any answer (its searches take 100 ms).
const WAIT: Duration = Duration::from_secs(60);

/// A sparring partner searching to a fixed depth.
pub struct Sparring(Engine);

impl Sparring {
    /// Starts `program` (`env!("CARGO_BIN_EXE_gipf-sparring")`) with `--depth depth`.
    pub fn start(program: &str, depth: u32) -> Sparring {
        Sparring(Engine::program(program, &["--depth", &depth.to_string()]))
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.0.send(line);
    }

    /// Lines up to and including the first one starting with `last`.
    pub fn until(&mut self, last: &str) -> Vec<String> {
        self.0.lines_until(last, WAIT)
    }

    /// The answer to `go movetime 100` after `position POSITION`.
    pub fn bestmove(&mut self, position: &str) -> String {
        self.send(&format!("position {position}"));
        self.send("go movetime 100");
        let last = self.until("bestmove").pop().unwrap();
        last["bestmove ".len()..].to_owned()
    }
}
