//! Supervised training of the backgammon network on deeper targets (docs/backgammon.md):
//!
//! - `backgammon-deep generate --positions N --seed S --explore X [--from W] --out DATA`
//!   plays self-play games with network W (1 ply; with probability X a uniformly random play
//!   instead, so that not only the best positions appear) and writes every position before a
//!   roll, except all-home races (the bear-off database scores those), with its target: the
//!   five outputs for the side to move averaged over the rolls of its best 1-ply play with
//!   each (results exact, all-home races from the database).
//! - `backgammon-deep train --data DATA [--from W] --out W2 --epochs E --alpha A --decay D
//!   --holdout F --seed S` starts from W and takes one cross-entropy gradient step per
//!   position, in a seeded shuffled order each epoch, the learning rate times D after each;
//!   the last fraction F of DATA is held out and scored after every epoch, whose weights go
//!   to `W2.N` (epoch N) and the last to W2.

use clap::{Parser, Subcommand};
use std::io::Write;
use std::path::{Path, PathBuf};
use tabula::game::Game;
use tabula::games::backgammon::bearoff;
use tabula::games::backgammon::features::encode;
use tabula::games::backgammon::nn::{flipped, result_targets, Net, OUTPUTS};
use tabula::games::backgammon::position_text::{format_fen, parse_fen};
use tabula::games::backgammon::{Backgammon, Move, Options, Roll};
use tabula::util::rng::Rng;

/// Trains the backgammon network on 1-ply lookahead targets (docs/backgammon.md).
#[derive(Parser, Debug)]
#[command(name = "backgammon-deep")]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Writes self-play positions with their lookahead targets
    Generate {
        /// Positions to write
        #[arg(long, value_name = "N", default_value_t = 100_000)]
        positions: u32,
        /// Seed of the dice and the exploration
        #[arg(long, value_name = "N", default_value_t = 1)]
        seed: u64,
        /// Chance of a uniformly random play instead of the best
        #[arg(long, value_name = "X", default_value_t = 0.1)]
        explore: f64,
        /// The network that plays and scores (default: the shipped weights)
        #[arg(long, value_name = "FILE")]
        from: Option<PathBuf>,
        /// The data file
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
    /// Trains a network on a data file from `generate`
    Train {
        /// The data file
        #[arg(long, value_name = "FILE")]
        data: PathBuf,
        /// The network to start from (default: the shipped weights)
        #[arg(long, value_name = "FILE")]
        from: Option<PathBuf>,
        /// Where the weights go (and epoch N's to FILE.N)
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Passes over the training positions
        #[arg(long, value_name = "N", default_value_t = 4)]
        epochs: u32,
        /// Learning rate of the first epoch
        #[arg(long, value_name = "X", default_value_t = 0.01)]
        alpha: f32,
        /// Factor on the learning rate after each epoch
        #[arg(long, value_name = "X", default_value_t = 0.5)]
        decay: f32,
        /// Fraction of the data (its end) held out
        #[arg(long, value_name = "X", default_value_t = 0.05)]
        holdout: f64,
        /// Seed of the shuffles
        #[arg(long, value_name = "N", default_value_t = 1)]
        seed: u64,
    },
}

/// Exits with a message (status 1).
fn fail(message: String) -> ! {
    eprintln!("backgammon-deep: {message}");
    std::process::exit(1);
}

/// The network of `from`, or the shipped one.
fn read_net(from: &Option<PathBuf>) -> Net {
    let text = match from {
        Some(path) => std::fs::read_to_string(path)
            .unwrap_or_else(|e| fail(format!("cannot read {}: {e}", path.display()))),
        None => include_str!("../games/backgammon/neural.weights").to_owned(),
    };
    Net::from_text(&text).unwrap_or_else(|| fail("not a weight file".to_owned()))
}

