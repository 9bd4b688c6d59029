//! Supervised training of the backgammon network on deeper targets (docs/backgammon.md):
//!
//! - `backgammon-deep generate --positions N --seed S --explore X [--from W] [--depth 2
//!   --candidates K] --out DATA` plays self-play games with network W (1 ply; with
//!   probability X a uniformly random play instead, so that not only the best positions
//!   appear) and writes every position before a roll, except all-home races (the bear-off
//!   database scores those), with its target: the five outputs for the side to move averaged
//!   over the rolls of its best 1-ply play with each (results exact, all-home races from the
//!   database); with `--depth 2` each roll's K best 1-ply plays are compared by that same
//!   average one move further on (`--candidates K` only with `--depth 2`).
//! - `backgammon-deep train --data DATA [--from W] --out W2 --epochs E --alpha A --decay D
//!   --holdout F --seed S` starts from W and takes one cross-entropy gradient step per
//!   position, in a seeded shuffled order each epoch, the learning rate times D (0 < D <= 1)
//!   after each; the last fraction F of DATA is held out and scored after every epoch (when
//!   it holds a position), whose weights go to `W2.N` (epoch N) and the last to W2; `--hidden
//!   N` widens W first (N at least W's size), `--adam` takes Adam steps instead of plain ones.
//! - `generate --lambda X` mixes each target with what followed in the game (its
//!   lambda-return); `--siblings N` also writes the positions of the N best plays of each
//!   roll played, with their own targets; `--trials N` gives contact positions the mean of
//!   N rollouts played on to the race instead; `--correct N` does so only where N rollouts
//!   (4N when those disagree) stand clearly apart from the lookahead.
//! - `backgammon-deep mix --corrected C --lookahead L --out DATA [--repeat K] [--anchor
//!   [--from W]]` keeps the corrections of a `--correct` file C: its positions whose target
//!   differs from L's (the same seed without `--correct`, so the same games) K times, the
//!   others once with L's target, or with W's own outputs (`--anchor`), so that training from
//!   W moves it only where the rollouts corrected it (the cube network, docs/backgammon.md).
//! - `backgammon-deep calibrate --games N --seed S [--from W]` plays N self-play games at 1
//!   ply and prints W's predicted chances beside the results, by kind of position and by
//!   predicted chance of winning.

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser, Subcommand};
use std::io::Write;
use std::path::{Path, PathBuf};
use tabula::game::best_play::best_play;
use tabula::game::{Chance, Dice, Game, Side};
use tabula::games::backgammon::bearoff;
use tabula::games::backgammon::board::in_contact;
use tabula::games::backgammon::calibration::calibrate;
use tabula::games::backgammon::features::encode;
use tabula::games::backgammon::nn::{flipped, result_targets, Net, MAX_HIDDEN, OUTPUTS};
use tabula::games::backgammon::position_text::{format_fen, parse_fen};
use tabula::games::backgammon::training::{Adam, ByOutputs};
use tabula::games::backgammon::{Backgammon, Move, Options, Roll};
use tabula::strategy::luck;
use tabula::util::cli::{check_writable, exit_on_closed_output, positive, unit_interval};
use tabula::util::rng::Rng;

/// Trains the backgammon network on lookahead targets (docs/backgammon.md).
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
        #[arg(long, value_name = "N", default_value_t = 100_000, value_parser = clap::value_parser!(u32).range(1..))]
        positions: u32,
        /// Seed of the dice and the exploration
        #[arg(long, value_name = "N", default_value_t = 1)]
        seed: u64,
        /// Chance of a uniformly random play instead of the best
        #[arg(long, value_name = "X", default_value_t = 0.1, value_parser = unit_interval)]
        explore: f64,
        /// The network that plays and scores (default: the shipped weights)
        #[arg(long, value_name = "FILE")]
        from: Option<PathBuf>,
        /// The data file
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Lookahead of the targets: 1 (each roll's best play by the network), or 2 (each
        /// roll's best 1-ply plays compared by their own 1-ply lookahead)
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2))]
        depth: u8,
        /// With --depth 2: how many of a roll's best 1-ply plays are looked at further
        /// (default 2)
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
        candidates: Option<u16>,
        /// Targets from one luck-corrected rollout of P moves per position instead
        #[arg(long, value_name = "P", conflicts_with = "depth", value_parser = clap::value_parser!(u32).range(1..))]
        rollout_plies: Option<u32>,
        /// Targets of contact positions from N plain rollouts played on to the end of
        /// contact (races keep the lookahead), the first rolls spread evenly over the dice
        #[arg(long, value_name = "N", conflicts_with_all = ["depth", "rollout_plies"], value_parser = clap::value_parser!(u32).range(1..))]
        trials: Option<u32>,
        /// Targets of contact positions from rollouts as --trials where N of them (4N when
        /// those disagree) show the lookahead clearly off, else the lookahead
        #[arg(long, value_name = "N", conflicts_with_all = ["depth", "rollout_plies", "trials"], value_parser = clap::value_parser!(u32).range(2..))]
        correct: Option<u32>,
        /// Weight of what happened next in the game (its lambda-return): the target is
        /// (1 - X) times the lookahead plus X times the next position's target, back from
        /// the game's result; a random play cuts the chain
        #[arg(long, value_name = "X", default_value_t = 0.0, value_parser = unit_interval)]
        lambda: f64,
        /// Also write, for the roll played, the positions left by its N best 1-ply plays
        /// with their own lookahead targets (the alternatives a choice weighs)
        #[arg(long, value_name = "N", default_value_t = 0)]
        siblings: usize,
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
        #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..))]
        epochs: u32,
        /// Learning rate of the first epoch
        #[arg(long, value_name = "X", default_value_t = 0.01, value_parser = positive)]
        alpha: f64,
        /// Factor on the learning rate after each epoch, above 0 and at most 1 (1: the same
        /// rate throughout)
        #[arg(long, value_name = "X", default_value_t = 0.5, value_parser = decay_factor)]
        decay: f64,
        /// Fraction of the data (its end) held out
        #[arg(long, value_name = "X", default_value_t = 0.05, value_parser = unit_interval)]
        holdout: f64,
        /// Seed of the shuffles
        #[arg(long, value_name = "N", default_value_t = 1)]
        seed: u64,
        /// Widen the starting network to this many hidden units first (at least its own)
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=MAX_HIDDEN as i64))]
        hidden: Option<u16>,
        /// Adam steps instead of plain gradient steps
        #[arg(long)]
        adam: bool,
    },
    /// Keeps a `generate --correct` file's corrections: its positions whose target differs
    /// from the lookahead file's are written `--repeat` times, the others with the lookahead
    /// target, or with the network's own outputs (`--anchor`)
    Mix {
        /// The data file of `generate --correct`
        #[arg(long, value_name = "FILE")]
        corrected: PathBuf,
        /// The data file of the same `generate` without `--correct` (the same games)
        #[arg(long, value_name = "FILE")]
        lookahead: PathBuf,
        /// Where the mixed data goes
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// How many times a corrected position is written
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
        repeat: u32,
        /// The positions not corrected get the network's own outputs as targets, so that
        /// training moves it only where the rollouts corrected it
        #[arg(long)]
        anchor: bool,
        /// The network of `--anchor` (default: the shipped weights)
        #[arg(long, value_name = "FILE", requires = "anchor")]
        from: Option<PathBuf>,
    },
    /// Compares the network's chances with the results of its own 1-ply self-play games
    Calibrate {
        /// Games to play
        #[arg(long, value_name = "N", default_value_t = 20_000, value_parser = clap::value_parser!(u32).range(1..))]
        games: u32,
        /// Seed of the dice
        #[arg(long, value_name = "N", default_value_t = 1)]
        seed: u64,
        /// The network (default: the shipped weights)
        #[arg(long, value_name = "FILE")]
        from: Option<PathBuf>,
    },
}

