//! Winning chances in a pure race (no more contact), for the cube decisions.
//!
//! Each side needs a number of rolls to bear off; by renewal theory that number is close to
//! normal with mean `D / m` and variance `D s^2 / m^3`, where `D` is the side's effective pip
//! count (pips plus the usual bear-off waste, `eval::effective_pips`) and `m`, `s^2` the mean
//! and variance of the pips of one roll (8.17 and about 18.5). The side on roll wins ties,
//! being first: it wins when it needs fewer rolls, or the same number. In long races it is
//! closer to GNU Backgammon's race chances than the network, in short ones much further, and
//! it gives every play of a roll the same value (they leave the same pips), so the cubeful
//! evaluation mixes it into the network's chance by [`model_weight`] (all-home races are
//! exact: [`super::bearoff`]).

use super::board::{in_contact, pips, Side26};
use super::eval;

/// Mean and variance of the pips one roll moves (doubles count four times).
fn roll_moments() -> (f64, f64) {
    let (mut mean, mut square) = (0.0, 0.0);
    for a in 1..=6 {
        for b in 1..=6 {
            let pips = if a == b { 4 * a } else { a + b } as f64;
            mean += pips / 36.0;
            square += pips * pips / 36.0;
        }
    }
    (mean, square - mean * mean)
}

/// The standard normal distribution function (Abramowitz-Stegun 7.1.26 for erf).
fn normal_cdf(z: f64) -> f64 {
    let x = z.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erf = 1.0 - poly * (-x * x).exp();
    if z >= 0.0 {
        0.5 * (1.0 + erf)
    } else {
        0.5 * (1.0 - erf)
    }
}

/// The chance that the side on roll (`me`) wins the race against `them`; `None` while the
/// sides can still hit each other.
pub fn winning_chance(me: &Side26, them: &Side26) -> Option<f64> {
    if in_contact(me, them) {
        return None;
    }
    let (m, var) = roll_moments();
    let rolls = |side: &Side26| {
        let pips = f64::from(eval::effective_pips(side));
        (pips / m, pips * var / (m * m * m))
    };
    let (mine, my_var) = rolls(me);
    let (theirs, their_var) = rolls(them);
    // Needing at most as many rolls (integers) is a difference below one half.
    Some(normal_cdf(
        (theirs - mine + 0.5) / (my_var + their_var).sqrt().max(1e-9),
    ))
}

/// The race model's share of the winning chance, by the pips the two sides have left
/// together: none up to 120, then 1/80 more a pip up to 0.7 from 176 on. Fitted to GNU
/// Backgammon's 2-ply winning chances of 20,000 race positions of the network's self-play
/// (docs/backgammon.md): below 120 pips the network alone is closest, above 180 the best mix
/// is 0.65-0.7 of the model; the network keeps a share so that plays still differ.
pub fn model_weight(me: &Side26, them: &Side26) -> f64 {
    let total = f64::from(pips(me) + pips(them));
    ((total - 120.0) / 80.0).clamp(0.0, 0.7)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roll_moments_and_normal() {
        let (m, var) = roll_moments();
        // 49/6 pips on average: (2 * 210 + 4 * 21) / 36 * ... computed by hand as 294 / 36.
        assert!((m - 294.0 / 36.0).abs() < 1e-12);
        assert!(var > 15.0 && var < 22.0);
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(1.96) - 0.975).abs() < 1e-3);
        assert!((normal_cdf(-1.0) - 0.1587).abs() < 1e-3);
    }
}
