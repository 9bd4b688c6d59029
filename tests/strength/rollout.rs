//! `rollout` through the protocol: values known by counting dice, the stratified first rolls,
//! the same answer on any number of threads, truncation, the luck correction, `stop`, and
//! malformed arguments.

use crate::common;

use common::Engine;
use std::time::Duration;

const LONG: Duration = Duration::from_secs(120);

/// The value of `key` in a `rollout` line.
fn field(line: &str, key: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&w| w == key).expect(key);
    words[at + 1].to_owned()
}

fn count(line: &str, key: &str) -> u64 {
    field(line, key).parse().unwrap()
}

/// The final line of a rollout, without its time.
fn rollout(engine: &mut Engine, command: &str) -> String {
    engine.send(command);
    let line = engine.until("rollout ", LONG);
    line[..line.find(" time ").unwrap()].to_owned()
}

fn backgammon() -> Engine {
    let mut engine = Engine::start(&["backgammon"]);
    engine.send("isready");
    engine.until("readyok", LONG);
    engine
}

#[test]
fn a_certain_gammon_is_worth_two_points_every_time() {
    // White to roll, one checker left on its 1-point: it bears off with any roll, and black
    // has borne off none: a gammon in every trial.
    let mut engine = backgammon();
    engine.send("position fen w=1:1 b=6:15 w -");
    let line = rollout(&mut engine, "rollout trials 72");
    assert_eq!(
        line,
        "rollout trials 72 mean 2000.0 se 0.0 wins 72 gammons 72 backgammons 0 losses 0 \
         lgammons 0 lbackgammons 0 draws 0 unfinished 0"
    );
}

#[test]
fn stratified_first_rolls_give_the_exact_gammon_rate() {
    // Black to roll with all 15 checkers on its 6-point; white bears off its last checker
    // next turn whatever happens. Black saves the gammon only by bearing one checker off now:
    // any roll with a 6 (11 of 36), or two dice making 6 (51, 15, 42, 24, 33, 22: 6 of 36),
    // so 17 of 36 rolls lose one point and 19 lose two. Every 36 trials see each roll in its
    // exact proportion, so 72 trials count 38 gammons exactly and the mean is
    // -(17 x 1000 + 19 x 2000) / 36.
    let mut engine = backgammon();
    engine.send("position fen w=1:1 b=6:15 b -");
    let line = rollout(&mut engine, "rollout trials 72 seed 9");
    assert_eq!(count(&line, "losses"), 72);
    assert_eq!(count(&line, "lgammons"), 38);
    assert_eq!(count(&line, "lbackgammons"), 0);
    assert_eq!(field(&line, "mean"), format!("{:.1}", -55_000.0 / 36.0));
}

#[test]
fn the_answer_depends_on_the_seed_not_on_the_threads() {
    let mut engine = backgammon();
    engine.send("position startpos moves 31:8/5,6/5");
    let one = rollout(&mut engine, "rollout trials 144 seed 4");
    engine.send("setoption name Threads value 2");
    let two = rollout(&mut engine, "rollout trials 144 seed 4");
    assert_eq!(one, two);
    let other = rollout(&mut engine, "rollout trials 144 seed 5");
    assert_ne!(one, other);
    // Every trial ends in a result here (a full rollout), counted once.
    let decided = count(&one, "losses") + count(&one, "wins");
    assert_eq!(decided, 144);
    assert_eq!(count(&one, "unfinished"), 0);
    assert!(count(&one, "gammons") <= count(&one, "wins"));
    assert!(count(&one, "backgammons") <= count(&one, "gammons"));
}

#[test]
fn a_truncated_rollout_takes_the_evaluation_after_its_plies() {
    let mut engine = backgammon();
    engine.send("position startpos moves 31:8/5,6/5");
    let line = rollout(&mut engine, "rollout trials 36 plies 2");
    assert_eq!(count(&line, "unfinished"), 36);
    assert_eq!(count(&line, "wins") + count(&line, "losses"), 0);
    // The opening position after one play each is far from decided: the mean of the
    // evaluations is well within a point either way, unlike a finished game's.
    let mean: f64 = field(&line, "mean").parse().unwrap();
    assert!(mean.abs() < 500.0, "{line}");
}

