//! Backgammon.
//!
//! Rules (shared/rules/backgammon.es.txt): 15 checkers each, 2 on the 24 point, 5 on the 13,
//! 3 on the 8 and 5 on the 6, every point counted from the mover's own side; a side moves from
//! 24 towards 1 and bears off from its home board (6..1). Each die moves one checker that many
//! points onto a point not held by two or more opposing checkers; landing on a single opposing
//! checker (a blot) hits it to the bar. A double is played four times. A checker on the bar must
//! enter (die `d` lands on point `25 - d`) before any other checker moves. Once all 15 are in
//! the home board a die bears a checker off from its own point, or from the highest occupied
//! point when no checker stands higher than the die. As many dice as possible must be used;
//! when only one of two can be, the larger; a roll that cannot be played at all is `NN:pass`.
//! The first side to bear off all 15 wins 1 point, 2 (gammon) if the loser bore none off, 3
//! (backgammon) if the loser also still has a checker on the bar or in the winner's home board.
//! The opening roll is never a double (the arbiter rolls again).
//!
//! Dice are chance events: a position without a roll lists every `(roll, play)` token over the
//! 21 rolls (15 at the opening); [`Game::apply_chance`] fixes the roll. Move tokens are in
//! [`move_text`], position strings in [`position_text`], the outside formats (XGID, GNU
//! Backgammon IDs) in [`ids`], FIBS rawboard strings in [`fibs`] and the `d` board in
//! [`board_drawing`].
//! The doubling cube ([`cube`]), beavers and the Jacoby rule are options; a game of a match
//! carries its score ([`score`]). The engine's cube decisions use the cubeful evaluation of
//! [`cubeful`], with the match equities of [`met`] and the race chances of [`race`].

pub mod bearoff;
pub mod board;
pub mod board_drawing;
pub mod calibration;
mod count;
pub mod cube;
pub mod cubeful;
pub mod eval;
pub mod features;
pub mod fibs;
pub mod ids;
mod laws;
pub mod matfile;
pub mod met;
pub mod met_kazaross;
pub mod move_text;
pub mod movegen;
#[cfg(test)]
mod net_tests;
pub mod nn;
pub mod observed;
pub mod options;
pub mod position_text;
pub mod pubeval;
pub mod race;
pub mod score;
mod simd;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_cube;
#[cfg(test)]
mod tests_fibs;
#[cfg(test)]
mod tests_matfile;
#[cfg(test)]
mod tests_observed;
pub mod training;

use crate::game::{
    Chance, Dice, Exact, Formats, Game, GameError, GameOption, Harness, Hints, Laws, Outcome, Side,
};
use board::{Side26, BAR, CHECKERS, OFF, START};
use cube::{Cube, CubeAction};
pub use movegen::{Move, Roll, Step};
pub use options::{EvalKind, Options};
use score::MatchScore;

/// A backgammon position: both sides' checkers, who is on roll and the roll if known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Backgammon {
    /// Checkers per side (indexed by [`Side::index`]), each in its own numbering.
    sides: [Side26; 2],
    turn: Side,
    dice: Option<Roll>,
    /// The first turn of the game: its roll is never a double.
    opening: bool,
    cube: Cube,
    eval: EvalKind,
    beaver: bool,
    jacoby: bool,
    /// The match this game belongs to (length 0: money play).
    score: MatchScore,
    /// Whether the chances come from the cube network ([`nn::for_cube`]): set on the
    /// positions a cube decision searches from ([`Backgammon::for_cube_decision`]).
    cube_net: bool,
}

impl Backgammon {
    /// A position from its parts with a centred 1-cube; the caller validates it.
    pub(crate) fn from_parts(
        sides: [Side26; 2],
        turn: Side,
        dice: Option<Roll>,
        opening: bool,
        options: &Options,
    ) -> Backgammon {
        Backgammon {
            sides,
            turn,
            dice,
            opening,
            cube: Cube {
                enabled: options.cube,
                ..Cube::default()
            },
            eval: options.eval,
            beaver: options.beaver,
            jacoby: options.jacoby,
            score: MatchScore::new(options.match_length),
            cube_net: false,
        }
    }

