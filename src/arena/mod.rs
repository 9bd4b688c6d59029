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
pub mod matchplay;
pub mod merge;
pub mod openings;
pub mod record;
pub mod referee;
pub mod report;
pub mod results;
pub mod shard;
pub mod stats;
pub mod tc;

pub use args::parse as parse_args;

use engine::{Engine, EngineSpec};
use openings::{pair_seed, Openings, Stream};
use referee::{Pairing, Played, Rules, Seat};
use report::{Counter, Report};
use shard::Shard;
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
    /// The part of the match to play (all of it by default).
    pub shard: Shard,
    /// Where to write the results file that `arena merge` reads.
    pub results: Option<PathBuf>,
    /// No line per game.
    pub quiet: bool,
    /// Backgammon: each unit of the match is a whole match to this many points
    /// ([`matchplay`]).
    pub match_length: Option<u16>,
    /// Where to write each of those matches as a match file (`match-0001.mat`, ...).
    pub mat_dir: Option<PathBuf>,
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
            shard: Shard::WHOLE,
            results: None,
            quiet: false,
            match_length: None,
            mat_dir: None,
        }
    }

    /// The game options as `(key, value)` pairs (every word has its `=`: `start_position`
    /// checks that before any game).
    fn option_pairs(&self) -> Vec<(&str, &str)> {
        crate::protocol::option_pairs(&self.game_options)
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

/// Runs the match (or its `--shard`), printing a line per game and the summary to `out`.
pub fn run(config: &Config, out: &mut dyn Write) -> Result<Summary, String> {
    config.start_position()?;
    if let Some(dir) = &config.mat_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
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
    let create = |path: &PathBuf| {
        std::fs::File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))
    };
    let record = config.record.as_ref().map(create).transpose()?;
    let mut results = config.results.as_ref().map(create).transpose()?;
    if let Some(file) = results.as_mut() {
        let start = format!(
            "{}\n{}",
            results::MAGIC,
            results::match_line(config, config.shard)
        );
        file.write_all(start.as_bytes())
            .map_err(|e| format!("cannot write the results: {e}"))?;
    }
    let names = [0, 1].map(|i| config.engines[i].name.as_str());
    let report = Report {
        header: record::Header {
            game: &config.game,
            options: &config.game_options,
            engines: names,
            time_controls: config.controls().map(|t| t.describe()),
        },
        games: config.games,
        // A shard plays its whole block: the SPRT is decided on the merged games, in order.
        sprt: config.sprt.filter(|_| config.shard.count == 1),
        quiet: config.quiet,
    };
    let indices = config.shard.games(config.games);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, received) = mpsc::channel();
    let progress = std::io::stderr().is_terminal() && !config.quiet;

    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.min(indices.len().max(1)) {
            let sender = sender.clone();
            let (next, stop, indices) = (&next, &stop, &indices);
            scope.spawn(move || worker(config, indices, next, stop, &sender));
        }
        drop(sender);

        let mut counter = Counter::new(report, out, record, results);
        let mut waiting = BTreeMap::new();
        let mut failure = None;
        // Games arrive as workers finish them; they are counted in order of their position.
        for (position, played) in received.iter() {
            waiting.insert(position, played);
            while let Some(played) = waiting.remove(&counter.counted()) {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                if progress {
                    eprint!("\r\x1b[K");
                }
                let decided = played.and_then(|played| counter.add(played));
                if progress {
                    eprint!("{}/{} games", counter.counted(), indices.len());
                }
                match decided {
                    Ok(false) => {}
                    Ok(true) => stop.store(true, Ordering::Relaxed),
                    Err(error) => {
                        stop.store(true, Ordering::Relaxed);
                        failure = Some(error);
                        break;
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
        counter.finish()
    })
}

/// Plays games of `indices` until none is left or the match stops; sends `(position in
/// indices, game)`.
fn worker(
    config: &Config,
    indices: &[usize],
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
        let position = next.fetch_add(1, Ordering::Relaxed);
        let Some(&index) = indices.get(position) else {
            break;
        };
        if stop.load(Ordering::Relaxed) {
            break;
        }
        if let Some(length) = config.match_length {
            let played = matchplay::play(config, &rules, &mut seats, index, length).and_then(
                |(unit, record)| {
                    if let Some(dir) = &config.mat_dir {
                        matchplay::write_mat(dir, index, &record)?;
                    }
                    Ok(unit)
                },
            );
            if results.send((position, played)).is_err() {
                break;
            }
            continue;
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
                    None,
                )
            });
        if results.send((position, played)).is_err() {
            break;
        }
    }
    for engine in seats.into_iter().flatten() {
        engine.quit();
    }
}
