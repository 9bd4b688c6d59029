//! A neural evaluation trained by self-play with temporal differences, after Tesauro's
//! TD-Gammon.
//!
//! Inputs: [`features`] (the raw board and expert units, from the side to move's view). One
//! sigmoid hidden layer, five sigmoid outputs, also for the side to move: it wins, wins a
//! gammon, a backgammon; it loses a gammon, a backgammon. A position and its colour-swapped
//! twin have the same inputs, so they score the same. Training ([`train`]) plays the network
//! against itself, each side taking the play whose result it values most, and moves every
//! prediction towards the next one seen from the same side (the final result at the end):
//! TD(0) by plain gradient steps, or TD(lambda) with one eligibility trace per output and
//! weight. [`Net::learn`] is one supervised step instead (the shipped weights were then
//! fitted to their own one-move lookahead by `backgammon-deep`).

use super::bearoff;
use super::best_play::{best_play, seen_by, Judge};
use super::features::{self, INPUTS};
use super::movegen::{Move, Roll};
use super::simd;
use super::{Backgammon, Options};
use crate::game::{Game, Outcome, Side};
use crate::util::rng::Rng;

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
    hidden: usize,
    w1: Vec<f32>,
    w2: Vec<f32>,
}

/// The forward pass, kept for the gradient.
struct Activations {
    hidden: [f32; MAX_HIDDEN],
    out: [f32; OUTPUTS],
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

