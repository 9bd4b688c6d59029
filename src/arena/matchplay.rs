//! Whole N-point backgammon matches (`arena --match N`): the unit of the match is a match.
//!
//! Each game of a match is refereed like any other game, starting from the position string of
//! the score before it (`position fen ... match=N score=W-B [crawford]`), so both engines are
//! told the score and the Crawford game; the arbiter carries the score from game to game
//! ([`Scoreboard`]: the Crawford game after the first side reaches N-1). Duplicate pairs stay
//! duplicate: game `g` of both matches of a pair rolls the same dice and opens with the same
//! colour, and the engines swap colours between the two matches. A fault loses that game (1
//! point) as in any match, and the next game starts a fresh process.

use super::openings::{pair_seed, Stream};
use super::referee::{self, GameResult, Pairing, Played, Rules, Seat};
use super::Config;
use crate::game::{Game, Side};
use crate::games::backgammon::matfile::{self, Action, GameRecord, MatchRecord, Scoreboard};
use crate::games::backgammon::Backgammon;
use crate::util::rng::Rng;

/// The reason of a finished match unit (the summary counts match wins by it).
pub const REASON: &str = "match";

/// Plays match `index` (0-based, in pair `index / 2`) of `length` points; returns it as one
/// unit (winner, 1 point, the final score and the faults in the detail) and as a match file
/// record, White's name first.
pub fn play(
    config: &Config,
    rules: &Rules<'_>,
    seats: &mut [Seat; 2],
    index: usize,
    length: u16,
) -> Result<(Played, MatchRecord), String> {
    let pair = index / 2;
    let white = index % 2;
    let mut board = Scoreboard::default();
    let mut games = Vec::new();
    let mut faults = Vec::new();
    let dice_seed = pair_seed(config.seed, pair, Stream::Dice);
    while !board.over(length) {
        let number = games.len() as u64;
        // Both matches of a pair use game g's seed for game g, whatever came before.
        let seed = dice_seed.wrapping_add(number.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let opener = if Rng::new(seed ^ 1).below(2) == 0 {
            Side::White
        } else {
            Side::Black
        };
        let crawford = board.next_is_crawford(length);
        let start = matfile::game_start(length, board.score, crawford, opener)?.to_fen();
        let pairing = Pairing {
            number: index + 1,
            white,
            opening: Vec::new(),
            dice_seed: seed,
            engine_seed: pair_seed(config.seed, index, Stream::Engine).wrapping_add(number),
        };
        let played = referee::play(
            rules,
            &config.engines,
            config.controls(),
            seats,
            pairing,
            Some(&start),
        )?;
        let winner = played
            .result
            .winner
            .ok_or_else(|| format!("match {}: a game ended without a winner", index + 1))?;
        if !matches!(
            played.result.reason.as_str(),
            "single" | "gammon" | "backgammon" | "drop"
        ) {
            faults.push(format!(
                "game {}: {} {}",
                games.len() + 1,
                played.result.reason,
                played.result.detail
            ));
        }
        board.add(winner, played.result.points);
        games.push(GameRecord {
            actions: actions(&start, &played.moves)?,
            winner,
            points: played.result.points,
        });
    }
    let winner = if board.score[0] >= u32::from(length) {
        Side::White
    } else {
        Side::Black
    };
    let mut detail = format!(
        "{}-{} in {} games",
        board.score[0],
        board.score[1],
        games.len()
    );
    if !faults.is_empty() {
        detail.push_str(&format!(" ({})", faults.join("; ")));
    }
    let names = [white, 1 - white].map(|who| config.engines[who].name.clone());
    let unit = Played {
        pairing: Pairing {
            number: index + 1,
            white,
            opening: Vec::new(),
            dice_seed,
            engine_seed: pair_seed(config.seed, index, Stream::Engine),
        },
        moves: Vec::new(),
        result: GameResult {
            winner: Some(winner),
            points: 1,
            reason: REASON.to_owned(),
            detail,
        },
        least_left_ms: [None; 2],
    };
    Ok((
        unit,
        MatchRecord {
            length,
            names,
            games,
            unfinished: Vec::new(),
            comments: Vec::new(),
        },
    ))
}

/// The game's moves with the side that made each, replayed from its start.
fn actions(start: &str, moves: &[String]) -> Result<Vec<Action>, String> {
    let options = Backgammon::parse_options(&[("cube", "on")]).map_err(|e| e.to_string())?;
    let mut pos = Backgammon::from_fen(start, &options).map_err(|e| e.to_string())?;
    moves
        .iter()
        .map(|token| {
            let side = pos.side_to_move();
            let mv = pos.parse_move(token).map_err(|e| e.to_string())?;
            pos.play(mv);
            Ok(Action {
                side,
                token: token.clone(),
            })
        })
        .collect()
}

/// Writes match number `index` (from 0) into `dir` as `match-NNNN.mat` (numbered from 1).
pub fn write_mat(dir: &std::path::Path, index: usize, record: &MatchRecord) -> Result<(), String> {
    let path = dir.join(format!("match-{:04}.mat", index + 1));
    std::fs::write(&path, matfile::write(record))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}
