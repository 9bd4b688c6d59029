//! A match rebuilt from the boards one player was shown and its answers: what `gnubg-bridge`
//! sees of a match GNU Backgammon plays against tabula. gnubg sends its external player a
//! board each time that player must act, and nothing of its own turns, so the other side's
//! action between two boards (a double, a take, or a roll and its play) is found by trying
//! every one from the position the observer's last answer left, and a game's end from the
//! score on the next game's first board (a final play that ends the game, a drop, or else a
//! resignation).
//!
//! Positions are exact; rolls not always: a checker moved with both dice (`24/18` from 51, 42
//! or 33) shows only where it ended. Then the roll for which that play gives up least
//! against the roll's best play is written, and a comment line names the others.

use super::matfile::{self, Action, GameRecord, MatchRecord, Scoreboard};
use super::move_text::from_plain;
use super::{Backgammon, Move, Roll};
use crate::game::{Game, Side};

/// The match seen so far.
pub struct Observed {
    /// The observer's name and the other side's.
    players: [String; 2],
    /// The observer's colour in the record (White: the left column of the `.mat` file): the
    /// colour it acts with on the first board.
    me: Side,
    /// The match length; 0 until the first board.
    length: u16,
    games: Vec<GameRecord>,
    score: Scoreboard,
    game: Option<GameInPlay>,
    comments: Vec<String>,
    /// Why recording stopped, once it has: what came after is not in the record.
    stopped: Option<String>,
}

/// The game being played: its actions so far and the position after the last of them.
struct GameInPlay {
    actions: Vec<Action>,
    pos: Backgammon,
}

impl GameInPlay {
    fn act(&mut self, side: Side, mv: Move) {
        self.actions.push(Action {
            side,
            token: self.pos.format_move(mv),
        });
        self.pos.play(mv);
    }

    /// The `.mat` line number the next action goes on.
    fn next_line(&self) -> usize {
        let black_first = self.actions.first().is_some_and(|a| a.side == Side::Black);
        (self.actions.len() + usize::from(black_first)) / 2 + 1
    }
}

impl Observed {
    /// Nothing seen yet; `observer` and `other` name the two sides in the record.
    pub fn new(observer: &str, other: &str) -> Observed {
        Observed {
            players: [observer.to_owned(), other.to_owned()],
            me: Side::White,
            length: 0,
            games: Vec::new(),
            score: Scoreboard::default(),
            game: None,
            comments: Vec::new(),
            stopped: None,
        }
    }

    /// Takes the next board the observer was shown: the observer is the side to act in it,
    /// with the same colour on every board (the one the record gives it).
    pub fn board(&mut self, shown: &Backgammon) {
        if self.length == 0 && self.stopped.is_none() {
            self.me = shown.side_to_move();
        }
        let result = if shown.side_to_move() == self.me {
            self.take_board(shown)
        } else {
            Err("the observer acts with the other colour".into())
        };
        self.stop_on(result);
    }

    /// Takes the observer's answer to the last board, in UBGI's words: a move (`8/5 6/5`),
    /// `double`, `roll`, `take`, `drop`, or a blank line for a roll that cannot be played.
    pub fn answer(&mut self, answer: &str) {
        let result = self.take_answer(answer.trim());
        self.stop_on(result);
    }

    /// Why recording stopped, if it has.
    pub fn stopped(&self) -> Option<&str> {
        self.stopped.as_deref()
    }

    /// The match so far; `None` before the first game began.
    pub fn record(&self) -> Option<MatchRecord> {
        if self.games.is_empty() && self.game.is_none() {
            return None;
        }
        let mut comments = self.comments.clone();
        if let Some(why) = &self.stopped {
            comments.push(format!("recording stopped: {why}"));
        }
        Some(MatchRecord {
            length: self.length,
            names: [Side::White, Side::Black].map(|side| self.name(side).to_owned()),
            games: self.games.clone(),
            unfinished: self.game.as_ref().map_or(Vec::new(), |g| g.actions.clone()),
            comments,
        })
    }

