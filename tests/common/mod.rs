//! The engine binary under a pipe, for the integration tests that talk to it as a GUI would.
// Each test crate that includes this module uses part of it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

/// A running engine: lines in, lines out. Its output is read on a thread, so a test can wait
/// for a line with a timeout instead of hanging on an engine that never answers.
pub struct Engine {
    child: Child,
    input: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    /// Starts the engine binary with these command-line arguments (`["morris", "flying=true"]`).
    pub fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the engine starts");
        let input = child.stdin.take();
        let output = child.stdout.take().unwrap();
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            input,
            lines,
        }
    }

    /// Sends one or more lines (`text` may hold several, separated by `\n`).
    pub fn send(&mut self, text: &str) {
        let input = self.input.as_mut().expect("input still open");
        writeln!(input, "{text}").unwrap();
        input.flush().unwrap();
    }

    /// The next line starting with `prefix` (earlier lines are dropped); panics when none
    /// comes within `timeout`.
    pub fn until(&self, prefix: &str, timeout: Duration) -> String {
        loop {
            let line = self
                .lines
                .recv_timeout(timeout)
                .unwrap_or_else(|_| panic!("no line starting with {prefix:?} within {timeout:?}"));
            if line.starts_with(prefix) {
                return line;
            }
        }
    }

    /// The next line, or `None` when none comes within `timeout`.
    pub fn next_line(&self, timeout: Duration) -> Option<String> {
        self.lines.recv_timeout(timeout).ok()
    }

    /// The engine's process id (to read its memory from `/proc`).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Closes the engine's input: the end of file a pipe gives when the GUI goes away.
    pub fn close_input(&mut self) {
        self.input = None;
    }

    /// Closes the engine's input and waits for it to exit; its last lines can still be read.
    pub fn finish(&mut self) -> ExitStatus {
        self.close_input();
        self.child.wait().expect("the engine exits")
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Some(mut input) = self.input.take() {
            let _ = writeln!(input, "quit");
        }
        let _ = self.child.wait();
    }
}
