//! A small neural evaluation trained by self-play with TD(lambda), after Tesauro's TD-Gammon.
//!
//! Inputs (198, always from white's side): for each side and each of its points 1..=24, four
//! units (at least 1, 2, 3 checkers, half the count beyond 3), its bar / 2 and its borne-off
//! checkers / 15, then two units for the side to move. One sigmoid hidden layer, five sigmoid
//! outputs: white wins, white wins a gammon, a backgammon, black wins a gammon, a backgammon.
//! Training ([`train`]) plays the network against itself, each side taking the play whose
//! result it values most, and moves every prediction towards the next one (the final result at
//! the end) with eligibility traces.

use super::board::{Side26, BAR, OFF};
use super::movegen::{Move, Roll};
use super::{Backgammon, Options};
use crate::game::{Game, Side};
use crate::util::rng::Rng;

/// Input units.
pub const INPUTS: usize = 198;
/// Output units.
pub const OUTPUTS: usize = 5;

/// A two-layer network: `hidden x (INPUTS + 1)` then `OUTPUTS x (hidden + 1)` (bias last).
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    hidden: usize,
    w1: Vec<f32>,
    w2: Vec<f32>,
}

/// The active inputs of a position: (index, value) pairs, most inputs being zero.
pub fn inputs(pos: &Backgammon, out: &mut Vec<(usize, f32)>) {
    out.clear();
    for (s, side) in [Side::White, Side::Black].into_iter().enumerate() {
        let c: &Side26 = pos.checkers(side);
        let base = s * 98;
        for (p, &n) in c.iter().enumerate().take(25).skip(1) {
            let at = base + (p - 1) * 4;
            if n >= 1 {
                out.push((at, 1.0));
            }
            if n >= 2 {
                out.push((at + 1, 1.0));
            }
            if n >= 3 {
                out.push((at + 2, 1.0));
            }
            if n > 3 {
                out.push((at + 3, (n - 3) as f32 / 2.0));
            }
        }
        if c[BAR] > 0 {
            out.push((base + 96, c[BAR] as f32 / 2.0));
        }
        if c[OFF] > 0 {
            out.push((base + 97, c[OFF] as f32 / 15.0));
        }
    }
    out.push((196 + pos.side_to_move().index(), 1.0));
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The forward pass, kept for the gradient.
struct Activations {
    hidden: Vec<f32>,
    out: [f32; OUTPUTS],
}

impl Net {
    /// A network with small random weights.
    pub fn new(hidden: usize, rng: &mut Rng) -> Net {
        let mut w =
            |n: usize| -> Vec<f32> { (0..n).map(|_| (rng.unit() as f32 - 0.5) * 0.2).collect() };
        Net {
            hidden,
            w1: w(hidden * (INPUTS + 1)),
            w2: w(OUTPUTS * (hidden + 1)),
        }
    }

    fn forward(&self, x: &[(usize, f32)]) -> Activations {
        let stride = INPUTS + 1;
        let hidden: Vec<f32> = (0..self.hidden)
            .map(|j| {
                let row = &self.w1[j * stride..(j + 1) * stride];
                let sum = x.iter().fold(row[INPUTS], |acc, &(i, v)| acc + row[i] * v);
                sigmoid(sum)
            })
            .collect();
        let mut out = [0f32; OUTPUTS];
        let stride2 = self.hidden + 1;
        for (k, o) in out.iter_mut().enumerate() {
            let row = &self.w2[k * stride2..(k + 1) * stride2];
            let sum = hidden
                .iter()
                .zip(row)
                .fold(row[self.hidden], |acc, (h, w)| acc + h * w);
            *o = sigmoid(sum);
        }
        Activations { hidden, out }
    }

    /// The five probabilities for a position (white's view).
    pub fn outputs(&self, pos: &Backgammon, scratch: &mut Vec<(usize, f32)>) -> [f32; OUTPUTS] {
        inputs(pos, scratch);
        self.forward(scratch).out
    }

    /// Cubeless equity for white from the outputs.
    pub fn white_equity(out: &[f32; OUTPUTS]) -> f32 {
        2.0 * out[0] - 1.0 + out[1] - out[3] + out[2] - out[4]
    }

    /// Equity for the side to move, in points; finished games score exactly.
    pub fn equity(&self, pos: &Backgammon, scratch: &mut Vec<(usize, f32)>) -> f32 {
        let white = match pos.outcome() {
            Some(o) => {
                let p = o.points as f32;
                if o.winner == Some(Side::White) {
                    p
                } else {
                    -p
                }
            }
            None => Net::white_equity(&self.outputs(pos, scratch)),
        };
        if pos.side_to_move() == Side::White {
            white
        } else {
            -white
        }
    }

    /// The play whose result is best for the mover (dice set).
    pub fn choose(&self, pos: &Backgammon, scratch: &mut Vec<(usize, f32)>) -> Option<Move> {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut best: Option<(f32, Move)> = None;
        for mv in moves {
            let mut child = pos.clone();
            child.play(mv);
            let score = -self.equity(&child, scratch);
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, mv));
            }
        }
        best.map(|(_, mv)| mv)
    }

    /// The weights as text: a header line `hidden H`, then one weight per line.
    pub fn to_text(&self) -> String {
        let mut s = format!("tabula-backgammon-td hidden {}\n", self.hidden);
        for w in self.w1.iter().chain(&self.w2) {
            s.push_str(&format!("{w:.6}\n"));
        }
        s
    }

    /// Reads [`Net::to_text`] output.
    pub fn from_text(text: &str) -> Option<Net> {
        let mut lines = text.lines();
        let hidden: usize = lines
            .next()?
            .strip_prefix("tabula-backgammon-td hidden ")?
            .parse()
            .ok()?;
        let weights: Vec<f32> = lines.map(|l| l.parse().ok()).collect::<Option<_>>()?;
        let n1 = hidden * (INPUTS + 1);
        if weights.len() != n1 + OUTPUTS * (hidden + 1) {
            return None;
        }
        Some(Net {
            hidden,
            w1: weights[..n1].to_vec(),
            w2: weights[n1..].to_vec(),
        })
    }
}