/// A learning-rate decay: above 0 (0 would stop learning after the first epoch) and at most 1
/// (above 1 the rate would grow each epoch, the opposite of a decay).
fn decay_factor(text: &str) -> Result<f64, String> {
    match positive(text) {
        Ok(x) if x <= 1.0 => Ok(x),
        _ => Err(format!("{text} is not a number above 0 and at most 1")),
    }
}

/// Exits with a usage error (status 2) of `subcommand`, for arguments that clap cannot check
/// alone.
fn usage_error(subcommand: &str, message: String) -> ! {
    let mut command = Args::command();
    command.build();
    let sub = command
        .find_subcommand_mut(subcommand)
        .expect("a subcommand of Args");
    sub.error(ErrorKind::ArgumentConflict, message).exit()
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

/// The outputs of `pos` for `side`: the result when the game is over, else the network's
/// (exact in all-home races, from the bear-off database).
fn end_value(
    net: &Net,
    pos: &Backgammon,
    side: Side,
    scratch: &mut Vec<(usize, f32)>,
) -> [f32; OUTPUTS] {
    if let Some(o) = pos.outcome() {
        return result_targets(&o, side);
    }
    let own = net.outputs(pos, scratch);
    if side == pos.side_to_move() {
        own
    } else {
        flipped(&own)
    }
}

/// The mover's outputs after its play into `child`.
fn after_play(net: &Net, child: &Backgammon, scratch: &mut Vec<(usize, f32)>) -> [f32; OUTPUTS] {
    end_value(net, child, child.side_to_move().opponent(), scratch)
}

/// `pos` with the roll made.
fn rolled(pos: &Backgammon, roll: Roll) -> Backgammon {
    let mut rolled = pos.clone();
    rolled.set_dice(roll);
    rolled
}

/// The mover's best play of `roll` by `net` at 1 ply (the first of equals) and its outputs.
fn best_of_roll(
    net: &Net,
    pos: &Backgammon,
    roll: Roll,
    moves: &mut Vec<Move>,
    scratch: &mut Vec<(usize, f32)>,
) -> (Move, [f32; OUTPUTS]) {
    moves.clear();
    pos.plays_of(roll, moves);
    let judge = &mut ByOutputs(|child: &Backgammon, side| end_value(net, child, side, scratch));
    // `plays_of` lists a pass when nothing can be played, so there is always a play.
    let (index, out) = best_play(&rolled(pos, roll), moves, judge).expect("at least one play");
    (moves[index], out)
}

/// The target of a position before the roll: the mover's outputs after its best play,
/// averaged over the rolls.
fn lookahead(
    net: &Net,
    pos: &Backgammon,
    moves: &mut Vec<Move>,
    scratch: &mut Vec<(usize, f32)>,
) -> [f32; OUTPUTS] {
    over_rolls(pos, |roll| best_of_roll(net, pos, roll, moves, scratch).1)
}

/// The average of `per_roll` over the rolls of `pos`, weighted by their chances.
fn over_rolls(
    pos: &Backgammon,
    mut per_roll: impl FnMut(Roll) -> [f32; OUTPUTS],
) -> [f32; OUTPUTS] {
    let mut sum = [0f64; OUTPUTS];
    for (roll, p) in Roll::all(pos.is_opening()) {
        for (s, o) in sum.iter_mut().zip(per_roll(roll)) {
            *s += p * f64::from(o);
        }
    }
    sum.map(|s| s as f32)
}

/// Every play of `roll` at `pos` with the position it leaves, best first by the mover's
/// 1-ply equity.
fn ranked_children(
    net: &Net,
    pos: &Backgammon,
    roll: Roll,
    moves: &mut Vec<Move>,
    scratch: &mut Vec<(usize, f32)>,
) -> Vec<(f32, Move, Backgammon)> {
    moves.clear();
    pos.plays_of(roll, moves);
    let mut ranked: Vec<(f32, Move, Backgammon)> = moves
        .iter()
        .map(|&mv| {
            let mut child = rolled(pos, roll);
            child.play(mv);
            (Net::equity_of(&after_play(net, &child, scratch)), mv, child)
        })
        .collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
    ranked
}

/// The target of a position before the roll two plies deep: for each roll, the `candidates`
/// best plays at 1 ply are scored by their own [`lookahead`] (the opponent's best reply to
/// each of its rolls), and the best of them counts.
fn lookahead2(
    net: &Net,
    pos: &Backgammon,
    candidates: usize,
    moves: &mut Vec<Move>,
    scratch: &mut Vec<(usize, f32)>,
) -> [f32; OUTPUTS] {
    let mut replies = Vec::new();
    over_rolls(pos, |roll| {
        let ranked = ranked_children(net, pos, roll, moves, scratch);
        let plays: Vec<Move> = ranked.iter().take(candidates).map(|c| c.1).collect();
        // A candidate is worth its own lookahead, an all-home race the network's (exact)
        // outputs.
        let judge = &mut ByOutputs(|child: &Backgammon, side| {
            if all_home(child) {
                return end_value(net, child, side, scratch);
            }
            let own = lookahead(net, child, &mut replies, scratch);
            if side == child.side_to_move() {
                own
            } else {
                flipped(&own)
            }
        });
        best_play(&rolled(pos, roll), &plays, judge)
            .expect("at least one play")
            .1
    })
}

/// One rollout of `plies` moves from `pos` (before the roll), each side taking its best
/// 1-ply play, corrected by its luck ([`luck`]): at every roll, the outputs after the best
/// play of the roll that came less their average over all rolls (everything from the side to
/// move at `pos`'s view). The end is the result, or the network's outputs once `plies` moves are
/// made or the race is all home. The correction has mean zero, so the expected target is
/// the rollout's value, with most of the dice's noise gone; one move deep it is exactly
/// [`lookahead`]. Values pushed outside 0..1 by the correction are clamped.
fn rollout_target(
    net: &Net,
    pos: &Backgammon,
    plies: u32,
    rng: &mut Rng,
    moves: &mut Vec<Move>,
    scratch: &mut Vec<(usize, f32)>,
) -> [f32; OUTPUTS] {
    let me = pos.side_to_move();
    let view = |side, out: [f32; OUTPUTS]| if side == me { out } else { flipped(&out) };
    let mut luck_sum = [0f64; OUTPUTS];
    let mut cur = pos.clone();
    let mut events = Vec::new();
    let mut moves_made = 0;
    let end = loop {
        if cur.outcome().is_some() || moves_made == plies || all_home(&cur) {
            break end_value(net, &cur, me, scratch);
        }
        let mover = cur.side_to_move();
        events.clear();
        cur.chance_events(&mut events);
        let happened = Chance::draw(&events, rng.unit());
        let mut played = None;
        let roll_luck = luck(&events, happened, |event| {
            let roll = Roll::from_event(event).expect("a roll");
            let (mv, out) = best_of_roll(net, &cur, roll, moves, scratch);
            if event == happened {
                played = Some((roll, mv));
            }
            view(mover, out).map(f64::from)
        });
        let (roll, mv) = played.expect("the roll that came is one of the rolls");
        for (l, r) in luck_sum.iter_mut().zip(roll_luck) {
            *l += r;
        }
        cur.set_dice(roll);
        cur.play(mv);
        moves_made += 1;
    };
    let mut target = [0f32; OUTPUTS];
    for ((t, e), l) in target.iter_mut().zip(end).zip(luck_sum) {
        *t = (f64::from(e) - l).clamp(0.0, 1.0) as f32;
    }
    target
}

/// The mean of `trials` rollouts from `pos` (before the roll) while it is a contact
/// position, each side taking its best 1-ply play, ended by the result or, once the sides
/// have passed each other, by the race's value ([`end_value`]: the network's, exact when all
/// home), everything for the side to move at `pos`. The first rolls are spread over the dice
/// ([`spread_rolls`]). Races get the [`lookahead`]: the network is good at races and the
/// rollouts are there to teach it contact.
fn trials_target(
    net: &Net,
    pos: &Backgammon,
    trials: u32,
    rng: &mut Rng,
    moves: &mut Vec<Move>,
    scratch: &mut Vec<(usize, f32)>,
) -> [f32; OUTPUTS] {
    if !contact(pos) {
        return lookahead(net, pos, moves, scratch);
    }
    let rolls = spread_rolls(pos.is_opening());
    let offset = rng.below(rolls.len() as u64) as usize;
    let mut sums = Trials::default();
    sums.play(
        net,
        pos,
        &rolls,
        offset..offset + trials as usize,
        rng,
        moves,
        scratch,
    );
    sums.mean()
}

/// The target of a position whose [`lookahead`] may be far from what its own play leads to:
/// in contact, `trials` rollouts as in [`trials_target`], three times as many more when
/// their mean equity is more than two standard errors from the lookahead's; the rollouts'
/// mean replaces the lookahead when, after all of them, it is still more than three standard
/// errors and 0.1 away from it. A network trained on its own lookahead can settle on a value
/// that the lookahead confirms and the game's course does not (a closed board against a
/// prime whose owner waits on the bar: the board must break first); the threshold keeps the
/// rollouts' noise out of every other target.
fn corrected_target(
    net: &Net,
    pos: &Backgammon,
    trials: u32,
    rng: &mut Rng,
    moves: &mut Vec<Move>,
    scratch: &mut Vec<(usize, f32)>,
) -> ([f32; OUTPUTS], bool) {
    let look = lookahead(net, pos, moves, scratch);
    if !contact(pos) {
        return (look, false);
    }
    let look_equity = f64::from(Net::equity_of(&look));
    let rolls = spread_rolls(pos.is_opening());
    let offset = rng.below(rolls.len() as u64) as usize;
    let first = offset + trials as usize;
    let mut sums = Trials::default();
    sums.play(net, pos, &rolls, offset..first, rng, moves, scratch);
    if (sums.mean_equity() - look_equity).abs() <= 2.0 * sums.standard_error() {
        return (look, false);
    }
    sums.play(
        net,
        pos,
        &rolls,
        first..first + 3 * trials as usize,
        rng,
        moves,
        scratch,
    );
    let gap = (sums.mean_equity() - look_equity).abs();
    if gap > 3.0 * sums.standard_error() + 0.1 {
        (sums.mean(), true)
    } else {
        (look, false)
    }
}

/// Sums over rollouts of a position: the outputs, the equity and its square.
#[derive(Default)]
struct Trials {
    outputs: [f64; OUTPUTS],
    equity: f64,
    square: f64,
    count: u32,
}

impl Trials {
    /// Adds the rollouts `indices` of `pos`, trial `i` starting with the roll `rolls[i mod
    /// len]` (see [`trials_target`]).
    #[allow(clippy::too_many_arguments)]
    fn play(
        &mut self,
        net: &Net,
        pos: &Backgammon,
        rolls: &[Roll],
        indices: std::ops::Range<usize>,
        rng: &mut Rng,
        moves: &mut Vec<Move>,
        scratch: &mut Vec<(usize, f32)>,
    ) {
        let me = pos.side_to_move();
        for i in indices {
            let mut roll = rolls[i % rolls.len()];
            let mut cur = pos.clone();
            loop {
                let (mv, _) = best_of_roll(net, &cur, roll, moves, scratch);
                cur.set_dice(roll);
                cur.play(mv);
                if cur.outcome().is_some() || !contact(&cur) {
                    break;
                }
                roll = cur.random_roll(rng);
            }
            let end = end_value(net, &cur, me, scratch);
            for (s, e) in self.outputs.iter_mut().zip(end) {
                *s += f64::from(e);
            }
            let equity = f64::from(Net::equity_of(&end));
            self.equity += equity;
            self.square += equity * equity;
            self.count += 1;
        }
    }

    /// The mean outputs.
    fn mean(&self) -> [f32; OUTPUTS] {
        self.outputs.map(|s| (s / f64::from(self.count)) as f32)
    }

    /// The mean equity.
    fn mean_equity(&self) -> f64 {
        self.equity / f64::from(self.count)
    }

    /// The standard error of the mean equity.
    fn standard_error(&self) -> f64 {
        let n = f64::from(self.count);
        let variance = (self.square / n - self.mean_equity().powi(2)).max(0.0);
        (variance / (n - 1.0).max(1.0)).sqrt()
    }
}

/// Whether the sides of `pos` have still to pass each other.
fn contact(pos: &Backgammon) -> bool {
    let mover = pos.side_to_move();
    in_contact(pos.checkers(mover), pos.checkers(mover.opponent()))
}

/// The dice in an order for spreading trials' first rolls: each of the 36 equally likely
/// ordered rolls once (30 at the opening), the non-doubles, three doubles, the non-doubles
/// again and the other three doubles, so that any 18 in a row (cyclically) hold each
/// non-double once and three doubles. Trial `i` starts with the entry `offset + i` (mod the
/// length) for a random `offset`: every roll in its right share on average whatever the
/// count, and exactly once per ordered roll for 36 trials.
fn spread_rolls(opening: bool) -> Vec<Roll> {
    let (doubles, others): (Vec<Roll>, Vec<Roll>) = Roll::all(opening)
        .map(|(roll, _)| roll)
        .partition(|roll| roll.hi == roll.lo);
    let half = doubles.len() / 2;
    [&others, &doubles[..half], &others, &doubles[half..]].concat()
}

/// How deep `generate` looks for its targets.
#[derive(Clone, Copy, Debug)]
enum Depth {
    /// [`lookahead`].
    One,
    /// [`lookahead2`] with this many candidates per roll.
    Two(usize),
    /// [`rollout_target`] of this many moves.
    Rollout(u32),
    /// [`trials_target`] of this many trials.
    Trials(u32),
    /// [`corrected_target`] with this many first trials.
    Corrected(u32),
}

impl Depth {
    /// How many positions between two progress lines.
    fn report_every(self) -> u32 {
        match self {
            Depth::One => 10_000,
            Depth::Two(_) | Depth::Rollout(_) | Depth::Trials(_) | Depth::Corrected(_) => 1_000,
        }
    }
}

/// How `generate`'s games are played and their targets mixed with what happened next.
#[derive(Clone, Copy, Debug)]
struct Play {
    /// Chance of a uniformly random play instead of the best.
    explore: f64,
    /// Weight of the next position's target in a position's target (0: the lookahead alone).
    lambda: f32,
    /// How many of the roll's best 1-ply plays also have their positions written.
    siblings: usize,
}

/// A position written by `generate`, before its lambda-return is known.
struct Record {
    fen: String,
    mover: Side,
    target: [f32; OUTPUTS],
    /// Whether the play made from it was a random one.
    explored: bool,
}

/// The lambda-returns of a game's records, last first: each target becomes (1 - lambda)
/// times its lookahead plus lambda times the next record's new target (seen from its own
/// side), the last record's next being `end` (for the last mover); a random play keeps the
/// lookahead alone, since what followed it says nothing about the best play's value.
fn lambda_returns(records: &mut [Record], mut next: [f32; OUTPUTS], lambda: f32) {
    let mut next_side = records.last().map(|r| r.mover);
    for r in records.iter_mut().rev() {
        if next_side != Some(r.mover) {
            next = flipped(&next);
        }
        if !r.explored {
            for (t, n) in r.target.iter_mut().zip(next) {
                *t = (1.0 - lambda) * *t + lambda * n;
            }
        }
        next = r.target;
        next_side = Some(r.mover);
    }
}

/// Adds to `out` the positions left by the `count` best 1-ply plays of `roll` at `pos`
/// (those still to be played out: not over, not all-home races), each with its own
/// [`lookahead`] target.
fn siblings_of(
    net: &Net,
    pos: &Backgammon,
    roll: Roll,
    count: usize,
    out: &mut Vec<(String, [f32; OUTPUTS])>,
    scratch: &mut Vec<(usize, f32)>,
) {
    let mut moves = Vec::new();
    let ranked = ranked_children(net, pos, roll, &mut moves, scratch);
    for (_, _, child) in ranked.into_iter().take(count) {
        if child.outcome().is_none() && !all_home(&child) {
            let target = lookahead(net, &child, &mut moves, scratch);
            out.push((format_fen(&child), target));
        }
    }
}

/// `generate`: self-play games until `positions` positions are written.
fn generate(net: &Net, positions: u32, seed: u64, play: Play, depth: Depth, out: &Path) {
    let file = std::fs::File::create(out)
        .unwrap_or_else(|e| fail(format!("cannot write {}: {e}", out.display())));
    let mut file = std::io::BufWriter::new(file);
    let mut rng = Rng::new(seed);
    // The rollouts' dice come from a stream of their own, so the games are those of the
    // other kinds of target with the same seed.
    let mut luck_rng = Rng::new(seed ^ 0x005e_ed0f_d1ce);
    let (mut moves, mut scratch) = (Vec::new(), Vec::new());
    let (mut written, mut games, mut corrected) = (0u32, 0u32, 0u32);
    let mut next_report = depth.report_every();
    let started = std::time::Instant::now();
    let mut records = Vec::new();
    let mut siblings = Vec::new();
    while written < positions {
        let mut pos = Backgammon::start(&Options::default());
        games += 1;
        records.clear();
        while pos.outcome().is_none() && !all_home(&pos) && written < positions {
            let target = match depth {
                Depth::One => lookahead(net, &pos, &mut moves, &mut scratch),
                Depth::Two(k) => lookahead2(net, &pos, k, &mut moves, &mut scratch),
                Depth::Rollout(plies) => {
                    rollout_target(net, &pos, plies, &mut luck_rng, &mut moves, &mut scratch)
                }
                Depth::Trials(trials) => {
                    trials_target(net, &pos, trials, &mut luck_rng, &mut moves, &mut scratch)
                }
                Depth::Corrected(trials) => {
                    let (target, changed) = corrected_target(
                        net,
                        &pos,
                        trials,
                        &mut luck_rng,
                        &mut moves,
                        &mut scratch,
                    );
                    corrected += u32::from(changed);
                    target
                }
            };
            written += 1;
            if written >= next_report {
                eprintln!(
                    "positions {written} games {games} corrected {corrected} time {:.0}s",
                    started.elapsed().as_secs_f64()
                );
                next_report += depth.report_every();
            }
            let roll = pos.random_roll(&mut rng);
            if play.siblings > 0 {
                let room = (positions - written) as usize;
                let before = siblings.len();
                siblings_of(
                    net,
                    &pos,
                    roll,
                    play.siblings.min(room),
                    &mut siblings,
                    &mut scratch,
                );
                written += (siblings.len() - before) as u32;
            }
            let (best, _) = best_of_roll(net, &pos, roll, &mut moves, &mut scratch);
            let explored = rng.unit() < play.explore;
            let mv = if explored {
                moves[rng.below(moves.len() as u64) as usize]
            } else {
                best
            };
            records.push(Record {
                fen: format_fen(&pos),
                mover: pos.side_to_move(),
                target,
                explored,
            });
            pos.set_dice(roll);
            pos.play(mv);
        }
        if play.lambda > 0.0 {
            if let Some(last) = records.last() {
                let end = end_value(net, &pos, last.mover, &mut scratch);
                lambda_returns(&mut records, end, play.lambda);
            }
        }
        let lines = records.iter().map(|r| (&r.fen, &r.target));
        for (fen, target) in lines.chain(siblings.iter().map(|(f, t)| (f, t))) {
            let numbers: Vec<String> = target.iter().map(|t| format!("{t:.5}")).collect();
            writeln!(file, "{fen}\t{}", numbers.join(" "))
                .unwrap_or_else(|e| fail(format!("cannot write {}: {e}", out.display())));
        }
        siblings.clear();
    }
    file.flush()
        .unwrap_or_else(|e| fail(format!("cannot write {}: {e}", out.display())));
}

/// [`Command::Mix`] on the texts of two data files: the corrected file's lines up to the
/// shorter file's end (a run stopped early may leave its last line unfinished: dropped), each
/// line that differs from the lookahead file's `repeat` times, each other line once, with
/// `anchor`'s outputs as its target when given. An error names a line whose positions differ.
fn mix(
    corrected: &str,
    lookahead: &str,
    repeat: u32,
    anchor: Option<&Net>,
) -> Result<String, String> {
    let (corrected, lookahead) = (complete_lines(corrected), complete_lines(lookahead));
    let mut out = String::new();
    let mut scratch = Vec::new();
    for (n, (c, l)) in corrected.iter().zip(&lookahead).enumerate() {
        let fen = c.split_once('\t').map(|(fen, _)| fen);
        if fen.is_none() || fen != l.split_once('\t').map(|(fen, _)| fen) {
            return Err(format!(
                "line {}: not the same position in both files",
                n + 1
            ));
        }
        if c != l {
            for _ in 0..repeat {
                out.push_str(c);
                out.push('\n');
            }
            continue;
        }
        match anchor {
            Some(net) => {
                let fen = fen.expect("checked above");
                let pos = parse_fen(fen, &Options::default())
                    .map_err(|_| format!("line {}: not a position", n + 1))?;
                let own = net.outputs(&pos, &mut scratch).map(|v| format!("{v:.5}"));
                out.push_str(&format!("{fen}\t{}\n", own.join(" ")));
            }
            None => {
                out.push_str(l);
                out.push('\n');
            }
        }
    }
    Ok(out)
}

/// The lines of `text` that end with a newline: what follows the last one is unfinished.
fn complete_lines(text: &str) -> Vec<&str> {
    text.rsplit_once('\n')
        .map_or(Vec::new(), |(lines, _)| lines.split('\n').collect())
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
    adam: bool,
}

/// `train`: epochs of shuffled single-example steps, scored on the held-out end.
fn train(mut net: Net, data: &[Example], s: &TrainSettings, out: &Path) {
    let held = ((data.len() as f64) * s.holdout) as usize;
    let (learn, check) = data.split_at(data.len() - held);
    if learn.is_empty() {
        fail(format!(
            "{} positions, {held} of them held out: none to train on",
            data.len()
        ));
    }
    // An empty held-out set has no score: a 0 there would read as a perfect network.
    let held_out = |net: &Net| {
        if check.is_empty() {
            "nothing held out".to_owned()
        } else {
            let (loss, error) = score(net, check);
            format!("held-out cross-entropy {loss:.5} equity rms {error:.4}")
        }
    };
    if check.is_empty() {
        println!("epoch 0 nothing held out");
    } else {
        let (loss, error) = score(&net, check);
        println!(
            "epoch 0 held-out {} cross-entropy {loss:.5} equity rms {error:.4}",
            check.len()
        );
    }
    let mut rng = Rng::new(s.seed);
    let mut order: Vec<usize> = (0..learn.len()).collect();
    let mut alpha = s.alpha;
    let mut adam = Adam::default();
    let started = std::time::Instant::now();
    for epoch in 1..=s.epochs {
        rng.shuffle(&mut order);
        let mut train_loss = 0.0;
        for &i in &order {
            let e = &learn[i];
            let out = if s.adam {
                net.learn_adam(&e.x, &e.target, &mut adam, alpha)
            } else {
                net.learn(&e.x, &e.target, alpha)
            };
            train_loss += cross_entropy(&out, &e.target);
        }
        let text = net.to_text();
        if !train_loss.is_finite() || text.contains("NaN") || text.contains("inf") {
            fail(format!(
                "training diverged in epoch {epoch} (the loss or a weight is no longer a \
                 number): try a lower --alpha than {}",
                s.alpha
            ));
        }
        println!(
            "epoch {epoch} alpha {alpha} train {:.5} {} time {:.0}s",
            train_loss / learn.len() as f64,
            held_out(&net),
            started.elapsed().as_secs_f64()
        );
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
    exit_on_closed_output();
    match Args::parse().command {
        Command::Generate {
            positions,
            seed,
            explore,
            from,
            out,
            depth,
            candidates,
            rollout_plies,
            trials,
            correct,
            lambda,
            siblings,
        } => {
            let depth = match (correct, trials, rollout_plies, depth) {
                (Some(first), ..) => Depth::Corrected(first),
                (None, Some(trials), _, _) => Depth::Trials(trials),
                (None, None, Some(plies), _) => Depth::Rollout(plies),
                (None, None, None, 1) => Depth::One,
                (None, None, None, _) => Depth::Two(candidates.map_or(2, usize::from)),
            };
            // Only the two-ply targets compare candidates: elsewhere the number is ignored.
            if let (
                Some(k),
                Depth::One | Depth::Rollout(_) | Depth::Trials(_) | Depth::Corrected(_),
            ) = (candidates, depth)
            {
                usage_error(
                    "generate",
                    format!("--candidates {k} needs --depth 2 (only two-ply targets compare candidates)"),
                );
            }
            bearoff::prepare();
            let net = read_net(&from);
            let play = Play {
                explore,
                lambda: lambda as f32,
                siblings,
            };
            generate(&net, positions, seed, play, depth, &out);
        }
        Command::Mix {
            corrected,
            lookahead,
            out,
            repeat,
            anchor,
            from,
        } => {
            bearoff::prepare();
            let net = anchor.then(|| read_net(&from));
            let read = |path: &Path| {
                std::fs::read_to_string(path)
                    .unwrap_or_else(|e| fail(format!("cannot read {}: {e}", path.display())))
            };
            let mixed = mix(&read(&corrected), &read(&lookahead), repeat, net.as_ref())
                .unwrap_or_else(|message| fail(message));
            std::fs::write(&out, mixed)
                .unwrap_or_else(|e| fail(format!("cannot write {}: {e}", out.display())));
        }
        Command::Calibrate { games, seed, from } => {
            bearoff::prepare();
            print!("{}", calibrate(&read_net(&from), games, seed));
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
            hidden,
            adam,
        } => {
            let settings = TrainSettings {
                epochs,
                alpha: alpha as f32,
                decay: decay as f32,
                holdout,
                seed,
                adam,
            };
            // Before reading the data and training: not only after the first epoch.
            check_writable(&out).unwrap_or_else(|message| fail(message));
            let mut net = read_net(&from);
            if let Some(hidden) = hidden {
                // `widened` keeps a larger network as it is: a smaller size is not a narrowing.
                if usize::from(hidden) < net.hidden() {
                    usage_error(
                        "train",
                        format!(
                            "--hidden {hidden} is below the starting network's {} hidden units: \
                             it can only widen",
                            net.hidden()
                        ),
                    );
                }
                net = net.widened(hidden.into(), &mut Rng::new(seed));
            }
            train(net, &read_data(&data), &settings, &out);
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

    /// Two plies deep: white (checkers on its 6 and 1 points) wins only by bearing both off
    /// now, with a 6 (11 rolls of 36) or a double of 2 to 5 (4), since black's last checker on
    /// its ace point goes off next turn whatever happens. A sure win stays exact too.
    #[test]
    fn two_ply_targets_of_decided_races_are_exact() {
        let net = read_net(&None);
        let (mut moves, mut scratch) = (Vec::new(), Vec::new());
        let pos = position("w=6:1,1:1 b=1:1 w -");
        let target = lookahead2(&net, &pos, 2, &mut moves, &mut scratch);
        assert!((target[0] - 15.0 / 36.0).abs() < 1e-6, "{target:?}");
        assert_eq!(target[1..], [0.0; 4]);
        let sure = position("w=1:1 b=19:1,6:14 w -");
        let target = lookahead2(&net, &sure, 2, &mut moves, &mut scratch);
        assert_eq!(target, [1.0, 1.0, 1.0, 0.0, 0.0]);
        // In contact colour twins get the same target, and more candidates never lower it.
        let white = position("w=24:2,13:5,8:3,6:5 b=24:2,13:4,8:3,6:5,5:1 w -");
        let black = position("w=24:2,13:4,8:3,6:5,5:1 b=24:2,13:5,8:3,6:5 b -");
        let a = lookahead2(&net, &white, 2, &mut moves, &mut scratch);
        assert_eq!(a, lookahead2(&net, &black, 2, &mut moves, &mut scratch));
        let wider = lookahead2(&net, &white, 4, &mut moves, &mut scratch);
        assert!(Net::equity_of(&wider) >= Net::equity_of(&a) - 1e-6);
    }

    /// A rollout of one move, corrected by its luck, is the 1-ply lookahead whatever the
    /// dice; longer ones are probabilities, and a decided race stays exact (the race of the
    /// test above: 15 of 36 rolls win, and nothing later changes that).
    #[test]
    fn rollout_targets_are_lookaheads_with_the_luck_taken_out() {
        let net = read_net(&None);
        let (mut moves, mut scratch) = (Vec::new(), Vec::new());
        let mut rng = Rng::new(5);
        let pos = position("w=24:2,13:4,8:3,6:5,5:1 b=24:2,13:5,8:3,6:5 w -");
        let one_ply = lookahead(&net, &pos, &mut moves, &mut scratch);
        for _ in 0..5 {
            let t = rollout_target(&net, &pos, 1, &mut rng, &mut moves, &mut scratch);
            for (a, b) in t.iter().zip(one_ply) {
                assert!((a - b).abs() < 1e-6, "{t:?} {one_ply:?}");
            }
            let t = rollout_target(&net, &pos, 6, &mut rng, &mut moves, &mut scratch);
            assert!(t.iter().all(|p| (0.0..=1.0).contains(p)), "{t:?}");
        }
        let race = position("w=6:1,1:1 b=1:1 w -");
        let t = rollout_target(&net, &race, 4, &mut rng, &mut moves, &mut scratch);
        assert!((t[0] - 15.0 / 36.0).abs() < 1e-6, "{t:?}");
    }

    /// The spread rolls are the 36 ordered rolls (30 at the opening), and any 18 in a row
    /// hold each non-double once and three doubles; races get the 1-ply lookahead itself,
    /// and contact positions probabilities.
    #[test]
    fn trials_spread_the_first_roll_and_leave_races_to_the_lookahead() {
        for opening in [false, true] {
            let rolls = spread_rolls(opening);
            for (roll, p) in Roll::all(opening) {
                let n = rolls.iter().filter(|&&r| r == roll).count();
                assert_eq!(n as f64, p * rolls.len() as f64, "{roll:?}");
            }
            assert_eq!(rolls.len(), if opening { 30 } else { 36 });
        }
        let rolls = spread_rolls(false);
        for offset in 0..36 {
            let window: Vec<Roll> = (0..18).map(|i| rolls[(offset + i) % 36]).collect();
            let doubles = window.iter().filter(|r| r.hi == r.lo).count();
            let mut others: Vec<Roll> = window.into_iter().filter(|r| r.hi != r.lo).collect();
            others.sort_by_key(|r| (r.hi, r.lo));
            others.dedup();
            assert_eq!((doubles, others.len()), (3, 15), "from {offset}");
        }
        let net = read_net(&None);
        let (mut moves, mut scratch) = (Vec::new(), Vec::new());
        let mut rng = Rng::new(7);
        let race = position("w=10:3,5:4 b=9:2,4:5 b -");
        let one_ply = lookahead(&net, &race, &mut moves, &mut scratch);
        let t = trials_target(&net, &race, 5, &mut rng, &mut moves, &mut scratch);
        assert_eq!(t, one_ply);
        let start = position("w=24:2,13:5,8:3,6:5 b=24:2,13:5,8:3,6:5 b -");
        let t = trials_target(&net, &start, 3, &mut rng, &mut moves, &mut scratch);
        assert!(t.iter().all(|p| (0.0..=1.0).contains(p)), "{t:?}");
    }

    /// A corrected target is the lookahead unless the rollouts, N and then 4N of them,
    /// stand clearly apart from it, and then it is their mean; races are not rolled out.
    #[test]
    fn corrected_targets_are_the_lookahead_or_rollouts_clearly_apart_from_it() {
        let net = read_net(&None);
        let (mut moves, mut scratch) = (Vec::new(), Vec::new());
        let race = position("w=10:3,5:4 b=9:2,4:5 b -");
        let look = lookahead(&net, &race, &mut moves, &mut scratch);
        let mut rng = Rng::new(3);
        let got = corrected_target(&net, &race, 8, &mut rng, &mut moves, &mut scratch);
        assert_eq!(got, (look, false));
        // Black waits on the bar behind its six-prime, White's closed board must break
        // first: the shipped network gives Black -0.83 at 0 ply, 1296 rollouts of its own
        // play +0.94 (GNU Backgammon 0-ply +0.87). The opening is its own lookahead's.
        let cases = [
            (
                "w=24:1,12:1,10:1,6:2,5:2,4:2,3:2,2:2,1:2 b=bar:2,10:1,7:2,6:2,5:2,4:2,3:2,2:2 b -",
                true,
            ),
            ("w=24:2,13:5,8:3,6:5 b=24:2,13:5,8:3,6:5 b -", false),
        ];
        for (fen, corrected) in cases {
            let pos = position(fen);
            let look = lookahead(&net, &pos, &mut moves, &mut scratch);
            let mut rng = Rng::new(5);
            let (target, changed) =
                corrected_target(&net, &pos, 12, &mut rng, &mut moves, &mut scratch);
            assert_eq!(changed, corrected, "{fen}");
            if !changed {
                assert_eq!(target, look);
                continue;
            }
            // The same rollouts again, by hand: the first 12 from the same offset, then 36.
            let mut rng = Rng::new(5);
            let rolls = spread_rolls(false);
            let offset = rng.below(36) as usize;
            let mut sums = Trials::default();
            sums.play(
                &net,
                &pos,
                &rolls,
                offset..offset + 48,
                &mut rng,
                &mut moves,
                &mut scratch,
            );
            assert_eq!(target, sums.mean());
            let gap = f64::from(Net::equity_of(&target) - Net::equity_of(&look)).abs();
            assert!(gap > 3.0 * sums.standard_error() + 0.1, "{gap}");
        }
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
        let (mut by_adam, mut adam) = (net.clone(), Adam::default());
        for _ in 0..500 {
            net.learn(&x, &target, 0.05);
            by_adam.learn_adam(&x, &target, &mut adam, 0.003);
        }
        for after in [net.predict(&x), by_adam.predict(&x)] {
            assert!(cross_entropy(&after, &target) < before);
            for (y, t) in after.iter().zip(target) {
                assert!((y - t).abs() < 0.01, "{after:?}");
            }
        }
    }

    #[test]
    fn generated_data_is_seeded_and_reads_back() {
        let dir = std::env::temp_dir();
        let (a, b) = (dir.join("bgdeep-a.data"), dir.join("bgdeep-b.data"));
        let net = read_net(&None);
        let play = Play {
            explore: 0.2,
            lambda: 0.0,
            siblings: 0,
        };
        generate(&net, 300, 7, play, Depth::One, &a);
        generate(&net, 300, 7, play, Depth::One, &b);
        let text = std::fs::read_to_string(&a).expect("written");
        assert_eq!(text, std::fs::read_to_string(&b).expect("written"));
        let examples = read_data(&a);
        assert_eq!(examples.len(), 300);
        // The first is the opening position, scored over the 15 opening rolls only.
        let first = position(text.split('\t').next().expect("a line"));
        assert_eq!(first, Backgammon::start(&Options::default()));
        // Siblings count towards the positions asked for.
        let siblings = Play {
            siblings: 3,
            ..play
        };
        generate(&net, 301, 7, siblings, Depth::One, &b);
        assert_eq!(read_data(&b).len(), 301);
        let _ = (std::fs::remove_file(a), std::fs::remove_file(b));
    }

    #[test]
    fn lambda_returns_mix_in_what_followed_from_each_side() {
        let record = |mover, win: f32, explored| Record {
            fen: String::new(),
            mover,
            target: [win, 0.0, 0.0, 0.0, 0.0],
            explored,
        };
        // White to move (0.5), black (0.4), white (0.6, then a random play), black (0.3);
        // black then wins a gammon: for black 1 and a gammon, for white the reverse.
        let mut records = vec![
            record(Side::White, 0.5, false),
            record(Side::Black, 0.4, false),
            record(Side::White, 0.6, true),
            record(Side::Black, 0.3, false),
        ];
        lambda_returns(&mut records, [1.0, 1.0, 0.0, 0.0, 0.0], 0.5);
        let close = |a: [f32; OUTPUTS], b: [f32; OUTPUTS]| {
            a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6)
        };
        // Black's last: (0.3 + 1) / 2 wins, (0 + 1) / 2 gammons.
        assert!(close(records[3].target, [0.65, 0.5, 0.0, 0.0, 0.0]));
        // The random play keeps its lookahead alone.
        assert!(close(records[2].target, [0.6, 0.0, 0.0, 0.0, 0.0]));
        // Black before it: (0.4 + (1 - 0.6)) / 2; white's loss of nothing counts as none.
        assert!(close(records[1].target, [0.4, 0.0, 0.0, 0.0, 0.0]));
        // White first: (0.5 + (1 - 0.4)) / 2, and black's no-gammon is white's no-gammon.
        assert!(close(records[0].target, [0.55, 0.0, 0.0, 0.0, 0.0]));
        // Lambda 1 with no random play is the result itself, from each side.
        let mut pure = vec![
            record(Side::White, 0.5, false),
            record(Side::Black, 0.4, false),
        ];
        lambda_returns(&mut pure, [1.0, 1.0, 0.0, 0.0, 0.0], 1.0);
        assert!(close(pure[1].target, [1.0, 1.0, 0.0, 0.0, 0.0]));
        assert!(close(pure[0].target, [0.0, 0.0, 0.0, 1.0, 0.0]));
    }

    #[test]
    fn siblings_are_the_best_plays_with_their_own_lookaheads() {
        let net = read_net(&None);
        let start = Backgammon::start(&Options::default());
        let roll = Roll::new(3, 1).expect("a roll");
        let (mut moves, mut scratch, mut out) = (Vec::new(), Vec::new(), Vec::new());
        siblings_of(&net, &start, roll, 3, &mut out, &mut scratch);
        assert_eq!(out.len(), 3);
        let (best, _) = best_of_roll(&net, &start, roll, &mut moves, &mut scratch);
        let mut child = start.clone();
        child.set_dice(roll);
        child.play(best);
        assert_eq!(out[0].0, format_fen(&child));
        let mut seen = std::collections::HashSet::new();
        for (fen, target) in &out {
            assert!(seen.insert(fen.clone()), "each play once");
            let pos = position(fen);
            assert_eq!(*target, lookahead(&net, &pos, &mut moves, &mut scratch));
        }
        // Every play of the last checker outside brings it home: nothing to write.
        out.clear();
        let race = position("w=7:1 b=6:15 w -");
        siblings_of(
            &net,
            &race,
            Roll::new(2, 1).expect("a roll"),
            5,
            &mut out,
            &mut scratch,
        );
        assert!(out.is_empty(), "{out:?}");
    }

    /// `mix` keeps the corrected lines `repeat` times and the others once, with the lookahead
    /// or the network's own outputs; an unfinished last line is dropped, and files of other
    /// games are refused.
    #[test]
    fn mix_repeats_corrections_and_anchors_the_rest() {
        let a = "w=24:2,13:5,8:3,6:5 b=24:2,13:5,8:3,6:5 w - opening";
        let b = "w=24:2,13:4,8:3,6:5,5:1 b=24:2,13:5,8:3,6:5 b -";
        let lookahead = format!("{a}\t0.5 0.1 0 0.1 0\n{b}\t0.4 0.1 0 0.1 0\n{a}\t0.5");
        let corrected = format!("{a}\t0.5 0.1 0 0.1 0\n{b}\t0.3 0.1 0 0.2 0\n");
        let plain = mix(&corrected, &lookahead, 3, None).unwrap();
        let c = format!("{b}\t0.3 0.1 0 0.2 0\n");
        assert_eq!(plain, format!("{a}\t0.5 0.1 0 0.1 0\n{c}{c}{c}"));
        let net = read_net(&None);
        let own = net
            .outputs(&position(a), &mut Vec::new())
            .map(|v| format!("{v:.5}"))
            .join(" ");
        let anchored = mix(&corrected, &lookahead, 1, Some(&net)).unwrap();
        assert_eq!(anchored, format!("{a}\t{own}\n{c}"));
        let other = format!("{b}\t0.5 0.1 0 0.1 0\n");
        assert!(mix(&other, &lookahead, 1, None)
            .unwrap_err()
            .contains("line 1"));
    }
}
