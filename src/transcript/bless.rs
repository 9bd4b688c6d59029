//! Blessing: rewriting a transcript's expected lines from what the engine prints now
//! (`BLESS=1 cargo test --test protocol transcripts::`).
//!
//! The transcript is replayed step by step as in a check, but each `< TEXT` line takes the
//! line the engine printed in its place. Everything else stays byte for byte: comments, blank
//! lines, sent lines, and `<* GLOB` patterns (output that varies: times, node counts, a
//! searched move), which are kept even when they no longer match, for the replay that follows
//! to report. Output the transcript does not expect is added where it appeared: lines that came
//! before the next command was sent (after a short quiet spell), and lines after the last step.
//! An expected line that never comes is removed. `info` lines are skipped as in a check.

use super::{expects_info, matches, parse, run_file, Engine, Step, WAIT};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

/// How long the engine must stay silent before the next command, for its output to count as
/// complete at that point. Only paid where a block of expected lines ends.
const QUIET: Duration = Duration::from_millis(100);

/// Blesses `file` (rewriting it only if something changed), then replays it as a check.
/// Returns whether the file changed; the error is the check's, or why bless could not run.
pub fn bless_file(engine: &Path, args: &[&str], file: &Path) -> Result<bool, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let blessed =
        bless_text(engine, args, &text, WAIT).map_err(|e| format!("{}: {e}", file.display()))?;
    let changed = blessed != text;
    if changed {
        std::fs::write(file, &blessed).map_err(|e| format!("{}: {e}", file.display()))?;
    }
    run_file(engine, args, file).map(|()| changed)
}

/// The transcript `text` with its exact expected lines replaced by the engine's output; an
/// expected line waits at most `wait`.
pub fn bless_text(
    engine: &Path,
    args: &[&str],
    text: &str,
    wait: Duration,
) -> Result<String, String> {
    let steps = parse(text)?;
    let mut engine = Engine::start(engine, args)?;
    // Transcript lines (by number) to replace, and lines to add after a line.
    let mut replace: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    let mut add_after: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for (index, (number, step)) in steps.iter().enumerate() {
        match step {
            Step::Send(bytes) => {
                if !engine.send(bytes) {
                    return Err(format!("line {number}: the engine stopped reading"));
                }
            }
            Step::Close => engine.close(),
            Step::Expect(want) => match engine.next_line(step, wait) {
                Ok(line) if &line == want => {}
                Ok(line) => {
                    replace.insert(*number, vec![expected(&line)]);
                }
                Err(_) => {
                    replace.insert(*number, Vec::new());
                }
            },
            Step::Glob(_) => {
                if engine.next_line(step, wait).is_err() {
                    replace.insert(*number, Vec::new());
                }
            }
        }
        let block_ends = matches!(step, Step::Expect(_) | Step::Glob(_))
            && matches!(steps.get(index + 1), Some((_, Step::Send(_) | Step::Close)));
        if block_ends {
            let extra = unexpected(&mut engine, &steps[index + 1..]);
            if !extra.is_empty() {
                add_after.insert(*number, extra.iter().map(|l| expected(l)).collect());
            }
        }
    }
    let (extra, exit) = engine.finish(wait);
    exit?;
    if let (false, Some((last, _))) = (extra.is_empty(), steps.last()) {
        let lines = add_after.entry(*last).or_default();
        lines.extend(extra.iter().map(|l| expected(l)));
    }
    Ok(rewrite(text, &replace, &add_after))
}

/// At the end of a block of expected lines: the lines printed before the engine fell quiet
/// that the next expectation does not take. From the first one it takes on, lines are given
/// back (a search may answer only now what the transcript expects after further commands).
fn unexpected(engine: &mut Engine, rest: &[(usize, Step)]) -> Vec<String> {
    let next = rest
        .iter()
        .map(|(_, step)| step)
        .find(|step| matches!(step, Step::Expect(_) | Step::Glob(_)));
    // An `info` expectation takes the very next line, info or not: nothing to sort out.
    if next.is_some_and(expects_info) {
        return Vec::new();
    }
    let mut lines = engine.until_quiet(QUIET);
    let taken = next.and_then(|step| lines.iter().position(|line| matches(step, line)));
    let back = lines.split_off(taken.unwrap_or(lines.len()));
    engine.give_back(back);
    lines.retain(|line| !line.starts_with("info "));
    lines
}