    /// The match state (length 0: money play).
    pub fn match_score(&self) -> MatchScore {
        self.score
    }

    /// Replaces the match state; the caller validates it.
    pub(crate) fn set_match_score(&mut self, score: MatchScore) {
        self.score = score;
    }

    /// Whether the game's options allow beavers and the Jacoby rule: `(beaver, jacoby)`.
    pub fn money_rules(&self) -> (bool, bool) {
        (self.beaver, self.jacoby)
    }

    /// The cube's state.
    pub fn cube(&self) -> Cube {
        self.cube
    }

    /// Replaces the cube's state (keeping whether it is enabled); the caller validates.
    pub(crate) fn set_cube(&mut self, cube: Cube) {
        self.cube = Cube {
            enabled: self.cube.enabled,
            ..cube
        };
    }

    /// The checkers of `side` in its own numbering (`[off, 1..=24, bar]`).
    pub fn checkers(&self, side: Side) -> &Side26 {
        &self.sides[side.index()]
    }

    /// The roll of the side to move, once known.
    pub fn dice(&self) -> Option<Roll> {
        self.dice
    }

    /// Whether this is the opening turn (no doubles).
    pub fn is_opening(&self) -> bool {
        self.opening
    }

    /// The evaluation this position's game uses.
    pub fn eval_kind(&self) -> EvalKind {
        self.eval
    }

    /// This position as the cube decisions value it: every position searched from it takes
    /// its chances from the cube network ([`nn::for_cube`]) instead of the checker-play one.
    pub fn for_cube_decision(&self) -> Backgammon {
        Backgammon {
            cube_net: true,
            ..self.clone()
        }
    }

    /// Whether the chances come from the cube network ([`Backgammon::for_cube_decision`]).
    pub fn uses_cube_net(&self) -> bool {
        self.cube_net
    }

    /// Switches the evaluation (matches between evaluations on the same dice).
    pub fn set_eval_kind(&mut self, kind: EvalKind) {
        self.eval = kind;
    }

    /// True at a checker play: the roll is known and no double is pending. The registry plays
    /// these positions with the few-candidate lookahead searcher.
    pub fn checker_play(&self) -> bool {
        self.dice.is_some() && !self.cube.offered
    }

    /// The mover's checkers and the opponent's.
    fn mover(&self) -> (&Side26, &Side26) {
        let me = self.turn.index();
        (&self.sides[me], &self.sides[1 - me])
    }

    /// Appends the distinct plays of `roll` for the side to move.
    pub fn plays_of(&self, roll: Roll, out: &mut Vec<Move>) {
        let (me, them) = self.mover();
        movegen::plays(me, them, roll, out);
    }

    /// Whether this roll may come now (no doubles at the opening).
    pub fn roll_allowed(&self, roll: Roll) -> bool {
        !(self.opening && roll.is_double())
    }

    /// A random roll this position allows, from `rng` (two dice drawn until allowed).
    pub fn random_roll(&self, rng: &mut crate::util::rng::Rng) -> Roll {
        loop {
            let r = Roll::new(rng.below(6) as u8 + 1, rng.below(6) as u8 + 1);
            if let Some(r) = r.filter(|&r| self.roll_allowed(r)) {
                return r;
            }
        }
    }

    /// Fixes the roll of the side to move (the caller checked [`Backgammon::roll_allowed`]).
    pub fn set_dice(&mut self, roll: Roll) {
        self.dice = Some(roll);
    }

    /// Whether the side to move may offer a double now.
    pub fn may_double(&self) -> bool {
        self.double_refusal().is_none()
    }

