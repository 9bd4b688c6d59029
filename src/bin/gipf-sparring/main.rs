//! `gipf-sparring [--depth N]`: an independent GIPF opponent for matches.
//!
//! A plain fixed-depth alpha-beta (`search.rs`) with its own material evaluation (`eval.rs`);
//! it shares the rules with the engine (legal moves, playing them, the outcome, move spelling,
//! `variant=`) but none of its evaluation or search, so the engine's gains against it are not
//! gains against its own blind spots. It speaks the part of the protocol `arena` uses: `ugi`
//! (or `uci`), `isready`, `setoption` (`GameOptions`, e.g. `variant=standard`; `Depth`),
//! `uginewgame`, `position startpos|fen ... [moves ...]`, `go ...` (always searched to the
//! fixed depth) and `quit`.

mod eval;
mod search;

use clap::Parser;
use std::io::{self, BufRead, Write};
use tabula::game::{Game, GameError};
use tabula::games::gipf::{Gipf, Options};
use tabula::protocol::{option_pairs, position_from_words};

const DEFAULT_DEPTH: u32 = 4;
const MAX_DEPTH: u32 = 20;

/// An independent fixed-depth GIPF opponent speaking the engine protocol on stdin/stdout.
#[derive(Parser)]
#[command(name = "gipf-sparring")]
struct Args {
    /// Plies searched for every `go`.
    #[arg(long, default_value_t = DEFAULT_DEPTH,
          value_parser = clap::value_parser!(u32).range(1..=MAX_DEPTH as i64))]
    depth: u32,
}

fn main() -> anyhow::Result<()> {
    let mut depth = Args::parse().depth;
    let mut options = Options::default();
    let mut position = Gipf::start(&options);
    let mut searcher = search::Searcher::new();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for line in io::stdin().lock().lines() {
        let line = line?;
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [] => {}
            [hello @ ("ugi" | "uci")] => {
                writeln!(out, "id name gipf-sparring depth {depth}")?;
                writeln!(out, "option name GameOptions type string default")?;
                writeln!(
                    out,
                    "option name Depth type spin default {DEFAULT_DEPTH} min 1 max {MAX_DEPTH}"
                )?;
                writeln!(out, "{hello}ok")?;
            }
            ["isready"] => writeln!(out, "readyok")?,
            ["setoption", "name", "GameOptions", "value", pairs @ ..] => {
                match parse_options(pairs) {
                    Ok(parsed) => {
                        options = parsed;
                        position = Gipf::start(&options);
                    }
                    Err(e) => writeln!(out, "error {e}")?,
                }
            }
            ["setoption", "name", "Depth", "value", n] => match n.parse() {
                Ok(n) if (1..=MAX_DEPTH).contains(&n) => depth = n,
                _ => writeln!(out, "error bad depth {n}: expected 1 to {MAX_DEPTH}")?,
            },
            ["setoption", "name", name, ..] => writeln!(out, "error unknown option {name}")?,
            ["uginewgame" | "ucinewgame"] => {
                searcher.clear();
                position = Gipf::start(&options);
            }
            ["position", rest @ ..] => match position_from_words::<Gipf>(rest, &options) {
                Ok(p) => position = p,
                Err(e) => writeln!(out, "error {e}")?,
            },
            ["go", ..] => match searcher.best_move(&position, depth) {
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

/// The options from `key=value` words (an empty list gives the defaults); a word without `=`
/// is refused by the game, so a typo does not silently reset the rules.
fn parse_options(words: &[&str]) -> Result<Options, GameError> {
    Gipf::parse_options(&option_pairs(&words.join(" ")))
}