/// A transcript line expecting exactly `line`.
fn expected(line: &str) -> String {
    if line.is_empty() {
        "<".to_owned()
    } else {
        format!("< {line}")
    }
}

/// `text` with the replacements and additions, every other byte kept.
fn rewrite(
    text: &str,
    replace: &BTreeMap<usize, Vec<String>>,
    add_after: &BTreeMap<usize, Vec<String>>,
) -> String {
    fn put(out: &mut String, line: &str) {
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(line);
        out.push('\n');
    }
    let mut out = String::with_capacity(text.len());
    for (index, original) in text.split_inclusive('\n').enumerate() {
        let number = index + 1;
        match replace.get(&number) {
            Some(lines) => lines.iter().for_each(|line| put(&mut out, line)),
            None => out.push_str(original),
        }
        if let Some(lines) = add_after.get(&number) {
            lines.iter().for_each(|line| put(&mut out, line));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `cat` answers every line with itself: an engine whose output is known in advance.
    fn bless(text: &str) -> String {
        bless_text(Path::new("cat"), &[], text, Duration::from_millis(500)).expect("cat runs")
    }

    #[test]
    fn a_wrong_expected_line_is_rewritten() {
        let text = "# echo\n> hello\n< hullo\n\n> bye\n< bye\n";
        assert_eq!(bless(text), "# echo\n> hello\n< hello\n\n> bye\n< bye\n");
    }

    #[test]
    fn a_correct_transcript_is_left_byte_identical() {
        // Comments, blank lines, escapes, a glob, an `info` line skipped, no final newline.
        let text = "# start\n\n> info depth 1\n> bestmove x\n<* bestmove *\n>  two  spaces\n\
                    <  two  spaces\n> a\\tb\n< a\tb\n>\n<\n# end";
        assert_eq!(bless(text), text);
    }

    #[test]
    fn output_gained_or_lost_is_added_or_removed() {
        // `b` is printed before `c` is sent: it belongs to the first block.
        assert_eq!(
            bless("> a\n> b\n< a\n> c\n< c\n"),
            "> a\n> b\n< a\n< b\n> c\n< c\n"
        );
        // After the last step.
        assert_eq!(bless("> a\n> b\n< a\n"), "> a\n> b\n< a\n< b\n");
        // A line that never comes.
        assert_eq!(
            bless("> a\n< a\n< gone\n> c\n< c\n"),
            "> a\n< a\n> c\n< c\n"
        );
    }

    #[test]
    fn a_blessed_file_is_written_then_checked() {
        let file = std::env::temp_dir().join(format!("bless-{}.txt", std::process::id()));
        let cat = Path::new("cat");
        std::fs::write(&file, "> a\n< b\n").expect("temp file");
        assert_eq!(bless_file(cat, &[], &file), Ok(true));
        assert_eq!(
            std::fs::read_to_string(&file).ok(),
            Some("> a\n< a\n".into())
        );
        assert_eq!(
            bless_file(cat, &[], &file),
            Ok(false),
            "a passing file stays"
        );
        // A pattern that no longer matches is kept, and the check after blessing fails on it.
        std::fs::write(&file, "> a\n<* b*\n").expect("temp file");
        let error = bless_file(cat, &[], &file).expect_err("the glob fails");
        assert!(error.contains("b*   (glob)"), "{error}");
        assert_eq!(
            std::fs::read_to_string(&file).ok(),
            Some("> a\n<* b*\n".into())
        );
        let _ = std::fs::remove_file(&file);
    }

    #[test]
    fn patterns_stay_patterns() {
        // A glob is kept even when it no longer matches: the check after blessing fails on it.
        assert_eq!(bless("> x\n<* y*\n"), "> x\n<* y*\n");
        assert_eq!(bless("> x1\n<* x*\n> y\n< z\n"), "> x1\n<* x*\n> y\n< y\n");
    }
}
