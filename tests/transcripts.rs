//! Replays every `tests/transcripts/*.txt` against the real `tabula` binary.

use std::path::Path;

#[test]
fn every_transcript_replays_exactly() {
    let engine = Path::new(env!("CARGO_BIN_EXE_tabula"));
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/transcripts exists")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "txt"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no transcripts found");
    let failures: Vec<String> = files
        .iter()
        .filter_map(|file| tabula::transcript::run_file(engine, &[], file).err())
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} transcripts failed:\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}