    /// Why the side to move may not double now (`None`: it may).
    pub fn double_refusal(&self) -> Option<String> {
        self.cube
            .double_refusal(self.turn, self.opening, self.dice.is_some())
            .or_else(|| {
                self.score
                    .crawford
                    .then(|| "no doubling in the Crawford game".to_owned())
            })
    }

    /// Why the side to move, doubled, may not beaver (`None`: it may).
    pub fn beaver_refusal(&self) -> Option<&'static str> {
        if !self.cube.offered {
            Some("no double is offered")
        } else if self.score.is_match() {
            Some("beavers are for money play only")
        } else if !self.beaver {
            Some("beavers are not allowed (newgame backgammon cube=on beaver=on)")
        } else if self.cube.log2 + 2 > cube::MAX_LOG2 {
            Some("a beaver would take the cube above 64")
        } else {
            None
        }
    }

    /// The same position with the colours swapped (white's checkers, cube and score become
    /// black's), which every evaluation should score the same for the side to move.
    pub fn mirrored(&self) -> Backgammon {
        let [white, black] = self.sides;
        let mut m = self.clone();
        m.sides = [black, white];
        m.turn = self.turn.opponent();
        m.cube.owner = self.cube.owner.map(Side::opponent);
        m.score.score = [self.score.score[1], self.score.score[0]];
        m
    }

    /// The cubeless equity of the evaluation, in thousandths of a point for a 1-cube.
    fn cubeless(&self) -> i32 {
        match self.eval {
            EvalKind::Heuristic => eval::heuristic(self),
            EvalKind::Pubeval => pubeval::evaluate(self),
            EvalKind::Neural => nn::evaluate(self),
        }
    }

    /// Whether positions are valued cubeful: the cube is in play or the game is part of a match.
    fn cube_counts(&self) -> bool {
        self.cube.enabled || self.score.is_match() || self.jacoby
    }

    /// The evaluation's cubeless equity times the cube: results are worth the cube's value,
    /// so equities are too.
    fn cubeless_times_cube(&self) -> i32 {
        self.cubeless()
            .saturating_mul(self.cube.value() as i32)
            .clamp(-99_000, 99_000)
    }

    /// Whether checker plays are ranked by another value than [`Game::evaluate`]: with the
    /// cube in play, `evaluate` is the cubeful equity from the network's chances (the cube
    /// decisions need chances, which only the network gives), while `eval=heuristic` or
    /// `eval=pubeval` still choose the checker plays.
    fn plays_by_own_eval(&self) -> bool {
        self.eval != EvalKind::Neural && self.cube_counts()
    }

    /// The cubeful equity for the side to move in equity units (points for money play,
    /// `2 * MWC - 1` in a match); a finished game is worth its result.
    pub fn cubeful_equity(&self) -> f64 {
        if let Some(o) = self.outcome() {
            return cubeful::result_value(self, o.winner, o.points);
        }
        if self.cube.offered {
            return cubeful::answer_equity(self, Backgammon::cubeful_equity);
        }
        let chances = cubeful::chances(self);
        cubeful::equity(self, &chances)
    }

    /// How many moves [`Game::legal_moves`] lists, counting the plays without generating
    /// them (perft's last ply).
    fn count_moves(&self) -> u64 {
        if self.outcome().is_some() {
            return 0;
        }
        if self.cube.offered {
            return 2 + u64::from(self.beaver_refusal().is_none());
        }
        let (me, them) = self.mover();
        let plays = match self.dice {
            Some(roll) => count::count_plays(me, them, std::iter::once(roll)),
            None => count::count_plays(me, them, Roll::all(self.opening).map(|(roll, _)| roll)),
        };
        u64::from(self.may_double()) + plays
    }

    /// Pip counts of (side to move, opponent).
    pub fn pip_counts(&self) -> (u32, u32) {
        let (me, them) = self.mover();
        (board::pips(me), board::pips(them))
    }
}

