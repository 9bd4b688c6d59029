//! Changing a network's weights, which only the training tools do (`backgammon-train` by
//! temporal differences, `backgammon-deep` on lookahead targets): random and widened
//! networks, back-propagation, plain and Adam gradient steps, and the weights themselves for
//! the eligibility traces of TD(lambda). The engine only evaluates ([`super::nn`]).

use super::features::INPUTS;
use super::nn::{result_targets, Activations, Net, MAX_HIDDEN, OUTPUTS};
use super::Backgammon;
use crate::game::best_play::Judge;
use crate::game::{Outcome, Side};
use crate::util::rng::Rng;

/// A network's way of valuing plays as a [`Judge`], for choosing plays while making
/// training targets: a position is worth the five outputs that the closure gives for the
/// side asked about, a finished game its result's, and plays rank by cubeless equity.
pub struct ByOutputs<F>(pub F);

impl<F: FnMut(&Backgammon, Side) -> [f32; OUTPUTS]> Judge<Backgammon> for ByOutputs<F> {
    type Worth = [f32; OUTPUTS];

    fn position(&mut self, pos: &Backgammon, side: Side) -> [f32; OUTPUTS] {
        (self.0)(pos, side)
    }

    fn result(&mut self, _: &Backgammon, outcome: &Outcome, side: Side) -> [f32; OUTPUTS] {
        result_targets(outcome, side)
    }

    fn rank(worth: &[f32; OUTPUTS]) -> f64 {
        f64::from(Net::equity_of(worth))
    }
}

impl Net {
    /// A network with small random weights (`hidden` is clamped to 1..=[`MAX_HIDDEN`]).
    pub fn new(hidden: usize, rng: &mut Rng) -> Net {
        let hidden = hidden.clamp(1, MAX_HIDDEN);
        let mut w =
            |n: usize| -> Vec<f32> { (0..n).map(|_| (rng.unit() as f32 - 0.5) * 0.2).collect() };
        Net {
            hidden,
            w1: w((INPUTS + 1) * hidden),
            w2: w(OUTPUTS * (hidden + 1)),
        }
    }

    /// This network with `hidden` units (clamped to its own size..=[`MAX_HIDDEN`]): the old
    /// units keep their weights, the new ones get small random input weights and output
    /// weights a hundredth of those, so the outputs hardly move and training can grow them.
    pub fn widened(&self, hidden: usize, rng: &mut Rng) -> Net {
        let (h, wide) = (self.hidden, hidden.clamp(self.hidden, MAX_HIDDEN));
        let mut small = |scale: f32| (rng.unit() as f32 - 0.5) * scale;
        let mut w1 = Vec::with_capacity((INPUTS + 1) * wide);
        for row in self.w1.chunks_exact(h) {
            w1.extend_from_slice(row);
            w1.extend((h..wide).map(|_| small(0.2)));
        }
        let mut w2 = Vec::with_capacity(OUTPUTS * (wide + 1));
        for row in self.w2.chunks_exact(h + 1) {
            w2.extend_from_slice(&row[..h]);
            w2.extend((h..wide).map(|_| small(0.002)));
            w2.push(row[h]);
        }
        Net {
            hidden: wide,
            w1,
            w2,
        }
    }

    /// The hidden layer's size and the two weight matrices (`w1` input-major with the bias
    /// row last, `w2` output by output with the bias last): what a trace is laid out like.
    pub fn weights(&self) -> (usize, &[f32], &[f32]) {
        (self.hidden, &self.w1, &self.w2)
    }

    /// The two weight matrices, laid out as [`Net::weights`] says, to be changed.
    pub fn weights_mut(&mut self) -> (&mut [f32], &mut [f32]) {
        (&mut self.w1, &mut self.w2)
    }

