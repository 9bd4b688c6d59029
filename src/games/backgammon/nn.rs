//! A neural evaluation trained by self-play with temporal differences, after Tesauro's
//! TD-Gammon: the network and what evaluating with it takes (the forward pass, reading and
//! writing weights, the shipped network). Changing the weights is the training tools' business
//! ([`super::training`] and the `backgammon-train` and `backgammon-deep` tools).
//!
//! Inputs: [`features`] (the raw board and expert units, from the side to move's view). One
//! sigmoid hidden layer, five sigmoid outputs, also for the side to move: it wins, wins a
//! gammon, a backgammon; it loses a gammon, a backgammon. A position and its colour-swapped
//! twin have the same inputs, so they score the same.

use super::bearoff;
use super::features::{self, INPUTS};
use super::movegen::Move;
use super::simd;
use super::Backgammon;
use crate::game::best_play::{best_play, seen_by, Judge};
use crate::game::{Game, Outcome, Side};

/// Output units.
pub const OUTPUTS: usize = 5;
/// The largest hidden layer a weight file may ask for.
pub const MAX_HIDDEN: usize = 256;
/// The first line of a weight file, before the hidden layer's size.
fn header() -> String {
    format!("tabula-backgammon-net mover-relative inputs {INPUTS} hidden ")
}

/// A two-layer network. `w1` is input-major, `(INPUTS + 1) x hidden` (the bias row last), so
/// the few active inputs each add one contiguous row; `w2` is `OUTPUTS x (hidden + 1)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    pub(super) hidden: usize,
    pub(super) w1: Vec<f32>,
    pub(super) w2: Vec<f32>,
}

/// The forward pass with its hidden layer kept: the gradient of training starts from it.
pub struct Activations {
    /// The hidden units' values (the first [`Net::hidden`] of them; the rest are 0).
    pub hidden: [f32; MAX_HIDDEN],
    /// The outputs.
    pub out: [f32; OUTPUTS],
}

impl Net {
    /// The hidden layer's size.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The outputs at encoded inputs `x` ([`features::encode`]) and the hidden layer behind
    /// them, without the bear-off database.
    pub fn forward(&self, x: &[(usize, f32)]) -> Activations {
        let h = self.hidden;
        let mut hidden = [0f32; MAX_HIDDEN];
        let acc = &mut hidden[..h];
        acc.copy_from_slice(&self.w1[INPUTS * h..(INPUTS + 1) * h]);
        simd::add_rows(acc, &self.w1, x);
        simd::sigmoid_all(acc);
        let mut out = [0f32; OUTPUTS];
        for (k, o) in out.iter_mut().enumerate() {
            let row = &self.w2[k * (h + 1)..(k + 1) * (h + 1)];
            *o = simd::sigmoid(simd::dot(acc, &row[..h]) + row[h]);
        }
        Activations { hidden, out }
    }

    /// The five probabilities for a position (the side to move's view): exact from the
    /// bear-off database when both sides have every checker home, else the network's.
    pub fn outputs(&self, pos: &Backgammon, scratch: &mut Vec<(usize, f32)>) -> [f32; OUTPUTS] {
        let mover = pos.side_to_move();
        if let Some(exact) = bearoff::outputs(pos.checkers(mover), pos.checkers(mover.opponent())) {
            return exact;
        }
        features::encode(pos, scratch);
        self.forward(scratch).out
    }

    /// Cubeless equity from the outputs, for the side they are for.
    pub fn equity_of(out: &[f32; OUTPUTS]) -> f32 {
        2.0 * out[0] - 1.0 + out[1] - out[3] + out[2] - out[4]
    }

    /// Equity for the side to move, in points; finished games score exactly.
    pub fn equity(&self, pos: &Backgammon, scratch: &mut Vec<(usize, f32)>) -> f32 {
        match pos.outcome() {
            Some(o) => Net::equity_of(&result_targets(&o, pos.side_to_move())),
            None => Net::equity_of(&self.outputs(pos, scratch)),
        }
    }

    /// The play whose result is best for the mover (dice set).
    pub fn choose(&self, pos: &Backgammon, scratch: &mut Vec<(usize, f32)>) -> Option<Move> {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut judge = Equity { net: self, scratch };
        best_play(pos, &moves, &mut judge).map(|(index, _)| moves[index])
    }

    /// The network's five outputs for encoded inputs `x` ([`features::encode`]), without the
    /// bear-off database.
    pub fn predict(&self, x: &[(usize, f32)]) -> [f32; OUTPUTS] {
        self.forward(x).out
    }

