//! Replays every `tests/transcripts/*.txt` against the real `tabula` binary. With `BLESS=1` in
//! the environment it first rewrites their exact expected lines from the engine's output
//! (`tabula::transcript::bless`; review the result with `git diff tests/transcripts`).

use std::path::{Path, PathBuf};

fn transcripts() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/transcripts exists")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "txt"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no transcripts found");
    files
}

#[test]
fn every_transcript_replays_exactly() {
    let engine = Path::new(env!("CARGO_BIN_EXE_tabula"));
    let bless = std::env::var_os("BLESS").is_some_and(|v| !v.is_empty() && v != "0");
    let files = transcripts();
    let mut failures = Vec::new();
    for file in &files {
        let outcome = if bless {
            tabula::transcript::bless::bless_file(engine, &[], file).map(|changed| {
                if changed {
                    eprintln!("blessed {}", file.display());
                }
            })
        } else {
            tabula::transcript::run_file(engine, &[], file)
        };
        failures.extend(outcome.err());
    }
    assert!(
        failures.is_empty(),
        "{} of {} transcripts failed:\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}