/// Whether both sides have every checker home (the bear-off database's positions).
fn all_home(pos: &Backgammon) -> bool {
    let mover = pos.side_to_move();
    bearoff::outputs(pos.checkers(mover), pos.checkers(mover.opponent())).is_some()
}

/// The mover's outputs after its play into `child`: the result when the game is over.
fn after_play(net: &Net, child: &Backgammon, scratch: &mut Vec<(usize, f32)>) -> [f32; OUTPUTS] {
    let mover = child.side_to_move().opponent();
    match child.outcome() {
        Some(o) => result_targets(&o, mover),
        None => flipped(&net.outputs(child, scratch)),
    }
}

/// The mover's best play of `roll` by `net` at 1 ply (the first of equals) and its outputs.
fn best_play(
    net: &Net,
    pos: &Backgammon,
    roll: Roll,
    moves: &mut Vec<Move>,
    scratch: &mut Vec<(usize, f32)>,
) -> (Move, [f32; OUTPUTS]) {
    moves.clear();
    pos.plays_of(roll, moves);
    let mut best: Option<(f32, Move, [f32; OUTPUTS])> = None;
    for &mv in moves.iter() {
        let mut child = pos.clone();
        child.set_dice(roll);
        child.play(mv);
        let out = after_play(net, &child, scratch);
        let equity = Net::equity_of(&out);
        if best.as_ref().is_none_or(|(b, _, _)| equity > *b) {
            best = Some((equity, mv, out));
        }
    }
    // `plays_of` lists a pass when nothing can be played, so there is always a play.
    let (_, mv, out) = best.expect("at least one play");
    (mv, out)
}

/// The target of a position before the roll: the mover's outputs after its best play,
/// averaged over the rolls.
fn lookahead(
    net: &Net,
    pos: &Backgammon,
    moves: &mut Vec<Move>,
    scratch: &mut Vec<(usize, f32)>,
) -> [f32; OUTPUTS] {
    let mut sum = [0f64; OUTPUTS];
    for (roll, p) in Roll::all(pos.is_opening()) {
        let (_, out) = best_play(net, pos, roll, moves, scratch);
        for (s, o) in sum.iter_mut().zip(out) {
            *s += p * f64::from(o);
        }
    }
    sum.map(|s| s as f32)
}

/// `generate`: self-play games until `positions` positions are written.
fn generate(net: &Net, positions: u32, seed: u64, explore: f64, out: &Path) {
    let file = std::fs::File::create(out)
        .unwrap_or_else(|e| fail(format!("cannot write {}: {e}", out.display())));
    let mut file = std::io::BufWriter::new(file);
    let mut rng = Rng::new(seed);
    let (mut moves, mut scratch) = (Vec::new(), Vec::new());
    let (mut written, mut games) = (0u32, 0u32);
    let started = std::time::Instant::now();
    while written < positions {
        let mut pos = Backgammon::start(&Options::default());
        games += 1;
        while pos.outcome().is_none() && !all_home(&pos) && written < positions {
            let target = lookahead(net, &pos, &mut moves, &mut scratch);
            let numbers: Vec<String> = target.iter().map(|t| format!("{t:.5}")).collect();
            writeln!(file, "{}\t{}", format_fen(&pos), numbers.join(" "))
                .unwrap_or_else(|e| fail(format!("cannot write {}: {e}", out.display())));
            written += 1;
            if written.is_multiple_of(10_000) {
                eprintln!(
                    "positions {written} games {games} time {:.0}s",
                    started.elapsed().as_secs_f64()
                );
            }
            let roll = loop {
                let r = Roll::new(rng.below(6) as u8 + 1, rng.below(6) as u8 + 1);
                if let Some(r) = r.filter(|&r| pos.roll_allowed(r)) {
                    break r;
                }
            };
            let (best, _) = best_play(net, &pos, roll, &mut moves, &mut scratch);
            let mv = if rng.unit() < explore {
                moves[rng.below(moves.len() as u64) as usize]
            } else {
                best
            };
            pos.set_dice(roll);
            pos.play(mv);
        }
    }
    file.flush()
        .unwrap_or_else(|e| fail(format!("cannot write {}: {e}", out.display())));
}

