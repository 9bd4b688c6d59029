//! The `newgame backgammon` options: the evaluation, the cube, beavers, the Jacoby rule and
//! the match length.

use super::score;
use crate::game::{GameError, GameOption, OptionKind};

/// Which static evaluation [`crate::game::Game::evaluate`] uses (`eval=` option).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum EvalKind {
    /// Hand-written backgammon knowledge (race, blots, points, primes, bear-off).
    Heuristic,
    /// Tesauro's public linear evaluator.
    Pubeval,
    /// The network trained by self-play (`neural.weights`), the strongest: the default.
    #[default]
    Neural,
}

/// The `newgame backgammon` options.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The evaluation the search uses.
    pub eval: EvalKind,
    /// Whether the doubling cube is in play (`cube=on`).
    pub cube: bool,
    /// Whether a doubled player may beaver (`beaver=on`, money play).
    pub beaver: bool,
    /// The Jacoby rule (`jacoby=on`, money play): gammons count single until the cube turns.
    pub jacoby: bool,
    /// The match length (`match=N`); 0 is money play.
    pub match_length: u16,
}

/// A switch's values.
const SWITCH: OptionKind = OptionKind::Choice(&["off", "on"]);

/// The declaration of the options ([`crate::game::Game::OPTIONS`]).
pub const DECLARED: &[GameOption] = &[
    GameOption {
        key: "eval",
        kind: OptionKind::Choice(&["heuristic", "pubeval", "neural"]),
        default: "neural",
        doc: "the engine's evaluation: hand-written, Tesauro's pubeval, or the trained network",
        needs: &[],
    },
    GameOption {
        key: "cube",
        kind: SWITCH,
        default: "off",
        doc: "whether the doubling cube is in play",
        needs: &[],
    },
    GameOption {
        key: "beaver",
        kind: SWITCH,
        default: "off",
        doc: "whether a doubled player may beaver (money play with the cube)",
        needs: &[("cube", "on")],
    },
    GameOption {
        key: "jacoby",
        kind: SWITCH,
        default: "off",
        doc: "gammons count single until the cube turns (money play with the cube)",
        needs: &[("cube", "on")],
    },
    GameOption {
        key: "match",
        kind: OptionKind::Number {
            min: 0,
            max: score::MAX_LENGTH as u32,
            zero: false,
            menu: &[0, 1, 3, 5, 7, 9, 11, 15, 25],
        },
        default: "0",
        doc: "the match length in points (0: money play)",
        needs: &[],
    },
];

/// Parses `key=value` options; keys not given keep their defaults.
pub fn parse(pairs: &[(&str, &str)]) -> Result<Options, GameError> {
    let mut options = Options::default();
    let switch = |key: &str, value: &str| match value {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(GameError::BadOption(format!(
            "{key}={value} (expected on or off)"
        ))),
    };
    for &(key, value) in pairs {
        match (key, value) {
            ("eval", "heuristic") => options.eval = EvalKind::Heuristic,
            ("eval", "pubeval") => options.eval = EvalKind::Pubeval,
            ("eval", "neural") => options.eval = EvalKind::Neural,
            ("eval", _) => {
                return Err(GameError::BadOption(format!(
                    "eval={value} (expected heuristic, pubeval or neural)"
                )))
            }
            ("cube", _) => options.cube = switch(key, value)?,
            ("beaver", _) => options.beaver = switch(key, value)?,
            ("jacoby", _) => options.jacoby = switch(key, value)?,
            ("match", _) => {
                options.match_length = match value.parse::<u16>() {
                    Ok(n) if n <= score::MAX_LENGTH => n,
                    _ => {
                        return Err(GameError::BadOption(format!(
                            "match={value} (expected 0 for money play or a length 1-{})",
                            score::MAX_LENGTH
                        )))
                    }
                }
            }
            _ => return Err(GameError::BadOption(format!("{key}={value}"))),
        }
    }
    let money_only = |name: &str| {
        GameError::BadOption(format!(
            "{name}=on is for money play (match=0) with cube=on"
        ))
    };
    if options.beaver && (options.match_length > 0 || !options.cube) {
        return Err(money_only("beaver"));
    }
    if options.jacoby && (options.match_length > 0 || !options.cube) {
        return Err(money_only("jacoby"));
    }
    Ok(options)
}

/// Every option as `key=value`, in a fixed order.
pub fn format(options: &Options) -> String {
    let eval = match options.eval {
        EvalKind::Heuristic => "heuristic",
        EvalKind::Pubeval => "pubeval",
        EvalKind::Neural => "neural",
    };
    let on = |b: bool| if b { "on" } else { "off" };
    format!(
        "eval={eval} cube={} beaver={} jacoby={} match={}",
        on(options.cube),
        on(options.beaver),
        on(options.jacoby),
        options.match_length
    )
}
