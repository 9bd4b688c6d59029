//! Match statistics: the score of the first engine, its Elo difference with a 95% interval,
//! and the sequential probability ratio test (SPRT) that tells when to stop.
//!
//! Elo is the logistic model (a 0.64 score is about +100). The interval and the LLR use the
//! normal approximation over per-game scores (trinomial: win 1, draw 1/2, loss 0), as
//! cutechess-cli and fastchess do for their "trinomial" mode; pentanomial statistics over game
//! pairs would be tighter but need paired results, which we do not require.

/// Wins, losses and draws of the first engine, and backgammon-style points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first engine won.
    pub wins: u32,
    /// Games the first engine lost.
    pub losses: u32,
    /// Drawn games.
    pub draws: u32,
    /// Points the first engine won (gammons count 2, backgammons 3).
    pub points_for: u32,
    /// Points the second engine won.
    pub points_against: u32,
}

/// 1.96: the two-sided 95% quantile of the normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

impl Tally {
    /// Number of games.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// The first engine's mean score per game, in [0, 1].
    pub fn score(&self) -> f64 {
        self.moments(false).1
    }

    /// (games, mean score, variance of one game's score). With `prior`, a sample in which
    /// every game had the same result (no spread, so no normal approximation) gets half a
    /// win and half a loss more: a weak prior that lets the SPRT move, slowly, after a sweep.
    fn moments(&self, prior: bool) -> (f64, f64, f64) {
        let (mut w, mut l, d) = (
            f64::from(self.wins),
            f64::from(self.losses),
            f64::from(self.draws),
        );
        let kinds = [self.wins, self.losses, self.draws];
        if prior && kinds.iter().filter(|&&c| c > 0).count() == 1 {
            w += 0.5;
            l += 0.5;
        }
        let n = w + l + d;
        if n == 0.0 {
            return (0.0, 0.5, 0.0);
        }
        let s = (w + 0.5 * d) / n;
        let variance = (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n;
        (n, s, variance)
    }

    /// The Elo difference and the half-width of its 95% interval (infinite when an end of
    /// the interval is).
    pub fn elo(&self) -> (f64, f64) {
        let (_, s, _) = self.moments(false);
        let (low, high) = self.elo_interval();
        (score_to_elo(s), (high - low) / 2.0)
    }

    /// The 95% interval of the Elo difference: a Wilson score interval with the per-game
    /// variance of the results (so draws narrow it). Unlike score ± 1.96 sd it stays inside
    /// [0, 1] and still bounds a clean sweep on one side (10 wins of 10: above +166).
    pub fn elo_interval(&self) -> (f64, f64) {
        let (n, s, variance) = self.moments(false);
        if n == 0.0 {
            return (f64::NEG_INFINITY, f64::INFINITY);
        }
        let z2 = Z95 * Z95;
        let shrink = 1.0 + z2 / n;
        let centre = (s + z2 / (2.0 * n)) / shrink;
        let half = Z95 / shrink * (variance / n + z2 / (4.0 * n * n)).sqrt();
        // At a sweep the end is exactly 0 or 1; rounding must not make it finite.
        let low = if s <= 0.0 { 0.0 } else { centre - half };
        let high = if s >= 1.0 { 1.0 } else { centre + half };
        (score_to_elo(low), score_to_elo(high))
    }
}

/// Elo difference for a mean score (logistic model); ±infinity at 0 and 1.
pub fn score_to_elo(score: f64) -> f64 {
    if score <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if score >= 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Expected score for an Elo difference (logistic model).
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An SPRT of H0: elo = elo0 against H1: elo = elo1, with error rates alpha and beta.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative.
    pub elo1: f64,
    /// False positive rate (accepting H1 when H0 holds).
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// Where the SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Neither bound crossed: keep playing.
    Continue,
    /// The LLR fell below the lower bound: H0 (elo0) accepted.
    H0,
    /// The LLR rose above the upper bound: H1 (elo1) accepted.
    H1,
}

impl Sprt {
    /// Parses `elo0=0,elo1=10[,alpha=0.05,beta=0.05]` (commas or spaces).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let mut sprt = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        for item in text.split([',', ' ']).filter(|s| !s.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| format!("--sprt: expected key=value, not {item}"))?;
            let number: f64 = value
                .parse()
                .ok()
                .filter(|n: &f64| n.is_finite())
                .ok_or_else(|| format!("--sprt: {key} needs a number, not {value}"))?;
            match key {
                "elo0" => sprt.elo0 = number,
                "elo1" => sprt.elo1 = number,
                "alpha" => sprt.alpha = number,
                "beta" => sprt.beta = number,
                _ => return Err(format!("--sprt: unknown key {key}")),
            }
        }
        let rate_ok = |r: f64| r > 0.0 && r < 0.5;
        if sprt.elo1 <= sprt.elo0 || !rate_ok(sprt.alpha) || !rate_ok(sprt.beta) {
            return Err("--sprt: need elo0 < elo1 and 0 < alpha, beta < 0.5".into());
        }
        Ok(sprt)
    }

    /// The (lower, upper) LLR bounds (Wald).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for these results (normal approximation,
    /// as in fishtest's "GSPRT"). Zero before the first game.
    pub fn llr(&self, tally: &Tally) -> f64 {
        if tally.games() == 0 {
            return 0.0;
        }
        let (n, score, variance) = tally.moments(true);
        let s0 = elo_to_score(self.elo0);
        let s1 = elo_to_score(self.elo1);
        n * (s1 - s0) * (2.0 * score - s0 - s1) / (2.0 * variance)
    }

    /// Whether a bound has been crossed.
    pub fn verdict(&self, tally: &Tally) -> Verdict {
        let llr = self.llr(tally);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(wins: u32, losses: u32, draws: u32) -> Tally {
        Tally {
            wins,
            losses,
            draws,
            ..Tally::default()
        }
    }

    #[test]
    fn elo_matches_the_logistic_table() {
        assert!((score_to_elo(0.64) - 99.96).abs() < 0.1);
        assert_eq!(score_to_elo(0.5), 0.0);
        assert!((elo_to_score(score_to_elo(0.3)) - 0.3).abs() < 1e-12);
        let (elo, error) = tally(60, 40, 0).elo();
        assert!((elo - 70.4).abs() < 0.1, "{elo}");
        // 100 games, sd 0.49: score 0.6 +- 0.096, i.e. about 70 +- 70 Elo.
        assert!((error - 70.0).abs() < 3.0, "{error}");
    }

    #[test]
    fn a_clean_sweep_is_bounded_below_only() {
        let (elo, error) = tally(10, 0, 0).elo();
        assert!(elo.is_infinite() && error.is_infinite());
        let (low, high) = tally(10, 0, 0).elo_interval();
        assert!((low - 166.0).abs() < 2.0 && high.is_infinite(), "{low}");
        let (low, high) = tally(19, 1, 0).elo_interval();
        assert!(low > 150.0 && high < 900.0, "{low} {high}");
    }

    #[test]
    fn llr_grows_with_evidence_and_crosses_the_bounds() {
        let sprt = Sprt::parse("elo0=0,elo1=10").expect("parses");
        let (lower, upper) = sprt.bounds();
        assert!((upper - 2.944).abs() < 0.001 && (lower + 2.944).abs() < 0.001);
        assert!(sprt.llr(&tally(600, 400, 0)) > upper);
        assert!(sprt.llr(&tally(400, 600, 0)) < lower);
        assert_eq!(sprt.verdict(&tally(5, 5, 0)), Verdict::Continue);
        assert_eq!(sprt.verdict(&tally(600, 400, 0)), Verdict::H1);
        // A clean sweep has no spread: one win decides nothing, twenty do.
        assert_eq!(sprt.verdict(&tally(1, 0, 0)), Verdict::Continue);
        assert_eq!(sprt.verdict(&tally(20, 0, 0)), Verdict::H1);
        assert_eq!(sprt.verdict(&tally(0, 20, 0)), Verdict::H0);
    }

    #[test]
    fn sprt_options_are_checked() {
        assert!(Sprt::parse("elo0=5,elo1=0").is_err());
        assert!(Sprt::parse("elo0=x").is_err());
        // Not finite: an LLR of NaN or infinity would never (or always) decide.
        assert!(Sprt::parse("elo0=nan,elo1=5").is_err());
        assert!(Sprt::parse("elo0=-inf,elo1=5").is_err());
        assert!(Sprt::parse("elo1=inf").is_err());
        // Every key has a default: elo0=0, elo1=5, alpha=beta=0.05.
        assert_eq!(
            Sprt::parse(""),
            Ok(Sprt {
                elo0: 0.0,
                elo1: 5.0,
                alpha: 0.05,
                beta: 0.05
            })
        );
        assert!(Sprt::parse("gamma=1").is_err());
        assert_eq!(
            Sprt::parse("elo0=0 elo1=3 alpha=0.1").map(|s| s.alpha),
            Ok(0.1)
        );
    }
}
