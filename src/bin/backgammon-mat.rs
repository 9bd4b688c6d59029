//! Reads backgammon match files (`.mat`, the Jellyfish format GNU Backgammon and eXtreme
//! Gammon import and export): `backgammon-mat check FILE...` replays every game with the rules
//! and prints each file's games and final score; `backgammon-mat show FILE` lists every action
//! one per line (`game 1 white 52:13/8,24/22`, `game 1 wins white 1`), the same whoever wrote
//! the file, so two files can be compared (a last game still in play has no `wins` line); `backgammon-mat copy IN OUT` reads IN and writes
//! it again in tabula's own layout. A malformed file is reported as `FILE:LINE: reason` (exit
//! status 1).

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

fn run(args: &[String]) -> Result<(), String> {
    match args {
        [command, files @ ..] if command == "check" && !files.is_empty() => {
            for file in files {
                let record = load(file)?;
                println!("{file}: {}", record.summary());
            }
            Ok(())
        }
        [command, file] if command == "show" => {
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
        [command, from, to] if command == "copy" => {
            let record = load(from)?;
            std::fs::write(to, matfile::write(&record)).map_err(|e| format!("{to}: {e}"))
        }
        _ => Err(
            "usage: backgammon-mat check FILE... | backgammon-mat show FILE | \
             backgammon-mat copy IN OUT"
                .into(),
        ),
    }
}

fn main() {
    tabula::util::cli::exit_on_closed_output();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Err(message) = run(&args) {
        eprintln!("{message}");
        std::process::exit(1);
    }
}
