//! Cubeful equity: what a position is worth once the cube's future use is counted, for money
//! and match play, from the cubeless chances of the evaluation.
//!
//! Janowski's interpolation: the equity is `x * live + (1 - x) * dead`, where `dead` is the
//! cubeless value (nobody doubles again) and `live` the value if the winning chance moved
//! without jumps, so that every double came exactly at the opponent's take point; `x` is the
//! cube efficiency. Money take points come from Janowski's formulas with the position's own
//! gammon chances; match take points from the match model ([`super::met`]). Values are in
//! equity units: points for money play (times the cube), `2 * MWC - 1` in a match.

use super::board::{in_contact, pips};
use super::cube::MAX_LOG2;
use super::met::{self, Live};
use super::{bearoff, eval, nn, race, Backgammon};
use crate::game::best_play::{best_play, seen_by, Judge};
use crate::game::{Game, Outcome, Side};

/// How much of the live-cube value a real game keeps while the sides can still hit each
/// other (its jumps lose the rest): the constant of Janowski's paper, and GNU Backgammon's for
/// contact positions.
pub const CUBE_EFFICIENCY: f64 = 0.68;

/// The cube efficiency once both sides have every checker home (GNU Backgammon's for its
/// bear-off positions): the last few rolls decide, each a big jump.
pub const BEAROFF_EFFICIENCY: f64 = 0.6;

/// The cube efficiency of a position: [`CUBE_EFFICIENCY`] in contact; in a race it grows with
/// the pips the side to move has left, from 0.6 (40 pips or fewer) to 0.7 (120 or more), and
/// [`BEAROFF_EFFICIENCY`] once both sides are all home: the
/// shorter the race, the bigger a roll's jump in the winning chance against what is left of
/// the game, so the less of the live-cube value a double keeps (the linear rule and its bounds
/// are GNU Backgammon's race efficiency).
pub fn efficiency(pos: &Backgammon) -> f64 {
    let (me, them) = (
        pos.checkers(pos.side_to_move()),
        pos.checkers(pos.side_to_move().opponent()),
    );
    if in_contact(me, them) {
        return CUBE_EFFICIENCY;
    }
    if bearoff::home(me).is_some() && bearoff::home(them).is_some() {
        return BEAROFF_EFFICIENCY;
    }
    (0.55 + 0.00125 * f64::from(pips(me))).clamp(0.6, 0.7)
}

/// The side to move's cubeless chances of each result.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Chances {
    /// Winning at all.
    pub win: f64,
    /// Winning a gammon or a backgammon.
    pub win_gammon: f64,
    /// Winning a backgammon.
    pub win_backgammon: f64,
    /// Losing a gammon or a backgammon.
    pub lose_gammon: f64,
    /// Losing a backgammon.
    pub lose_backgammon: f64,
}

/// The chances of the side to move: the network's own outputs (the bear-off database's in
/// all-home races), whatever evaluation chooses the checker plays (`eval=heuristic` gives
/// only an equity, pubeval only a ranking score, and read as winning chances they double from
/// the start and drop at once), made consistent (gammons within wins). In longer races the
/// winning chance mixes in the race model's ([`race::model_weight`]). The network is the cube
/// network where a cube decision is being searched ([`Backgammon::for_cube_decision`]).
/// Remembered per thread by the board: a decision before the roll values the same boards
/// after rolling and after a taken double, which differ only in the cube.
pub fn chances(pos: &Backgammon) -> Chances {
    /// Slots of the memo (a power of two): a depth-2 cube decision evaluates some 100,000
    /// positions.
    const SLOTS: usize = 1 << 16;
    thread_local! {
        static MEMO: std::cell::RefCell<Vec<(u64, Chances)>> = const {
            std::cell::RefCell::new(Vec::new())
        };
    }
    let key = eval::board_key(pos);
    MEMO.with(|memo| {
        let mut memo = memo.borrow_mut();
        if memo.is_empty() {
            memo.resize(SLOTS, (0, Chances::default()));
        }
        let slot = &mut memo[key as usize & (SLOTS - 1)];
        // Key 0 marks an empty slot, so a board whose key is 0 is never remembered.
        if slot.0 != key || key == 0 {
            *slot = (key, network_chances(pos));
        }
        slot.1
    })
}