    /// The name of the side playing `side` in the record.
    fn name(&self, side: Side) -> &str {
        &self.players[usize::from(side != self.me)]
    }

    fn stop_on(&mut self, result: Result<(), String>) {
        if let (Err(why), None) = (result, &self.stopped) {
            self.stopped = Some(why);
        }
    }

    fn take_board(&mut self, shown: &Backgammon) -> Result<(), String> {
        if self.stopped.is_some() {
            return Ok(());
        }
        let score = shown.match_score();
        if score.length == 0 {
            return Err("money play: a .mat file holds a match".into());
        }
        let seen = score.score.map(u32::from);
        match &self.game {
            Some(_) if seen != self.score.score => {
                self.end_game(seen)?;
                self.start_game(shown)
            }
            Some(_) => self.continue_game(shown),
            None => self.start_game(shown),
        }
    }

    /// A new game from its first board: the observer's opening roll, or the position after
    /// the other side's opening play.
    fn start_game(&mut self, shown: &Backgammon) -> Result<(), String> {
        let score = shown.match_score();
        if self.length == 0 {
            if score.score != [0, 0] {
                return Err(format!(
                    "the match was already under way ({}-{}) when the first board came",
                    score.score[0], score.score[1]
                ));
            }
            self.length = score.length;
        }
        if score.length != self.length || self.score.over(self.length) {
            return Err("a board of another match".into());
        }
        let seen = score.score.map(u32::from);
        if seen != self.score.score {
            return Err(format!(
                "a game began at {}-{}, not at the score of the games seen, {}-{}",
                seen[0], seen[1], self.score.score[0], self.score.score[1]
            ));
        }
        let number = self.games.len() + 1;
        let crawford = self.score.next_is_crawford(self.length);
        let ours = matfile::game_start(self.length, self.score.score, crawford, self.me)?;
        if same_place(&ours, shown) && shown.dice().is_some_and(|r| !r.is_double()) {
            let mut game = GameInPlay {
                actions: Vec::new(),
                pos: ours,
            };
            return set_dice(&mut game.pos, shown).map(|()| self.game = Some(game));
        }
        let theirs =
            matfile::game_start(self.length, self.score.score, crawford, self.me.opponent())?;
        let mut game = GameInPlay {
            actions: Vec::new(),
            pos: theirs,
        };
        if !self.other_plays(&mut game, shown, number)? {
            return Err(format!("cannot tell how game {number} began"));
        }
        let result = set_dice(&mut game.pos, shown);
        self.game = Some(game);
        result
    }

    /// The other side's action that leads from the game's position to `shown`.
    fn continue_game(&mut self, shown: &Backgammon) -> Result<(), String> {
        let number = self.games.len() + 1;
        let mut game = self.game.take().expect("a game in play");
        let pos = game.pos.clone();
        let explained = if pos.side_to_move() == self.me {
            // The observer said `roll` (or took, or the other side took its double): the
            // board brings its dice.
            same_place(&pos, shown) && shown.dice().is_some()
        } else if pos.cube().offered {
            let take = pos.parse_move("take").map_err(|e| e.to_string())?;
            let mut taken = pos.clone();
            taken.play(take);
            let fits = same_place(&taken, shown) && shown.dice().is_some();
            if fits {
                game.act(self.me.opponent(), take);
            }
            fits
        } else {
            let doubled = pos.parse_move("double").ok().map(|double| {
                let mut doubled = pos.clone();
                doubled.play(double);
                (double, doubled)
            });
            match doubled {
                Some((double, after)) if same_place(&after, shown) => {
                    game.act(self.me.opponent(), double);
                    true
                }
                _ => self.other_plays(&mut game, shown, number)?,
            }
        };
        let result = if explained {
            set_dice(&mut game.pos, shown)
        } else {
            Err(format!(
                "cannot tell how game {number} came to the board shown after line {}",
                game.next_line() - 1
            ))
        };
        self.game = Some(game);
        result
    }

