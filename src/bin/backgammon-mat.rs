//! Reads backgammon match files (`.mat`, the Jellyfish format GNU Backgammon and eXtreme
//! Gammon import and export): `backgammon-mat check FILE...` replays every game with the rules
//! and prints each file's games and final score; `backgammon-mat show FILE` lists every action
//! one per line (`game 1 white 52:13/8,24/22`, `game 1 wins white 1`), the same whoever wrote
//! the file, so two files can be compared (a last game still in play has no `wins` line); `backgammon-mat copy IN OUT` reads IN and writes
//! it again in tabula's own layout. A malformed file is reported as `FILE:LINE: reason` (exit
//! status 1; a bad command line is status 2).

use clap::{Parser, Subcommand};
use tabula::game::Side;
use tabula::games::backgammon::matfile::{self, MatchRecord};

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
        Command::Show { file } => {
            let record = load(file)?;
            println!("match {}", record.length);
            for (number, game) in record.games.iter().enumerate() {
                for action in &game.actions {
                    println!("game {} {} {}", number + 1, name(action.side), action.token);
                }
                println!(
                    "game {} wins {} {}",
                    number + 1,
                    name(game.winner),
                    game.points
                );
            }
            let number = record.games.len() + 1;
            for action in &record.unfinished {
                println!("game {number} {} {}", name(action.side), action.token);
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
