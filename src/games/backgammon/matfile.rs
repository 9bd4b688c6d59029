//! Match files (`.mat`): the Jellyfish text format that GNU Backgammon and eXtreme Gammon
//! import and export, written and read here.
//!
//! ```text
//!  5 point match
//!
//!  Game 1
//!  alice : 0                      bob : 0
//!   1)                             21: 13/11 24/23
//!   2) 52: 13/8 24/22              63: 8/5 11/5
//!   3)  Doubles => 2                Takes
//!       Wins 1 point
//! ```
//!
//! The first named player (left column) is White, the other Black. Each numbered line holds
//! one action of each side in turn: a roll and its play (`52: 13/8 24/22`, points in the
//! mover's numbering, `25` the bar, `0` off, `*` a hit, nothing when the roll cannot be
//! played), ` Doubles => N`, ` Takes` or ` Drops`; `Wins N point(s)` ends a game, in the
//! winner's column; the last game may lack it, still in play (a match stopped part-way, as GNU
//! Backgammon writes one). Lines starting with `;` are comments (GNU Backgammon's
//! `[EventDate ...]`), kept with the record and written before the match line. Reading replays every game with the rules (cube in play, Crawford game from the score), so
//! a file that is well formed but breaks a rule is refused too, naming the file and line.

use super::Backgammon;
use crate::game::{Game, Side};

/// One action of a game: who did it and the engine's token (`52:13/8,24/22`, `double`,
/// `take`, `drop`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    /// The side acting.
    pub side: Side,
    /// The engine's move token.
    pub token: String,
}

/// One game: its actions and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The actions in order.
    pub actions: Vec<Action>,
    /// The side that won the game.
    pub winner: Side,
    /// Points won (cube and gammons counted).
    pub points: u32,
}

/// A match: its length, the players' names (White first) and its games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchRecord {
    /// Points to win the match.
    pub length: u16,
    /// White's and Black's names.
    pub names: [String; 2],
    /// The finished games in order.
    pub games: Vec<GameRecord>,
    /// The actions of a last game still in play (a match stopped part-way); empty when none.
    pub unfinished: Vec<Action>,
    /// Comment lines (`; TEXT` in the file, before the match line).
    pub comments: Vec<String>,
}

impl MatchRecord {
    /// Each game's actions (the finished games, then a last one in play) with the position
    /// each was played from, the score before the game and the Crawford flag included: what
    /// an analysis of the match sets up before each decision.
    pub fn positions(&self) -> Result<Vec<Vec<(Backgammon, &Action)>>, String> {
        let mut board = Scoreboard::default();
        let finished = self
            .games
            .iter()
            .map(|g| (&g.actions, Some((g.winner, g.points))));
        let in_play = (!self.unfinished.is_empty()).then_some((&self.unfinished, None));
        let mut games = Vec::new();
        for (actions, result) in finished.chain(in_play) {
            let crawford = board.next_is_crawford(self.length);
            let mut seen = Vec::new();
            if let Some(first) = actions.first() {
                let mut pos = game_start(self.length, board.score, crawford, first.side)?;
                for action in actions {
                    seen.push((pos.clone(), action));
                    if action.token.contains(':') {
                        set_roll(&mut pos, &action.token)?;
                    }
                    let mv = pos
                        .parse_move(&action.token)
                        .map_err(|e| format!("{}: {e}", action.token))?;
                    pos.play(mv);
                }
            }
            if let Some((winner, points)) = result {
                board.add(winner, points);
            }
            games.push(seen);
        }
        Ok(games)
    }

    /// One line on the match: `5 point match, 4 games, A 5 - 2 B` (points won by each).
    pub fn summary(&self) -> String {
        let mut score = [0u32; 2];
        for game in &self.games {
            score[game.winner.index()] += game.points;
        }
        let in_play = if self.unfinished.is_empty() {
            ""
        } else {
            " and one in play"
        };
        format!(
            "{} point match, {} games{in_play}, {} {} - {} {}",
            self.length,
            self.games.len(),
            self.names[0],
            score[0],
            score[1],
            self.names[1]
        )
    }
}

