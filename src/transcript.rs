//! Recorded sessions (transcripts) replayed against the real engine binary.
//!
//! Format, one directive per line:
//! - `> TEXT` sends TEXT as one line; `\r`, `\t`, `\n`, `\\` and `\xNN` escapes give any bytes.
//! - `>*N TEXT` sends TEXT repeated N times as one line (huge-line tests).
//! - `>|` closes the engine's input (end of file); expectations may follow it.
//! - `< TEXT` expects exactly this output line; `<* GLOB` expects a line matching GLOB,
//!   where `*` matches any run of characters.
//! - `#` comments and blank lines are ignored.
//!
//! Output lines starting with `info ` are skipped unless the expected line is itself an
//! `info` line. After the last directive the engine's input is closed (if `>|` did not close
//! it already); it must then exit with status 0 and print nothing more than `info` lines.
//!
//! [`bless`] rewrites the exact expected lines from the engine's actual output.

pub mod bless;

use crate::util::child::{Child, Line, ReadError, MAX_LINE};
use std::collections::VecDeque;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One directive of a transcript, with its line number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Bytes to send (without the newline).
    Send(Vec<u8>),
    /// An exact expected line.
    Expect(String),
    /// A glob the next line must match.
    Glob(String),
    /// End of input.
    Close,
}

/// Parses a transcript; errors name the bad line.
pub fn parse(text: &str) -> Result<Vec<(usize, Step)>, String> {
    let mut steps = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let step = if line.trim().is_empty() || line.starts_with('#') {
            continue;
        } else if line == ">|" {
            Step::Close
        } else if let Some(rest) = line.strip_prefix(">*") {
            let (count, body) = rest
                .split_once(' ')
                .ok_or(format!("line {number}: expected >*N TEXT"))?;
            // A bound on the line built, so a mistyped count is an error instead of a
            // capacity-overflow panic or gigabytes of memory: 64 times the engine's line
            // limit (16 MiB), room for the longest transcript line (8.4 MB, bad_input.txt).
            const MAX_BYTES: usize = 64 * crate::protocol::LINE_LIMIT;
            let body = unescape(body);
            let count = count
                .parse::<usize>()
                .ok()
                .filter(|&n| n.checked_mul(body.len()).is_some_and(|b| b <= MAX_BYTES))
                .ok_or(format!("line {number}: bad repeat count"))?;
            Step::Send(body.repeat(count))
        } else if let Some(rest) = line.strip_prefix("> ") {
            Step::Send(unescape(rest))
        } else if line == ">" {
            Step::Send(Vec::new())
        } else if let Some(rest) = line.strip_prefix("<* ") {
            Step::Glob(rest.to_owned())
        } else if let Some(rest) = line.strip_prefix("< ") {
            Step::Expect(rest.to_owned())
        } else if line == "<" {
            Step::Expect(String::new())
        } else {
            return Err(format!("line {number}: expected '> ', '< ', '<* ' or '#'"));
        };
        steps.push((number, step));
    }
    Ok(steps)
}