/// [`chances`] computed.
pub(super) fn network_chances(pos: &Backgammon) -> Chances {
    let net = if pos.uses_cube_net() {
        nn::for_cube()
    } else {
        nn::shipped()
    };
    let out = net.outputs(pos, &mut Vec::with_capacity(64));
    let [mut win, win_gammon, win_backgammon, lose_gammon, lose_backgammon] = out.map(f64::from);
    let (me, them) = (
        pos.checkers(pos.side_to_move()),
        pos.checkers(pos.side_to_move().opponent()),
    );
    // Contact ends the check at once; the bear-off lookup is paid in races only.
    if let Some(model) = race::winning_chance(me, them) {
        if bearoff::outputs(me, them).is_none() {
            let share = race::model_weight(me, them);
            win = share * model + (1.0 - share) * win;
        }
    }
    let win = win.clamp(0.0, 1.0);
    let win_gammon = win_gammon.clamp(0.0, win);
    let lose_gammon = lose_gammon.clamp(0.0, 1.0 - win);
    Chances {
        win,
        win_gammon,
        win_backgammon: win_backgammon.clamp(0.0, win_gammon),
        lose_gammon,
        lose_backgammon: lose_backgammon.clamp(0.0, lose_gammon),
    }
}

/// What results are worth to the side to move, in equity units.
struct Stakes<'a> {
    pos: &'a Backgammon,
    me: Side,
}

impl Stakes<'_> {
    /// The value of the game ending with the side to move winning `points` (negative: losing).
    fn value(&self, points: i32) -> f64 {
        let score = self.pos.score;
        if !score.is_match() {
            return f64::from(points);
        }
        let (a, b) = (score.away(self.me), score.away(self.me.opponent()));
        2.0 * met::table().after(a, b, score.crawford, points) - 1.0
    }

    /// Average values of winning and of losing with the cube at `v`, given the chances
    /// (`single`: gammons count as single wins, the Jacoby rule with a centred cube).
    fn ends(&self, ch: &Chances, v: i32, single: bool) -> (f64, f64) {
        let m = if single { [1, 1, 1] } else { [1, 2, 3] };
        let average = |total: f64, gammon: f64, backgammon: f64, sign: i32| {
            if total <= 1e-9 {
                return self.value(sign * v);
            }
            ((total - gammon) * self.value(sign * m[0] * v)
                + (gammon - backgammon) * self.value(sign * m[1] * v)
                + backgammon * self.value(sign * m[2] * v))
                / total
        };
        (
            average(ch.win, ch.win_gammon, ch.win_backgammon, 1),
            average(1.0 - ch.win, ch.lose_gammon, ch.lose_backgammon, -1),
        )
    }
}

/// The cubeful equity of a position waiting for its roll, for the side to move, from its
/// cubeless chances.
pub fn equity(pos: &Backgammon, ch: &Chances) -> f64 {
    let me = pos.side_to_move();
    let stakes = Stakes { pos, me };
    let cube = pos.cube();
    let v = cube.value() as i32;
    let single = pos.jacoby && !pos.score.is_match() && cube.owner.is_none();
    let (win, lose) = stakes.ends(ch, v, single);
    let dead = ch.win * win + (1.0 - ch.win) * lose;
    let can_double = |side: Side| {
        cube.enabled
            && !pos.score.crawford
            && cube.owner != Some(side.opponent())
            && cube.log2 < MAX_LOG2
            && (!pos.score.is_match() || v < pos.score.away(side))
    };
    let (mine, theirs) = (can_double(me), can_double(me.opponent()));
    if !mine && !theirs {
        return dead;
    }
    if let Some(value) = free_double(&stakes, ch, dead, mine) {
        return value;
    }
    let (take, cash) = if pos.score.is_match() {
        match_points(&stakes, ch, cube.log2 as usize)
    } else {
        // Janowski's live-cube points, with the average win and loss in cubes.
        let (w, l) = (win / f64::from(v), -lose / f64::from(v));
        ((l - 0.5) / (w + l + 0.5), (l + 1.0) / (w + l + 0.5))
    };
    let live = Live {
        lose,
        win,
        opp_cash: theirs.then_some((take, stakes.value(-v))),
        my_cash: mine.then_some((cash, stakes.value(v))),
    };
    let x = efficiency(pos);
    x * live.at(ch.win, dead) + (1.0 - x) * dead
}

/// The equity when one side's double costs it nothing: in a match, its opponent's win at the
/// cube's value already wins the match, so doubling raises only the doubler's wins (the
/// taker would never redouble). The doubler doubles at its next turn: the opponent drops, or
/// takes and the game goes on for twice the stake with a dead cube; a doubler whose double
/// would be dropped plays on where that is worth more. gnubg's judgement of a leader's double
/// at 2-away that gives the trailer this free redouble is the same (the double/take worth the
/// take at 4 at once); `None` when neither side has such a double (`mine`: the side to move
/// may double).
fn free_double(stakes: &Stakes, ch: &Chances, dead: f64, mine: bool) -> Option<f64> {
    let score = stakes.pos.score;
    let me = stakes.me;
    let doubler = if mine { me } else { me.opponent() };
    let v = stakes.pos.cube().value() as i32;
    if !score.is_match() || v < score.away(doubler.opponent()) {
        return None;
    }
    let (win, lose) = stakes.ends(ch, 2 * v, false);
    let doubled = ch.win * win + (1.0 - ch.win) * lose;
    Some(if doubler == me {
        doubled.min(stakes.value(v).max(dead))
    } else {
        doubled.max(stakes.value(-v).min(dead))
    })
}