const START: &str = "w=24:2,13:5,8:3,6:5 b=24:2,13:5,8:3,6:5";

/// The position a game of the match starts from: `opener` to roll, the score before it.
pub fn game_start(
    length: u16,
    score: [u32; 2],
    crawford: bool,
    opener: Side,
) -> Result<Backgammon, String> {
    let turn = if opener == Side::White { "w" } else { "b" };
    let flag = if crawford { " crawford" } else { "" };
    let fen = format!(
        "{START} {turn} - opening match={length} score={}-{}{flag}",
        score[0], score[1]
    );
    let options = Backgammon::parse_options(&[("cube", "on")]).map_err(|e| e.to_string())?;
    Backgammon::from_fen(&fen, &options).map_err(|e| e.to_string())
}

/// Tracks the score and the Crawford rule from game to game.
#[derive(Clone, Copy, Debug, Default)]
pub struct Scoreboard {
    /// Points of White and Black so far.
    pub score: [u32; 2],
    /// Whether the Crawford game has been played (or is being played).
    crawford_seen: bool,
}

impl Scoreboard {
    /// Whether the next game is the Crawford game of a `length`-point match.
    pub fn next_is_crawford(&mut self, length: u16) -> bool {
        // Exactly one: a 1-point match starts with both sides 1-away, with no Crawford game.
        let one_away = self
            .score
            .iter()
            .filter(|&&s| s + 1 == u32::from(length))
            .count()
            == 1;
        let crawford = one_away && !self.crawford_seen;
        self.crawford_seen |= one_away;
        crawford
    }

    /// Adds a game's result.
    pub fn add(&mut self, winner: Side, points: u32) {
        self.score[winner.index()] += points;
    }

    /// Whether somebody has won a `length`-point match.
    pub fn over(&self, length: u16) -> bool {
        self.score.iter().any(|&s| s >= u32::from(length))
    }
}

/// The `.mat` text of a match.
pub fn write(record: &MatchRecord) -> String {
    let mut out: String = record.comments.iter().map(|c| format!("; {c}\n")).collect();
    out.push_str(&format!(" {} point match\n\n", record.length));
    let mut board = Scoreboard::default();
    let finished = record.games.iter().map(|g| (&g.actions, Some(g)));
    let in_play = (!record.unfinished.is_empty()).then_some((&record.unfinished, None));
    for (number, (actions, result)) in finished.chain(in_play).enumerate() {
        out.push_str(&format!(" Game {}\n", number + 1));
        let left = format!("{} : {}", record.names[0], board.score[0]);
        out.push_str(&format!(
            " {left:<31}{} : {}\n",
            record.names[1], board.score[1]
        ));
        let mut cube = 1;
        let mut cells: Vec<String> = Vec::new();
        if actions.first().is_some_and(|a| a.side == Side::Black) {
            cells.push(String::new());
        }
        for action in actions {
            cells.push(match action.token.as_str() {
                "double" => {
                    cube *= 2;
                    format!(" Doubles => {cube}")
                }
                "take" => " Takes".into(),
                "drop" => " Drops".into(),
                token => mat_play(token),
            });
        }
        let mut wins_line = None;
        if let Some(game) = result {
            let plural = if game.points == 1 { "" } else { "s" };
            board.add(game.winner, game.points);
            let tail = if board.over(record.length) {
                " and the match"
            } else {
                ""
            };
            let wins = format!("Wins {} point{plural}{tail}", game.points);
            // Black's win after White's last action (White's drop) goes beside it, as gnubg
            // writes it: on a line of its own gnubg's import takes it for more of the game.
            if game.winner == Side::Black && cells.len() % 2 == 1 {
                cells.push(format!(" {wins}"));
            } else {
                let indent = if game.winner == Side::White { 6 } else { 34 };
                wins_line = Some(format!("{:indent$}{wins}\n", ""));
            }
        }
        for (line, pair) in cells.chunks(2).enumerate() {
            let right = pair.get(1).map_or("", String::as_str);
            let row = format!("{:3}) {:<27} {right}", line + 1, pair[0]);
            out.push_str(row.trim_end());
            out.push('\n');
        }
        out.push_str(&wins_line.unwrap_or_default());
        out.push('\n');
    }
    out
}