/// The shipped network (`neural.weights`, trained by `backgammon-train`).
pub fn shipped() -> &'static Net {
    static NET: std::sync::OnceLock<Net> = std::sync::OnceLock::new();
    NET.get_or_init(|| {
        Net::from_text(include_str!("neural.weights")).expect("neural.weights is well formed")
    })
}

/// [`Game::evaluate`] with the shipped network: equity in thousandths of a point.
pub fn evaluate(pos: &Backgammon) -> i32 {
    let mut scratch = Vec::with_capacity(64);
    (shipped().equity(pos, &mut scratch) * super::eval::POINT as f32) as i32
}

/// TD(lambda) learner state: one eligibility trace per output and weight.
struct Learner {
    net: Net,
    alpha: f32,
    lambda: f32,
    e1: Vec<f32>,
    e2: Vec<f32>,
}

impl Learner {
    /// Decays the traces and adds the gradient of every output at `x`.
    fn trace(&mut self, x: &[(usize, f32)], act: &Activations) {
        let h = self.net.hidden;
        let n1 = h * (INPUTS + 1);
        let n2 = h + 1;
        self.e1.iter_mut().for_each(|e| *e *= self.lambda);
        self.e2.iter_mut().for_each(|e| *e *= self.lambda);
        for k in 0..OUTPUTS {
            let y = act.out[k];
            let dy = y * (1.0 - y);
            let row2 = &self.net.w2[k * n2..(k + 1) * n2];
            let e2 = &mut self.e2[k * n2..(k + 1) * n2];
            for (e, &hj) in e2.iter_mut().zip(&act.hidden) {
                *e += dy * hj;
            }
            e2[h] += dy;
            let e1 = &mut self.e1[k * n1..(k + 1) * n1];
            for j in 0..h {
                let hj = act.hidden[j];
                let g = dy * row2[j] * hj * (1.0 - hj);
                let row = &mut e1[j * (INPUTS + 1)..(j + 1) * (INPUTS + 1)];
                for &(i, v) in x {
                    row[i] += g * v;
                }
                row[INPUTS] += g;
            }
        }
    }

