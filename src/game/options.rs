//! A game's `newgame NAME key=value` options as data ([`super::Game::OPTIONS`]): the
//! one statement of each option that `newgame`, `setoption name GameOptions`, `help`, the
//! arena's help and the web board read, and that a test checks the game's own parser against.

use super::GameError;

/// One `key=value` option of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameOption {
    /// The key, as written before `=`.
    pub key: &'static str,
    /// The values it takes.
    pub kind: OptionKind,
    /// The value when the key is not given, as the game's `format_options` prints it.
    pub default: &'static str,
    /// One line saying what it changes.
    pub doc: &'static str,
    /// Other options its values other than the default need (`beaver=on` needs `cube=on`);
    /// the game's parser refuses them without.
    pub needs: &'static [(&'static str, &'static str)],
}

/// The values an option takes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// One of these words, in the order menus list them.
    Choice(&'static [&'static str]),
    /// A whole number from `min` to `max`; with `zero`, 0 too (a rule switched off below a
    /// `min` above 1). `menu` is what a menu offers when the range is too long to list
    /// (empty: every value).
    Number {
        /// The smallest value (0 aside).
        min: u32,
        /// The largest value.
        max: u32,
        /// Whether 0 is also accepted.
        zero: bool,
        /// The values a menu offers; empty for the whole range.
        menu: &'static [u32],
    },
    /// Text only the game's parser can check (`heaps=3,4,5`): the examples are values it
    /// accepts, for help and menus.
    Text {
        /// Accepted values, the most typical first.
        examples: &'static [&'static str],
    },
}

impl GameOption {
    /// What the value must be, as error messages say it: `basic, standard or tournament`,
    /// `5..16`, `0 or 2..1000`, `a value like 3,4,5`.
    pub fn expected(&self) -> String {
        match self.kind {
            OptionKind::Choice(values) => match values.split_last() {
                Some((last, [])) => (*last).to_owned(),
                Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
                None => String::new(),
            },
            OptionKind::Number { min, max, zero, .. } => {
                let zero = if zero { "0 or " } else { "" };
                format!("{zero}{min}..{max}")
            }
            OptionKind::Text { examples } => {
                format!("a value like {}", examples.first().unwrap_or(&""))
            }
        }
    }

    /// The option as `help` shows its syntax: `variant=basic|standard|tournament`,
    /// `size=5..16`, `heaps=TEXT (like 3,4,5)`.
    pub fn usage(&self) -> String {
        let values = match self.kind {
            OptionKind::Choice(values) => values.join("|"),
            OptionKind::Number { min, max, zero, .. } => {
                let zero = if zero { "0|" } else { "" };
                format!("{zero}{min}..{max}")
            }
            OptionKind::Text { examples } => {
                format!("TEXT (like {})", examples.first().unwrap_or(&""))
            }
        };
        format!("{}={values}", self.key)
    }

    /// The values a menu offers, the default first.
    pub fn menu(&self) -> Vec<String> {
        let listed: Vec<String> = match self.kind {
            OptionKind::Choice(values) => values.iter().map(|v| v.to_string()).collect(),
            OptionKind::Number {
                min, max, menu: [], ..
            } => (min..=max).map(|n| n.to_string()).collect(),
            OptionKind::Number { menu, .. } => menu.iter().map(u32::to_string).collect(),
            OptionKind::Text { examples } => examples.iter().map(|v| v.to_string()).collect(),
        };
        std::iter::once(self.default.to_owned())
            .chain(listed.into_iter().filter(|v| v != self.default))
            .collect()
    }

    /// Whether `value` is one this declaration allows (text: any non-empty value, which the
    /// game's parser then judges).
    pub fn allows(&self, value: &str) -> bool {
        match self.kind {
            OptionKind::Choice(values) => values.contains(&value),
            OptionKind::Number { min, max, zero, .. } => value
                .parse::<u32>()
                .is_ok_and(|n| (min..=max).contains(&n) || (zero && n == 0)),
            OptionKind::Text { .. } => !value.is_empty(),
        }
    }
}

/// Checks `key=value` pairs against a game's declared options, with one wording for every
/// game: a key given twice, a key the game does not have, a key without a value, a value
/// outside the declaration. What the declaration cannot say (a text's syntax, options that
/// exclude each other) is left to the game's parser.
pub fn check_options(
    game: &str,
    declared: &[GameOption],
    pairs: &[(&str, &str)],
) -> Result<(), GameError> {
    // Refused rather than "the last one wins", as a position string's fields are.
    for (i, (key, _)) in pairs.iter().enumerate() {
        if pairs[..i].iter().any(|(earlier, _)| earlier == key) {
            return Err(GameError::BadOption(format!("{key} given twice")));
        }
    }
    for &(key, value) in pairs {
        let Some(option) = declared.iter().find(|o| o.key == key) else {
            let keys: Vec<&str> = declared.iter().map(|o| o.key).collect();
            return Err(GameError::BadOption(format!(
                "{game} has no option {key} (its options: {})",
                keys.join(", ")
            )));
        };
        if value.is_empty() {
            return Err(GameError::BadOption(format!(
                "{key} without a value: expected {}",
                option.expected()
            )));
        }
        if !option.allows(value) {
            return Err(GameError::BadOption(format!(
                "{key}={value}: expected {}",
                option.expected()
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIZE: GameOption = GameOption {
        key: "size",
        kind: OptionKind::Number {
            min: 2,
            max: 9,
            zero: true,
            menu: &[],
        },
        default: "4",
        doc: "the board's side",
        needs: &[],
    };
    const MODE: GameOption = GameOption {
        key: "mode",
        kind: OptionKind::Choice(&["a", "b", "c"]),
        default: "b",
        doc: "the mode",
        needs: &[],
    };

    #[test]
    fn one_wording_for_every_refusal() {
        let declared = [SIZE, MODE];
        let error = |pairs: &[(&str, &str)]| {
            check_options("demo", &declared, pairs)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            error(&[("colour", "red")]),
            "bad option: demo has no option colour (its options: size, mode)"
        );
        assert_eq!(
            error(&[("size", "")]),
            "bad option: size without a value: expected 0 or 2..9"
        );
        assert_eq!(
            error(&[("size", "1")]),
            "bad option: size=1: expected 0 or 2..9"
        );
        assert_eq!(
            error(&[("mode", "d")]),
            "bad option: mode=d: expected a, b or c"
        );
        assert_eq!(
            error(&[("mode", "a"), ("mode", "a")]),
            "bad option: mode given twice"
        );
        assert!(check_options("demo", &declared, &[("size", "0"), ("mode", "c")]).is_ok());
        assert!(check_options("demo", &declared, &[("size", "9")]).is_ok());
    }

    #[test]
    fn menus_start_with_the_default() {
        assert_eq!(SIZE.menu(), ["4", "2", "3", "5", "6", "7", "8", "9"]);
        assert_eq!(MODE.menu(), ["b", "a", "c"]);
        assert_eq!(MODE.usage(), "mode=a|b|c");
        assert_eq!(SIZE.usage(), "size=0|2..9");
    }
}
