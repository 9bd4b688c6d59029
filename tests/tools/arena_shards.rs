//! `arena --shard I/N --results FILE` and `arena merge`: a match played whole and as shards
//! (deterministic engines: fixed depth, greedy, random) prints the same output and writes the
//! same records once merged, SPRT stop included.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const ENGINE: &str = env!("CARGO_BIN_EXE_tabula");
const ARENA: &str = env!("CARGO_BIN_EXE_arena");

fn arena(args: &[String]) -> Output {
    let output = Command::new(ARENA).args(args).output().expect("arena runs");
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_owned).collect()
}

/// A scratch directory of its own per test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tabula-shards-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

fn path(dir: &Path, file: &str) -> String {
    dir.join(file).display().to_string()
}

/// Plays `spec` whole and in `shards` shards (shard files listed out of order, one twice),
/// and checks the merged output and records equal the whole run's. Returns the output.
fn whole_equals_merged(name: &str, spec: &str, shards: usize) -> String {
    let dir = scratch(name);
    let mut whole = words(spec);
    whole.extend(["--record".into(), path(&dir, "whole.rec")]);
    let whole_out = arena(&whole).stdout;
    let mut files = Vec::new();
    for index in (0..shards).rev() {
        let file = path(&dir, &format!("shard{index}.res"));
        let mut shard = words(spec);
        shard.extend(["--shard".into(), format!("{index}/{shards}")]);
        shard.extend(["--results".into(), file.clone(), "--quiet".into()]);
        arena(&shard);
        files.push(file);
    }
    files.push(files[0].clone());
    let mut merge = vec![
        "merge".to_owned(),
        "--record".into(),
        path(&dir, "merged.rec"),
    ];
    merge.extend(files);
    let merged = arena(&merge);
    let text = String::from_utf8_lossy(&whole_out).into_owned();
    assert_eq!(String::from_utf8_lossy(&merged.stdout), text);
    assert!(String::from_utf8_lossy(&merged.stderr).contains("counted once"));
    let read = |file| std::fs::read_to_string(dir.join(file)).expect("a record");
    assert_eq!(read("merged.rec"), read("whole.rec"));
    let _ = std::fs::remove_dir_all(&dir);
    text
}

#[test]
fn three_shards_merge_into_the_whole_match() {
    let spec = format!(
        "--game bombardment --game-options size=6 --engine cmd={ENGINE},name=d2,tc=depth=2 \
         --engine cmd={ENGINE},name=d1,tc=depth=1 --games 21 --seed 4 --random-plies 2 \
         --concurrency 2"
    );
    let text = whole_equals_merged("depth", &spec, 3);
    assert_eq!(text.lines().filter(|l| l.starts_with("game ")).count(), 21);
    assert!(text.contains("d2 vs d1: 21 games"), "{text}");
}

#[test]
fn the_sprt_stops_the_merged_match_where_the_whole_one_stopped() {
    // Greedy against random in small Bombardment: a near sweep decides within 40 games.
    let spec = format!(
        "--game bombardment --game-options size=6 \
         --engine cmd={ENGINE},name=greedy,option.Player=greedy \
         --engine cmd={ENGINE},name=random,option.Player=random \
         --games 60 --seed 3 --sprt elo0=0,elo1=50"
    );
    let text = whole_equals_merged("sprt", &spec, 4);
    assert!(text.contains("H1 accepted"), "{text}");
    assert!(text.lines().filter(|l| l.starts_with("game ")).count() < 60);
}

#[test]
fn backgammon_points_and_ppg_merge() {
    let spec = format!(
        "--game backgammon --engine cmd={ENGINE},name=greedy,option.Player=greedy \
         --engine cmd={ENGINE},name=random,option.Player=random --games 16 --seed 2"
    );
    let text = whole_equals_merged("backgammon", &spec, 3);
    assert!(text.contains("\nppg "), "{text}");
}

#[test]
fn merge_refuses_missing_games_and_other_matches() {
    let dir = scratch("refuse");
    let spec = |seed: u32, shard: &str, file: &str| {
        let mut args = words(&format!(
            "--game bombardment --game-options size=6 --engine cmd={ENGINE},option.Player=greedy \
             --engine cmd={ENGINE},option.Player=random --games 8 --seed {seed} --quiet"
        ));
        args.extend([
            "--shard".into(),
            shard.into(),
            "--results".into(),
            path(&dir, file),
        ]);
        args
    };
    arena(&spec(1, "0/2", "a.res"));
    arena(&spec(2, "1/2", "b.res"));
    let merge = |args: &[String]| Command::new(ARENA).args(args).output().expect("runs");
    let record = path(&dir, "missing.rec");
    let missing = merge(&[
        "merge".into(),
        path(&dir, "a.res"),
        "--record".into(),
        record.clone(),
    ]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("game 5 is missing"));
    // A merge that fails prints no game lines and writes no record.
    assert!(
        missing.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&missing.stdout)
    );
    assert!(!std::path::Path::new(&record).exists());
    let partial = merge(&["merge".into(), "--partial".into(), path(&dir, "a.res")]);
    assert!(partial.status.success());
    assert!(String::from_utf8_lossy(&partial.stdout).contains(": 4 games"));
    let other = merge(&["merge".into(), path(&dir, "a.res"), path(&dir, "b.res")]);
    assert_eq!(other.status.code(), Some(1));
    // The files differ in their seed only, and the message says so.
    let stderr = String::from_utf8_lossy(&other.stderr);
    assert!(
        stderr.contains("a different match") && stderr.contains("seed is `2`, not `1`"),
        "{stderr}"
    );
    let none = merge(&["merge".into()]);
    assert_eq!(none.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shards_after_the_sprt_decided_may_be_missing() {
    // The whole match stops at game 6 (H1); the first of four shards holds games 1-15, so a
    // merge of it alone is the whole match (the cluster cancels the other shards).
    let dir = scratch("decided");
    let mut args = words(&format!(
        "--game bombardment --game-options size=6 --engine cmd={ENGINE},option.Player=greedy \
         --engine cmd={ENGINE},option.Player=random --games 60 --seed 3 --sprt elo0=0,elo1=50 --quiet"
    ));
    let whole = String::from_utf8_lossy(&arena(&args).stdout).into_owned();
    assert!(
        whole.contains("6 games") && whole.contains("H1 accepted"),
        "{whole}"
    );
    args.extend([
        "--shard".into(),
        "0/4".into(),
        "--results".into(),
        path(&dir, "s0.res"),
    ]);
    arena(&args);
    let merged = Command::new(ARENA)
        .args(["merge", "--quiet", &path(&dir, "s0.res")])
        .output()
        .expect("runs");
    assert!(merged.status.success());
    assert_eq!(String::from_utf8_lossy(&merged.stdout), whole);
    let _ = std::fs::remove_dir_all(&dir);
}
