//! The match runner (`arena` binary): two engines, any game of the registry, refereed with the
//! library's own rules.
//!
//! Game `g` (0-based) belongs to pair `g / 2`; the pair's two games share the opening and the
//! dice, and swap colours (odd games give the second engine White). Workers
//! (`--concurrency`) take games in order, each with its own two engine processes; results are
//! counted in game order, so the numbers, the records and the SPRT stop do not depend on which
//! worker finished first. Given `--seed`, everything but the engines' own timing is fixed.

mod args;
pub mod backgammon_duplicate;
pub mod engine;
pub mod openings;
pub mod record;
pub mod referee;
pub mod stats;
pub mod tc;

pub use args::parse as parse_args;

use engine::{Engine, EngineSpec};
use openings::{pair_seed, Openings, Stream};
use referee::{Pairing, Played, Rules, Seat};
use stats::{Sprt, Tally, Verdict};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;
use tc::TimeControl;

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct Config {
    /// The game's `newgame` name.
    pub game: String,
    /// Its options, `key=value` separated by spaces.
    pub game_options: String,
    /// The two engines; results are given from the first one's point of view.
    pub engines: [EngineSpec; 2],
    /// Number of games.
    pub games: usize,
    /// The time control of engines without their own `tc=`.
    pub tc: TimeControl,
    /// Grace beyond each time allowance.
    pub margin: Duration,
    /// Limit for handshakes, `isready`, and depth- or node-limited searches.
    pub timeout: Duration,
    /// Games played at once.
    pub concurrency: usize,
    /// The match seed.
    pub seed: u64,
    /// Where openings come from.
    pub openings: Openings,
    /// Draw after this many plies (0: never).
    pub max_plies: usize,
    /// Stop when this test decides.
    pub sprt: Option<Sprt>,
    /// Where to write the game records.
    pub record: Option<PathBuf>,
    /// No line per game.
    pub quiet: bool,
}

impl Config {
    /// A configuration with the defaults of the command line.
    pub fn new(game: String, engines: [EngineSpec; 2]) -> Config {
        Config {
            game,
            game_options: String::new(),
            engines,
            games: 10,
            tc: TimeControl::MoveTime(100),
            margin: Duration::from_millis(100),
            timeout: Duration::from_secs(10),
            concurrency: 1,
            seed: 1,
            openings: Openings::None,
            max_plies: 1000,
            sprt: None,
            record: None,
            quiet: false,
        }
    }

    /// The game options as `(key, value)` pairs.
    fn option_pairs(&self) -> Vec<(&str, &str)> {
        self.game_options
            .split_whitespace()
            .filter_map(|kv| kv.split_once('='))
            .collect()
    }

    /// The game at its start position, which also checks the game name and options.
    pub fn start_position(&self) -> Result<Box<dyn crate::registry::AnyGame>, String> {
        if self
            .game_options
            .split_whitespace()
            .any(|kv| !kv.contains('='))
        {
            return Err(format!(
                "--game-options: expected key=value, not {}",
                self.game_options
            ));
        }
        crate::registry::new_game(&self.game, &self.option_pairs(), 0).map_err(|e| e.to_string())
    }

    fn controls(&self) -> [TimeControl; 2] {
        [0, 1].map(|i| self.engines[i].tc.unwrap_or(self.tc))
    }
}

/// What a match produced.
#[derive(Clone, Debug)]
pub struct Summary {
    /// The first engine's wins, losses, draws and points.
    pub tally: Tally,
    /// Every counted game, in order.
    pub games: Vec<Played>,
    /// The SPRT's final log-likelihood ratio and verdict, if one ran.
    pub sprt: Option<(f64, Verdict)>,
}