/// The side to move's take point (facing a double from `2^k`) and cash point (the
/// opponent's take point) in a match: the equity after the take is the model's live-cube
/// line, but between this position's own results at the doubled cube (its gammon chances,
/// not the model's), with the model's take points for the redoubles after it.
fn match_points(stakes: &Stakes, ch: &Chances, k: usize) -> (f64, f64) {
    let score = stakes.pos.score;
    let me = stakes.me;
    let (a, b) = (score.away(me), score.away(me.opponent()));
    let table = met::table();
    let v = 1 << k;
    let (win, lose) = stakes.ends(ch, 2 * v, false);
    let redouble = k + 1 < MAX_LOG2 as usize;
    let i_own = Live {
        lose,
        win,
        opp_cash: None,
        my_cash: (redouble && 2 * v < a)
            .then(|| (1.0 - table.take_point(b, a, k + 1), stakes.value(2 * v))),
    };
    let they_own = Live {
        lose,
        win,
        opp_cash: (redouble && 2 * v < b)
            .then(|| (table.take_point(a, b, k + 1), stakes.value(-2 * v))),
        my_cash: None,
    };
    let take = i_own.model_inf_above(stakes.value(-v));
    let cash = they_own.model_sup_below(stakes.value(v));
    (take, cash)
}

/// The value of a finished game for the side to move, in equity units.
pub fn result_value(pos: &Backgammon, winner: Option<Side>, points: u32) -> f64 {
    let me = pos.side_to_move();
    let signed = if winner == Some(me) {
        points as i32
    } else {
        -(points as i32)
    };
    Stakes { pos, me }.value(signed)
}

/// The equity of the side to move when it must answer a double: its best of take, drop and
/// (when allowed) beaver, each child valued by `value_of` for its own side to move.
pub fn answer_equity(pos: &Backgammon, value_of: impl Fn(&Backgammon) -> f64) -> f64 {
    let mut answers = Vec::new();
    pos.legal_moves(&mut answers);
    best_play(pos, &answers, &mut Answer(value_of)).map_or(f64::NEG_INFINITY, |(_, v)| v)
}

/// [`answer_equity`]'s judge: every child, a dropped game too, is valued by the caller's
/// function for the child's side to move, and turned by its sign.
struct Answer<F>(F);

impl<F: Fn(&Backgammon) -> f64> Judge<Backgammon> for Answer<F> {
    type Worth = f64;

    fn position(&mut self, pos: &Backgammon, side: Side) -> f64 {
        seen_by(pos, side, (self.0)(pos))
    }

    fn result(&mut self, pos: &Backgammon, _: &Outcome, side: Side) -> f64 {
        self.position(pos, side)
    }

    fn rank(worth: &f64) -> f64 {
        *worth
    }
}

/// A value for the side to move in evaluation units (thousandths of equity units, see
/// [`super::eval::POINT`]) as an equity normalized to a 1-cube: money points divided by the
/// cube; in a match gnubg's EMG, the value mapped linearly (in match winning chances) so that
/// losing the cube's current value is -1 and winning it +1. The ends are rounded as finished
/// games are ([`crate::game::Dice::terminal_value`]), so a drop is exactly -1 or +1.
pub fn normalized(pos: &Backgammon, value: i32) -> f64 {
    let (win, lose) = cube_ends(pos);
    (2.0 * f64::from(value) - (win + lose)) / (win - lose).max(1.0)
}

/// One unit of [`normalized`] equity in evaluation units at this position: half the gap
/// between winning and losing the cube's current value, for money the cube times
/// [`super::eval::POINT`], in a match that gap in `2 MWC - 1` at the score.
pub fn normalized_unit(pos: &Backgammon) -> f64 {
    let (win, lose) = cube_ends(pos);
    (win - lose).max(1.0) / 2.0
}

/// The side to move's values of winning and of losing the cube's current value, rounded as
/// finished games are.
fn cube_ends(pos: &Backgammon) -> (f64, f64) {
    let v = pos.cube().value() as i32;
    let stakes = Stakes {
        pos,
        me: pos.side_to_move(),
    };
    let end = |points| (stakes.value(points) * f64::from(eval::POINT)).round();
    (end(v), end(-v))
}
