//! The doubling cube (money play, `newgame backgammon cube=on`).
//!
//! Before rolling, a player who owns the cube or faces a centred one may offer to double
//! (`double`); the opponent then answers `take` (the cube doubles and the taker owns it, the
//! doubler rolls) or `drop` (the game ends, the doubler wins the cube's value before doubling).
//! Every result is multiplied by the cube. No doubles on the opening turn; the cube stops at 64.
//! With `beaver=on` (money play) the doubled side may also `beaver`: take and at once redouble,
//! keeping the cube (now four times its value) while the doubler rolls.

use crate::game::{GameError, Side};

/// The largest cube, as a power of two (64).
pub const MAX_LOG2: u8 = 6;

/// What a move does with the cube.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum CubeAction {
    /// A checker play (or a pass).
    #[default]
    None,
    /// Offer to double before rolling.
    Double,
    /// Accept the double.
    Take,
    /// Refuse the double and lose the game.
    Drop,
    /// Take and at once redouble, keeping the cube (money play with `beaver=on`).
    Beaver,
}

impl CubeAction {
    /// The move token.
    pub fn token(self) -> Option<&'static str> {
        match self {
            CubeAction::None => None,
            CubeAction::Double => Some("double"),
            CubeAction::Take => Some("take"),
            CubeAction::Drop => Some("drop"),
            CubeAction::Beaver => Some("beaver"),
        }
    }

    /// Reads a cube token.
    pub fn parse(token: &str) -> Option<CubeAction> {
        match token {
            "double" => Some(CubeAction::Double),
            "take" => Some(CubeAction::Take),
            "drop" | "pass-cube" => Some(CubeAction::Drop),
            "beaver" => Some(CubeAction::Beaver),
            _ => None,
        }
    }
}

/// The cube's state.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Cube {
    /// Whether doubling is allowed at all (the `cube` option).
    pub enabled: bool,
    /// The cube's value as a power of two (0 = 1).
    pub log2: u8,
    /// Who may double next; `None` while the cube is centred.
    pub owner: Option<Side>,
    /// A double waits for the side to move's answer.
    pub offered: bool,
    /// The side not to move dropped a double (the turn passed to the doubler, who won).
    pub dropped: bool,
}

impl Cube {
    /// The cube's value (1, 2, 4, ...).
    pub fn value(self) -> u32 {
        1 << self.log2
    }

    /// Why `side`, about to roll, may not double now (`None`: it may).
    pub fn double_refusal(self, side: Side, opening: bool, rolled: bool) -> Option<String> {
        if !self.enabled {
            Some("the cube is not in play (newgame backgammon cube=on)".into())
        } else if self.offered {
            Some("a double is already offered".into())
        } else if opening {
            Some("no doubling on the opening turn".into())
        } else if rolled {
            Some("doubling comes before the roll".into())
        } else if self.owner == Some(side.opponent()) {
            Some(format!("{} owns the cube", side.opponent().name()))
        } else if self.log2 >= MAX_LOG2 {
            Some("the cube is at 64".into())
        } else {
            None
        }
    }

    /// A position read with the cube out of play (`cube=off`) cannot have used it: its cube
    /// is a centred 1, with no double offered or dropped.
    pub fn check_in_play(self) -> Result<(), GameError> {
        if self.enabled
            || (self.log2 == 0 && self.owner.is_none() && !self.offered && !self.dropped)
        {
            return Ok(());
        }
        let what = if self.offered {
            "a double is offered".to_owned()
        } else if self.dropped {
            "a double was dropped".to_owned()
        } else {
            format!("the cube stands at {}", self.flag().unwrap_or_default())
        };
        Err(GameError::BadPosition(format!(
            "{what}, but the cube is not in play (newgame backgammon cube=on)"
        )))
    }

    /// The position-string flag, or `None` for a centred 1-cube.
    pub fn flag(self) -> Option<String> {
        match (self.log2, self.owner) {
            (0, None) => None,
            (_, None) => Some(format!("cube={}", self.value())),
            (_, Some(o)) => Some(format!(
                "cube={}:{}",
                self.value(),
                if o == Side::White { "w" } else { "b" }
            )),
        }
    }

    /// Reads `cube=V` or `cube=V:w|b` into this cube.
    pub fn parse_flag(&mut self, text: &str) -> Result<(), GameError> {
        let bad = || GameError::BadPosition(format!("'{text}' is not cube=VALUE[:w|b]"));
        let (value, owner) = match text.split_once(':') {
            Some((v, "w")) => (v, Some(Side::White)),
            Some((v, "b")) => (v, Some(Side::Black)),
            Some(_) => return Err(bad()),
            None => (text, None),
        };
        let value: u32 = value.parse().map_err(|_| bad())?;
        if !value.is_power_of_two() || value > 1 << MAX_LOG2 {
            return Err(bad());
        }
        self.log2 = value.trailing_zeros() as u8;
        self.owner = owner;
        Ok(())
    }
}

