//! One line of input at a time, bounded in length: what the input loop (`run.rs`) and the
//! UBGI session (`ubgi.rs`) read.

use std::io::{BufRead, ErrorKind};

/// Longest accepted input line in bytes; longer lines are refused with an error.
pub const LINE_LIMIT: usize = 256 * 1024;

/// One read of the input: a line, a line over the limit (its length), or why there is none.
pub(super) enum Line {
    /// A line without its LF (a CR before it is kept).
    Text(String),
    /// A line longer than [`LINE_LIMIT`] bytes: its length; its bytes are dropped.
    TooLong(usize),
    /// The end of the input (or an input error).
    End,
    /// Not a line: the output was closed.
    OutputClosed,
}

/// Reads one line without ever buffering more than [`LINE_LIMIT`] bytes of it (and its CR).
/// A trailing CR does not count: a CRLF line of the limit is accepted like its LF twin.
pub(super) fn read_line(input: &mut dyn BufRead, buffer: &mut Vec<u8>) -> Line {
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
