//! What a match prints and writes as its games come in, in game order: the line per game, the
//! records, the results file, the tally and the SPRT stop, then the summary. The whole run and
//! `arena merge` both feed their games through a [`Counter`], so they print the same.

use super::record;
use super::referee::Played;
use super::results;
use super::stats::{Sprt, Tally, Verdict};
use super::Summary;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;

/// The match-wide facts the output needs.
#[derive(Clone, Debug)]
pub struct Report<'a> {
    /// Record headers: the game, its options, the engines' names and time controls.
    pub header: record::Header<'a>,
    /// Games in the whole match (the `N` of `game n/N`).
    pub games: usize,
    /// The SPRT that stops the match and gets a summary line (none in a shard).
    pub sprt: Option<Sprt>,
    /// No line per game.
    pub quiet: bool,
}

/// Takes the games in order and produces the output of a match.
pub struct Counter<'a> {
    report: Report<'a>,
    out: &'a mut dyn Write,
    record: Option<File>,
    results: Option<File>,
    summary: Summary,
}

impl<'a> Counter<'a> {
    /// A counter writing game lines and the summary to `out`, records to `record` and result
    /// lines to `results` (whose match line the caller has written).
    pub fn new(
        report: Report<'a>,
        out: &'a mut dyn Write,
        record: Option<File>,
        results: Option<File>,
    ) -> Counter<'a> {
        Counter {
            report,
            out,
            record,
            results,
            summary: Summary {
                tally: Tally::default(),
                games: Vec::new(),
                sprt: None,
            },
        }
    }

    /// Games counted so far.
    pub fn counted(&self) -> usize {
        self.summary.games.len()
    }

    /// Counts the next game in order; `Ok(true)` once the SPRT has decided (count no more).
    pub fn add(&mut self, played: Played) -> Result<bool, String> {
        count(&mut self.summary.tally, &played);
        if !self.report.quiet {
            let line = game_line(&self.report, &self.summary.tally, &played);
            // A lost game line is a lost result: the match stops rather than go on unseen.
            writeln!(self.out, "{line}").map_err(output_error)?;
        }
        if let Some(file) = self.record.as_mut() {
            file.write_all(record::format(&self.report.header, &played).as_bytes())
                .map_err(|e| format!("cannot write the record: {e}"))?;
        }
        if let Some(file) = self.results.as_mut() {
            // Flushed per game (File is unbuffered): a shard killed midway keeps its games.
            file.write_all(results::game_line(&played).as_bytes())
                .map_err(|e| format!("cannot write the results: {e}"))?;
        }
        self.summary.games.push(played);
        let Some(sprt) = &self.report.sprt else {
            return Ok(false);
        };
        let verdict = sprt.verdict(&self.summary.tally);
        self.summary.sprt = Some((sprt.llr(&self.summary.tally), verdict));
        Ok(verdict != Verdict::Continue)
    }

    /// Prints the summary and returns it; an error if it could not be written.
    pub fn finish(self) -> Result<Summary, String> {
        for line in summary_lines(&self.report, &self.summary) {
            writeln!(self.out, "{line}").map_err(output_error)?;
        }
        self.out.flush().map_err(output_error)?;
        Ok(self.summary)
    }
}

/// The error of a failed write to the output (a full disk, a closed pipe).
fn output_error(error: std::io::Error) -> String {
    format!("cannot write the output: {error}")
}

/// Adds a game to the first engine's tally.
fn count(tally: &mut Tally, played: &Played) {
    match played.result.winner {
        None => tally.draws += 1,
        Some(winner) if winner == first_colour(played) => {
            tally.wins += 1;
            tally.points_for += played.result.points;
        }
        Some(_) => {
            tally.losses += 1;
            tally.points_against += played.result.points;
        }
    }
}

fn first_colour(played: &Played) -> crate::game::Side {
    if played.pairing.white == 0 {
        crate::game::Side::White
    } else {
        crate::game::Side::Black
    }
}

fn game_line(report: &Report<'_>, tally: &Tally, played: &Played) -> String {
    let names = report.header.engines;
    let white = played.pairing.white;
    let result = &played.result;
    let mut line = format!(
        "game {}/{}: {} (white) vs {} (black): {} {}",
        played.pairing.number,
        report.games,
        names[white],
        names[1 - white],
        record::result_text(result.winner),
        result.reason,
    );
    if result.points > 1 {
        line.push_str(&format!(" x{}", result.points));
    }
    if !result.detail.is_empty() {
        line.push_str(&format!(" ({})", result.detail));
    }
    line.push_str(&format!(
        ", {} plies; {} {}-{}-{}",
        played.moves.len(),
        names[0],
        tally.wins,
        tally.losses,
        tally.draws
    ));
    line
}

