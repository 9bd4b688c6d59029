//! `replay TRANSCRIPT... [--engine PATH]`: replays transcripts against the engine binary and
//! shows the exchange up to the first difference. Exit status 1 if any transcript fails, 2 on
//! a bad command line (no transcript, `--engine` without a path).

use clap::Parser;
use std::path::PathBuf;

/// Replays protocol transcripts (docs/testing.md) against the engine binary and shows the
/// exchange up to the first difference.
#[derive(Parser, Debug)]
#[command(name = "replay")]
struct Args {
    /// Transcript files (the format is in protocol.md, "Transcripts")
    #[arg(value_name = "TRANSCRIPT", required = true)]
    transcripts: Vec<PathBuf>,
    /// The engine binary [default: `tabula` next to this binary]
    #[arg(long, value_name = "PATH")]
    engine: Option<PathBuf>,
}

fn main() {
    let args = Args::parse();
    // Next to this binary is where cargo builds `tabula` too (target/release).
    let engine = match args.engine {
        Some(path) => path,
        None => match std::env::current_exe() {
            Ok(exe) => exe.with_file_name("tabula"),
            Err(e) => {
                eprintln!(
                    "replay: cannot locate this binary to find the engine ({e}): use --engine"
                );
                std::process::exit(1);
            }
        },
    };
    let mut failed = 0;
    for file in &args.transcripts {
        match tabula::transcript::run_file(&engine, &[], file) {
            Ok(()) => println!("ok   {}", file.display()),
            Err(log) => {
                failed += 1;
                println!("FAIL {log}");
            }
        }
    }
    if failed > 0 {
        std::process::exit(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Args, clap::Error> {
        Args::try_parse_from(std::iter::once("replay").chain(line.split_whitespace()))
    }

    #[test]
    fn transcripts_and_the_engine_anywhere() {
        let args = parse("a.txt b.txt").expect("parses");
        assert_eq!(args.transcripts.len(), 2);
        assert_eq!(args.engine, None);
        let args = parse("a.txt --engine bin/e b.txt").expect("parses");
        assert_eq!(args.transcripts, [PathBuf::from("a.txt"), "b.txt".into()]);
        assert_eq!(args.engine, Some(PathBuf::from("bin/e")));
    }

    #[test]
    fn mistakes_are_usage_errors() {
        for line in ["", "--engine e", "a.txt --engine", "a.txt --bless"] {
            let error = parse(line).expect_err(line);
            assert_eq!(error.exit_code(), 2, "{line}: {error}");
        }
    }
}