/// One training example: the encoded inputs and the target.
struct Example {
    x: Vec<(usize, f32)>,
    target: [f32; OUTPUTS],
}

/// Reads a data file of `generate`.
fn read_data(path: &Path) -> Vec<Example> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| fail(format!("cannot read {}: {e}", path.display())));
    let options = Options::default();
    let bad = |n: usize| -> ! {
        fail(format!(
            "{}:{}: not a position and target",
            path.display(),
            n + 1
        ))
    };
    text.lines()
        .enumerate()
        .map(|(n, line)| {
            let (fen, numbers) = line.split_once('\t').unwrap_or_else(|| bad(n));
            let pos = parse_fen(fen, &options).unwrap_or_else(|_| bad(n));
            let values: Vec<f32> = numbers
                .split(' ')
                .map(|v| v.parse().unwrap_or_else(|_| bad(n)))
                .collect();
            let target: [f32; OUTPUTS] = values.try_into().unwrap_or_else(|_| bad(n));
            let mut x = Vec::new();
            encode(&pos, &mut x);
            Example { x, target }
        })
        .collect()
}

/// Cross-entropy of outputs `y` against `t`, summed over the outputs.
fn cross_entropy(y: &[f32; OUTPUTS], t: &[f32; OUTPUTS]) -> f64 {
    y.iter()
        .zip(t)
        .map(|(&y, &t)| {
            let y = f64::from(y).clamp(1e-7, 1.0 - 1e-7);
            let t = f64::from(t);
            -(t * y.ln() + (1.0 - t) * (1.0 - y).ln())
        })
        .sum()
}

/// Mean cross-entropy and root mean square equity error of `net` on `examples`.
fn score(net: &Net, examples: &[Example]) -> (f64, f64) {
    let (mut loss, mut error) = (0.0, 0.0);
    for e in examples {
        let y = net.predict(&e.x);
        loss += cross_entropy(&y, &e.target);
        error += f64::from(Net::equity_of(&y) - Net::equity_of(&e.target)).powi(2);
    }
    let n = examples.len().max(1) as f64;
    (loss / n, (error / n).sqrt())
}

/// The settings of `train`.
struct TrainSettings {
    epochs: u32,
    alpha: f32,
    decay: f32,
    holdout: f64,
    seed: u64,
}

/// `train`: epochs of shuffled single-example steps, scored on the held-out end.
fn train(mut net: Net, data: &[Example], s: &TrainSettings, out: &Path) {
    let held = ((data.len() as f64) * s.holdout) as usize;
    let (learn, check) = data.split_at(data.len() - held);
    let (loss, error) = score(&net, check);
    println!(
        "epoch 0 held-out {} cross-entropy {loss:.5} equity rms {error:.4}",
        check.len()
    );
    let mut rng = Rng::new(s.seed);
    let mut order: Vec<usize> = (0..learn.len()).collect();
    let mut alpha = s.alpha;
    let started = std::time::Instant::now();
    for epoch in 1..=s.epochs {
        rng.shuffle(&mut order);
        let mut train_loss = 0.0;
        for &i in &order {
            let e = &learn[i];
            train_loss += cross_entropy(&net.learn(&e.x, &e.target, alpha), &e.target);
        }
        let (loss, error) = score(&net, check);
        println!(
            "epoch {epoch} alpha {alpha} train {:.5} held-out cross-entropy {loss:.5} \
             equity rms {error:.4} time {:.0}s",
            train_loss / learn.len().max(1) as f64,
            started.elapsed().as_secs_f64()
        );
        let text = net.to_text();
        for path in [
            PathBuf::from(format!("{}.{epoch}", out.display())),
            out.into(),
        ] {
            std::fs::write(&path, &text)
                .unwrap_or_else(|e| fail(format!("cannot write {}: {e}", path.display())));
        }
        alpha *= s.decay;
    }
}

