//! The engine binary (or another protocol binary) under a pipe, for the integration tests that
//! talk to it as a GUI would.
// Each test crate that includes this module uses part of it.
#![allow(dead_code)]

use std::process::{Command, ExitStatus};
use std::time::{Duration, Instant};
use tabula::util::child::{Child, ReadError};

/// The longest [`Engine::finish`] waits for the engine to exit.
const EXIT_WAIT: Duration = Duration::from_secs(120);

/// A running engine: lines in, lines out, each line waited for with a timeout instead of
/// hanging on an engine that never answers (the reader is `tabula::util::child`).
pub struct Engine {
    child: Child,
}

impl Engine {
    /// Starts the engine binary with these command-line arguments (`["morris", "flying=true"]`).
    pub fn start(args: &[&str]) -> Engine {
        Engine::program(env!("CARGO_BIN_EXE_tabula"), args)
    }

    /// Starts another protocol binary (`env!("CARGO_BIN_EXE_morris-sparring")`), in the
    /// system's temporary directory: the engine takes a `tablebases` folder where it starts
    /// as its default `TablebasePath`, and tables a developer built in the checkout must not
    /// change what the tests see.
    pub fn program(path: &str, args: &[&str]) -> Engine {
        let child = Child::spawn(
            Command::new(path)
                .args(args)
                .current_dir(std::env::temp_dir()),
        )
        .expect("the engine starts");
        Engine { child }
    }

    /// Sends one or more lines (`text` may hold several, separated by `\n`).
    pub fn send(&mut self, text: &str) {
        self.child.send(text).expect("input still open");
    }

    /// The next line starting with `prefix` (earlier lines are dropped); panics when none
    /// comes within `timeout`.
    pub fn until(&mut self, prefix: &str, timeout: Duration) -> String {
        loop {
            let line = self
                .next_line(timeout)
                .unwrap_or_else(|| panic!("no line starting with {prefix:?} within {timeout:?}"));
            if line.starts_with(prefix) {
                return line;
            }
        }
    }

    /// The lines up to and including the first one starting with `last`, each within
    /// `timeout`.
    pub fn lines_until(&mut self, last: &str, timeout: Duration) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self
                .next_line(timeout)
                .unwrap_or_else(|| panic!("no {last:?} within {timeout:?} after {lines:?}"));
            let done = line.starts_with(last);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// The next line (a line cut to the reader's limit as it was kept), or `None` when none
    /// comes within `timeout` or the output has ended.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.child.read_line(Instant::now() + timeout) {
            Ok(line) | Err(ReadError::TooLong(line)) => Some(line.text),
            Err(_) => None,
        }
    }

    /// The engine's process id (to read its memory from `/proc`).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Closes the engine's input: the end of file a pipe gives when the GUI goes away.
    pub fn close_input(&mut self) {
        self.child.close_input();
    }

    /// Closes the engine's input and waits for it to exit; its last lines can still be read.
    pub fn finish(&mut self) -> ExitStatus {
        self.close_input();
        self.child
            .status_within(EXIT_WAIT)
            .expect("the engine exits")
    }
}