    /// Moves the weights by `alpha * delta_k * trace_k` for every output.
    fn update(&mut self, delta: &[f32; OUTPUTS]) {
        let h = self.net.hidden;
        let n1 = h * (INPUTS + 1);
        let n2 = h + 1;
        for (k, &d) in delta.iter().enumerate() {
            let step = self.alpha * d;
            for (w, e) in self.net.w1.iter_mut().zip(&self.e1[k * n1..(k + 1) * n1]) {
                *w += step * e;
            }
            for (w, e) in self.net.w2[k * n2..(k + 1) * n2]
                .iter_mut()
                .zip(&self.e2[k * n2..(k + 1) * n2])
            {
                *w += step * e;
            }
        }
    }
}

/// The result of a finished game as the five target probabilities.
fn result_targets(pos: &Backgammon) -> [f32; OUTPUTS] {
    let mut t = [0f32; OUTPUTS];
    if let Some(o) = pos.outcome() {
        let white = o.winner == Some(Side::White);
        if white {
            t[0] = 1.0;
        }
        let base = if white { 1 } else { 3 };
        if o.points >= 2 {
            t[base] = 1.0;
        }
        if o.points >= 3 {
            t[base + 1] = 1.0;
        }
    }
    t
}

/// Training settings for [`train`].
#[derive(Copy, Clone, Debug)]
pub struct TrainConfig {
    /// Self-play games.
    pub games: u32,
    /// Hidden units.
    pub hidden: usize,
    /// Learning rate.
    pub alpha: f32,
    /// Trace decay.
    pub lambda: f32,
    /// Seed of the initial weights and the dice.
    pub seed: u64,
}

/// Trains a network by self-play; `progress` is called every 1000 games with the count.
pub fn train(config: TrainConfig, mut progress: impl FnMut(u32, &Net)) -> Net {
    let mut rng = Rng::new(config.seed);
    let net = Net::new(config.hidden, &mut rng);
    let n1 = config.hidden * (INPUTS + 1) * OUTPUTS;
    let n2 = (config.hidden + 1) * OUTPUTS;
    let mut learner = Learner {
        net,
        alpha: config.alpha,
        lambda: config.lambda,
        e1: vec![0.0; n1],
        e2: vec![0.0; n2],
    };
    let mut x = Vec::with_capacity(64);
    for game in 1..=config.games {
        learner.e1.iter_mut().for_each(|e| *e = 0.0);
        learner.e2.iter_mut().for_each(|e| *e = 0.0);
        let mut pos = Backgammon::start(&Options::default());
        inputs(&pos, &mut x);
        let mut act = learner.net.forward(&x);
        loop {
            learner.trace(&x, &act);
            let roll = loop {
                let r = Roll::new(rng.below(6) as u8 + 1, rng.below(6) as u8 + 1);
                if let Some(r) = r.filter(|&r| pos.roll_allowed(r)) {
                    break r;
                }
            };
            pos.set_dice(roll);
            let Some(mv) = learner.net.choose(&pos, &mut x) else {
                break;
            };
            pos.play(mv);
            let target = if pos.outcome().is_some() {
                result_targets(&pos)
            } else {
                inputs(&pos, &mut x);
                learner.net.forward(&x).out
            };
            let mut delta = [0f32; OUTPUTS];
            for k in 0..OUTPUTS {
                delta[k] = target[k] - act.out[k];
            }
            learner.update(&delta);
            if pos.outcome().is_some() {
                break;
            }
            act = learner.net.forward(&x);
        }
        if game % 1000 == 0 {
            progress(game, &learner.net);
        }
    }
    learner.net
}
