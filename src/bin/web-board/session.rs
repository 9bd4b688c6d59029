//! One browser session: a WebSocket bridged to a child engine process. Text frames from the
//! page go to the engine's stdin as protocol lines (after a check that each is one line);
//! every line the engine prints goes to the page as one text frame. Closing the socket kills
//! the engine; a session limit caps the number of engines.

use std::io::ErrorKind;
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tabula::util::child::{Child, ReadError};
use tungstenite::protocol::WebSocketConfig;
use tungstenite::{Message, WebSocket};

/// The largest message the page may send (a long move list fits many times over).
pub const MAX_MESSAGE: usize = 64 * 1024;
/// How long the session waits for engine output before it looks at the socket again: the
/// most a page's line waits before it is passed on (engine lines go out as soon as they come).
const POLL: Duration = Duration::from_millis(5);
/// The most output buffered for a page that does not read it.
const MAX_BUFFERED: usize = 16 * 1024 * 1024;
/// The most lines waiting for an engine that does not read them (tabula always reads).
const MAX_WAITING_LINES: usize = 1024;

/// What every session shares: the engine to start and the count of running sessions.
pub struct Shared {
    engine: PathBuf,
    max_sessions: usize,
    running: AtomicUsize,
}

impl Shared {
    /// Sessions of `engine`, at most `max_sessions` at once.
    pub fn new(engine: PathBuf, max_sessions: usize) -> Self {
        Shared {
            engine,
            max_sessions,
            running: AtomicUsize::new(0),
        }
    }

    /// A place for one more session, or None when all are taken.
    fn take_slot(&self) -> Option<Slot<'_>> {
        self.running
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < self.max_sessions).then_some(n + 1)
            })
            .ok()
            .map(|_| Slot(&self.running))
    }
}

/// A taken session place, given back when the session ends.
struct Slot<'a>(&'a AtomicUsize);

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Starts a session's engine. Its input is written by a thread of its own, so an engine that
/// stops reading never blocks the session (which must keep noticing that the page went away).
fn start_engine(path: &PathBuf) -> std::io::Result<Child> {
    let mut engine = Child::spawn(Command::new(path).stderr(Stdio::null()))?;
    engine.queue_input(MAX_WAITING_LINES);
    Ok(engine)
}

/// Queues one line for the engine; an error when it has exited or stopped reading.
fn send(engine: &mut Child, line: &str) -> Result<(), &'static str> {
    engine.send(line).map_err(|e| match e.kind() {
        ErrorKind::WouldBlock => "the engine does not read its input",
        _ => "the engine exited",
    })
}

/// Checks a message from the page: one protocol line, no control characters (its size is
/// capped before, by the WebSocket layer's MAX_MESSAGE).
pub fn check_line(text: &str) -> Result<&str, String> {
    if text.chars().any(char::is_control) {
        return Err(
            "error rejected by the server: a message must be one protocol line without control characters"
                .to_string(),
        );
    }
    Ok(text)
}

/// Runs a session on an upgraded connection until the page or the engine goes away.
pub fn run(stream: TcpStream, shared: &Shared) {
    let config = WebSocketConfig::default()
        .max_message_size(Some(MAX_MESSAGE))
        .max_frame_size(Some(MAX_MESSAGE))
        .max_write_buffer_size(MAX_BUFFERED);
    let Ok(mut ws) = tungstenite::accept_with_config(stream, Some(config)) else {
        return;
    };
    let Some(_slot) = shared.take_slot() else {
        let text = format!(
            "error too many sessions: this server runs at most {} at once (close another board and reload)",
            shared.max_sessions
        );
        goodbye(&mut ws, &text);
        return;
    };
    let mut engine = match start_engine(&shared.engine) {
        Ok(engine) => engine,
        Err(e) => {
            goodbye(&mut ws, &format!("error the engine did not start: {e}"));
            return;
        }
    };
    if ws.get_ref().set_nonblocking(true).is_err() {
        return;
    }
    eprintln!("web-board: session started (engine pid {})", engine.id());
    let end = bridge(&mut ws, &mut engine);
    eprintln!("web-board: session ended ({end})");
    match end {
        "the engine exited" => goodbye(
            &mut ws,
            "error the engine exited: reload the page for a new one",
        ),
        "the engine does not read its input" => goodbye(
            &mut ws,
            "error the engine does not read its input: reload the page for a new one",
        ),
        _ => {}
    }
}