/// The result once `winner` has borne off everything: 1, 2 (gammon) or 3 (backgammon).
fn result_for(winner: Side, loser: &Side26) -> Outcome {
    let (points, reason) = if loser[OFF] > 0 {
        (1, "single")
    } else if loser[BAR] > 0 || loser[19..25].iter().any(|&c| c > 0) {
        (3, "backgammon")
    } else {
        (2, "gammon")
    };
    Outcome {
        winner: Some(winner),
        points,
        reason,
    }
}

impl Game for Backgammon {
    type Move = Move;
    type Options = Options;

    const NAME: &'static str = "backgammon";
    const OPTIONS: &'static [GameOption] = options::DECLARED;

    fn parse_options(pairs: &[(&str, &str)]) -> Result<Options, GameError> {
        options::parse(pairs)
    }

    fn format_options(options: &Options) -> String {
        options::format(options)
    }

    fn start(options: &Options) -> Self {
        // One-time set-up belongs to `newgame` (which `isready` waits for), not to the first
        // `go`, whose clock is running: the network with its bear-off database, and the
        // match equity table.
        if options.eval == EvalKind::Neural || options.cube || options.match_length > 0 {
            nn::shipped();
        }
        if options.cube || options.match_length > 0 {
            nn::for_cube();
        }
        if options.match_length > 0 {
            met::table();
        }
        Backgammon::from_parts([START, START], Side::White, None, true, options)
    }

    fn from_fen(fen: &str, options: &Options) -> Result<Self, GameError> {
        position_text::parse_fen(fen, options)
    }

    fn to_fen(&self) -> String {
        position_text::format_fen(self)
    }

    fn side_to_move(&self) -> Side {
        self.turn
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        if self.outcome().is_some() {
            return;
        }
        if self.cube.offered {
            out.push(Move::cube_action(CubeAction::Take));
            out.push(Move::cube_action(CubeAction::Drop));
            if self.beaver_refusal().is_none() {
                out.push(Move::cube_action(CubeAction::Beaver));
            }
            return;
        }
        if self.may_double() {
            out.push(Move::cube_action(CubeAction::Double));
        }
        let (me, them) = self.mover();
        match self.dice {
            Some(roll) => movegen::plays(me, them, roll, out),
            None => {
                for (roll, _) in Roll::all(self.opening) {
                    movegen::plays(me, them, roll, out);
                }
            }
        }
    }

    fn play(&mut self, mv: Move) {
        match mv.cube {
            CubeAction::None => {}
            CubeAction::Double => {
                self.cube.offered = true;
                self.turn = self.turn.opponent();
                return;
            }
            CubeAction::Take => {
                self.cube.offered = false;
                self.cube.log2 += 1;
                self.cube.owner = Some(self.turn);
                self.turn = self.turn.opponent();
                return;
            }
            CubeAction::Drop => {
                self.cube.offered = false;
                self.cube.dropped = true;
                // Every move passes the turn (the search negates at each ply): the doubler,
                // who won, is left to move in the finished game.
                self.turn = self.turn.opponent();
                return;
            }
            CubeAction::Beaver => {
                // Take (the cube doubles) and redouble at once, keeping the cube.
                self.cube.offered = false;
                self.cube.log2 += 2;
                self.cube.owner = Some(self.turn);
                self.turn = self.turn.opponent();
                return;
            }
        }
        let me = self.turn.index();
        let [white, black] = &mut self.sides;
        let (mine, theirs) = if me == 0 {
            (white, black)
        } else {
            (black, white)
        };
        for step in mv.steps() {
            board::apply_step(mine, theirs, step.from as usize, step.to as usize);
        }
        self.turn = self.turn.opponent();
        self.dice = None;
        self.opening = false;
    }

