//! A child process spoken to in protocol lines: command lines go to its stdin, and its stdout
//! is read on a thread of its own, so a caller can wait for a line with a deadline instead of
//! hanging on a child that never answers (the arena's engines, the transcript runner's, the web
//! board's, the tests').
//!
//! Everything a child prints is external input, read by one rule:
//! - a line ends at LF; the LF and any CRs right before it are dropped (CRLF and LF lines read
//!   alike), and a last line without its LF is still a line;
//! - bytes that are not UTF-8 read as U+FFFD, as the engine reads its own input;
//! - at most [`MAX_LINE`] bytes of a line are kept (its LF and the CR before it not counted):
//!   the rest of a longer line is read and dropped, so its tail never reads as a line of its
//!   own and an endless line cannot fill the reader's memory. Such a line comes as
//!   [`ReadError::TooLong`].
//!
//! The child is killed and reaped when dropped: a hung child must not outlive its user.

use std::io::{self, BufRead, BufReader, Write};
use std::process::{ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::thread;
use std::time::{Duration, Instant};

/// The most bytes of one output line kept (before its line end): the engine's own limit for
/// an input line (protocol.md), so no line a protocol peer may send is cut.
pub const MAX_LINE: usize = 256 * 1024;

/// How often a silent child's process is checked for an exit while a line is awaited.
const EXIT_POLL: Duration = Duration::from_millis(20);

/// How long the lines an exited child printed last may take to come through the reader.
const EXIT_GRACE: Duration = Duration::from_millis(200);

/// One line a child printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The text, without its line end.
    pub text: String,
    /// When the reader had it: what a clock measures an answer by, however late it is read.
    pub at: Instant,
}

/// Why [`Child::read_line`] gives no whole line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// Nothing came before the deadline.
    Timeout,
    /// The child closed its output (it exited, or will be reaped in a moment).
    Closed,
    /// The process exited but its output stays open (a process it started holds it), and
    /// nothing more came from it.
    Exited(ExitStatus),
    /// A line longer than [`MAX_LINE`] bytes: its first [`MAX_LINE`] bytes.
    TooLong(Line),
}

/// Where the lines sent to a child go.
enum Input {
    /// Written at once (a child that stops reading blocks the writer).
    Pipe(ChildStdin),
    /// Written by a thread of its own from a bounded queue: a caller that must keep serving
    /// something else is never blocked by a child that stops reading.
    Queue(SyncSender<Vec<u8>>),
    /// Closed: the child has seen the end of its input.
    Closed,
}

/// A running child process with piped stdin and stdout.
pub struct Child {
    process: std::process::Child,
    input: Input,
    /// Each line, and whether it was cut to [`MAX_LINE`]; disconnected at the end of output.
    output: Receiver<(Line, bool)>,
}