    /// Finds the other side's roll and play from `game`'s position to `shown` (the game goes
    /// on); `false` when none leads there.
    fn other_plays(
        &mut self,
        game: &mut GameInPlay,
        shown: &Backgammon,
        number: usize,
    ) -> Result<bool, String> {
        let found = plays_to(&game.pos, |after| {
            after.outcome().is_none() && same_place(after, shown)
        });
        let Some(&(roll, mv)) = found.first() else {
            return Ok(false);
        };
        self.note_guess(game, &found, number);
        let mut rolled = game.pos.clone();
        rolled.set_dice(roll);
        game.pos = rolled;
        game.act(self.me.opponent(), mv);
        Ok(true)
    }

    /// A comment when more than one roll plays what was seen.
    fn note_guess(&mut self, game: &GameInPlay, found: &[(Roll, Move)], number: usize) {
        let mut rolls: Vec<u32> = found.iter().map(|(r, _)| r.event()).collect();
        rolls.dedup();
        if let [written, others @ ..] = rolls.as_slice() {
            if !others.is_empty() {
                let others: Vec<String> = others.iter().map(u32::to_string).collect();
                self.comments.push(format!(
                    "game {number}, line {}: {}'s roll {written} is a guess ({} played the same)",
                    game.next_line(),
                    self.name(self.me.opponent()),
                    others.join(", ")
                ));
            }
        }
    }

    /// Closes the game in play now that a board shows the score `seen`: its last action
    /// (the other side's play that ends it, or a drop) is found from the points won, or the
    /// game ended without one (a resignation).
    fn end_game(&mut self, seen: [u32; 2]) -> Result<(), String> {
        let number = self.games.len() + 1;
        let before = self.score.score;
        let gained = [
            seen[0].checked_sub(before[0]),
            seen[1].checked_sub(before[1]),
        ];
        let (winner, points) = match gained {
            [Some(p), Some(0)] if p > 0 => (Side::White, p),
            [Some(0), Some(p)] if p > 0 => (Side::Black, p),
            _ => {
                return Err(format!(
                    "the score went from {}-{} to {}-{} during game {number}",
                    before[0], before[1], seen[0], seen[1]
                ))
            }
        };
        let mut game = self.game.take().expect("a game in play");
        let pos = game.pos.clone();
        let ends = |after: &Backgammon| {
            after
                .outcome()
                .is_some_and(|o| o.winner == Some(winner) && o.points == points)
        };
        if pos.side_to_move() != self.me && pos.cube().offered {
            let drop = pos.parse_move("drop").map_err(|e| e.to_string())?;
            let mut dropped = pos.clone();
            dropped.play(drop);
            if ends(&dropped) {
                game.act(self.me.opponent(), drop);
            }
        } else if pos.side_to_move() != self.me && pos.dice().is_none() {
            let found = plays_to(&pos, ends);
            if let Some(&(roll, mv)) = found.first() {
                self.note_guess(&game, &found, number);
                game.pos.set_dice(roll);
                game.act(self.me.opponent(), mv);
            }
        }
        if game.pos.outcome().is_none() {
            let cube = game.pos.cube().value();
            if ![1, 2, 3].iter().any(|k| k * cube == points) {
                return Err(format!(
                    "game {number} ended with {points} points to {} on a {cube}-cube",
                    self.name(winner)
                ));
            }
            self.comments.push(format!(
                "game {number}: ended by a resignation ({} won {points})",
                self.name(winner)
            ));
        }
        self.finish(game, winner, points);
        Ok(())
    }

    fn finish(&mut self, game: GameInPlay, winner: Side, points: u32) {
        self.score.add(winner, points);
        self.games.push(GameRecord {
            actions: game.actions,
            winner,
            points,
        });
    }