    /// The weights as text: a header line with the layer sizes, then one weight per line
    /// (`w1` input-major, then `w2`).
    pub fn to_text(&self) -> String {
        let mut s = format!("{}{}\n", header(), self.hidden);
        for w in self.w1.iter().chain(&self.w2) {
            s.push_str(&format!("{w:.5}\n"));
        }
        s
    }

    /// Reads [`Net::to_text`] output; `None` unless the sizes and the weight count agree and
    /// every weight is a finite number.
    pub fn from_text(text: &str) -> Option<Net> {
        let mut lines = text.lines();
        let hidden: usize = lines.next()?.strip_prefix(&header())?.parse().ok()?;
        if !(1..=MAX_HIDDEN).contains(&hidden) {
            return None;
        }
        // A diverged training run writes NaN or inf: such a file is no network.
        let weights: Vec<f32> = lines
            .map(|l| l.parse().ok().filter(|w: &f32| w.is_finite()))
            .collect::<Option<_>>()?;
        let n1 = (INPUTS + 1) * hidden;
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

/// The network `eval=neural` uses, once chosen.
static NET: std::sync::OnceLock<Net> = std::sync::OnceLock::new();

/// The network `eval=neural` uses: the shipped one (`neural.weights`, trained by
/// `backgammon-train`) unless [`install`] chose another first.
pub fn shipped() -> &'static Net {
    NET.get_or_init(|| {
        bearoff::prepare();
        Net::from_text(include_str!("neural.weights")).expect("neural.weights is well formed")
    })
}

/// Makes `net` the network of `eval=neural` for the rest of the process (for measuring a
/// training checkpoint with `backgammon-match`); false once a network is already in use.
pub fn install(net: Net) -> bool {
    NET.set(net).is_ok()
}

/// The network the cube decisions take their chances from: the shipped network trained
/// further on targets that rollouts of its own play corrected where they showed its value
/// clearly off, then on its own two-ply values. Its values are nearer the truth and its
/// ranking of plays is worse, so it values the cube decisions (the plays inside their searches
/// too) and never chooses the play made (docs/backgammon.md, "The cube network").
pub fn for_cube() -> &'static Net {
    static CUBE_NET: std::sync::OnceLock<Net> = std::sync::OnceLock::new();
    CUBE_NET.get_or_init(|| {
        bearoff::prepare();
        Net::from_text(include_str!("cube.weights")).expect("cube.weights is well formed")
    })
}

/// [`Game::evaluate`] with the shipped network: equity in thousandths of a point.
pub fn evaluate(pos: &Backgammon) -> i32 {
    thread_local! {
        static SCRATCH: std::cell::RefCell<Vec<(usize, f32)>> =
            std::cell::RefCell::new(Vec::with_capacity(128));
    }
    let equity = SCRATCH.with(|s| shipped().equity(pos, &mut s.borrow_mut()));
    (equity * super::eval::POINT as f32) as i32
}

/// [`Net::choose`]'s judge: a position is worth its [`Net::equity`] (turned to the side asked
/// about by its sign), a finished game its result's cubeless equity.
struct Equity<'a> {
    net: &'a Net,
    scratch: &'a mut Vec<(usize, f32)>,
}

impl Judge<Backgammon> for Equity<'_> {
    type Worth = f32;

    fn position(&mut self, pos: &Backgammon, side: Side) -> f32 {
        let equity = Net::equity_of(&self.net.outputs(pos, self.scratch));
        seen_by(pos, side, equity)
    }

    fn result(&mut self, _: &Backgammon, outcome: &Outcome, side: Side) -> f32 {
        Net::equity_of(&result_targets(outcome, side))
    }

    fn rank(worth: &f32) -> f64 {
        f64::from(*worth)
    }
}

/// The result of a finished game as the five target probabilities for `side`.
pub fn result_targets(o: &Outcome, side: Side) -> [f32; OUTPUTS] {
    let mut t = [0f32; OUTPUTS];
    let won = o.winner == Some(side);
    if won {
        t[0] = 1.0;
    }
    let base = if won { 1 } else { 3 };
    if o.points >= 2 {
        t[base] = 1.0;
    }
    if o.points >= 3 {
        t[base + 1] = 1.0;
    }
    t
}

/// The outputs for the other side: its win is our loss, its gammons our gammons lost.
pub fn flipped(out: &[f32; OUTPUTS]) -> [f32; OUTPUTS] {
    [1.0 - out[0], out[3], out[4], out[1], out[2]]
}
