//! `morris-tune RECORDS...`: fits the weights of the Morris evaluation to game results
//! (Texel's method; docs/morris.md).
//!
//! Every quiet position of the games in the records (`arena --record`, replayed under each
//! game's options; no mill close for the side to move, game not over) becomes one sample: the evaluation's term counts
//! (`eval::terms`) and the game's result from the side to move's view (1, 1/2, 0). The
//! prediction is `1 / (1 + exp(-k * score))` with `score` the weighted sum of the counts;
//! full-batch gradient descent (Adam) on the cross-entropy fits `k` and every weight but the
//! fixed ones (`eval::FIXED_TERMS`), pulled towards the current weights by a ridge penalty.
//! One game in ten (the tenth, twentieth, ...) is held out and reported separately, so
//! overfitting shows; with fewer than ten games nothing is held out and the loss lines say so.
//! The output is the table of old and new weights; the engine's weights change only by
//! editing `eval.rs`.

use anyhow::{bail, Context};
use clap::Parser;
use std::path::PathBuf;
use tabula::arena::record::{self, Recorded};
use tabula::game::{Game, Hints, Side};
use tabula::games::morris::eval::{terms, FIXED_TERMS, TERMS, TERM_NAMES, WEIGHTS};
use tabula::games::morris::Morris;
use tabula::protocol::option_pairs;
use tabula::util::cli::{exit_on_closed_output, positive};

/// Command line.
#[derive(Parser)]
#[command(about = "Fits the Morris evaluation's weights to the results of recorded games")]
struct Args {
    /// Game records written by `arena --record` (Nine Men's Morris, any options).
    #[arg(required = true)]
    records: Vec<PathBuf>,
    /// Passes of gradient descent over all samples.
    #[arg(long, default_value_t = 4000, value_parser = clap::value_parser!(u32).range(1..))]
    iterations: u32,
    /// Adam's step size, in weight units.
    #[arg(long, default_value_t = 0.5, value_parser = positive)]
    rate: f64,
    /// Ridge penalty per sample on (new - old weight) / 100, squared (0: none).
    #[arg(long, default_value_t = 1e-4, value_parser = non_negative)]
    ridge: f64,
}

/// A finite number of at least 0 (a penalty, where 0 turns it off).
fn non_negative(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(format!("{text} is not a finite number of at least 0")),
    }
}

/// One position: its term counts and the result for the side to move.
struct Sample {
    counts: [f64; TERMS],
    result: f64,
}

fn main() -> anyhow::Result<()> {
    exit_on_closed_output();
    let args = Args::parse();
    let (mut train, mut held) = (Vec::new(), Vec::new());
    let mut games = 0;
    for path in &args.records {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        for game in record::parse(&text)? {
            let target = if games % 10 == 9 {
                &mut held
            } else {
                &mut train
            };
            samples(&game, target)?;
            games += 1;
        }
    }
    if train.is_empty() {
        bail!("no quiet positions in the records");
    }
    println!(
        "{games} games: {} training positions, {} held out",
        train.len(),
        held.len()
    );
    // An empty held-out set has no loss: a number there would read as a perfect fit.
    let held_out = |w: &[f64], k: f64| {
        if held.is_empty() {
            format!("held out: none of the {games} games")
        } else {
            format!("held out {:.6}", loss(&held, w, k))
        }
    };
    let old: Vec<f64> = WEIGHTS.iter().map(|&w| f64::from(w)).collect();
    let k = fit_scale(&train, &old);
    println!(
        "scale k = {k:.6}; loss with the current weights: train {:.6}, {}",
        loss(&train, &old, k),
        held_out(&old, k)
    );
    let (new, k) = fit(&train, &old, k, &args);
    if !k.is_finite() || new.iter().any(|w| !w.is_finite()) {
        bail!(
            "the fit diverged (the scale or a weight is no longer a number): try a lower --rate than {}",
            args.rate
        );
    }
    println!(
        "scale k = {k:.6}; loss with the fitted weights:  train {:.6}, {}",
        loss(&train, &new, k),
        held_out(&new, k)
    );
    println!("{:<16} {:>8} {:>8} {:>10}", "term", "old", "new", "nonzero");
    for i in 0..TERMS {
        let used = train.iter().filter(|s| s.counts[i] != 0.0).count();
        println!(
            "{:<16} {:>8} {:>8.0} {:>10}",
            TERM_NAMES[i], WEIGHTS[i], new[i], used
        );
    }
    Ok(())
}

