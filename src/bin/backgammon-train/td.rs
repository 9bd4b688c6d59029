//! TD training of the backgammon network by self-play, after Tesauro's TD-Gammon: the
//! network plays itself, each side taking the play whose result it values most, and every
//! prediction moves towards the next one seen from the same side (the final result at the
//! end): TD(0) by plain gradient steps, or TD(lambda) with one eligibility trace per output
//! and weight. Distributed training splits a game's playing ([`self_play`]) from the learning
//! ([`learn_from`]).

use tabula::game::best_play::best_play;
use tabula::game::Game;
use tabula::games::backgammon::features::{encode, INPUTS};
use tabula::games::backgammon::nn::{flipped, Activations, Net, MAX_HIDDEN, OUTPUTS};
use tabula::games::backgammon::training::ByOutputs;
use tabula::games::backgammon::{Backgammon, Move, Options, Roll};
use tabula::util::rng::Rng;

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

/// The mover's best play by the network (the first of equals): its index in `moves`, the
/// position it leads to and that position's outputs for the mover.
fn best(
    net: &Net,
    pos: &Backgammon,
    moves: &[Move],
    scratch: &mut Vec<(usize, f32)>,
) -> Option<(usize, Backgammon, [f32; OUTPUTS])> {
    // The network's own outputs, also in all-home races: it learns them too, so the bear-off
    // database is not asked.
    let judge = &mut ByOutputs(|child: &Backgammon, side| {
        encode(child, scratch);
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
        let Some((index, next, _)) = best(net, &pos, &moves, &mut scratch) else {
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
        let (h, _, w2) = self.net.weights();
        let (n1, n2) = ((INPUTS + 1) * h, h + 1);
        self.e1.iter_mut().for_each(|e| *e *= self.lambda);
        self.e2.iter_mut().for_each(|e| *e *= self.lambda);
        let mut g = [0f32; MAX_HIDDEN];
        for k in 0..OUTPUTS {
            let y = act.out[k];
            let dy = y * (1.0 - y);
            let row2 = &w2[k * n2..(k + 1) * n2];
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
        let h = self.net.hidden();
        let (n1, n2) = ((INPUTS + 1) * h, h + 1);
        let (w1, w2) = self.net.weights_mut();
        for (k, &d) in delta.iter().enumerate() {
            let step = self.alpha * d;
            let e1 = &self.e1[k * n1..(k + 1) * n1];
            w1.iter_mut().zip(e1).for_each(|(w, e)| *w += step * e);
            let e2 = &self.e2[k * n2..(k + 1) * n2];
            let w2 = &mut w2[k * n2..(k + 1) * n2];
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

impl Learner {
    fn new(net: Net, config: &TrainConfig) -> Learner {
        let traced = config.lambda > 0.0;
        let size = |n: usize| if traced { n * OUTPUTS } else { 0 };
        Learner {
            alpha: config.alpha,
            lambda: config.lambda,
            e1: vec![0.0; size(net.weights().1.len())],
            e2: vec![0.0; size(net.weights().2.len())],
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
            encode(&pos, &mut x);
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
                Turns::SelfPlay(_) => best(&self.net, &pos, &moves, &mut child_x),
                Turns::Replay(list) => {
                    let index = usize::from(list[turn].1);
                    let Some(&mv) = moves.get(index) else {
                        return Err(format!("turn {}: no play {index}", turn + 1));
                    };
                    // The recorded play, valued as the best of a choice of one.
                    best(&self.net, &pos, &[mv], &mut child_x)
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

#[cfg(test)]
mod tests {
    use super::*;
    use tabula::arena::backgammon_duplicate::{duplicate_match, Player};

    #[test]
    fn td_training_runs_and_is_reproducible() {
        let config = TrainConfig {
            games: 3,
            hidden: 4,
            alpha: 0.1,
            lambda: 0.7,
            seed: 9,
        };
        assert_eq!(train(config, |_, _| {}), train(config, |_, _| {}));
    }

    #[test]
    fn td0_training_is_reproducible_and_learns() {
        let config = TrainConfig {
            games: 30,
            hidden: 8,
            alpha: 0.1,
            lambda: 0.0,
            seed: 4,
        };
        assert_eq!(train(config, |_, _| {}), train(config, |_, _| {}));
        let trained = train(
            TrainConfig {
                games: 600,
                ..config
            },
            |_, _| {},
        );
        let untrained = train(TrainConfig { games: 0, ..config }, |_, _| {});
        let (a, b): (&'static Net, &'static Net) =
            (Box::leak(Box::new(trained)), Box::leak(Box::new(untrained)));
        let result = duplicate_match(Player::Net(a), Player::Net(b), 40, 1);
        assert!(result.ppg > 0.3, "{result:?}");
    }

    #[test]
    fn workers_games_teach_the_learner() {
        // Distributed training: rounds of games played by a frozen copy, then learnt from.
        let config = TrainConfig {
            games: 0,
            hidden: 8,
            alpha: 0.1,
            lambda: 0.0,
            seed: 4,
        };
        let untrained = train(config, |_, _| {});
        let mut net = untrained.clone();
        let mut rng = Rng::new(9);
        for _ in 0..4 {
            let games: Vec<_> = (0..150).map(|_| self_play(&net, &mut rng)).collect();
            net = learn_from(net, &config, &games).expect("the games replay");
        }
        let (a, b): (&'static Net, &'static Net) = (
            Box::leak(Box::new(net)),
            Box::leak(Box::new(untrained.clone())),
        );
        let result = duplicate_match(Player::Net(a), Player::Net(b), 40, 1);
        assert!(result.ppg > 0.3, "{result:?}");
        // A game that does not fit the rules is refused, naming it.
        let mut game = self_play(&untrained, &mut rng);
        game.pop();
        let short = learn_from(untrained.clone(), &config, &[game.clone()]);
        assert!(short.is_err_and(|e| e.starts_with("game 1:")));
        game[0].1 = 999;
        assert!(learn_from(untrained, &config, &[game]).is_err());
    }
}