    fn outcome(&self) -> Option<Outcome> {
        let [white, black] = &self.sides;
        let mut outcome = if self.cube.dropped {
            Outcome {
                winner: Some(self.turn),
                points: 1,
                reason: "drop",
            }
        } else if white[OFF] == CHECKERS {
            result_for(Side::White, black)
        } else if black[OFF] == CHECKERS {
            result_for(Side::Black, white)
        } else {
            return None;
        };
        // The Jacoby rule: gammons and backgammons count single until a double is taken, so
        // while the cube is centred, also at 2 after an automatic double (as cubeful.rs
        // values it).
        if self.jacoby && self.cube.owner.is_none() && !self.score.is_match() {
            outcome.points = 1;
        }
        outcome.points *= self.cube.value();
        Some(outcome)
    }

    fn format_move(&self, mv: Move) -> String {
        move_text::format_move(mv)
    }

    fn parse_move(&self, token: &str) -> Result<Move, GameError> {
        move_text::parse_move(self, token)
    }

    fn evaluate(&self) -> i32 {
        if let Some(outcome) = self.outcome() {
            return self.terminal_value(&outcome).unwrap_or(0);
        }
        if !self.cube_counts() {
            return self.cubeless_times_cube();
        }
        let equity = self.cubeful_equity();
        (equity * f64::from(eval::POINT)).clamp(-99_000.0, 99_000.0) as i32
    }

    fn hash(&self) -> u64 {
        eval::zobrist(self)
    }

    fn board_lines(&self) -> Vec<String> {
        board_drawing::board_lines(self)
    }

    fn count_moves(&self) -> u64 {
        Backgammon::count_moves(self)
    }
}

impl Hints for Backgammon {
    fn move_order_hint(&self, mv: Move) -> i32 {
        eval::move_hint(self, mv)
    }

    /// In a match every value is `2 MWC - 1` (docs/backgammon.md, "Match equities").
    fn scores_are_chances(&self) -> bool {
        self.score.is_match()
    }
}

impl Dice for Backgammon {
    fn chance_events(&self, out: &mut Vec<Chance>) {
        if self.dice.is_some() || self.cube.offered || self.outcome().is_some() {
            return;
        }
        out.extend(Roll::all(self.opening).map(|(roll, probability)| Chance {
            event: roll.event(),
            probability,
        }));
    }

    fn apply_chance(&mut self, event: u32) {
        if let Some(roll) = Roll::from_event(event) {
            self.dice = Some(roll);
        }
    }

    fn parse_chance(&self, token: &str) -> Result<u32, GameError> {
        if self.outcome().is_some() {
            return Err(GameError::GameOver);
        }
        if self.cube.offered {
            return Err(GameError::illegal(
                token,
                "a double is offered: take or drop first",
            ));
        }
        let roll = move_text::parse_roll(token)
            .ok_or_else(|| GameError::bad_move(token, "a roll is two dice 1-6, e.g. 31"))?;
        if !self.roll_allowed(roll) {
            return Err(GameError::illegal(
                token,
                "the opening roll cannot be a double",
            ));
        }
        Ok(roll.event())
    }

    fn format_chance(&self, event: u32) -> String {
        event.to_string()
    }

    fn terminal_value(&self, outcome: &Outcome) -> Option<i32> {
        if self.score.is_match() {
            let equity = cubeful::result_value(self, outcome.winner, outcome.points);
            return Some((equity * f64::from(eval::POINT)).round() as i32);
        }
        let value = eval::POINT * outcome.points as i32;
        Some(if outcome.winner == Some(self.turn) {
            value
        } else {
            -value
        })
    }
}

/// The cube decisions' parts of the rules and values, which backgammon's strategy
/// (`src/strategy/backgammon/`) weighs.
impl Backgammon {
    /// With `eval=pubeval` the checker plays are chosen by the cubeless value times the cube
    /// while the cube decisions use the network's cubeful equity: that value, for the side to
    /// move; `None` when plays are chosen by [`Game::evaluate`].
    pub fn choice_value(&self) -> Option<i32> {
        self.plays_by_own_eval().then(|| self.cubeless_times_cube())
    }