/// `least time left: N ms (ENGINE, game G)`: the closest any engine came to losing on time
/// (clock time controls only; the first such game on a tie).
fn least_left_line(names: &[&str; 2], games: &[Played]) -> Option<String> {
    let mut least: Option<(i64, usize, usize)> = None;
    for game in games {
        for (who, left) in game.least_left_ms.iter().enumerate() {
            if let Some(left) = *left {
                if least.is_none_or(|(l, _, _)| left < l) {
                    least = Some((left, who, game.pairing.number));
                }
            }
        }
    }
    least.map(|(left, who, number)| {
        format!("least time left: {left} ms ({}, game {number})", names[who])
    })
}

/// The first engine's mean net points per game over duplicate pairs and the 95% margin of
/// that mean (both games of a pair roll the same dice, so the pair's net points cancel most of
/// the luck); `None` for the margin of one pair, whose spread is unknown, not nil.
fn pair_mean(games: &[Played]) -> (f64, Option<f64>, usize) {
    let mut pairs: BTreeMap<usize, f64> = BTreeMap::new();
    for game in games {
        let points = f64::from(game.result.points);
        let net = match game.result.winner {
            None => 0.0,
            Some(w) if w == first_colour(game) => points,
            Some(_) => -points,
        };
        *pairs.entry((game.pairing.number - 1) / 2).or_default() += net;
    }
    let ppg = pairs.values().sum::<f64>() / games.len() as f64;
    let margin = (pairs.len() >= 2).then(|| {
        let n = pairs.len() as f64;
        let mean = pairs.values().sum::<f64>() / n;
        let variance = pairs.values().map(|p| (p - mean).powi(2)).sum::<f64>() / (n - 1.0);
        // A pair is two games: the margin of the pair mean, halved, is that of points per game.
        1.959_963_984_540_054 * (variance / n).sqrt() / 2.0
    });
    (ppg, margin, pairs.len())
}

/// The first engine's points per game with a 95% margin over duplicate pairs.
fn ppg_line(games: &[Played]) -> String {
    let (ppg, margin, pairs) = pair_mean(games);
    let margin = margin.map_or("n/a".to_owned(), |m| format!("{m:.3}"));
    format!("ppg {ppg:+.3} +- {margin} (95%, {pairs} duplicate pairs)")
}

/// Whole matches (`--match`): the first engine's share of matches won, with the 95% margin
/// over duplicate pairs (a match won is +1 net, lost -1: the share is half the net mean plus
/// one half).
fn matches_line(games: &[Played]) -> String {
    let (net, margin, pairs) = pair_mean(games);
    let margin = margin.map_or("n/a".to_owned(), |m| format!("{:.1}", 50.0 * m));
    format!(
        "matches won {:.1}% +- {margin} (95%, {pairs} duplicate pairs)",
        50.0 * (net + 1.0)
    )
}