/// Replays `game` under its own options, adding its quiet positions to `out`.
fn samples(game: &Recorded, out: &mut Vec<Sample>) -> anyhow::Result<()> {
    if game.game != Morris::NAME {
        bail!(
            "a {} record: morris-tune reads Nine Men's Morris only",
            game.game
        );
    }
    let options = Morris::parse_options(&option_pairs(&game.options))
        .map_err(|e| anyhow::anyhow!("options {:?}: {e:?}", game.options))?;
    let white_points = match game.winner {
        Some(Side::White) => 1.0,
        Some(Side::Black) => 0.0,
        None => 0.5,
    };
    let mut pos = Morris::start(&options);
    let mut tactical = Vec::new();
    for token in game.moves.iter().map(Some).chain([None]) {
        tactical.clear();
        pos.tactical_moves(&mut tactical);
        if pos.outcome().is_none() && tactical.is_empty() {
            let result = match pos.side_to_move() {
                Side::White => white_points,
                Side::Black => 1.0 - white_points,
            };
            let counts = terms(&pos).map(f64::from);
            out.push(Sample { counts, result });
        }
        let Some(token) = token else { break };
        let mv = pos
            .parse_move(token)
            .map_err(|e| anyhow::anyhow!("{token}: {e:?}"))?;
        pos.play(mv);
    }
    Ok(())
}

fn score(s: &Sample, w: &[f64]) -> f64 {
    s.counts.iter().zip(w).map(|(c, w)| c * w).sum()
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean cross-entropy of the predictions.
fn loss(samples: &[Sample], w: &[f64], k: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let p = sigmoid(k * score(s, w)).clamp(1e-12, 1.0 - 1e-12);
            -(s.result * p.ln() + (1.0 - s.result) * (1.0 - p).ln())
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The `k` that fits the current weights best (golden-section search on the loss).
fn fit_scale(samples: &[Sample], w: &[f64]) -> f64 {
    let (mut lo, mut hi) = (1e-5_f64, 0.05_f64);
    for _ in 0..60 {
        let a = hi - (hi - lo) / 1.618;
        let b = lo + (hi - lo) / 1.618;
        if loss(samples, w, a) < loss(samples, w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Adam on the weights (the fixed ones kept) and on `k`'s logarithm.
fn fit(samples: &[Sample], old: &[f64], k0: f64, args: &Args) -> (Vec<f64>, f64) {
    let n = samples.len() as f64;
    let mut w = old.to_vec();
    let mut log_k = k0.ln();
    let params = TERMS + 1;
    let (mut m, mut v) = (vec![0.0; params], vec![0.0; params]);
    let (beta1, beta2) = (0.9, 0.999);
    for t in 1..=args.iterations {
        let k = log_k.exp();
        let mut grad = vec![0.0; params];
        for s in samples {
            let sc = score(s, &w);
            // d(cross-entropy)/d(k * score) = p - result.
            let e = sigmoid(k * sc) - s.result;
            for (g, c) in grad.iter_mut().zip(&s.counts) {
                *g += e * k * c;
            }
            grad[TERMS] += e * k * sc;
        }
        for i in 0..TERMS {
            grad[i] = grad[i] / n + 2.0 * args.ridge * (w[i] - old[i]) / 1e4;
        }
        grad[TERMS] /= n;
        for i in 0..params {
            if FIXED_TERMS.contains(&i) {
                continue;
            }
            m[i] = beta1 * m[i] + (1.0 - beta1) * grad[i];
            v[i] = beta2 * v[i] + (1.0 - beta2) * grad[i] * grad[i];
            let m_hat = m[i] / (1.0 - beta1.powi(t as i32));
            let v_hat = v[i] / (1.0 - beta2.powi(t as i32));
            let step = args.rate * m_hat / (v_hat.sqrt() + 1e-12);
            if i == TERMS {
                // The scale moves in relative terms: a step of `rate` weight units is far
                // too large for it.
                log_k -= step * 1e-3;
            } else {
                w[i] -= step;
            }
        }
    }
    (w, log_k.exp())
}
