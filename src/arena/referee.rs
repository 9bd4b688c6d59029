//! One refereed game: the arbiter keeps its own copy of the game (the library's rules), rolls
//! the dice, asks each engine for its move in turn and checks it. Any fault of an engine ends
//! the game as its loss, with the reason.

use super::engine::{printable, Engine, EngineSpec, Fault};
use super::tc::{Clocks, TimeControl};
use crate::game::Side;
use crate::registry;
use crate::util::rng::Rng;
use std::time::Duration;

/// What a game needs to know about the match.
#[derive(Clone, Debug)]
pub struct Rules<'a> {
    /// The `newgame` name.
    pub game: &'a str,
    /// The game options, `key=value` separated by spaces.
    pub game_options: &'a str,
    /// Adjudicated a draw after this many plies (0: never).
    pub max_plies: usize,
    /// Extra time granted beyond each allowance before a time loss.
    pub margin: Duration,
    /// How long to wait for handshakes, `readyok`, and depth- or node-limited searches.
    pub timeout: Duration,
}

/// The per-game choices: who plays White, the opening, and the seeds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// 1-based game number.
    pub number: usize,
    /// Which engine (0 or 1 of the match) plays White.
    pub white: usize,
    /// The opening moves, played before the engines take over.
    pub opening: Vec<String>,
    /// Seeds the dice: both games of a pair get the same sequence.
    pub dice_seed: u64,
    /// The `Seed` option sent to engines that have one (so random players vary by game).
    pub engine_seed: u64,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The winning colour, `None` for a draw.
    pub winner: Option<Side>,
    /// Points won (backgammon gammons 2, backgammons 3; 1 otherwise; 0 for a draw).
    pub points: u32,
    /// One hyphenated word: the rules' reason, `max-plies`, or the loser's fault.
    pub reason: String,
    /// More about the reason (the illegal move, the time used, the exit status).
    pub detail: String,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Played {
    /// The pairing it was played under.
    pub pairing: Pairing,
    /// Every move from the start (opening included), canonical spelling.
    pub moves: Vec<String>,
    /// The result.
    pub result: GameResult,
    /// The least time each engine (match order) had left on its clock after a move, for
    /// clock time controls.
    pub least_left_ms: [Option<i64>; 2],
}

/// An engine slot of a worker: the process, started on demand and dropped after any fault.
pub type Seat = Option<Engine>;