fn main() {
    match Args::parse().command {
        Command::Generate {
            positions,
            seed,
            explore,
            from,
            out,
        } => {
            bearoff::prepare();
            generate(&read_net(&from), positions, seed, explore, &out);
        }
        Command::Train {
            data,
            from,
            out,
            epochs,
            alpha,
            decay,
            holdout,
            seed,
        } => {
            let settings = TrainSettings {
                epochs,
                alpha,
                decay,
                holdout,
                seed,
            };
            train(read_net(&from), &read_data(&data), &settings, &out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(fen: &str) -> Backgammon {
        parse_fen(fen, &Options::default()).expect("a position")
    }

    /// One checker left on the ace point: every roll bears it off, and the loser, with a
    /// checker still in the winner's home board, loses a backgammon.
    #[test]
    fn a_sure_win_has_the_exact_target() {
        let net = read_net(&None);
        let pos = position("w=1:1 b=19:1,6:14 w -");
        let target = lookahead(&net, &pos, &mut Vec::new(), &mut Vec::new());
        assert_eq!(target, [1.0, 1.0, 1.0, 0.0, 0.0]);
    }

    /// The target is for the side to move: colour-swapped twins get the same one, and one
    /// side's sure loss after every roll is the other's sure win.
    #[test]
    fn targets_are_for_the_side_to_move() {
        let net = read_net(&None);
        let (mut moves, mut scratch) = (Vec::new(), Vec::new());
        let white = position("w=24:2,13:5,8:3,6:5 b=24:2,13:4,8:3,6:5,5:1 w -");
        let black = position("w=24:2,13:4,8:3,6:5,5:1 b=24:2,13:5,8:3,6:5 b -");
        let a = lookahead(&net, &white, &mut moves, &mut scratch);
        assert_eq!(a, lookahead(&net, &black, &mut moves, &mut scratch));
        // Every chance is a probability and a gammon is part of a win.
        assert!(a.iter().all(|p| (0.0..=1.0).contains(p)), "{a:?}");
        assert!(a[1] <= a[0] && a[2] <= a[1] && a[4] <= a[3] && a[3] <= 1.0 - a[0]);
    }

    #[test]
    fn learning_moves_the_outputs_to_the_target() {
        let mut net = Net::new(16, &mut Rng::new(3));
        let mut x = Vec::new();
        encode(
            &position("w=24:2,13:5,8:3,6:5 b=24:2,13:5,8:3,6:5 b -"),
            &mut x,
        );
        let target = [0.7, 0.2, 0.01, 0.1, 0.005];
        let before = cross_entropy(&net.predict(&x), &target);
        for _ in 0..500 {
            net.learn(&x, &target, 0.05);
        }
        let after = net.predict(&x);
        assert!(cross_entropy(&after, &target) < before);
        for (y, t) in after.iter().zip(target) {
            assert!((y - t).abs() < 0.01, "{after:?}");
        }
    }

    #[test]
    fn generated_data_is_seeded_and_reads_back() {
        let dir = std::env::temp_dir();
        let (a, b) = (dir.join("bgdeep-a.data"), dir.join("bgdeep-b.data"));
        let net = read_net(&None);
        generate(&net, 300, 7, 0.2, &a);
        generate(&net, 300, 7, 0.2, &b);
        let text = std::fs::read_to_string(&a).expect("written");
        assert_eq!(text, std::fs::read_to_string(&b).expect("written"));
        let examples = read_data(&a);
        assert_eq!(examples.len(), 300);
        // The first is the opening position, scored over the 15 opening rolls only.
        let first = position(text.split('\t').next().expect("a line"));
        assert_eq!(first, Backgammon::start(&Options::default()));
        let _ = (std::fs::remove_file(a), std::fs::remove_file(b));
    }
}
