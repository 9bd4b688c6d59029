//! `replay TRANSCRIPT... [--engine PATH]`: replays transcripts against the engine binary and
//! shows the exchange up to the first difference. Exit status 1 if any transcript fails.

use std::path::PathBuf;

fn main() -> anyhow::Result<()> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let engine = match args.iter().position(|a| a == "--engine") {
        Some(at) if at + 1 < args.len() => {
            PathBuf::from(args.drain(at..at + 2).nth(1).unwrap_or_default())
        }
        _ => std::env::current_exe()?.with_file_name("tabula"),
    };
    anyhow::ensure!(
        !args.is_empty(),
        "usage: replay TRANSCRIPT... [--engine PATH]"
    );
    let mut failed = 0;
    for file in &args {
        match tabula::transcript::run_file(&engine, &[], file.as_ref()) {
            Ok(()) => println!("ok   {file}"),
            Err(log) => {
                failed += 1;
                println!("FAIL {log}");
            }
        }
    }
    if failed > 0 {
        std::process::exit(1);
    }
    Ok(())
}