    fn take_answer(&mut self, answer: &str) -> Result<(), String> {
        if self.stopped.is_some() {
            return Ok(());
        }
        if answer == "sorry" || answer.starts_with("Error") {
            return Err(format!("the engine could not answer a board ({answer})"));
        }
        let mut game = self.game.take().ok_or("an answer before any board")?;
        let token = match answer {
            "roll" => None,
            "double" | "take" | "drop" => Some(answer.to_owned()),
            play => {
                let roll = game.pos.dice().ok_or("a move answered before the roll")?;
                Some(from_plain(roll, play))
            }
        };
        let parsed = token.map(|t| game.pos.parse_move(&t).map_err(|e| format!("{t}: {e}")));
        match parsed {
            Some(Ok(mv)) => game.act(self.me, mv),
            Some(Err(e)) => {
                self.game = Some(game);
                return Err(format!("the engine's answer {e}"));
            }
            None => {}
        }
        match game.pos.outcome() {
            Some(o) => self.finish(game, o.winner.unwrap_or(self.me), o.points),
            None => self.game = Some(game),
        }
        Ok(())
    }
}

/// Every roll of the side to move before its roll, with each play, that leaves a position
/// `fits` accepts, the likeliest roll first. A play fits a roll better the less it gives up
/// against that roll's best play (by the evaluation at one ply): a player who rolled 42 makes
/// its 4-point rather than run `24/18`, which 51 plays too. Then non-doubles (each twice as
/// likely as a double), then by roll.
fn plays_to(pos: &Backgammon, fits: impl Fn(&Backgammon) -> bool) -> Vec<(Roll, Move)> {
    let mut found = Vec::new();
    let mut moves = Vec::new();
    for (roll, _) in Roll::all(pos.is_opening()) {
        if !pos.roll_allowed(roll) {
            continue;
        }
        let mut rolled = pos.clone();
        rolled.set_dice(roll);
        moves.clear();
        rolled.legal_moves(&mut moves);
        let mut best = i32::MIN;
        let mut fitting = Vec::new();
        for &mv in &moves {
            let mut after = rolled.clone();
            after.play(mv);
            // The mover's value of its play: the other side is to roll after it.
            let value = after.evaluate().saturating_neg();
            best = best.max(value);
            if fits(&after) {
                fitting.push((mv, value));
            }
        }
        found.extend(
            fitting
                .into_iter()
                .map(|(mv, value)| (roll, mv, best - value)),
        );
    }
    found.sort_by_key(|&(roll, _, given_up)| (given_up, roll.is_double()));
    found.into_iter().map(|(roll, mv, _)| (roll, mv)).collect()
}

/// Whether two positions agree on everything but the dice: the checkers, who acts, the cube
/// and the score.
fn same_place(a: &Backgammon, b: &Backgammon) -> bool {
    let (ca, cb) = (a.cube(), b.cube());
    let (sa, sb) = (a.match_score(), b.match_score());
    a.checkers(Side::White) == b.checkers(Side::White)
        && a.checkers(Side::Black) == b.checkers(Side::Black)
        && a.side_to_move() == b.side_to_move()
        && (ca.log2, ca.owner, ca.offered) == (cb.log2, cb.owner, cb.offered)
        && (sa.length, sa.score, sa.crawford) == (sb.length, sb.score, sb.crawford)
}

/// Gives `pos` the roll `shown` carries, if any.
fn set_dice(pos: &mut Backgammon, shown: &Backgammon) -> Result<(), String> {
    match shown.dice() {
        Some(roll) if pos.dice().is_none() && pos.roll_allowed(roll) => {
            pos.set_dice(roll);
            Ok(())
        }
        Some(roll) if pos.dice() != Some(roll) => {
            Err(format!("roll {} is not allowed here", roll.event()))
        }
        _ => Ok(()),
    }
}