/// `52:13/8,24/22` as a `.mat` play: `52: 13/8 24/22` (bar 25, off 0).
fn mat_play(token: &str) -> String {
    let (roll, steps) = token.split_once(':').unwrap_or((token, ""));
    if steps == "pass" {
        return format!("{roll}: ");
    }
    let steps: Vec<String> = steps
        .split(',')
        .map(|s| s.replace("bar", "25").replace("off", "0"))
        .collect();
    format!("{roll}: {}", steps.join(" "))
}

/// A `.mat` play as the engine's token: `52: 13/8 24/22*` is `52:13/8,24/22`.
fn engine_play(roll: &str, steps: &[&str]) -> String {
    if steps.is_empty() {
        return format!("{roll}:pass");
    }
    let steps: Vec<String> = steps
        .iter()
        .map(|s| {
            let s = s.trim_end_matches('*');
            let (from, to) = s.split_once('/').unwrap_or((s, ""));
            let from = if from == "25" { "bar" } else { from };
            let to = if to == "0" { "off" } else { to };
            format!("{from}/{to}")
        })
        .collect();
    format!("{roll}:{}", steps.join(","))
}

/// One action as read, with the column it was in (0 left = White, 1 right = Black).
#[derive(Debug)]
enum Cell {
    Play(String),
    Double(u32),
    Take,
    Drop,
    Wins(u32),
}

/// A game being read: the lines of its actions with their line numbers.
struct Reading {
    header_line: usize,
    score: [u32; 2],
    cells: Vec<(usize, Side, Cell)>,
}

/// Reads a `.mat` text; errors name `file` and the line.
pub fn read(text: &str, file: &str) -> Result<MatchRecord, String> {
    let at = |line: usize, what: String| format!("{file}:{line}: {what}");
    let mut length = None;
    let mut names: Option<[String; 2]> = None;
    let mut games: Vec<Reading> = Vec::new();
    let mut expect_header = false;
    let mut comments = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let number = index + 1;
        let line = raw.trim_end();
        let trimmed = line.trim_start();
        if let Some(comment) = trimmed.strip_prefix(';') {
            comments.push(comment.trim().to_owned());
            continue;
        }
        if trimmed.is_empty() {
            continue;
        }
        if length.is_none() {
            let n = trimmed
                .strip_suffix("point match")
                .and_then(|n| n.trim().parse::<u16>().ok())
                .filter(|n| (1..=super::score::MAX_LENGTH).contains(n));
            length = Some(n.ok_or_else(|| {
                at(
                    number,
                    format!("expected 'N point match' (N 1-64), got '{trimmed}'"),
                )
            })?);
            continue;
        }
        if let Some(n) = trimmed.strip_prefix("Game ") {
            if n.trim().parse::<usize>().ok() != Some(games.len() + 1) {
                return Err(at(number, format!("expected 'Game {}'", games.len() + 1)));
            }
            expect_header = true;
            continue;
        }
        if expect_header {
            expect_header = false;
            let (players, score) = read_header(trimmed)
                .ok_or_else(|| at(number, "expected 'NAME : SCORE   NAME : SCORE'".into()))?;
            match &names {
                Some(known) if *known != players => {
                    return Err(at(number, "the players' names changed".into()))
                }
                _ => names = Some(players),
            }
            games.push(Reading {
                header_line: number,
                score,
                cells: Vec::new(),
            });
            continue;
        }
        let Some(game) = games.last_mut() else {
            return Err(at(number, format!("'{trimmed}' before any 'Game 1'")));
        };
        read_line(line, number, &mut game.cells).map_err(|what| at(number, what))?;
    }
    let length = length.ok_or_else(|| at(1, "no 'N point match' line".into()))?;
    let names = names.ok_or_else(|| at(1, "no game".into()))?;
    let mut record = MatchRecord {
        length,
        names,
        games: Vec::new(),
        unfinished: Vec::new(),
        comments,
    };
    let mut board = Scoreboard::default();
    let count = games.len();
    for (index, game) in games.into_iter().enumerate() {
        if game.score != board.score {
            return Err(at(
                game.header_line,
                format!(
                    "the score {}-{} should be {}-{}",
                    game.score[0], game.score[1], board.score[0], board.score[1]
                ),
            ));
        }
        if board.over(length) {
            return Err(at(game.header_line, "the match was already over".into()));
        }
        let crawford = board.next_is_crawford(length);
        let (actions, result) =
            replay(&game, length, board.score, crawford).map_err(|(line, what)| at(line, what))?;
        match result {
            Some((winner, points)) => {
                board.add(winner, points);
                record.games.push(GameRecord {
                    actions,
                    winner,
                    points,
                });
            }
            // Only the last game may be in play: a match file of a match stopped part-way.
            None if index + 1 == count => record.unfinished = actions,
            None => {
                let line = game.cells.last().map_or(game.header_line, |c| c.0);
                return Err(at(line, "the game has no 'Wins N point(s)' line".into()));
            }
        }
    }
    Ok(record)
}