/// Passes lines both ways until one side is gone; says which.
fn bridge(ws: &mut WebSocket<TcpStream>, engine: &mut Child) -> &'static str {
    loop {
        // Everything the page has sent so far (the socket does not block).
        loop {
            let reply = match ws.read() {
                Ok(Message::Text(text)) => match check_line(text.as_str()) {
                    Ok(line) => match send(engine, line) {
                        Ok(()) => continue,
                        Err(why) => return why,
                    },
                    Err(error) => error,
                },
                Ok(Message::Binary(_)) => {
                    "error rejected by the server: binary frames are not protocol lines".to_string()
                }
                Ok(_) => continue, // pings are answered by tungstenite; a close ends the next read
                Err(e) if would_block(&e) => break,
                Err(tungstenite::Error::Capacity(_)) => {
                    let error = format!(
                        "error rejected by the server: a message over {MAX_MESSAGE} bytes (the session ends)"
                    );
                    goodbye(ws, &error);
                    return "a message was too large";
                }
                Err(_) => return "the page went away",
            };
            if !queued(ws.write(Message::text(reply))) {
                return "the page went away";
            }
        }
        // The engine's lines: a short wait for the first (it wakes at once when one comes),
        // then every one that is there. A line cut to the reader's limit goes as it was kept.
        let mut deadline = Instant::now() + POLL;
        loop {
            match engine.read_line(deadline) {
                Ok(line) | Err(ReadError::TooLong(line)) => {
                    if !queued(ws.write(Message::text(line.text))) {
                        return "the page went away";
                    }
                }
                Err(ReadError::Timeout) => break,
                Err(ReadError::Closed | ReadError::Exited(_)) => return "the engine exited",
            }
            deadline = Instant::now();
        }
        if !queued(ws.flush()) {
            return "the page went away";
        }
    }
}

/// Whether an error only says the non-blocking socket has nothing more (or no room) now.
fn would_block(e: &tungstenite::Error) -> bool {
    matches!(e, tungstenite::Error::Io(e) if e.kind() == std::io::ErrorKind::WouldBlock)
}

/// Whether a write or flush left its data sent or buffered (a full socket buffer is retried
/// at the next flush; a page that stops reading fills MAX_BUFFERED and ends the session).
fn queued(result: tungstenite::Result<()>) -> bool {
    match result {
        Ok(()) => true,
        Err(e) => would_block(&e),
    }
}

/// Sends a last error line and closes the socket.
fn goodbye(ws: &mut WebSocket<TcpStream>, text: &str) {
    ws.get_ref().set_nonblocking(false).ok();
    let _ = ws.send(Message::text(text));
    let _ = ws.close(None);
    let _ = ws.flush();
    // Give the close handshake a moment; the socket is dropped either way.
    ws.get_ref()
        .set_read_timeout(Some(Duration::from_millis(200)))
        .ok();
    while ws.read().is_ok() {}
}

#[cfg(test)]
mod tests {
    use super::check_line;

    #[test]
    fn one_line_passes_and_forged_lines_are_refused() {
        assert_eq!(
            check_line("position startpos moves e2e3"),
            Ok("position startpos moves e2e3")
        );
        assert!(check_line("fen\nquit").unwrap_err().starts_with("error "));
        assert!(check_line("fen\r").is_err());
        assert!(check_line("go\u{0}").is_err());
    }
}