impl Child {
    /// Starts `command` with its stdin and stdout piped (its stderr is as `command` says).
    pub fn spawn(command: &mut Command) -> io::Result<Child> {
        let mut process = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()?;
        let (Some(stdin), Some(stdout)) = (process.stdin.take(), process.stdout.take()) else {
            let _ = process.kill();
            let _ = process.wait();
            return Err(io::Error::other("the child's pipes are missing"));
        };
        let (sender, output) = mpsc::channel();
        // The reader ends at the child's end of output, or when nobody listens any more.
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut bytes = Vec::new();
            while let Ok(Some(cut)) = read_capped_line(&mut reader, &mut bytes) {
                let line = Line {
                    text: String::from_utf8_lossy(&bytes).into_owned(),
                    at: Instant::now(),
                };
                if sender.send((line, cut)).is_err() {
                    break;
                }
            }
        });
        Ok(Child {
            process,
            input: Input::Pipe(stdin),
            output,
        })
    }

    /// From now on, lines are written by a thread from a queue of at most `lines` lines;
    /// [`Child::send`] then fails with `WouldBlock` when the queue is full.
    pub fn queue_input(&mut self, lines: usize) {
        if let Input::Pipe(stdin) = std::mem::replace(&mut self.input, Input::Closed) {
            let (queue, waiting) = mpsc::sync_channel(lines);
            thread::spawn(move || write_lines(stdin, waiting));
            self.input = Input::Queue(queue);
        }
    }

    /// Sends `line` and its LF. Fails with `BrokenPipe` once the input is closed or the child
    /// no longer reads it.
    pub fn send(&mut self, line: impl AsRef<[u8]>) -> io::Result<()> {
        let mut bytes = Vec::with_capacity(line.as_ref().len() + 1);
        bytes.extend_from_slice(line.as_ref());
        bytes.push(b'\n');
        match &mut self.input {
            Input::Pipe(stdin) => stdin.write_all(&bytes).and_then(|()| stdin.flush()),
            Input::Queue(queue) => queue.try_send(bytes).map_err(|e| match e {
                TrySendError::Full(_) => io::Error::from(io::ErrorKind::WouldBlock),
                TrySendError::Disconnected(_) => io::Error::from(io::ErrorKind::BrokenPipe),
            }),
            Input::Closed => Err(io::Error::from(io::ErrorKind::BrokenPipe)),
        }
    }

    /// Closes the child's input: the end of file a pipe gives when its writer goes away.
    pub fn close_input(&mut self) {
        self.input = Input::Closed;
    }

    /// The next line, or why there is none by `deadline` (a deadline already past still
    /// gives a line that is there).
    ///
    /// The end of the output is not enough to notice an exit: a process the child started
    /// (`sleep 30 &`) keeps the pipe open after the child is gone. So the process itself is
    /// polled while no line comes, and what it printed before it exited is read first.
    pub fn read_line(&mut self, deadline: Instant) -> Result<Line, ReadError> {
        let mut exited: Option<(Instant, ExitStatus)> = None;
        loop {
            let now = Instant::now();
            let until = match exited {
                Some((at, _)) => at + EXIT_GRACE,
                None => deadline.min(now + EXIT_POLL),
            };
            match self
                .output
                .recv_timeout(until.saturating_duration_since(now))
            {
                Ok((line, false)) => return Ok(line),
                Ok((line, true)) => return Err(ReadError::TooLong(line)),
                Err(RecvTimeoutError::Disconnected) => return Err(ReadError::Closed),
                Err(RecvTimeoutError::Timeout) => {
                    if let Some((_, status)) = exited {
                        return Err(ReadError::Exited(status));
                    }
                    if let Ok(Some(status)) = self.process.try_wait() {
                        exited = Some((Instant::now(), status));
                    } else if Instant::now() >= deadline {
                        return Err(ReadError::Timeout);
                    }
                }
            }
        }
    }

    /// The exit status, waiting up to `wait` for the process to end (its output closes a
    /// moment before it can be reaped); `None` if it still runs.
    pub fn status_within(&mut self, wait: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + wait;
        loop {
            match self.process.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                _ => return None,
            }
        }
    }

    /// The process id.
    pub fn id(&self) -> u32 {
        self.process.id()
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

/// Writes queued lines to the child's stdin until either side is gone.
fn write_lines(mut stdin: ChildStdin, waiting: Receiver<Vec<u8>>) {
    for bytes in waiting {
        if stdin
            .write_all(&bytes)
            .and_then(|()| stdin.flush())
            .is_err()
        {
            break;
        }
    }
}

/// Reads one line into `bytes` by the module's rule; `Some(cut)` says whether it was longer
/// than [`MAX_LINE`] (its LF and the CR before it not counted), `None` is the end of the
/// output.
fn read_capped_line(reader: &mut impl BufRead, bytes: &mut Vec<u8>) -> io::Result<Option<bool>> {
    bytes.clear();
    // One byte more than the limit is kept: it may be the CR of a CRLF line of the limit.
    let keep = MAX_LINE + 1;
    let mut over = false;
    let mut any = false;
    loop {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (used, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(at) => (at + 1, true),
            None => (chunk.len(), false),
        };
        let content = used - usize::from(done);
        let room = keep - bytes.len();
        over |= content > room;
        bytes.extend_from_slice(&chunk[..content.min(room)]);
        reader.consume(used);
        if done {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if !over {
        while bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
    }
    let cut = bytes.len() > MAX_LINE;
    bytes.truncate(MAX_LINE);
    Ok(Some(cut))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &[u8]) -> Vec<(Vec<u8>, bool)> {
        let mut reader = BufReader::with_capacity(1000, text);
        let mut bytes = Vec::new();
        let mut out = Vec::new();
        while let Some(cut) = read_capped_line(&mut reader, &mut bytes).unwrap() {
            out.push((bytes.clone(), cut));
        }
        out
    }

    #[test]
    fn line_ends_drop_their_crs_and_a_last_line_needs_no_lf() {
        let read = lines(b"a\r\nb\r\r\nc\rd\n\nlast");
        let texts: Vec<&[u8]> = read.iter().map(|(b, _)| b.as_slice()).collect();
        assert_eq!(texts, [&b"a"[..], b"b", b"c\rd", b"", b"last"]);
        assert!(read.iter().all(|(_, cut)| !cut));
    }

    #[test]
    fn a_long_line_is_one_line_cut_to_the_limit() {
        let mut text = b"info ".to_vec();
        text.extend(vec![b'x'; 3 * MAX_LINE]);
        text.extend_from_slice(b"\nbestmove a1\n");
        let mut at_limit = vec![b'y'; MAX_LINE];
        at_limit.extend_from_slice(b"\r\n");
        text.extend_from_slice(&at_limit);
        let read = lines(&text);
        // Compared without printing: a failure would print megabytes.
        assert_eq!(read.len(), 3);
        assert_eq!((read[0].0.len(), read[0].1), (MAX_LINE, true));
        assert!(read[0].0.starts_with(b"info xxx"));
        assert_eq!(read[1], (b"bestmove a1".to_vec(), false));
        assert_eq!((read[2].0.len(), read[2].1), (MAX_LINE, false));
        assert!(read[2].0.iter().all(|&b| b == b'y'));
    }

    #[test]
    fn a_line_already_there_beats_a_past_deadline_then_the_end_is_closed() {
        let mut child = Child::spawn(Command::new("printf").arg("one\\r\\ntwo")).unwrap();
        let first = child.read_line(Instant::now() + Duration::from_secs(10));
        assert_eq!(first.map(|l| l.text), Ok("one".to_owned()));
        thread::sleep(Duration::from_millis(100));
        assert_eq!(
            child.read_line(Instant::now()).map(|l| l.text),
            Ok("two".into())
        );
        let end = child.read_line(Instant::now() + Duration::from_secs(10));
        assert!(
            matches!(end, Err(ReadError::Closed | ReadError::Exited(_))),
            "{end:?}"
        );
    }

    #[test]
    fn an_exit_is_seen_while_a_grandchild_holds_the_output() {
        let mut child = Child::spawn(Command::new("sh").args(["-c", "sleep 5 & echo hi"])).unwrap();
        let deadline = Instant::now() + Duration::from_secs(4);
        assert_eq!(child.read_line(deadline).map(|l| l.text), Ok("hi".into()));
        assert!(matches!(child.read_line(deadline), Err(ReadError::Exited(s)) if s.success()));
    }

    #[test]
    fn a_silent_child_times_out_and_a_queued_input_never_blocks() {
        let mut child = Child::spawn(Command::new("sleep").arg("5")).unwrap();
        let start = Instant::now();
        let silence = child.read_line(start + Duration::from_millis(50));
        assert_eq!(silence, Err(ReadError::Timeout));
        child.queue_input(2);
        // The first line fills the pipe (the child never reads), two more fill the queue.
        let big = vec![b'z'; 1 << 20];
        assert!(child.send(&big).is_ok());
        for _ in 0..3 {
            let _ = child.send(&big);
        }
        assert_eq!(
            child.send(&big).map_err(|e| e.kind()),
            Err(io::ErrorKind::WouldBlock)
        );
        assert!(start.elapsed() < Duration::from_secs(4));
    }
}
