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
            let _ = writeln!(self.out, "{line}");
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

    /// Prints the summary and returns it.
    pub fn finish(self) -> Summary {
        for line in summary_lines(&self.report, &self.summary) {
            let _ = writeln!(self.out, "{line}");
        }
        self.summary
    }
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

/// The first engine's points per game with a 95% margin over duplicate pairs (both games of
/// a pair roll the same dice, so the pair's net points cancel most of the luck).
fn ppg_line(games: &[Played]) -> String {
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
    let n = pairs.len() as f64;
    let ppg = pairs.values().sum::<f64>() / games.len() as f64;
    let mean = pairs.values().sum::<f64>() / n;
    let variance = pairs.values().map(|p| (p - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    // A pair is two games: the margin of the pair mean, halved, is that of points per game.
    let margin = 1.959_963_984_540_054 * (variance / n).sqrt() / 2.0;
    format!(
        "ppg {ppg:+.3} +- {margin:.3} (95%, {} duplicate pairs)",
        pairs.len()
    )
}

fn summary_lines(report: &Report<'_>, summary: &Summary) -> Vec<String> {
    let names = &report.header.engines;
    let tally = &summary.tally;
    let (elo, error) = tally.elo();
    let interval = tally.elo_interval();
    let mut lines = vec![
        format!(
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
        ),
        format!(
            "score {:.1}/{} = {:.3}",
            f64::from(tally.wins) + 0.5 * f64::from(tally.draws),
            tally.games(),
            tally.score()
        ),
        // Adding 0.0 turns -0.0 (an even score) into 0.0, which prints "+0.0".
        format!(
            "elo {:+.1} +- {error:.1}, 95% interval [{:+.1}, {:+.1}]",
            elo + 0.0,
            interval.0 + 0.0,
            interval.1 + 0.0
        ),
    ];
    if summary.games.iter().any(|g| g.result.points > 1) {
        lines.push(format!(
            "points {} {}, {} {}",
            names[0], tally.points_for, names[1], tally.points_against
        ));
        lines.push(ppg_line(&summary.games));
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