/// Runs the match, printing a line per game and the summary to `out`.
pub fn run(config: &Config, out: &mut dyn Write) -> Result<Summary, String> {
    config.start_position()?;
    for spec in &config.engines {
        let mut engine = Engine::start(spec, config.timeout)
            .map_err(|f| format!("{}: {}: {}", spec.name, f.reason(), f.detail()))?;
        engine
            .configure(
                &config.game,
                &config.game_options,
                &spec.options,
                config.timeout,
            )
            .map_err(|f| format!("{}: {}: {}", spec.name, f.reason(), f.detail()))?;
        engine.quit();
    }
    let mut writer = match &config.record {
        Some(path) => Some(
            std::fs::File::create(path)
                .map_err(|e| format!("cannot create {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let names = [0, 1].map(|i| config.engines[i].name.as_str());
    let header = record::Header {
        game: &config.game,
        options: &config.game_options,
        engines: names,
        time_controls: config.controls().map(|t| t.describe()),
    };
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, results) = mpsc::channel();
    let progress = std::io::stderr().is_terminal() && !config.quiet;

    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.min(config.games.max(1)) {
            let sender = sender.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || worker(config, next, stop, &sender));
        }
        drop(sender);

        let mut summary = Summary {
            tally: Tally::default(),
            games: Vec::new(),
            sprt: None,
        };
        let mut waiting = BTreeMap::new();
        let mut failure = None;
        for (index, played) in results.iter() {
            waiting.insert(index, played);
            while let Some(played) = waiting.remove(&summary.games.len()) {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let played: Played = match played {
                    Ok(played) => played,
                    Err(error) => {
                        stop.store(true, Ordering::Relaxed);
                        failure = Some(error);
                        break;
                    }
                };
                count(&mut summary.tally, &played);
                if progress {
                    eprint!("\r\x1b[K");
                }
                if !config.quiet {
                    let _ = writeln!(
                        out,
                        "{}",
                        game_line(config, &names, &summary.tally, &played)
                    );
                }
                if progress {
                    eprint!("{}/{} games", summary.games.len() + 1, config.games);
                }
                if let Some(file) = writer.as_mut() {
                    if let Err(error) = file.write_all(record::format(&header, &played).as_bytes())
                    {
                        stop.store(true, Ordering::Relaxed);
                        failure = Some(format!("cannot write the record: {error}"));
                        break;
                    }
                }
                summary.games.push(played);
                if let Some(sprt) = &config.sprt {
                    let verdict = sprt.verdict(&summary.tally);
                    summary.sprt = Some((sprt.llr(&summary.tally), verdict));
                    if verdict != Verdict::Continue {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
        }
        if progress {
            eprint!("\r\x1b[K");
        }
        if let Some(error) = failure {
            return Err(error);
        }
        print_summary(config, &names, &summary, out);
        Ok(summary)
    })
}

/// Plays games until none is left or the match stops; sends `(index, game)`.
fn worker(
    config: &Config,
    next: &AtomicUsize,
    stop: &AtomicBool,
    results: &mpsc::Sender<(usize, Result<Played, String>)>,
) {
    let rules = Rules {
        game: &config.game,
        game_options: &config.game_options,
        max_plies: config.max_plies,
        margin: config.margin,
        timeout: config.timeout,
    };
    let mut seats: [Seat; 2] = [None, None];
    loop {
        let index = next.fetch_add(1, Ordering::Relaxed);
        if index >= config.games || stop.load(Ordering::Relaxed) {
            break;
        }
        let pair = index / 2;
        let played = config
            .openings
            .for_pair(&config.game, &config.option_pairs(), config.seed, pair)
            .and_then(|opening| {
                let pairing = Pairing {
                    number: index + 1,
                    white: index % 2,
                    opening,
                    dice_seed: pair_seed(config.seed, pair, Stream::Dice),
                    // Per game, not per pair: an engine ignores a `Seed` equal to its current one,
                    // so a reused process would otherwise continue its old random sequence.
                    engine_seed: pair_seed(config.seed, index, Stream::Engine),
                };
                referee::play(
                    &rules,
                    &config.engines,
                    config.controls(),
                    &mut seats,
                    pairing,
                )
            });
        if results.send((index, played)).is_err() {
            break;
        }
    }
    for engine in seats.into_iter().flatten() {
        engine.quit();
    }
}

/// Adds a game to the first engine's tally.
fn count(tally: &mut Tally, played: &Played) {
    let first_colour = if played.pairing.white == 0 {
        crate::game::Side::White
    } else {
        crate::game::Side::Black
    };
    match played.result.winner {
        None => tally.draws += 1,
        Some(winner) if winner == first_colour => {
            tally.wins += 1;
            tally.points_for += played.result.points;
        }
        Some(_) => {
            tally.losses += 1;
            tally.points_against += played.result.points;
        }
    }
}

fn game_line(config: &Config, names: &[&str; 2], tally: &Tally, played: &Played) -> String {
    let white = played.pairing.white;
    let result = &played.result;
    let mut line = format!(
        "game {}/{}: {} (white) vs {} (black): {} {}",
        played.pairing.number,
        config.games,
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

fn print_summary(config: &Config, names: &[&str; 2], summary: &Summary, out: &mut dyn Write) {
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
        format!(
            "elo {elo:+.1} +- {error:.1}, 95% interval [{:+.1}, {:+.1}]",
            interval.0, interval.1
        ),
    ];
    if summary.games.iter().any(|g| g.result.points > 1) {
        lines.push(format!(
            "points {} {}, {} {}",
            names[0], tally.points_for, names[1], tally.points_against
        ));
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
    if let (Some(sprt), Some((llr, verdict))) = (&config.sprt, summary.sprt) {
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
    for line in lines {
        let _ = writeln!(out, "{line}");
    }
}