    /// What the player on roll may do instead of rolling: `double` when it is legal.
    pub fn pre_chance_moves(&self, out: &mut Vec<Move>) {
        if self.dice.is_none() && self.outcome().is_none() && self.may_double() {
            out.push(Move::cube_action(CubeAction::Double));
        }
    }

    /// How much more than rolling (in evaluation units) `mv` (a double) must be worth to be
    /// played when the opponent's answer is `answer`: `cube::DOUBLE_MARGIN` of a normalized
    /// cube (money points per cube, in a match EMG) when it is taken (the values of a taken
    /// double flatter it), nothing for a drop; -1 (a tie doubles) for a trailer after the
    /// Crawford game, whose double costs nothing.
    pub fn pre_chance_margin(&self, mv: Move, answer: Option<Move>) -> i32 {
        if mv != Move::cube_action(CubeAction::Double) {
            return 0;
        }
        // A free double: when the opponent's win at the cube's value already wins the match
        // (the leader, 1-away, after the Crawford game; a doubler's opponent who has just
        // taken at 2-away), owning the cube gains it nothing, so the double costs no cube
        // access and wins a tie (the evaluation values such a position as doubled at the
        // next turn, `cubeful::free_double`, so rolling ties with doubling now). Not when the
        // cube is dead for both, as at double match point.
        let v = self.cube.value() as i32;
        if self.score.is_match()
            && self.score.away(self.turn.opponent()) <= v
            && self.score.away(self.turn) > v
        {
            return -1;
        }
        // A taken (or beavered) double's values count the game at twice the stake, and so
        // what the search's best plays gain over the evaluation by being the best of
        // several; a drop's value is exact. The same flattery in a match, where the stake is
        // the gap in match winning chances between winning and losing the cube.
        if answer == Some(Move::cube_action(CubeAction::Drop)) {
            return 0;
        }
        (cube::DOUBLE_MARGIN * self.equity_unit()).round() as i32
    }

    /// The deepest depth a cube decision here searches when `go` names none (a clock, a node
    /// limit, `infinite`): 3, or 2 once both sides have every checker home. Deeper, the answer
    /// to a double is valued with the taker on roll at the leaves, which session 39's replays
    /// found biased toward the doubler (by 0.08 of the cube at depth 4 on 590 held-out takes,
    /// 0.00 at depth 3, and more of them wrong). A search that plays a bear-off out to its end
    /// with nobody doubling on the way leaves the cube dead: at depth 3 a short bear-off's
    /// redouble was worth twice the cubeless equity, where keeping the cube is worth more (the
    /// two such redoubles of 3,605 held-out decisions cost 1.6 points), and a taker who would
    /// redouble for free (in a match, where the doubler's win ends it anyway) lost that
    /// redouble: the 76 bear-off takes of 250 7-point matches lost 2.75 points of MWC in all
    /// at depth 3, 0.46 at depth 2 (session 40), whose leaves come just before the taker's
    /// own cube decision. Longer races keep depth 3: bounded at 2, 600 of them lost 0.0008
    /// and 0.0013 points a position doubling and taking, against 0.0007 and 0.0009.
    pub fn cube_depth(&self) -> u32 {
        let (me, them) = (
            self.checkers(self.turn),
            self.checkers(self.turn.opponent()),
        );
        if bearoff::home(me).is_some() && bearoff::home(them).is_some() {
            2
        } else {
            3
        }
    }

    /// Evaluation units per point of equity normalized to the cube: for money the cube's
    /// value in thousandths of a point, in a match gnubg's EMG at the score (the gap between
    /// winning and losing the cube's value, halved).
    pub fn equity_unit(&self) -> f64 {
        cubeful::normalized_unit(self)
    }

    /// True when the side to move answers a double (`take`, `drop`, `beaver`).
    pub fn answers_pre_chance(&self) -> bool {
        self.cube.offered && self.outcome().is_none()
    }

