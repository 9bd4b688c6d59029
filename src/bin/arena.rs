//! `arena`: plays a match between two protocol engines and prints the results;
//! `arena merge FILE...` combines the results files of a match's shards.
//! See `docs/arena.md`; the logic is in [`tabula::arena`].

use std::io::{ErrorKind, Write};
use tabula::arena::merge;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut out = Output {
        inner: std::io::stdout().lock(),
        closed: false,
    };
    let (tool, result) = if args.first().map(String::as_str) == Some("merge") {
        let merge_args = merge::parse(&args[1..]).unwrap_or_else(|error| error.exit());
        let result = merge::run(&merge_args, &mut out, &mut std::io::stderr());
        ("arena merge", result.map(|_| ()))
    } else {
        // `exit` prints `--help` on stdout with status 0, a bad command line on stderr with 2.
        let config = tabula::arena::parse_args(&args).unwrap_or_else(|error| error.exit());
        ("arena", tabula::arena::run(&config, &mut out).map(|_| ()))
    };
    if let Err(message) = result {
        // A reader that went away (`arena ... | head -1`) wanted no more: no message, but not
        // success either, since the match was not reported in full.
        if !out.closed {
            // Standard error may have failed too: then only the status tells.
            let _ = writeln!(std::io::stderr(), "{tool}: {message}");
        }
        std::process::exit(1);
    }
}

/// Standard output that remembers whether its reader went away (a closed pipe), which is
/// the one failed write that ends the run without a message.
struct Output<W> {
    inner: W,
    closed: bool,
}

impl<W: Write> Output<W> {
    fn note<T>(&mut self, result: std::io::Result<T>) -> std::io::Result<T> {
        if let Err(error) = &result {
            self.closed |= error.kind() == ErrorKind::BrokenPipe;
        }
        result
    }
}

impl<W: Write> Write for Output<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let result = self.inner.write(buf);
        self.note(result)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let result = self.inner.flush();
        self.note(result)
    }
}