/// `alice : 0      bob : 3` as names and scores.
fn read_header(line: &str) -> Option<([String; 2], [u32; 2])> {
    let (first, rest) = line.split_once(" : ")?;
    let rest = rest.trim_start();
    let split = rest.find(char::is_whitespace)?;
    let (score0, rest) = rest.split_at(split);
    let (second, score1) = rest.trim().split_once(" : ")?;
    Some((
        [first.trim().to_owned(), second.trim().to_owned()],
        [score0.parse().ok()?, score1.trim().parse().ok()?],
    ))
}

/// Column from which text belongs to the right (Black's) column: GNU Backgammon starts it at
/// 33 (`NNN) ` and a 27-character left column), and a right-column `Wins` at 34.
const RIGHT_COLUMN: usize = 30;

/// Reads one line of actions (`  3) 52: 13/8 24/22     Doubles => 2`) or a `Wins` line.
fn read_line(
    line: &str,
    number: usize,
    cells: &mut Vec<(usize, Side, Cell)>,
) -> Result<(), String> {
    let body_start = match line.trim_start().split_once(')') {
        Some((n, _)) if n.trim().parse::<u32>().is_ok() => line.find(')').map_or(0, |i| i + 1),
        _ => 0,
    };
    // Tokens with their columns.
    let mut tokens: Vec<(usize, &str)> = Vec::new();
    let mut column = body_start;
    for word in line[body_start..].split_inclusive(char::is_whitespace) {
        let token = word.trim();
        if !token.is_empty() {
            tokens.push((column, token));
        }
        column += word.len();
    }
    let side_at = |col: usize| {
        if col >= RIGHT_COLUMN {
            Side::Black
        } else {
            Side::White
        }
    };
    let mut i = 0;
    while i < tokens.len() {
        let (col, token) = tokens[i];
        let side = side_at(col);
        let cell = match token {
            "Doubles" | "Redoubles" => {
                let value = tokens
                    .get(i + 2)
                    .filter(|_| tokens.get(i + 1).map(|t| t.1) == Some("=>"))
                    .and_then(|t| t.1.parse::<u32>().ok())
                    .ok_or("expected 'Doubles => N'")?;
                i += 3;
                Cell::Double(value)
            }
            "Takes" | "Accepts" => {
                i += 1;
                Cell::Take
            }
            "Drops" | "Passes" | "Rejects" => {
                i += 1;
                Cell::Drop
            }
            "Wins" => {
                let points = tokens
                    .get(i + 1)
                    .and_then(|t| t.1.parse::<u32>().ok())
                    .filter(|_| tokens.get(i + 2).is_some_and(|t| t.1.starts_with("point")))
                    .ok_or("expected 'Wins N point(s)'")?;
                i = tokens.len();
                Cell::Wins(points)
            }
            roll if roll.len() == 3
                && roll.ends_with(':')
                && roll[..2].bytes().all(|b| (b'1'..=b'6').contains(&b)) =>
            {
                let mut steps = Vec::new();
                i += 1;
                while let Some(&(_, step)) = tokens.get(i) {
                    if !step.contains('/') {
                        break;
                    }
                    if !step
                        .trim_end_matches('*')
                        .split('/')
                        .all(|p| p.parse::<u32>().is_ok_and(|p| p <= 25))
                    {
                        return Err(format!("'{step}' is not a step FROM/TO"));
                    }
                    steps.push(step);
                    i += 1;
                }
                Cell::Play(engine_play(&roll[..2], &steps))
            }
            other => {
                return Err(format!(
                    "'{other}' is not a roll, a cube action or a result"
                ))
            }
        };
        cells.push((number, side, cell));
    }
    Ok(())
}

