//! How well the network's chances match what happens: self-play games at 1 ply, every
//! position before a roll scored by the network and then by the game's result, grouped by
//! the predicted chance of winning and by kind of position. Results are truth for the
//! network's own play, so a systematic gap here is a bias no target computed from the
//! network's lookahead can show (docs/backgammon.md, session 13).

use super::board::in_contact;
use super::nn::{result_targets, Net, OUTPUTS};
use super::{Backgammon, Options};
use crate::game::{Game, Side};
use crate::util::rng::Rng;
use std::fmt;

/// Predicted and actual sums of the five outputs over some positions.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Positions counted.
    pub positions: u64,
    /// Sum of the network's outputs.
    pub predicted: [f64; OUTPUTS],
    /// Sum of the results (each output 0 or 1).
    pub actual: [f64; OUTPUTS],
}

impl Tally {
    fn add(&mut self, predicted: &[f32; OUTPUTS], actual: &[f32; OUTPUTS]) {
        self.positions += 1;
        for k in 0..OUTPUTS {
            self.predicted[k] += f64::from(predicted[k]);
            self.actual[k] += f64::from(actual[k]);
        }
    }

    /// Mean predicted and mean actual value of output `k`.
    pub fn means(&self, k: usize) -> (f64, f64) {
        let n = self.positions.max(1) as f64;
        (self.predicted[k] / n, self.actual[k] / n)
    }
}

/// The tallies of [`calibrate`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Calibration {
    /// By the predicted chance of winning, in tenths (contact positions only).
    pub by_win: [Tally; 10],
    /// Contact positions in the first 10 turns of a game, turns 10-29, and later.
    pub contact: [Tally; 3],
    /// Races (no contact), not yet all home.
    pub race: Tally,
}

/// Plays `games` self-play games at 1 ply (dice from `seed`) and tallies every position
/// before a roll, except all-home races (the bear-off database's, exact).
pub fn calibrate(net: &Net, games: u32, seed: u64) -> Calibration {
    let mut rng = Rng::new(seed);
    let mut scratch = Vec::new();
    let mut cal = Calibration::default();
    let mut seen: Vec<([f32; OUTPUTS], Side, Option<usize>, usize)> = Vec::new();
    for _ in 0..games {
        let mut pos = Backgammon::start(&Options::default());
        seen.clear();
        let mut turn = 0;
        while pos.outcome().is_none() {
            let mover = pos.side_to_move();
            let (me, them) = (pos.checkers(mover), pos.checkers(mover.opponent()));
            if super::bearoff::outputs(me, them).is_none() {
                let out = net.outputs(&pos, &mut scratch);
                let phase = in_contact(me, them).then_some(match turn {
                    0..10 => 0,
                    10..30 => 1,
                    _ => 2,
                });
                let bin = ((out[0] * 10.0) as usize).min(9);
                seen.push((out, mover, phase, bin));
            }
            let roll = pos.random_roll(&mut rng);
            pos.set_dice(roll);
            let mv = net.choose(&pos, &mut scratch).expect("a play or a pass");
            pos.play(mv);
            turn += 1;
        }
        let outcome = pos.outcome().expect("the game is over");
        for (out, side, phase, bin) in &seen {
            let result = result_targets(&outcome, *side);
            match phase {
                Some(p) => {
                    cal.contact[*p].add(out, &result);
                    cal.by_win[*bin].add(out, &result);
                }
                None => cal.race.add(out, &result),
            }
        }
    }
    cal
}

impl fmt::Display for Calibration {
    /// One line per group: positions, then predicted / actual for each output (win, gammon,
    /// backgammon, gammon lost, backgammon lost); then the win chance by tenths.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let groups = [
            ("contact, turns 0-9", &self.contact[0]),
            ("contact, turns 10-29", &self.contact[1]),
            ("contact, turns 30-", &self.contact[2]),
            ("race", &self.race),
        ];
        for (name, tally) in groups {
            write!(f, "{name}: {} positions;", tally.positions)?;
            for k in 0..OUTPUTS {
                let (p, a) = tally.means(k);
                write!(f, " {p:.4}/{a:.4}")?;
            }
            writeln!(f)?;
        }
        for (tenth, tally) in self.by_win.iter().enumerate() {
            let (p, a) = tally.means(0);
            writeln!(
                f,
                "win {:.1}-{:.1}: {} positions, predicted {p:.4}, won {a:.4}",
                tenth as f64 / 10.0,
                (tenth + 1) as f64 / 10.0,
                tally.positions
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_position_is_counted_once_and_results_are_whole() {
        let net = super::super::nn::shipped();
        let cal = calibrate(net, 20, 5);
        assert_eq!(cal, calibrate(net, 20, 5), "seeded");
        let contact: u64 = cal.contact.iter().map(|t| t.positions).sum();
        assert_eq!(contact, cal.by_win.iter().map(|t| t.positions).sum::<u64>());
        assert!(
            contact > 20 * 20,
            "games have more than 20 contact turns: {contact}"
        );
        // A won game is not also lost: wins plus gammons lost never exceed the positions.
        for t in cal.contact.iter().chain([&cal.race]) {
            assert!(t.actual[0] + t.actual[3] <= t.positions as f64);
            assert!(t.actual[1] <= t.actual[0] && t.actual[2] <= t.actual[1]);
        }
        // The network's chance of winning falls in the tenth it is counted in.
        for (tenth, t) in cal.by_win.iter().enumerate() {
            if t.positions > 0 {
                let (p, _) = t.means(0);
                assert!(
                    p >= tenth as f64 / 10.0 && p <= (tenth + 1) as f64 / 10.0,
                    "{p}"
                );
            }
        }
    }
}