    /// The cube analysis line (protocol.md) of a decision: before the roll, `roll` is the
    /// value of rolling and `answers` the opponent's answers to the double; facing a double,
    /// `roll` is `None` and `answers` are this position's own. Values in evaluation units from
    /// this position's side to move.
    pub fn decision_note(&self, roll: Option<i32>, answers: &[(Move, i32)]) -> Option<String> {
        // Facing the double the values are the taker's: the notes take the doubler's.
        let sign = if roll.is_some() { 1.0 } else { -1.0 };
        let equity = |action: CubeAction| {
            answers
                .iter()
                .find(|(mv, _)| mv.cube == action)
                .map(|&(_, value)| sign * cubeful::normalized(self, value))
        };
        let doubler = cube::Answers {
            take: equity(CubeAction::Take)?,
            pass: equity(CubeAction::Drop)?,
            beaver: equity(CubeAction::Beaver),
        };
        let note = match roll {
            Some(roll) => {
                let double = Move::cube_action(CubeAction::Double);
                let answer = Move::cube_action(doubler.best().0);
                let margin = self.pre_chance_margin(double, Some(answer));
                doubler.doubler_note(
                    cubeful::normalized(self, roll),
                    cubeful::normalized(self, roll.saturating_add(margin)),
                )
            }
            None => doubler.taker_note(),
        };
        if !self.score.is_match() {
            return Some(note);
        }
        // In a match the values are 2 MWC - 1 for the side to move: its match winning chances
        // of rolling (before the roll) and of each answer.
        let raw = |action: CubeAction| {
            answers
                .iter()
                .find(|(mv, _)| mv.cube == action)
                .map(|&(_, value)| value)
        };
        let mut values: Vec<i32> = roll.into_iter().collect();
        values.extend(
            [CubeAction::Take, CubeAction::Drop, CubeAction::Beaver]
                .into_iter()
                .filter_map(raw),
        );
        // Per mille of the match, halves rounded up in integers: the values are kept in
        // thousandths, and 29/36 (+0.611) must print 80.6%, not the 80.5% of 80.55 in binary.
        let chances: Vec<String> = values
            .iter()
            .map(|&v| {
                let per_mille = ((i64::from(eval::POINT) + i64::from(v) + 1) / 2).clamp(0, 1000);
                format!("{}.{}%", per_mille / 10, per_mille % 10)
            })
            .collect();
        Some(format!("{note} mwc {}", chances.join(" ")))
    }
}

impl Formats for Backgammon {
    fn formats() -> &'static [&'static str] {
        &["xgid", "gnubgid", "fibs"]
    }

    fn from_format(format: &str, text: &str, options: &Options) -> Result<Self, GameError> {
        match format {
            "xgid" => ids::from_xgid(text, options),
            "gnubgid" => ids::from_gnubg_id(text, options),
            "fibs" => fibs::from_fibs(text, options),
            _ => Err(GameError::Unsupported("this position format")),
        }
    }

    fn to_format(&self, format: &str) -> Option<String> {
        match format {
            "xgid" => Some(ids::to_xgid(self)),
            "gnubgid" => Some(ids::to_gnubg_id(self)),
            "fibs" => fibs::to_fibs(self),
            _ => None,
        }
    }
}

impl Exact for Backgammon {}

impl Harness for Backgammon {
    const BENCH_DEPTH: u32 = 2;

    fn laws() -> Laws {
        laws::LAWS
    }

    fn is_consistent(&self) -> bool {
        let [white, black] = &self.sides;
        let total_ok = |s: &Side26| s.iter().map(|&c| c as u32).sum::<u32>() == CHECKERS as u32;
        let shared = (1..25).any(|p| white[p] > 0 && black[25 - p] > 0);
        total_ok(white) && total_ok(black) && !shared
    }
}
