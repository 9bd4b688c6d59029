//! Reads backgammon match files (`.mat`, the Jellyfish format GNU Backgammon and eXtreme
//! Gammon import and export): `backgammon-mat check FILE...` replays every game with the rules
//! and prints each file's games and final score; `backgammon-mat show FILE` lists every action
//! one per line (`game 1 white 52:13/8,24/22`, `game 1 wins white 1`), the same whoever wrote
//! the file, so two files can be compared (a last game still in play has no `wins` line); with
//! `--positions` each action line ends with ` | ` and the position it was played from (the
//! engine's position string, with the match score and the Crawford flag), what an analysis of
//! the match sets up; `backgammon-mat copy IN OUT` reads IN and writes it again in tabula's own
//! layout. A malformed file is reported as `FILE:LINE: reason` (exit
//! status 1; a bad command line is status 2).

use clap::{Parser, Subcommand};
use tabula::game::{Game, Side};
use tabula::games::backgammon::matfile::{self, Action, MatchRecord};
use tabula::games::backgammon::Backgammon;

fn load(file: &str) -> Result<MatchRecord, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    matfile::read(&text, file)
}

fn name(side: Side) -> &'static str {
    if side == Side::White {
        "white"
    } else {
        "black"
    }
}

/// Reads, shows and rewrites backgammon match files (.mat).
#[derive(Parser, Debug)]
#[command(name = "backgammon-mat")]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Replay every game of each file with the rules; print its games and final score
    Check {
        #[arg(required = true, value_name = "FILE")]
        files: Vec<String>,
    },
    /// List every action one per line, the same whoever wrote the file
    Show {
        #[arg(value_name = "FILE")]
        file: String,
        /// End each action line with ` | ` and the position it was played from
        #[arg(long)]
        positions: bool,
    },
    /// Read IN and write it again in tabula's own layout
    Copy {
        #[arg(value_name = "IN")]
        from: String,
        #[arg(value_name = "OUT")]
        to: String,
    },
}

fn run(command: &Command) -> Result<(), String> {
    match command {
        Command::Check { files } => {
            for file in files {
                let record = load(file)?;
                println!("{file}: {}", record.summary());
            }
            Ok(())
        }
        Command::Show { file, positions } => {
            let record = load(file)?;
            let played_from = record.positions()?;
            println!("match {}", record.length);
            let action_line = |number: usize, (pos, action): &(Backgammon, &Action)| {
                let from = if *positions {
                    format!(" | {}", pos.to_fen())
                } else {
                    String::new()
                };
                println!("game {number} {} {}{from}", name(action.side), action.token);
            };
            for (number, game) in played_from.iter().enumerate() {
                game.iter().for_each(|seen| action_line(number + 1, seen));
                if let Some(result) = record.games.get(number) {
                    println!(
                        "game {} wins {} {}",
                        number + 1,
                        name(result.winner),
                        result.points
                    );
                }
            }
            Ok(())
        }
        Command::Copy { from, to } => {
            let record = load(from)?;
            std::fs::write(to, matfile::write(&record)).map_err(|e| format!("{to}: {e}"))
        }
    }
}

fn main() {
    tabula::util::cli::exit_on_closed_output();
    if let Err(message) = run(&Args::parse().command) {
        eprintln!("{message}");
        std::process::exit(1);
    }
}