fn unescape(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' && i + 1 < bytes.len() {
            let hex = text
                .get(i + 2..i + 4)
                .and_then(|h| u8::from_str_radix(h, 16).ok());
            match (bytes[i + 1], hex) {
                (b'r', _) => out.push(b'\r'),
                (b't', _) => out.push(b'\t'),
                (b'n', _) => out.push(b'\n'),
                (b'\\', _) => out.push(b'\\'),
                (b'x', Some(byte)) => {
                    out.push(byte);
                    i += 2;
                }
                (other, _) => out.extend_from_slice(&[b'\\', other]),
            }
            i += 2;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

/// True if `line` matches `glob` (`*` = any run of characters).
pub fn glob_match(glob: &str, line: &str) -> bool {
    let parts: Vec<&str> = glob.split('*').collect();
    if parts.len() == 1 {
        return glob == line;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !line.starts_with(first) || line.len() < first.len() + last.len() || !line.ends_with(last) {
        return false;
    }
    let mut rest = &line[first.len()..line.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// True if `line` is what the expectation `step` wants.
pub(crate) fn matches(step: &Step, line: &str) -> bool {
    match step {
        Step::Expect(text) => text == line,
        Step::Glob(glob) => glob_match(glob, line),
        Step::Send(_) | Step::Close => false,
    }
}

/// True if the expectation is itself an `info` line (else `info` output is skipped).
pub(crate) fn expects_info(step: &Step) -> bool {
    match step {
        Step::Expect(text) | Step::Glob(text) => text.starts_with("info"),
        Step::Send(_) | Step::Close => false,
    }
}

/// A running engine, its output read by the rules of [`crate::util::child`].
pub(crate) struct Engine {
    child: Child,
    /// Lines read ahead and given back (bless looks a little ahead at block ends).
    pending: VecDeque<String>,
}

impl Engine {
    /// Starts `engine` with `args` in the system's temporary directory, so that a recorded
    /// session replays the same wherever it is run from (the engine takes a `tablebases`
    /// folder where it starts as its default `TablebasePath`).
    pub(crate) fn start(engine: &Path, args: &[&str]) -> Result<Engine, String> {
        // A path with a folder in it names a file from here, not from the engine's folder; a
        // bare name is looked up in PATH.
        let program = if engine.components().count() > 1 {
            std::path::absolute(engine).unwrap_or_else(|_| engine.to_path_buf())
        } else {
            engine.to_path_buf()
        };
        let child = Child::spawn(
            Command::new(&program)
                .args(args)
                .current_dir(std::env::temp_dir())
                .stderr(Stdio::null()),
        )
        .map_err(|e| format!("cannot start {}: {e}", engine.display()))?;
        Ok(Engine {
            child,
            pending: VecDeque::new(),
        })
    }

    /// Sends one line; false if the engine no longer reads its input.
    pub(crate) fn send(&mut self, bytes: &[u8]) -> bool {
        self.child.send(bytes).is_ok()
    }

    /// Closes the engine's input (end of file).
    pub(crate) fn close(&mut self) {
        self.child.close_input();
    }

    /// The next output line within `wait`, given-back lines first.
    fn recv(&mut self, wait: Duration) -> Result<String, ReadError> {
        match self.pending.pop_front() {
            Some(line) => Ok(line),
            None => self
                .child
                .read_line(Instant::now() + wait)
                .map(|line| line.text),
        }
    }

    /// Gives lines back, to be read again before anything newer.
    pub(crate) fn give_back(&mut self, lines: Vec<String>) {
        for line in lines.into_iter().rev() {
            self.pending.push_front(line);
        }
    }

    /// The next line the expectation should see, skipping `info` lines it does not want
    /// (a cut one too: only its start tells what it is).
    pub(crate) fn next_line(&mut self, step: &Step, wait: Duration) -> Result<String, ReadError> {
        loop {
            match self.recv(wait) {
                Ok(line) | Err(ReadError::TooLong(Line { text: line, .. }))
                    if line.starts_with("info ") && !expects_info(step) => {}
                other => return other,
            }
        }
    }

    /// What to show for the line that did not come: the end of the output (an engine that
    /// exited at once: `--engine /bin/false`) is not a silence of 20 s.
    pub(crate) fn nothing(&mut self, why: ReadError, wait: Duration) -> String {
        match why {
            ReadError::Timeout => format!("(nothing within {} s)", wait.as_secs()),
            ReadError::Exited(status) => format!("(the engine exited, {status})"),
            ReadError::TooLong(line) => {
                let start: String = line.text.chars().take(100).collect();
                format!("(a line over {MAX_LINE} bytes: {start}...)")
            }
            ReadError::Closed => match self.child.status_within(Duration::from_millis(500)) {
                Some(status) => format!("(end of output: the engine exited, {status})"),
                None => "(end of output: the engine closed it)".into(),
            },
        }
    }

    /// Every line printed until none came for `quiet` (at most for 20 quiet spells, in case
    /// a search keeps talking).
    pub(crate) fn until_quiet(&mut self, quiet: Duration) -> Vec<String> {
        let end = Instant::now() + 20 * quiet;
        let mut lines = Vec::new();
        while let Ok(line) = self.recv(quiet) {
            lines.push(line);
            if Instant::now() > end {
                break;
            }
        }
        lines
    }

    /// Closes the input and waits for the engine to exit: the lines other than `info` it
    /// printed after the last step, and what went wrong with its exit.
    pub(crate) fn finish(mut self, wait: Duration) -> (Vec<String>, Result<(), String>) {
        self.close();
        let mut extra = Vec::new();
        let status = loop {
            match self.recv(wait) {
                Ok(line) | Err(ReadError::TooLong(Line { text: line, .. })) => {
                    if !line.starts_with("info ") {
                        extra.push(line);
                    }
                }
                Err(ReadError::Exited(status)) => break Some(status),
                Err(ReadError::Closed) => break self.child.status_within(wait),
                Err(ReadError::Timeout) => break None,
            }
        };
        let exit = match status {
            Some(status) if status.success() => Ok(()),
            Some(status) => Err(format!("the engine exited with {status}")),
            None => Err(format!(
                "the engine did not exit within {wait:?} of its input closing"
            )),
        };
        (extra, exit)
    }
}

/// How long an expected line may take (a search included).
pub(crate) const WAIT: Duration = Duration::from_secs(20);

/// Replays a transcript file against `engine` (a binary path, plus `args`). On failure the
/// error shows the exchange up to the first difference.
pub fn run_file(engine: &Path, args: &[&str], file: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let steps = parse(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    run_steps(engine, args, &steps).map_err(|log| format!("{}:\n{log}", file.display()))
}

/// Replays parsed steps; the error is a readable log ending at the first difference.
pub fn run_steps(engine: &Path, args: &[&str], steps: &[(usize, Step)]) -> Result<(), String> {
    let mut engine = Engine::start(engine, args)?;
    let mut log = String::new();
    let mut failure = None;
    for (number, step) in steps {
        match step {
            Step::Send(bytes) => {
                let shown = String::from_utf8_lossy(bytes);
                let shown: String = shown.chars().take(100).collect();
                log.push_str(&format!("  > {}\n", shown.escape_debug()));
                if !engine.send(bytes) {
                    failure = Some(format!("line {number}: the engine stopped reading"));
                    break;
                }
            }
            Step::Close => {
                log.push_str("  > (end of input)\n");
                engine.close();
            }
            expected => match engine.next_line(expected, WAIT) {
                Ok(line) if matches(expected, &line) => log.push_str(&format!("  < {line}\n")),
                got => {
                    let want = match expected {
                        Step::Expect(t) => t.clone(),
                        Step::Glob(g) => format!("{g}   (glob)"),
                        Step::Send(_) | Step::Close => String::new(),
                    };
                    let got = got.unwrap_or_else(|why| engine.nothing(why, WAIT));
                    failure = Some(format!("line {number}:\n  - {want}\n  + {got}"));
                    break;
                }
            },
        }
    }
    if let Some(what) = failure {
        return Err(format!("{log}{what}"));
    }
    match engine.finish(WAIT) {
        (extra, _) if !extra.is_empty() => Err(format!(
            "{log}unexpected output after the last step:\n  + {}",
            extra.join("\n  + ")
        )),
        (_, Err(what)) => Err(format!("{log}{what}")),
        (_, Ok(())) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_engine_that_exits_is_not_a_silence() {
        // `replay --engine /bin/false`: the engine is gone at once, with its status. (Nothing
        // is sent: a write could fail first, and that failure has its own message.)
        let steps = parse("< ugiok\n").expect("parses");
        let log = run_steps(Path::new("/bin/false"), &[], &steps).expect_err("no ugiok");
        assert!(log.contains("the engine exited, exit status: 1"), "{log}");
        assert!(!log.contains("nothing within"), "{log}");
    }

    #[test]
    fn globs() {
        assert!(glob_match("bestmove *", "bestmove e2e3"));
        assert!(glob_match("info * pv *", "info depth 1 score cp 0 pv e2e3"));
        assert!(!glob_match("bestmove *", "bestmov e2e3"));
        assert!(glob_match("a*b*c", "abc"));
        assert!(!glob_match("a*b*c", "acb"));
        assert!(!glob_match("ab*ba", "aba"));
    }

    #[test]
    fn directives_and_escapes() {
        let steps = parse("# c\n> go\\r\n>*3 ab\n< x\n<* y*\n\n> \\x00\\\\").unwrap();
        assert_eq!(steps[0].1, Step::Send(b"go\r".to_vec()));
        assert_eq!(steps[1].1, Step::Send(b"ababab".to_vec()));
        assert_eq!(steps[2].1, Step::Expect("x".into()));
        assert_eq!(steps[3].1, Step::Glob("y*".into()));
        assert_eq!(steps[4].1, Step::Send(vec![0, b'\\']));
        assert!(parse("oops").is_err());
    }
}