/// A game's actions and, once its `Wins` line is read, the winner and the points.
type Replayed = (Vec<Action>, Option<(Side, u32)>);

/// Replays a game read from the file with the rules; errors give the line.
fn replay(
    game: &Reading,
    length: u16,
    score: [u32; 2],
    crawford: bool,
) -> Result<Replayed, (usize, String)> {
    let first = game
        .cells
        .first()
        .ok_or((game.header_line, "a game without actions".to_owned()))?;
    let mut pos = game_start(length, score, crawford, first.1).map_err(|e| (first.0, e))?;
    let mut actions = Vec::new();
    let mut cube = 1;
    for (line, side, cell) in &game.cells {
        let (line, side) = (*line, *side);
        let token = match cell {
            Cell::Wins(points) => {
                check_result(&pos, side, *points, cube).map_err(|what| (line, what))?;
                return Ok((actions, Some((side, *points))));
            }
            _ if pos.outcome().is_some() => {
                return Err((line, "the game is over: expected 'Wins N point(s)'".into()))
            }
            _ if side != pos.side_to_move() => {
                return Err((line, format!("{} is not to act here", side.name())))
            }
            Cell::Play(token) => {
                set_roll(&mut pos, token).map_err(|what| (line, what))?;
                token.clone()
            }
            Cell::Double(value) => {
                if *value != cube * 2 {
                    return Err((line, format!("the cube goes to {}, not {value}", cube * 2)));
                }
                cube *= 2;
                "double".into()
            }
            Cell::Take => "take".into(),
            Cell::Drop => "drop".into(),
        };
        let mv = pos
            .parse_move(&token)
            .map_err(|e| (line, format!("{token}: {e}")))?;
        actions.push(Action {
            side,
            token: pos.format_move(mv),
        });
        pos.play(mv);
    }
    if pos.outcome().is_some() {
        let line = game.cells.last().map_or(game.header_line, |c| c.0);
        return Err((line, "the game is over: expected 'Wins N point(s)'".into()));
    }
    Ok((actions, None))
}

/// Sets the roll a play token starts with (`52:13/8,24/22`) when the position still waits
/// for its dice.
fn set_roll(pos: &mut Backgammon, token: &str) -> Result<(), String> {
    if pos.dice().is_none() {
        let roll = token.get(..2).unwrap_or(token);
        let roll = super::move_text::parse_roll(roll)
            .filter(|&r| pos.roll_allowed(r))
            .ok_or(format!("roll {roll} is not allowed here"))?;
        pos.set_dice(roll);
    }
    Ok(())
}

/// Checks a `Wins N point(s)` line: the winner (`side`, the column of the line) and the
/// points must be the game's result, or, for a game not over (a resignation), the cube times
/// 1, 2 or 3.
fn check_result(pos: &Backgammon, side: Side, points: u32, cube: u32) -> Result<(), String> {
    let (winner, fits) = match pos.outcome() {
        Some(o) => (o.winner, o.points == points),
        None => (Some(side), [1, 2, 3].iter().any(|k| k * cube == points)),
    };
    if winner != Some(side) || !fits {
        return Err(format!("'Wins {points}' does not fit the game"));
    }
    Ok(())
}
