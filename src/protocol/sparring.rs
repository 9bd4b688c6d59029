//! The line loop of the independent sparring partners (`gipf-sparring`, `morris-sparring`):
//! the part of the protocol `arena` uses, answered alike by every partner, around a
//! [`Partner`] that only searches. `ugi` (or `uci`), `isready`, `setoption` (`GameOptions`,
//! `Depth` and the partner's own options), `uginewgame`, `position startpos|fen ... [moves
//! ...]`, `go ...` (always searched to the fixed depth) and `quit`; anything else, or one of
//! these malformed, gets one `error ...` line and changes nothing.

use super::{option_pairs, position_from_words};
use crate::game::Game;
use std::io::{self, BufRead, Write};

/// A fixed-depth searcher with its own options, driven by [`run`].
pub trait Partner {
    /// The game it plays.
    type Game: Game;
    /// Its name in `id name`.
    const NAME: &'static str;
    /// The most plies `go` may be asked to search.
    const MAX_DEPTH: u32;
    /// Its own options: each name with its `option` declaration's rest (`type ...`).
    const OPTIONS: &'static [(&'static str, &'static str)];
    /// Sets its option `name` (one of [`Partner::OPTIONS`]) to `value`, or says what is
    /// wrong with the value (the text after `error `).
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String>;
    /// Forgets what it kept between moves (a new game).
    fn clear(&mut self);
    /// The best move of `pos` at `depth` plies with its score and the nodes searched; `None`
    /// when the game is over.
    fn best_move(
        &mut self,
        pos: &Self::Game,
        depth: u32,
    ) -> Option<(<Self::Game as Game>::Move, i32, u64)>;
}

/// Answers stdin line by line on stdout until `quit` or the end of the input, searching
/// `depth` plies (`setoption name Depth` changes it; `default_depth` is what the handshake
/// declares).
pub fn run<P: Partner>(mut partner: P, mut depth: u32, default_depth: u32) -> anyhow::Result<()> {
    let mut options = <P::Game as Game>::Options::default();
    let mut position = P::Game::start(&options);
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for line in io::stdin().lock().lines() {
        let line = line?;
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [] => {}
            [hello @ ("ugi" | "uci")] => {
                writeln!(out, "id name {} depth {depth}", P::NAME)?;
                writeln!(out, "option name GameOptions type string default")?;
                writeln!(
                    out,
                    "option name Depth type spin default {default_depth} min 1 max {}",
                    P::MAX_DEPTH
                )?;
                for (name, declaration) in P::OPTIONS {
                    writeln!(out, "option name {name} {declaration}")?;
                }
                writeln!(out, "{hello}ok")?;
            }
            ["isready"] => writeln!(out, "readyok")?,
            ["setoption", "name", "GameOptions", "value", pairs @ ..] => {
                match P::Game::parse_options(&option_pairs(&pairs.join(" "))) {
                    Ok(parsed) => {
                        options = parsed;
                        position = P::Game::start(&options);
                    }
                    Err(e) => writeln!(out, "error {e}")?,
                }
            }
            ["setoption", "name", "Depth", "value", n] => match n.parse() {
                Ok(n) if (1..=P::MAX_DEPTH).contains(&n) => depth = n,
                _ => writeln!(out, "error bad depth {n}: expected 1 to {}", P::MAX_DEPTH)?,
            },
            ["setoption", "name", name, "value", value] if known::<P>(name) => {
                if let Err(e) = partner.set_option(name, value) {
                    writeln!(out, "error {e}")?
                }
            }
            // A known option with its value missing (or more than one word for a number).
            ["setoption", "name", name, ..]
                if *name == "GameOptions" || *name == "Depth" || known::<P>(name) =>
            {
                writeln!(out, "error setoption name {name}: expected value VALUE")?
            }
            ["setoption", "name", name, ..] => writeln!(out, "error unknown option {name}")?,
            ["setoption", ..] => writeln!(out, "error setoption: expected name NAME value ...")?,
            ["uginewgame" | "ucinewgame"] => {
                partner.clear();
                position = P::Game::start(&options);
            }
            ["position", rest @ ..] => match position_from_words::<P::Game>(rest, &options) {
                Ok(p) => position = p,
                Err(e) => writeln!(out, "error {e}")?,
            },
            ["go", ..] => match partner.best_move(&position, depth) {
                Some((mv, score, nodes)) => {
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

/// Whether `name` is one of the partner's own options.
fn known<P: Partner>(name: &str) -> bool {
    P::OPTIONS.iter().any(|&(own, _)| own == name)
}