    /// The hidden layer's size.
    pub fn hidden(&self) -> usize {
        self.hidden
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

    fn forward(&self, x: &[(usize, f32)]) -> Activations {
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

    /// The hidden layer's size and the two weight matrices, for the kernels' tests.
    #[cfg(test)]
    pub(super) fn weights(&self) -> (usize, &[f32], &[f32]) {
        (self.hidden, &self.w1, &self.w2)
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

/// [`Game::evaluate`] with the shipped network: equity in thousandths of a point.
pub fn evaluate(pos: &Backgammon) -> i32 {
    thread_local! {
        static SCRATCH: std::cell::RefCell<Vec<(usize, f32)>> =
            std::cell::RefCell::new(Vec::with_capacity(128));
    }
    let equity = SCRATCH.with(|s| shipped().equity(pos, &mut s.borrow_mut()));
    (equity * super::eval::POINT as f32) as i32
}

/// The learner: the network and, for TD(lambda), one eligibility trace per output and weight
/// (laid out like the weights, output by output).
struct Learner {
    net: Net,
    alpha: f32,
    lambda: f32,
    e1: Vec<f32>,
    e2: Vec<f32>,
}

impl Learner {
    /// Decays the traces and adds the gradient of every output at `x` (TD(lambda) only).
    fn trace(&mut self, x: &[(usize, f32)], act: &Activations) {
        let h = self.net.hidden;
        let (n1, n2) = ((INPUTS + 1) * h, h + 1);
        self.e1.iter_mut().for_each(|e| *e *= self.lambda);
        self.e2.iter_mut().for_each(|e| *e *= self.lambda);
        let mut g = [0f32; MAX_HIDDEN];
        for k in 0..OUTPUTS {
            let y = act.out[k];
            let dy = y * (1.0 - y);
            let row2 = &self.net.w2[k * n2..(k + 1) * n2];
            let e2 = &mut self.e2[k * n2..(k + 1) * n2];
            for j in 0..h {
                let hj = act.hidden[j];
                e2[j] += dy * hj;
                g[j] = dy * row2[j] * hj * (1.0 - hj);
            }
            e2[h] += dy;
            let e1 = &mut self.e1[k * n1..(k + 1) * n1];
            for &(i, v) in x.iter().chain(&[(INPUTS, 1.0)]) {
                let row = &mut e1[i * h..(i + 1) * h];
                row.iter_mut().zip(&g[..h]).for_each(|(e, gj)| *e += gj * v);
            }
        }
    }

    /// Moves the weights by `alpha * delta_k * trace_k` for every output (TD(lambda)).
    fn update_traced(&mut self, delta: &[f32; OUTPUTS]) {
        let h = self.net.hidden;
        let (n1, n2) = ((INPUTS + 1) * h, h + 1);
        for (k, &d) in delta.iter().enumerate() {
            let step = self.alpha * d;
            let e1 = &self.e1[k * n1..(k + 1) * n1];
            self.net
                .w1
                .iter_mut()
                .zip(e1)
                .for_each(|(w, e)| *w += step * e);
            let e2 = &self.e2[k * n2..(k + 1) * n2];
            let w2 = &mut self.net.w2[k * n2..(k + 1) * n2];
            w2.iter_mut().zip(e2).for_each(|(w, e)| *w += step * e);
        }
    }

    /// One gradient step of TD(0): the outputs at `x` move towards `target` by `delta`.
    fn update_plain(&mut self, x: &[(usize, f32)], act: &Activations, delta: &[f32; OUTPUTS]) {
        let mut step = [0f32; OUTPUTS];
        for (k, &d) in delta.iter().enumerate() {
            let y = act.out[k];
            step[k] = self.alpha * d * y * (1.0 - y);
        }
        self.net.step(x, act, &step);
    }
}

impl Net {
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
    fn step(&mut self, x: &[(usize, f32)], act: &Activations, step: &[f32; OUTPUTS]) {
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

    /// The network's five outputs for encoded inputs `x` ([`features::encode`]), without the
    /// bear-off database.
    pub fn predict(&self, x: &[(usize, f32)]) -> [f32; OUTPUTS] {
        self.forward(x).out
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

/// Training settings for [`train`].
#[derive(Copy, Clone, Debug)]
pub struct TrainConfig {
    /// Self-play games.
    pub games: u32,
    /// Hidden units (used when starting from random weights).
    pub hidden: usize,
    /// Learning rate.
    pub alpha: f32,
    /// Trace decay: 0 for TD(0) (plain gradient steps, much faster), else TD(lambda).
    pub lambda: f32,
    /// Seed of the initial weights and the dice.
    pub seed: u64,
}

/// Trains a network from random weights by self-play; `progress` is called every 1000 games.
pub fn train(config: TrainConfig, progress: impl FnMut(u32, &Net)) -> Net {
    let mut rng = Rng::new(config.seed);
    let net = Net::new(config.hidden, &mut rng);
    train_from(net, config, &mut rng, progress)
}

/// Goes on training `net` by self-play with dice from `rng` (`config.hidden` is ignored).
pub fn train_from(
    net: Net,
    config: TrainConfig,
    rng: &mut Rng,
    mut progress: impl FnMut(u32, &Net),
) -> Net {
    let mut learner = Learner::new(net, &config);
    for game in 1..=config.games {
        // Self-play games always end: the error is that of a replay.
        let _ = learner.game(Turns::SelfPlay(rng));
        if game % 1000 == 0 {
            progress(game, &learner.net);
        }
    }
    learner.net
}

/// One turn of a recorded game: the roll and the index of the play in `legal_moves` order.
pub type Turn = (Roll, u16);

/// Where the rolls and plays of a training game come from.
enum Turns<'a> {
    /// Rolled with the generator; the learning network picks its best play.
    SelfPlay(&'a mut Rng),
    /// A game recorded by [`self_play`], replayed move by move.
    Replay(&'a [Turn]),
}

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

/// The mover's best play by the network (the first of equals): its index in `moves`, the
/// position it leads to and that position's outputs for the mover.
fn best_play_of(
    net: &Net,
    pos: &Backgammon,
    moves: &[Move],
    scratch: &mut Vec<(usize, f32)>,
) -> Option<(usize, Backgammon, [f32; OUTPUTS])> {
    // The network's own outputs, also in all-home races: it learns them too, so the bear-off
    // database is not asked.
    let judge = &mut ByOutputs(|child: &Backgammon, side| {
        features::encode(child, scratch);
        let out = net.forward(scratch).out;
        if child.side_to_move() == side {
            out
        } else {
            flipped(&out)
        }
    });
    let (index, out) = best_play(pos, moves, judge)?;
    let mut child = pos.clone();
    child.play(moves[index]);
    Some((index, child, out))
}

/// Plays one game from the start with `net` choosing every play, without learning (a worker
/// of distributed training): returns its turns.
pub fn self_play(net: &Net, rng: &mut Rng) -> Vec<Turn> {
    let (mut scratch, mut moves, mut turns) = (Vec::new(), Vec::new(), Vec::new());
    let mut pos = Backgammon::start(&Options::default());
    while pos.outcome().is_none() {
        let roll = pos.random_roll(rng);
        pos.set_dice(roll);
        moves.clear();
        pos.legal_moves(&mut moves);
        let Some((index, next, _)) = best_play_of(net, &pos, &moves, &mut scratch) else {
            break;
        };
        turns.push((roll, index as u16));
        pos = next;
    }
    turns
}

/// Goes on training `net` on recorded games (the learner of distributed training): every
/// position moves towards the current network's value of the position played next, as in
/// [`train_from`], but the plays are those of the (older) network that played the games.
/// A game that does not replay under the rules is an error naming it.
pub fn learn_from(net: Net, config: &TrainConfig, games: &[Vec<Turn>]) -> Result<Net, String> {
    let mut learner = Learner::new(net, config);
    for (number, turns) in games.iter().enumerate() {
        learner
            .game(Turns::Replay(turns))
            .map_err(|e| format!("game {}: {e}", number + 1))?;
    }
    Ok(learner.net)
}

impl Learner {
    fn new(net: Net, config: &TrainConfig) -> Learner {
        let traced = config.lambda > 0.0;
        let size = |n: usize| if traced { n * OUTPUTS } else { 0 };
        Learner {
            alpha: config.alpha,
            lambda: config.lambda,
            e1: vec![0.0; size(net.w1.len())],
            e2: vec![0.0; size(net.w2.len())],
            net,
        }
    }

    /// One training game from the start: every prediction takes a step towards the next.
    fn game(&mut self, mut turns: Turns<'_>) -> Result<(), String> {
        let traced = self.lambda > 0.0;
        self.e1.iter_mut().for_each(|e| *e = 0.0);
        self.e2.iter_mut().for_each(|e| *e = 0.0);
        let (mut x, mut child_x) = (Vec::new(), Vec::new());
        let mut moves = Vec::new();
        let mut pos = Backgammon::start(&Options::default());
        let mut turn = 0;
        loop {
            features::encode(&pos, &mut x);
            let act = self.net.forward(&x);
            if traced {
                self.trace(&x, &act);
            }
            let roll = match &mut turns {
                Turns::SelfPlay(rng) => pos.random_roll(rng),
                Turns::Replay(list) => match list.get(turn) {
                    Some(&(roll, _)) if pos.roll_allowed(roll) => roll,
                    _ => return Err(format!("turn {}: no allowed roll", turn + 1)),
                },
            };
            pos.set_dice(roll);
            moves.clear();
            pos.legal_moves(&mut moves);
            let played = match &turns {
                Turns::SelfPlay(_) => best_play_of(&self.net, &pos, &moves, &mut child_x),
                Turns::Replay(list) => {
                    let index = usize::from(list[turn].1);
                    let Some(&mv) = moves.get(index) else {
                        return Err(format!("turn {}: no play {index}", turn + 1));
                    };
                    // The recorded play, valued as the best of a choice of one.
                    best_play_of(&self.net, &pos, &[mv], &mut child_x)
                        .map(|(_, child, out)| (index, child, out))
                }
            };
            let Some((_, next, target)) = played else {
                break;
            };
            let mut delta = [0f32; OUTPUTS];
            for k in 0..OUTPUTS {
                delta[k] = target[k] - act.out[k];
            }
            if traced {
                self.update_traced(&delta);
            } else {
                self.update_plain(&x, &act, &delta);
            }
            pos = next;
            turn += 1;
            if pos.outcome().is_some() {
                break;
            }
        }
        match turns {
            Turns::Replay(list) if list.len() != turn => {
                Err(format!("{} turns recorded, {turn} played", list.len()))
            }
            _ => Ok(()),
        }
    }
}