/// How much more than rolling (normalized equity: money points per cube, in a match EMG) a
/// double that is taken must leave the doubler for the engine to double (a double/pass needs
/// only beat rolling).
/// Its `go` compares both after a search, whose best plays after each roll gain over the
/// evaluation by being the best of several, and the taken double's gain counts at twice the
/// stake; its chances also stray from the truth. Judged by GNU Backgammon's 2-ply cube
/// decisions on 12,371 positions of 2000 cube games against gnubg 0-ply (`docs/backgammon.md`),
/// the equity lost to wrong doubles was least at 0.06 to 0.10 on either half of the
/// positions (24% below no margin); the engine's takes gained nothing from a margin. In
/// 5-point matches (judged by gnubg's match analysis) it took 43% off the wrong doubles. With
/// the cube networks of sessions 37 to 39, replayed on 3,605 held-out decisions before the
/// roll, 0.06 lost 4-17% less than 0.08 on each half of them, with each network, at depths
/// 1 and 2.
pub const DOUBLE_MARGIN: f64 = 0.06;

/// The doubler's cubeful equities after a double, normalized to the cube before it (see
/// [`super::cubeful::normalized`]): what `go` reports at a cube decision.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Answers {
    /// The doubled side takes.
    pub take: f64,
    /// It passes (drops): the doubler wins the cube's value, +1 for money.
    pub pass: f64,
    /// It beavers, when it may.
    pub beaver: Option<f64>,
}

impl Answers {
    /// The doubled side's answer: the lowest of the doubler's equities, the earliest of take,
    /// pass, beaver on a tie (the order the search tries them), with that equity.
    pub fn best(self) -> (CubeAction, f64) {
        let mut best = (CubeAction::Take, self.take);
        for (action, equity) in [
            (CubeAction::Drop, Some(self.pass)),
            (CubeAction::Beaver, self.beaver),
        ] {
            if let Some(equity) = equity.filter(|&e| e < best.1) {
                best = (action, equity);
            }
        }
        best
    }

    /// The right cube action given `no_double`, the doubler's equity when it rolls instead,
    /// and `beat`, what the answer must leave for a double (the engine's: `no_double` plus
    /// its margin for that answer, see `DOUBLE_MARGIN`): doubling is right when the answer
    /// leaves more; then `double-take`, `double-pass` or `double-beaver` by the answer. Otherwise
    /// `too-good-pass` when the answer would be a pass (rolling is worth at least the cash),
    /// `too-good-take` when it would be a take but rolling beats the cash (playing on for the
    /// gammon), `no-double-beaver` when it would be a beaver, else `no-double-take`.
    pub fn verdict(self, no_double: f64, beat: f64) -> &'static str {
        let (answer, equity) = self.best();
        match answer {
            CubeAction::Drop if equity > beat => "double-pass",
            CubeAction::Beaver if equity > beat => "double-beaver",
            _ if equity > beat => "double-take",
            CubeAction::Drop => "too-good-pass",
            CubeAction::Beaver => "no-double-beaver",
            _ if no_double > self.pass => "too-good-take",
            _ => "no-double-take",
        }
    }

    /// The `info string` text at a double decision, from the doubler's view:
    /// `cube nodouble E doubletake E doublepass E [doublebeaver E] action ACTION` (`beat` as
    /// for [`Answers::verdict`]).
    pub fn doubler_note(self, no_double: f64, beat: f64) -> String {
        let beaver = self
            .beaver
            .map_or(String::new(), |e| format!(" doublebeaver {}", signed(e)));
        format!(
            "cube nodouble {} doubletake {} doublepass {}{beaver} action {}",
            signed(no_double),
            signed(self.take),
            signed(self.pass),
            self.verdict(no_double, beat)
        )
    }

    /// The `info string` text facing a double, from the taker's view (its equities are the
    /// doubler's negated): `cube take E pass E [beaver E] action take|pass|beaver`.
    pub fn taker_note(self) -> String {
        let beaver = self
            .beaver
            .map_or(String::new(), |e| format!(" beaver {}", signed(-e)));
        let action = match self.best().0 {
            CubeAction::Drop => "pass",
            CubeAction::Beaver => "beaver",
            _ => "take",
        };
        format!(
            "cube take {} pass {}{beaver} action {action}",
            signed(-self.take),
            signed(-self.pass)
        )
    }
}

/// An equity with its sign and three decimals (`+0.412`, `-1.000`; `+0.000` for zero).
pub fn signed(equity: f64) -> String {
    let rounded = (equity * 1000.0).round() / 1000.0;
    if rounded >= 0.0 {
        format!("+{:.3}", rounded.abs())
    } else {
        format!("{rounded:.3}")
    }
}
