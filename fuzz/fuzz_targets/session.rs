//! Any sequence of lines drives a whole session (every game, every command); nothing panics.
//! Searches and perft are kept small so each run stays fast.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabula::protocol::response::Output;
use tabula::protocol::session::Session;

/// Keeps a fuzz case cheap: tiny searches and perfts, no bench.
fn tame(line: &str) -> Option<String> {
    let word = line.split_whitespace().next().unwrap_or("");
    match word {
        "bench" | "wait" => None,
        "go" => Some("go depth 2".to_string()),
        "perft" | "divide" => {
            let depth: u32 = line.split_whitespace().nth(1)?.parse().ok()?;
            (depth <= 2).then(|| line.to_string())
        }
        _ => Some(line.to_string()),
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut session = Session::new(Output::new(Box::new(std::io::sink())));
    for line in text.split('\n').take(64) {
        if let Some(line) = tame(line) {
            session.handle(&line);
        }
    }
    session.finish();
});