    /// Back-propagates `delta[k]` (minus the loss's derivative by output `k`'s sum, times
    /// whatever rate the caller wants) and hands each weight with its share to `update`
    /// (the layer, the weight's index in it, the weight), second layer first.
    fn backprop(
        &mut self,
        x: &[(usize, f32)],
        act: &Activations,
        delta: &[f32; OUTPUTS],
        mut update: impl FnMut(Layer, usize, &mut f32, f32),
    ) {
        let h = self.hidden;
        let n2 = h + 1;
        let mut g = [0f32; MAX_HIDDEN];
        for (k, &dk) in delta.iter().enumerate() {
            let row = k * n2;
            for (j, gj) in g[..h].iter_mut().enumerate() {
                *gj += dk * self.w2[row + j];
                update(
                    Layer::Second,
                    row + j,
                    &mut self.w2[row + j],
                    dk * act.hidden[j],
                );
            }
            update(Layer::Second, row + h, &mut self.w2[row + h], dk);
        }
        for (gj, &hj) in g.iter_mut().zip(&act.hidden[..h]) {
            *gj *= hj * (1.0 - hj);
        }
        for &(i, v) in x.iter().chain(&[(INPUTS, 1.0)]) {
            for (j, &gj) in g[..h].iter().enumerate() {
                let at = i * h + j;
                update(Layer::First, at, &mut self.w1[at], gj * v);
            }
        }
    }

    /// Adds `step[k]` (the learning rate times minus the loss's derivative by output `k`'s
    /// sum) times the gradient of that sum to the weights, back through the hidden layer.
    pub fn step(&mut self, x: &[(usize, f32)], act: &Activations, step: &[f32; OUTPUTS]) {
        self.backprop(x, act, step, |_, _, w, d| *w += d);
    }

    /// One supervised step by Adam (moments kept only for the weights an example touches,
    /// as lazy Adam does), learning rate `alpha`. Returns the outputs before the step.
    pub fn learn_adam(
        &mut self,
        x: &[(usize, f32)],
        target: &[f32; OUTPUTS],
        adam: &mut Adam,
        alpha: f32,
    ) -> [f32; OUTPUTS] {
        let act = self.forward(x);
        if adam.m1.len() != self.w1.len() {
            *adam = Adam::for_sizes(self.w1.len(), self.w2.len());
        }
        adam.t += 1;
        let (b1, b2) = (0.9f32, 0.999f32);
        let c1 = 1.0 - b1.powi(adam.t.min(10_000) as i32);
        let c2 = 1.0 - b2.powi(adam.t.min(100_000) as i32);
        let rate = alpha * c2.sqrt() / c1;
        let delta: [f32; OUTPUTS] = std::array::from_fn(|k| target[k] - act.out[k]);
        let Adam { m1, v1, m2, v2, .. } = adam;
        self.backprop(x, &act, &delta, |layer, at, w, d| {
            let (m, v) = match layer {
                Layer::First => (&mut m1[at], &mut v1[at]),
                Layer::Second => (&mut m2[at], &mut v2[at]),
            };
            *m = b1 * *m + (1.0 - b1) * d;
            *v = b2 * *v + (1.0 - b2) * d * d;
            *w += rate * *m / (v.sqrt() + 1e-7);
        });
        act.out
    }

    /// One supervised step at encoded inputs `x`: gradient descent on the cross-entropy of
    /// the five outputs against `target` (probabilities), learning rate `alpha`. Returns the
    /// outputs before the step.
    pub fn learn(
        &mut self,
        x: &[(usize, f32)],
        target: &[f32; OUTPUTS],
        alpha: f32,
    ) -> [f32; OUTPUTS] {
        let act = self.forward(x);
        // For a sigmoid output the cross-entropy's derivative by its sum is just y - t.
        let mut step = [0f32; OUTPUTS];
        for k in 0..OUTPUTS {
            step[k] = alpha * (target[k] - act.out[k]);
        }
        self.step(x, &act, &step);
        act.out
    }
}

/// The two weight matrices of a [`Net`], for [`Net::backprop`]'s callers.
#[derive(Clone, Copy)]
enum Layer {
    First,
    Second,
}

/// Adam's moments for every weight of a [`Net`] and the step count.
#[derive(Clone, Debug, Default)]
pub struct Adam {
    m1: Vec<f32>,
    v1: Vec<f32>,
    m2: Vec<f32>,
    v2: Vec<f32>,
    t: u64,
}

impl Adam {
    fn for_sizes(n1: usize, n2: usize) -> Adam {
        Adam {
            m1: vec![0.0; n1],
            v1: vec![0.0; n1],
            m2: vec![0.0; n2],
            v2: vec![0.0; n2],
            t: 0,
        }
    }
}
