//! The input loop: reads lines (bounded in length) on a thread of their own, hands them to the
//! session in order, and ends on `quit` or at end of input after the running search has
//! answered. The reader notes the `stop`, `quit` and `wait` lines it reads ahead, so a `stop`
//! reaches a search even while the session waits for it before an earlier command. When
//! stdout is closed (a write fails), the session ends: the search is stopped, exit status 0.

use super::lines::{read_line, Line, LINE_LIMIT};
use super::read_ahead::PendingStops;
use super::response::{Output, Response};
use super::session::{Flow, Session};
use super::ubgi;
use crate::util::threads::spawn_with;
use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};

/// Lines read ahead of the session at most; the reader waits beyond that.
const READ_AHEAD: usize = 1024;

/// Reads `input` into `sender` until its end, noting `stop`, `quit` and `wait` in `pending`
/// (the body of the input thread).
fn read_ahead<I: BufRead>((mut input, pending, sender): (I, PendingStops, SyncSender<Line>)) {
    let mut buffer = Vec::new();
    loop {
        let line = read_line(&mut input, &mut buffer);
        let end = matches!(line, Line::End);
        if let Line::Text(text) = &line {
            pending.note(text);
        }
        if sender.send(line).is_err() || end {
            return;
        }
    }
}

/// Runs a session over `input` and `output`. `args` may name the game and its options
/// (`gipf`, `cascades width=5 rows=5`); returns the process exit code.
pub fn run(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
    args: &[String],
) -> i32 {
    let out = Output::new(Box::new(output));
    let mut session = Session::new(out.clone());
    if !args.is_empty() {
        let words: Vec<&str> = args.iter().map(String::as_str).collect();
        if let Err(message) = session.startup_game(&words) {
            eprintln!("tabula: {message}");
            return 2;
        }
    }
    let (sender, lines): (_, Receiver<Line>) = sync_channel(READ_AHEAD);
    // Wakes the loop when the output closes while it waits for input; if the queue is full,
    // the loop is busy and sees the closed output after the line it is handling.
    let wake = sender.clone();
    out.on_close(Box::new(move || {
        let _ = wake.try_send(Line::OutputClosed);
    }));
    let reader = (input, session.pending_stops(), sender);
    match spawn_with("input", reader, read_ahead) {
        Ok(_) => {
            let mut first = true;
            loop {
                let line = lines.recv().unwrap_or(Line::End);
                // A session whose first line is `ubgi` speaks UBGI instead.
                if let Line::Text(text) = &line {
                    if std::mem::take(&mut first) && text.trim() == ubgi::HANDSHAKE {
                        return ubgi::serve(&lines, &out);
                    }
                }
                if let Some(code) = step(&mut session, &out, line) {
                    return code;
                }
            }
        }
        Err(((mut input, _, _), error)) => {
            // No thread to be had (a thread or memory limit): the input is read here, each
            // line in its turn (`stop` then acts when it is read, not ahead of its turn).
            log::warn!("cannot start the input thread ({error}): reading input in turn");
            let mut buffer = Vec::new();
            loop {
                let line = match out.is_closed() {
                    true => Line::OutputClosed,
                    false => read_line(&mut input, &mut buffer),
                };
                if let Some(code) = step(&mut session, &out, line) {
                    return code;
                }
            }
        }
    }
}

/// Handles one input line; `Some(exit code)` when the session is over.
fn step(session: &mut Session, out: &Output, line: Line) -> Option<i32> {
    match line {
        Line::Text(text) => {
            // A bug must not take the engine down: report it and keep the session.
            match catch_unwind(AssertUnwindSafe(|| session.handle(&text))) {
                Ok(Flow::Quit) => return Some(0),
                Ok(Flow::Continue) => {}
                Err(_) => out.send(&Response::Error(
                    "internal error while handling this command".into(),
                )),
            }
        }
        Line::TooLong(length) => {
            out.send(&Response::Error(format!(
                "line too long: {length} bytes (limit {LINE_LIMIT})"
            )));
            if out.is_closed() {
                session.close();
                return Some(0);
            }
        }
        Line::End => {
            session.finish();
            return Some(0);
        }
        Line::OutputClosed => {
            session.close();
            return Some(0);
        }
    }
    None
}
