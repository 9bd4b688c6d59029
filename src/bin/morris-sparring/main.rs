//! `morris-sparring [--depth N] [--eval full|material]` (depth 1 to 30, default 8; `full`
//! by default): an independent Nine Men's Morris opponent for matches.
//!
//! A plain fixed-depth alpha-beta with its own men-mills-and-mobility evaluation
//! (`eval.rs`, `search.rs`); it shares the rules with the engine (legal moves, playing them,
//! the outcome) but none of its evaluation or search, so the engine's gains against it are
//! not gains against its own blind spots. It speaks the part of the protocol `arena` uses:
//! `ugi` (or `uci`), `isready`, `setoption` (`GameOptions`, e.g. `flying=true`; `Depth`;
//! `Seed`: when not 0, equally scored root moves are chosen by it, so games differ; `Eval`:
//! `full` or `material`, men alone), `uginewgame`, `position startpos|fen ... [moves ...]`,
//! `go ...` (always searched to the fixed depth) and `quit`. Anything else, or one of these
//! malformed, gets an `error ...` line, as gipf-sparring answers.

mod eval;
mod geometry;
mod search;

use clap::{Parser, ValueEnum};
use std::io::{self, BufRead, Write};
use tabula::game::{Game, GameError};
use tabula::games::morris::{Morris, Options};
use tabula::protocol::{option_pairs, position_from_words};
use tabula::util::cli::exit_on_closed_output;

const DEFAULT_DEPTH: u32 = 8;
const MAX_DEPTH: u32 = 30;

/// An independent fixed-depth Nine Men's Morris opponent speaking the engine protocol on
/// stdin/stdout (docs/morris.md).
#[derive(Parser)]
#[command(name = "morris-sparring")]
struct Args {
    /// Plies searched for every `go`, 1 to 30 (as `setoption name Depth`)
    #[arg(long, value_name = "N", default_value_t = DEFAULT_DEPTH,
          value_parser = clap::value_parser!(u32).range(1..=MAX_DEPTH as i64))]
    depth: u32,
    /// The evaluation (as `setoption name Eval`)
    #[arg(long, value_enum, default_value_t = eval::Kind::Full)]
    eval: eval::Kind,
}

fn main() -> anyhow::Result<()> {
    exit_on_closed_output();
    let args = Args::parse();
    let mut depth = args.depth;
    let mut searcher = search::Searcher::new();
    searcher.eval = args.eval;
    let mut seed = 0;
    let mut options = Options::default();
    let mut position = Morris::start(&options);
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for line in io::stdin().lock().lines() {
        let line = line?;
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [] => {}
            [hello @ ("ugi" | "uci")] => {
                writeln!(out, "id name morris-sparring depth {depth}")?;
                writeln!(out, "option name GameOptions type string default")?;
                writeln!(
                    out,
                    "option name Depth type spin default {DEFAULT_DEPTH} min 1 max {MAX_DEPTH}"
                )?;
                writeln!(
                    out,
                    "option name Seed type spin default 0 min 0 max {}",
                    i64::MAX
                )?;
                writeln!(
                    out,
                    "option name Eval type combo default full var full var material"
                )?;
                writeln!(out, "{hello}ok")?;
            }
            ["isready"] => writeln!(out, "readyok")?,
            ["setoption", "name", "GameOptions", "value", pairs @ ..] => {
                match parse_options(pairs) {
                    Ok(parsed) => {
                        options = parsed;
                        position = Morris::start(&options);
                    }
                    Err(e) => writeln!(out, "error {e}")?,
                }
            }
            ["setoption", "name", "Depth", "value", n] => match n.parse() {
                Ok(n) if (1..=MAX_DEPTH).contains(&n) => depth = n,
                _ => writeln!(out, "error bad depth {n}")?,
            },
            // Arena draws seeds below 2^62: any non-negative 64-bit signed value is taken.
            ["setoption", "name", "Seed", "value", n] => match n.parse::<i64>() {
                Ok(n) if n >= 0 => seed = n as u64,
                _ => writeln!(out, "error bad seed {n}")?,
            },
            ["setoption", "name", "Eval", "value", kind] => match parse_kind(kind) {
                Some(kind) => searcher.eval = kind,
                None => writeln!(out, "error bad eval {kind}")?,
            },
            // A known option with its value missing (or more than one word for a number).
            ["setoption", "name", name @ ("GameOptions" | "Depth" | "Seed" | "Eval"), ..] => {
                writeln!(out, "error setoption name {name}: expected value VALUE")?
            }
            ["setoption", "name", name, ..] => writeln!(out, "error unknown option {name}")?,
            ["setoption", ..] => writeln!(out, "error setoption: expected name NAME value ...")?,
            ["uginewgame" | "ucinewgame"] => {
                searcher.clear();
                position = Morris::start(&options);
            }
            ["position", rest @ ..] => match position_from_words::<Morris>(rest, &options) {
                Ok(p) => position = p,
                Err(e) => writeln!(out, "error {e}")?,
            },
            ["go", ..] => match searcher.best_move(&position, depth, seed) {
                Some((mv, score)) => {
                    let nodes = searcher.nodes;
                    writeln!(out, "info depth {depth} score cp {score} nodes {nodes}")?;
                    writeln!(out, "bestmove {}", position.format_move(mv))?;
                }
                None => writeln!(out, "bestmove 0000")?,
            },
            ["quit"] => break,
            [command, ..] => writeln!(out, "error unknown command {command}")?,
        }
        out.flush()?;
    }
    Ok(())
}

/// The evaluation named `full` or `material` (the `--eval` spellings).
fn parse_kind(name: &str) -> Option<eval::Kind> {
    eval::Kind::from_str(name, false).ok()
}

/// The options from `key=value` words (an empty list gives the defaults); a word without `=`
/// is refused by the game, so a typo does not silently reset the rules.
fn parse_options(words: &[&str]) -> Result<Options, GameError> {
    Morris::parse_options(&option_pairs(&words.join(" ")))
}
