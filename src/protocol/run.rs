//! The input loop: reads lines (bounded in length) on a thread of their own, hands them to the
//! session in order, and ends on `quit` or at end of input after the running search has
//! answered. The reader notes the `stop`, `quit` and `wait` lines it reads ahead, so a `stop`
//! reaches a search even while the session waits for it before an earlier command. When
//! stdout is closed (a write fails), the session ends: the search is stopped, exit status 0.

use super::read_ahead::PendingStops;
use super::response::{Output, Response};
use super::session::{Flow, Session};
use super::ubgi;
use crate::util::threads::spawn_with;
use std::io::{BufRead, ErrorKind, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};

/// Lines read ahead of the session at most; the reader waits beyond that.
const READ_AHEAD: usize = 1024;

/// Longest accepted input line in bytes; longer lines are refused with an error.
pub const LINE_LIMIT: usize = 256 * 1024;

pub(super) enum Line {
    Text(String),
    TooLong(usize),
    End,
    /// Not a line: the output was closed.
    OutputClosed,
}

/// Reads one line without ever buffering more than [`LINE_LIMIT`] bytes of it (and its CR).
/// A trailing CR does not count: a CRLF line of the limit is accepted like its LF twin.
fn read_line(input: &mut dyn BufRead, buffer: &mut Vec<u8>) -> Line {
    buffer.clear();
    let mut length = 0usize;
    let mut last = None;
    let finished = |length: usize, last: Option<u8>, buffer: &[u8]| {
        let length = length - usize::from(last == Some(b'\r'));
        if length > LINE_LIMIT {
            Line::TooLong(length)
        } else {
            Line::Text(String::from_utf8_lossy(buffer).into_owned())
        }
    };
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => {
                log::warn!("input error, ending the session: {e}");
                return Line::End;
            }
        };
        if chunk.is_empty() {
            return match length {
                0 => Line::End,
                _ => finished(length, last, buffer),
            };
        }
        let (used, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(at) => (at + 1, true),
            None => (chunk.len(), false),
        };
        let content = if done { &chunk[..used - 1] } else { chunk };
        length += content.len();
        if let Some(&byte) = content.last() {
            last = Some(byte);
        }
        if length <= LINE_LIMIT + 1 {
            buffer.extend_from_slice(content);
        }
        input.consume(used);
        if done {
            return finished(length, last, buffer);
        }
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_refused_and_the_next_line_still_read() {
        let mut data = vec![b'a'; LINE_LIMIT + 10];
        data.extend_from_slice(b"\nisready\r\nlast");
        let mut input = std::io::Cursor::new(data);
        let mut buffer = Vec::new();
        assert!(
            matches!(read_line(&mut input, &mut buffer), Line::TooLong(n) if n == LINE_LIMIT + 10)
        );
        assert!(matches!(read_line(&mut input, &mut buffer), Line::Text(t) if t == "isready\r"));
        assert!(matches!(read_line(&mut input, &mut buffer), Line::Text(t) if t == "last"));
        assert!(matches!(read_line(&mut input, &mut buffer), Line::End));
    }

    #[test]
    fn a_trailing_cr_does_not_count_towards_the_limit() {
        let at_limit = vec![b'a'; LINE_LIMIT];
        let mut data = at_limit.clone();
        data.extend_from_slice(b"\r\n");
        data.extend_from_slice(&at_limit);
        data.extend_from_slice(b"a\r\n");
        data.extend_from_slice(&at_limit);
        data.push(b'\r');
        let mut input = std::io::Cursor::new(data);
        let mut buffer = Vec::new();
        let text = |line: Line| match line {
            Line::Text(t) => Some(t.len()),
            _ => None,
        };
        assert_eq!(
            text(read_line(&mut input, &mut buffer)),
            Some(LINE_LIMIT + 1)
        );
        assert!(
            matches!(read_line(&mut input, &mut buffer), Line::TooLong(n) if n == LINE_LIMIT + 1)
        );
        // The same at the end of input, without the LF.
        assert_eq!(
            text(read_line(&mut input, &mut buffer)),
            Some(LINE_LIMIT + 1)
        );
        assert!(matches!(read_line(&mut input, &mut buffer), Line::End));
    }
}
