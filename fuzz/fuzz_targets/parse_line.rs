//! Any bytes, read as a line, parse to a command or to an error message; never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabula::protocol::parse::parse_line;

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    if let Err(error) = parse_line(&line) {
        let _ = error.to_string();
    }
});
