//! `bench`'s node counts per game are pinned in `tests/bench_signature.txt`: they change only
//! when search, evaluation or move generation do, never with `Seed` or the machine. A change
//! that means to alter them is blessed with `BLESS=1 cargo test --test protocol bench_signature::`, and
//! the diff of the file shows it in review.

use std::path::Path;
use tabula::bench;

/// `GAME NODES` lines from a bench report's `GAME depth D nodes N ...` lines.
fn signature(lines: &[String]) -> String {
    let mut out = String::new();
    for line in lines {
        let words: Vec<&str> = line.split_whitespace().collect();
        let nodes = words
            .iter()
            .position(|&w| w == "nodes")
            .map(|i| words[i + 1])
            .expect("a nodes field");
        out.push_str(&format!("{} depth {} nodes {nodes}\n", words[0], words[2]));
    }
    out
}

#[test]
fn bench_node_counts_match_the_pinned_signature() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bench_signature.txt");
    let actual = signature(&bench::run(None).lines);
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&file, &actual).expect("writable signature file");
        return;
    }
    let pinned = std::fs::read_to_string(&file).expect("tests/bench_signature.txt");
    assert_eq!(
        actual, pinned,
        "bench signature changed; if on purpose: BLESS=1 cargo test --test protocol bench_signature::"
    );
}