fn summary_lines(report: &Report<'_>, summary: &Summary) -> Vec<String> {
    let names = &report.header.engines;
    let tally = &summary.tally;
    let (elo, error) = tally.elo();
    let interval = tally.elo_interval();
    let mut lines = vec![format!(
        "{} vs {}: {} games, {} wins, {} losses, {} draws (W/L/D {}/{}/{})",
        names[0],
        names[1],
        tally.games(),
        tally.wins,
        tally.losses,
        tally.draws,
        tally.wins,
        tally.losses,
        tally.draws
    )];
    if tally.games() == 0 {
        // A shard without games, or a partial merge before the first: no score to speak of
        // (the mean of nothing is not an even 0.500).
        lines.push("score 0.0/0 = n/a".to_owned());
        lines.push("elo n/a".to_owned());
    } else {
        lines.push(format!(
            "score {:.1}/{} = {:.3}",
            f64::from(tally.wins) + 0.5 * f64::from(tally.draws),
            tally.games(),
            tally.score()
        ));
        // Adding 0.0 turns -0.0 (an even score) into 0.0, which prints "+0.0".
        lines.push(format!(
            "elo {:+.1} +- {error:.1}, 95% interval [{:+.1}, {:+.1}]",
            elo + 0.0,
            interval.0 + 0.0,
            interval.1 + 0.0
        ));
    }
    if summary.games.iter().any(|g| g.result.points > 1) {
        lines.push(format!(
            "points {} {}, {} {}",
            names[0], tally.points_for, names[1], tally.points_against
        ));
        lines.push(ppg_line(&summary.games));
    }
    if summary
        .games
        .iter()
        .any(|g| g.result.reason == super::matchplay::REASON)
    {
        lines.push(matches_line(&summary.games));
    }
    let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
    for game in &summary.games {
        *reasons.entry(game.result.reason.as_str()).or_default() += 1;
    }
    let reasons: Vec<String> = reasons.iter().map(|(r, n)| format!("{r} {n}")).collect();
    lines.push(format!("reasons: {}", reasons.join(", ")));
    if let Some(line) = least_left_line(names, &summary.games) {
        lines.push(line);
    }
    if let (Some(sprt), Some((llr, verdict))) = (&report.sprt, summary.sprt) {
        let (lower, upper) = sprt.bounds();
        let decision = match verdict {
            Verdict::Continue => "no decision",
            Verdict::H0 => "H0 accepted",
            Verdict::H1 => "H1 accepted",
        };
        lines.push(format!(
            "sprt elo0={} elo1={} alpha={} beta={}: llr {llr:.2} ({lower:.2}, {upper:.2}) {decision}",
            sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::referee::{GameResult, Pairing};
    use crate::game::Side;

    /// Game `number` (1-based, colours alternating as in a match): the first engine's net
    /// `points` (negative: lost, 0: drawn).
    fn game(number: usize, points: i32) -> Played {
        let white = (number - 1) % 2;
        let first = if white == 0 { Side::White } else { Side::Black };
        Played {
            pairing: Pairing {
                number,
                white,
                opening: Vec::new(),
                dice_seed: 0,
                engine_seed: 0,
            },
            moves: Vec::new(),
            result: GameResult {
                winner: match points {
                    0 => None,
                    p if p > 0 => Some(first),
                    _ => Some(first.opponent()),
                },
                points: points.unsigned_abs(),
                reason: "test".into(),
                detail: String::new(),
            },
            least_left_ms: [None, None],
        }
    }

    /// The report of a match of `games` games of `game` between `a` and `b`.
    fn report(game: &'static str, games: usize, quiet: bool) -> Report<'static> {
        Report {
            header: record::Header {
                game,
                options: "",
                engines: ["a", "b"],
                time_controls: [String::new(), String::new()],
            },
            games,
            sprt: None,
            quiet,
        }
    }

    /// The summary of `games` between `a` and `b`.
    fn summary(games: &[Played]) -> Vec<String> {
        let mut out = Vec::new();
        let mut counter = Counter::new(
            report("backgammon", games.len(), true),
            &mut out,
            None,
            None,
        );
        for played in games {
            counter.add(played.clone()).expect("counts");
        }
        counter.finish().expect("written");
        String::from_utf8(out)
            .expect("text")
            .lines()
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn one_pair_has_no_ppg_margin() {
        // A gammon won, a single lost: one pair, whose spread is unknown (it was 0.000).
        let lines = summary(&[game(1, 2), game(2, -1)]);
        assert!(
            lines.contains(&"ppg +0.500 +- n/a (95%, 1 duplicate pairs)".to_owned()),
            "{lines:?}"
        );
        // Two pairs have one: nets +1 and -1, sd sqrt(2), margin 1.96 * 1 / 2.
        let lines = summary(&[game(1, 2), game(2, -1), game(3, -1), game(4, 0)]);
        assert!(
            lines.contains(&"ppg +0.000 +- 0.980 (95%, 2 duplicate pairs)".to_owned()),
            "{lines:?}"
        );
    }

    #[test]
    fn no_games_have_no_score() {
        let lines = summary(&[]);
        assert!(lines.contains(&"score 0.0/0 = n/a".to_owned()), "{lines:?}");
        assert!(lines.contains(&"elo n/a".to_owned()), "{lines:?}");
        assert!(!lines.iter().any(|l| l.contains("0.500")), "{lines:?}");
    }

    /// A writer that fails like `/dev/full`.
    struct Full;

    impl Write for Full {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::from_raw_os_error(28))
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_failed_write_is_an_error_not_a_lost_line() {
        let report = report("nim", 2, false);
        let mut full = Full;
        let mut counter = Counter::new(report.clone(), &mut full, None, None);
        let error = counter.add(game(1, 1)).expect_err("the game line is lost");
        assert!(error.contains("cannot write the output"), "{error}");
        let mut full = Full;
        let quiet = Report {
            quiet: true,
            ..report
        };
        let mut counter = Counter::new(quiet, &mut full, None, None);
        assert_eq!(counter.add(game(1, 1)), Ok(false));
        assert!(counter.finish().is_err(), "the summary is lost");
    }
}