#[test]
fn the_luck_correction_takes_the_dice_out_of_a_decided_position() {
    // The position of the test above: black's roll decides everything (a loss of 1 with 17
    // rolls of 36, of 2 with 19), white's roll cannot change it. Black's policy play after
    // each roll leaves a bear-off that the database values exactly (-1000 or -2000), so a
    // trial's luck is its own value less the mean, and every corrected trial is the mean:
    // -55000 / 36 = -1527.78, luck rounded to a thousandth of a point, so -1528 each time.
    let mut engine = backgammon();
    engine.send("position fen w=1:1 b=6:15 b -");
    let line = rollout(&mut engine, "rollout trials 50 seed 9 luck 1");
    assert_eq!(field(&line, "mean"), "-1528.0");
    assert_eq!(field(&line, "se"), "0.0");
    // The results themselves are counted as they fell (50 trials: not whole strata).
    assert_eq!(count(&line, "losses"), 50);
    let plain = rollout(&mut engine, "rollout trials 50 seed 9 luck 0");
    assert_eq!(count(&line, "lgammons"), count(&plain, "lgammons"));
    assert_ne!(field(&plain, "se"), "0.0");
}

#[test]
fn the_luck_correction_narrows_a_rollout_and_keeps_its_mean() {
    let mut engine = backgammon();
    engine.send("position startpos moves 31:8/5,6/5");
    let plain = rollout(&mut engine, "rollout trials 144 plies 4 seed 2");
    let lucky = rollout(&mut engine, "rollout trials 144 plies 4 seed 2 luck 1");
    let value = |line: &str, key: &str| -> f64 { field(line, key).parse().unwrap() };
    // The same dice, so the same trials; the correction only subtracts each trial's luck.
    assert!(
        value(&lucky, "se") * 3.0 < value(&plain, "se"),
        "{plain} / {lucky}"
    );
    let gap = (value(&lucky, "mean") - value(&plain, "mean")).abs();
    assert!(gap < 3.0 * value(&plain, "se"), "{plain} / {lucky}");
    engine.send("setoption name Threads value 2");
    assert_eq!(
        rollout(&mut engine, "rollout trials 144 plies 4 seed 2 luck 1"),
        lucky
    );
}

#[test]
fn stop_ends_a_rollout_with_the_trials_so_far_and_isready_is_answered() {
    let mut engine = backgammon();
    engine.send("position startpos\nrollout trials 10000000");
    engine.until("info string rollout trials", LONG);
    engine.send("isready");
    engine.until("readyok", Duration::from_secs(5));
    engine.send("stop");
    let line = engine.until("rollout ", Duration::from_secs(10));
    let trials = count(&line, "trials");
    assert!((144..10_000_000).contains(&trials), "{line}");
    // The engine is free again.
    engine.send("legalmoves");
    engine.until("legalmoves ", Duration::from_secs(5));
}

#[test]
fn malformed_arguments_are_refused_and_change_nothing() {
    let mut engine = backgammon();
    engine.send("position startpos moves 31:8/5,6/5");
    for bad in [
        "rollout trials 0",
        "rollout trials -3",
        "rollout trials 5 trials 6",
        "rollout plies 4294967296",
        "rollout seed 99999999999999999999",
        "rollout trials",
        "rollout depth 3",
        "rollout luck 2",
        "rollout luck -1",
        "rollout luck 1 luck 1",
        "rollout luck",
    ] {
        engine.send(bad);
        let line = engine.until("", LONG);
        assert_eq!(
            line, "error expected rollout [trials N] [plies N] [seed N] [luck 0|1]",
            "{bad}"
        );
    }
    engine.send("fen");
    let fen = engine.until("fen ", LONG);
    assert!(fen.contains(" b "), "{fen}");
}
