//! `morris-sparring [--depth N] [--eval full|material]`: an independent Nine Men's Morris
//! opponent for matches.
//!
//! A plain fixed-depth alpha-beta with its own men-mills-and-mobility evaluation
//! (`eval.rs`, `search.rs`); it shares the rules with the engine (legal moves, playing them,
//! the outcome) but none of its evaluation or search, so the engine's gains against it are
//! not gains against its own blind spots. It speaks the part of the protocol `arena` uses:
//! `ugi`, `isready`, `setoption` (`GameOptions`, e.g. `flying=true`; `Depth`; `Seed`: when
//! not 0, equally scored root moves are chosen by it, so games differ; `Eval`: `full` or
//! `material`, men alone), `uginewgame`,
//! `position startpos [moves ...]`, `go ...` (always searched to the fixed depth) and `quit`.

mod eval;
mod geometry;
mod search;

use std::io::{self, BufRead, Write};
use tabula::game::Game;
use tabula::games::morris::{Morris, Options};

const DEFAULT_DEPTH: u32 = 8;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut depth = DEFAULT_DEPTH;
    let mut searcher = search::Searcher::new();
    for pair in args.chunks(2) {
        match pair {
            [flag, n] if flag == "--depth" => depth = n.parse()?,
            [flag, kind] if flag == "--eval" => {
                searcher.eval =
                    parse_kind(kind).ok_or_else(|| anyhow::anyhow!("bad eval {kind}"))?
            }
            _ => anyhow::bail!("usage: morris-sparring [--depth N] [--eval full|material]"),
        }
    }
    let mut seed = 0;
    let mut options = Options::default();
    let mut position = Morris::start(&options);
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for line in io::stdin().lock().lines() {
        let line = line?;
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["ugi"] => {
                writeln!(out, "id name morris-sparring depth {depth}")?;
                writeln!(out, "option name GameOptions type string default")?;
                writeln!(
                    out,
                    "option name Depth type spin default {DEFAULT_DEPTH} min 1 max 30"
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
                writeln!(out, "ugiok")?;
            }
            ["isready"] => writeln!(out, "readyok")?,
            ["setoption", "name", "GameOptions", "value", pairs @ ..] => {
                let pairs: Vec<(&str, &str)> =
                    pairs.iter().filter_map(|p| p.split_once('=')).collect();
                match Morris::parse_options(&pairs) {
                    Ok(parsed) => {
                        options = parsed;
                        position = Morris::start(&options);
                    }
                    Err(e) => writeln!(out, "error {e}")?,
                }
            }
            ["setoption", "name", "Depth", "value", n] => match n.parse() {
                Ok(n) if (1..=30).contains(&n) => depth = n,
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
            ["uginewgame"] => {
                searcher.clear();
                position = Morris::start(&options);
            }
            ["position", "startpos", rest @ ..] => {
                let moves = match rest {
                    ["moves", moves @ ..] => moves,
                    _ => &[][..],
                };
                match replay(&options, moves) {
                    Ok(p) => position = p,
                    Err(e) => writeln!(out, "error {e}")?,
                }
            }
            ["go", ..] => match searcher.best_move(&position, depth, seed) {
                Some((mv, score)) => {
                    let nodes = searcher.nodes;
                    writeln!(out, "info depth {depth} score cp {score} nodes {nodes}")?;
                    writeln!(out, "bestmove {}", position.format_move(mv))?;
                }
                None => writeln!(out, "bestmove 0000")?,
            },
            ["quit"] => break,
            _ => {}
        }
        out.flush()?;
    }
    Ok(())
}

/// The evaluation named `full` or `material`.
fn parse_kind(name: &str) -> Option<eval::Kind> {
    match name {
        "full" => Some(eval::Kind::Full),
        "material" => Some(eval::Kind::Material),
        _ => None,
    }
}

/// The position after `moves` from the start, each checked by the rules.
fn replay(options: &Options, moves: &[&str]) -> Result<Morris, tabula::game::GameError> {
    let mut pos = Morris::start(options);
    for token in moves {
        let mv = pos.parse_move(token)?;
        pos.play(mv);
    }
    Ok(pos)
}
