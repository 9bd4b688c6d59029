//! Every example session in protocol.md and README.md (a fenced block of `>` and `<` lines)
//! replayed against the real binary, so the documents cannot drift from the engine.
//!
//! Each block runs in a fresh engine, except one that begins with `move` or `undo`: that goes
//! on from the block before it. The whole block is sent at once (a `wait` after each bounded
//! `go`, as a user would wait for its answer) and the input closed; then
//! the lines that are not `info` lines must be exactly the expected ones, in order, and the
//! expected `info` lines must come in order among the printed ones (an example shows only the
//! `info` lines it is about). In expected lines `time N` and `nps N` match any number, a line
//! `...` any run of lines and a word `...` any text. A block that needs files
//! the checkout does not have (endgame tables) is skipped.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;
use tabula::transcript::glob_match;

/// One example: its line in protocol.md, the lines sent and the lines expected.
struct Example {
    line: usize,
    sent: Vec<String>,
    expected: Vec<String>,
}

/// The fenced blocks made only of `>` and `<` lines.
fn examples(text: &str) -> Vec<Example> {
    let mut found = Vec::new();
    let mut block: Option<(usize, Vec<&str>)> = None;
    for (number, line) in text.lines().enumerate() {
        if line.starts_with("```") {
            match block.take() {
                None => block = Some((number + 1, Vec::new())),
                Some((start, lines)) => {
                    let lines: Vec<&str> = lines.into_iter().filter(|l| !l.is_empty()).collect();
                    let io = lines
                        .iter()
                        .all(|l| l.starts_with("> ") || l.starts_with("< "));
                    if io && !lines.is_empty() {
                        found.push(Example {
                            line: start,
                            sent: lines
                                .iter()
                                .filter_map(|l| l.strip_prefix("> "))
                                .map(String::from)
                                .collect(),
                            expected: lines
                                .iter()
                                .filter_map(|l| l.strip_prefix("< "))
                                .map(String::from)
                                .collect(),
                        });
                    }
                }
            }
        } else if let Some((_, lines)) = block.as_mut() {
            lines.push(line);
        }
    }
    found
}

/// The expected line as a glob: times and speeds vary, a word `...` elides any text.
fn pattern(expected: &str) -> String {
    let mut words: Vec<String> = expected.split(' ').map(String::from).collect();
    for i in 0..words.len() {
        let after = |w: &str| i > 0 && words[i - 1] == w;
        if (after("time") || after("nps")) && words[i].parse::<u64>().is_ok() || words[i] == "..." {
            words[i] = "*".into();
        }
    }
    words.join(" ")
}

/// Whether `printed` is what `expected` describes (see the module comment); the error says
/// where they part.
fn compare(expected: &[String], printed: &[String]) -> Result<(), String> {
    let mut at = 0;
    let mut gap = false;
    for want in expected {
        if want == "..." {
            gap = true;
            continue;
        }
        let glob = pattern(want);
        loop {
            let Some(line) = printed.get(at) else {
                return Err(format!("expected `{want}`, the output ended"));
            };
            at += 1;
            if glob_match(&glob, line) {
                break;
            }
            // Unexpected `info` lines are passed over; any other line must be the one expected.
            if !gap && !line.starts_with("info ") {
                return Err(format!("expected `{want}`, got `{line}`"));
            }
        }
        gap = false;
    }
    match printed[at..]
        .iter()
        .find(|l| !gap && !l.starts_with("info "))
    {
        Some(extra) => Err(format!("unexpected `{extra}` after the last expected line")),
        None => Ok(()),
    }
}

/// Everything `tabula` prints for `lines` sent at once, the input then closed.
fn session(lines: &[String]) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .current_dir(std::env::temp_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("tabula starts");
    let mut input = child.stdin.take().expect("stdin");
    for line in lines {
        writeln!(input, "{line}").expect("tabula reads");
        // As a user at a terminal would, let a bounded search answer before the next line:
        // read-only commands are otherwise answered at once, ahead of its lines.
        let bounded_go =
            line.starts_with("go ") && !line.contains("infinite") && !line.contains("ponder");
        if bounded_go {
            writeln!(input, "wait").expect("tabula reads");
        }
    }
    drop(input);
    let (done, wait) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(child.wait_with_output());
    });
    let output = wait
        .recv_timeout(Duration::from_secs(60))
        .expect("tabula ends within a minute of its input closing")
        .expect("tabula's output");
    assert!(
        output.status.success(),
        "tabula exited with {}",
        output.status
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn every_example_in_protocol_md_is_what_the_engine_prints() {
    replay_examples("protocol.md", 12);
}

#[test]
fn the_readme_example_is_what_the_engine_prints() {
    replay_examples("README.md", 1);
}

/// Replays the examples of one document, of which there must be at least `least`.
fn replay_examples(document: &str, least: usize) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(document);
    let text = std::fs::read_to_string(path).expect("the document");
    let all = examples(&text);
    assert!(all.len() >= least, "found only {} examples", all.len());
    let mut failures = Vec::new();
    let mut replayed = 0;
    let mut before: Vec<String> = Vec::new();
    for example in &all {
        if example.sent.iter().any(|l| l.contains("TablebasePath")) {
            before.clear();
            continue;
        }
        let continues = example.sent[0].starts_with("move ") || example.sent[0] == "undo";
        if !continues {
            before.clear();
        }
        // A continuation replays the blocks before it first; their own output is checked there.
        let earlier = session(&before).len();
        let mut lines = before.clone();
        lines.extend(example.sent.iter().cloned());
        let printed = session(&lines);
        if let Err(why) = compare(&example.expected, &printed[earlier.min(printed.len())..]) {
            failures.push(format!("{document}:{}: {why}", example.line));
        }
        before = lines;
        replayed += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(replayed >= least, "replayed only {replayed}");
}

#[test]
fn the_comparison_tells_a_difference() {
    let printed: Vec<String> = ["info depth 1 x", "info depth 2 y", "bestmove a"]
        .map(String::from)
        .to_vec();
    let ok = |expected: &[&str]| {
        compare(
            &expected.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            &printed,
        )
    };
    assert!(ok(&["bestmove a"]).is_ok());
    assert!(ok(&["info depth 2 y", "bestmove a"]).is_ok());
    assert!(ok(&["info depth 2 y", "info depth 1 x", "bestmove a"]).is_err());
    assert!(ok(&["bestmove b"]).is_err());
    assert!(ok(&[]).is_err());
    assert!(ok(&["...", "bestmove a"]).is_ok());
    assert!(ok(&["info depth ..."]).is_err(), "bestmove a is left over");
    assert_eq!(
        pattern("info depth 1 nodes 5 nps 10 time 3 pv a"),
        "info depth 1 nodes 5 nps * time * pv a"
    );
}
