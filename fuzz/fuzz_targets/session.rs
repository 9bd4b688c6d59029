//! Any sequence of lines drives a whole session (every game, every command); nothing panics.
//! Searches, perft and the transposition table are kept small so each run stays fast.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabula::protocol::response::Output;
use tabula::protocol::session::Session;

/// The table size every case runs with: a 16 MiB table per `newgame` would cost more time
/// than the commands themselves.
const SMALL_HASH: &str = "setoption name Hash value 1";

/// Keeps a fuzz case cheap: tiny searches, perfts and tables, bounded solves, no bench.
fn tame(line: &str) -> Option<String> {
    let mut words = line.split_whitespace();
    let word = words.next().unwrap_or("");
    match word {
        "bench" | "wait" => None,
        "go" => Some("go depth 2".to_string()),
        "solve" => Some("solve movetime 20".to_string()),
        "perft" | "divide" => {
            let depth: u32 = words.next()?.parse().ok()?;
            (depth <= 2).then(|| line.to_string())
        }
        "setoption" if line.to_ascii_lowercase().contains("hash") => Some(SMALL_HASH.to_string()),
        _ => Some(line.to_string()),
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut session = Session::new(Output::new(Box::new(std::io::sink())));
    session.handle(SMALL_HASH);
    for line in text.split('\n').take(64) {
        if let Some(line) = tame(line) {
            session.handle(&line);
        }
    }
    session.finish();
});