/// Plays one game between `seats[0]` and `seats[1]` (match order), as `pairing` says, from
/// the start position or from `start` (a position string: a game of a backgammon match, with
/// its score). A seat whose engine faulted is emptied, so the next game starts a fresh process.
pub fn play(
    rules: &Rules<'_>,
    specs: &[EngineSpec; 2],
    controls: [TimeControl; 2],
    seats: &mut [Seat; 2],
    pairing: Pairing,
    start: Option<&str>,
) -> Result<Played, String> {
    let pairs: Vec<(&str, &str)> = rules
        .game_options
        .split_whitespace()
        .filter_map(|kv| kv.split_once('='))
        .collect();
    let mut referee = registry::new_game(rules.game, &pairs, 0).map_err(|e| e.to_string())?;
    let opening: Vec<&str> = pairing.opening.iter().map(String::as_str).collect();
    referee
        .set_position(start, &opening)
        .map_err(|e| e.to_string())?;
    let mut moves = pairing.opening.clone();
    // Colour index (0 White) to match index.
    let by_colour = [pairing.white, 1 - pairing.white];
    let mut clocks = Clocks::new([controls[by_colour[0]], controls[by_colour[1]]]);
    let mut dice = Rng::new(pairing.dice_seed);

    let end = |winner: Option<Side>, points: u32, reason: &str, detail: String| GameResult {
        winner,
        points,
        reason: reason.to_owned(),
        detail,
    };
    let forfeit = |loser: Side, fault: &Fault| {
        end(
            Some(loser.opponent()),
            1,
            fault.reason(),
            fault.detail().to_owned(),
        )
    };

    for colour in [Side::White, Side::Black] {
        let who = by_colour[colour.index()];
        if let Err(fault) = ready(rules, &specs[who], &mut seats[who], pairing.engine_seed) {
            seats[who] = None;
            let result = forfeit(colour, &fault);
            return Ok(finished(pairing, moves, result, [None; 2]));
        }
    }

    // Set when the player at the pending roll answered `roll` to being asked first.
    let mut rolls_now = false;
    let result = loop {
        if let Some(outcome) = referee.outcome() {
            break end(
                outcome.winner,
                outcome.points,
                outcome.reason,
                String::new(),
            );
        }
        if rules.max_plies > 0 && moves.len() >= rules.max_plies {
            break end(None, 0, "max-plies", format!("{} plies", moves.len()));
        }
        let colour = referee.side_to_move();
        let who = by_colour[colour.index()];
        let base = start.map_or("position startpos".to_owned(), |fen| {
            format!("position fen {fen}")
        });
        let mut setup = vec![base];
        if !moves.is_empty() {
            setup[0].push_str(&format!(" moves {}", moves.join(" ")));
        }
        // Before a roll where the player may act first (backgammon's cube), the player is
        // asked without dice: it answers one of those moves or `roll`.
        let before_roll = if rolls_now {
            Vec::new()
        } else {
            referee.pre_chance_moves()
        };
        if referee.awaits_chance() && before_roll.is_empty() {
            let roll = referee.roll(&mut dice).map_err(|e| e.to_string())?;
            setup.push(format!("dice {roll}"));
        }
        setup.push(clocks.go_command(colour.index()));
        let limit = clocks.allowance(colour.index(), rules.margin, rules.timeout);
        let Some(engine) = seats[who].as_mut() else {
            return Err("an engine seat was empty during a game".into());
        };
        let answer = match engine.search(&setup, limit) {
            Ok(answer) => answer,
            Err(fault) => {
                seats[who] = None;
                break forfeit(colour, &fault);
            }
        };
        if !clocks.charge(colour.index(), answer.elapsed, rules.margin) {
            seats[who] = None;
            let fault = Fault::Time(format!(
                "{} ms used, {} allowed",
                answer.elapsed.as_millis(),
                limit.as_millis()
            ));
            break forfeit(colour, &fault);
        }
        if !before_roll.is_empty() && answer.token == "roll" {
            rolls_now = true;
            continue;
        }
        let played = match referee.play(&answer.token) {
            Err(error) => Err(error.to_string()),
            Ok(()) => {
                let token = referee.last_move().unwrap_or_else(|| answer.token.clone());
                if before_roll.is_empty() || before_roll.contains(&token) {
                    Ok(token)
                } else {
                    referee.undo();
                    Err(format!(
                        "before the roll only roll or {} may be played",
                        before_roll.join(", ")
                    ))
                }
            }
        };
        let token = match played {
            Ok(token) => token,
            Err(error) => {
                seats[who] = None;
                let mut detail = format!("{}: {error}", printable(&answer.token));
                if let Some(complaint) = answer.complaint {
                    detail.push_str(&format!(" (after: {})", printable(&complaint)));
                }
                break end(Some(colour.opponent()), 1, "illegal-move", detail);
            }
        };
        rolls_now = false;
        moves.push(token);
    };
    let least_left_ms = [0, 1].map(|who| clocks.least_left_ms(colour_of(by_colour, who)));
    Ok(finished(pairing, moves, result, least_left_ms))
}

/// The colour index (0 White) the engine `who` (match order) plays.
fn colour_of(by_colour: [usize; 2], who: usize) -> usize {
    usize::from(by_colour[0] != who)
}

fn finished(
    pairing: Pairing,
    moves: Vec<String>,
    result: GameResult,
    least_left_ms: [Option<i64>; 2],
) -> Played {
    Played {
        pairing,
        moves,
        result,
        least_left_ms,
    }
}

/// Starts the seat's engine if needed, then prepares it for a new game.
fn ready(rules: &Rules<'_>, spec: &EngineSpec, seat: &mut Seat, seed: u64) -> Result<(), Fault> {
    let engine = match seat {
        Some(engine) => engine,
        None => {
            let mut engine = Engine::start(spec, rules.timeout)?;
            engine.configure(rules.game, rules.game_options, &spec.options, rules.timeout)?;
            seat.insert(engine)
        }
    };
    let user_seeded = spec
        .options
        .iter()
        .any(|(name, _)| name.eq_ignore_ascii_case("Seed"));
    if engine.has_option("Seed") && !user_seeded {
        engine.send(&format!("setoption name Seed value {seed}"))?;
    }
    engine.send("uginewgame")?;
    engine.sync(rules.timeout).map(|_| ())
}
