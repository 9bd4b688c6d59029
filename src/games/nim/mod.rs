//! Nim, the template game: the smallest complete game of the engine, to copy when adding one
//! (`docs/adding-a-game.md`). It implements the [`Game`] contract and states its [`Laws`];
//! every optional part is left at its defaults with an empty `impl` block.
//!
//! Rules (normal play): heaps of counters lie on the table; a turn takes one or more counters
//! from one heap; whoever takes the last counter wins. The heaps are lettered `a`, `b`, ...
//!
//! Notation: a move is the heap's letter and how many it takes, `b3`. Position string: the
//! heaps from `a` on, `/`-separated, then the side to move: `3/4/5 w`.
//!
//! Options: `heaps=3,4,5` (1 to 8 heaps of 0 to 99 counters, at least one counter in all).

mod laws;

use crate::game::{
    find_equal, resolve_move, Dice, Exact, Formats, Game, GameError, GameOption, Harness, Hints,
    Laws, OptionKind, Outcome, Side,
};

/// Most heaps a game may have.
const MAX_HEAPS: usize = 8;
/// Most counters in one heap.
const MAX_COUNTERS: u8 = 99;

/// The heaps of a game (its one option).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Counters in each heap at the start.
    pub heaps: Vec<u8>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            heaps: vec![3, 4, 5],
        }
    }
}

/// A move: take `count` counters from heap `heap`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Move {
    heap: u8,
    count: u8,
}

/// A Nim position: the heaps and who is to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Nim {
    heaps: [u8; MAX_HEAPS],
    len: usize,
    side: Side,
}

impl Nim {
    fn heaps(&self) -> &[u8] {
        &self.heaps[..self.len]
    }

    /// Why `mv` is not a legal move here, if a rule says so.
    fn why_illegal(&self, mv: Move) -> Option<String> {
        let heap = usize::from(mv.heap);
        match self.heaps().get(heap) {
            None => Some(format!("there is no heap {}", letter(heap))),
            Some(&size) if mv.count == 0 || mv.count > size => Some(format!(
                "heap {} holds {size}: take 1 to {size}",
                letter(heap)
            )),
            Some(_) => None,
        }
    }

    /// The heaps and side to move, checked (shared by the start and the position string).
    fn from_heaps(heaps: &[u8], side: Side) -> Result<Nim, String> {
        if heaps.is_empty() || heaps.len() > MAX_HEAPS {
            return Err(format!(
                "expected 1 to {MAX_HEAPS} heaps, got {}",
                heaps.len()
            ));
        }
        if let Some(&big) = heaps.iter().find(|&&h| h > MAX_COUNTERS) {
            return Err(format!(
                "a heap holds at most {MAX_COUNTERS} counters, not {big}"
            ));
        }
        let mut array = [0; MAX_HEAPS];
        array[..heaps.len()].copy_from_slice(heaps);
        Ok(Nim {
            heaps: array,
            len: heaps.len(),
            side,
        })
    }
}

/// A move token's heap and count (syntax only: legality is the move list's).
fn read_move(token: &str) -> Result<Move, GameError> {
    let expected = "expected a heap letter and a count, like b3";
    let mut chars = token.chars();
    let heap = match chars.next() {
        Some(c @ 'a'..='h') => c as u8 - b'a',
        _ => return Err(GameError::bad_move(token, expected)),
    };
    let count: u8 = chars
        .as_str()
        .parse()
        .map_err(|_| GameError::bad_move(token, expected))?;
    Ok(Move { heap, count })
}

/// `3,4,5` or `3/4/5` into heap sizes.
fn parse_heaps(text: &str, separator: char) -> Option<Vec<u8>> {
    text.split(separator).map(|h| h.parse().ok()).collect()
}

fn letter(heap: usize) -> char {
    (b'a' + heap as u8) as char
}

impl Game for Nim {
    type Move = Move;
    type Options = Options;

    const NAME: &'static str = "nim";
    const OPTIONS: &'static [GameOption] = &[GameOption {
        key: "heaps",
        kind: OptionKind::Text {
            examples: &["3,4,5", "1,2,3", "5,5,5,5", "7,9,11"],
        },
        default: "3,4,5",
        doc: "the counters in each heap at the start, 1 to 8 heaps of at most 99",
        needs: &[],
    }];

    fn parse_options(pairs: &[(&str, &str)]) -> Result<Options, GameError> {
        let mut options = Options::default();
        for &(key, value) in pairs {
            if key != "heaps" {
                return Err(GameError::BadOption(format!("{key} (nim knows heaps)")));
            }
            let heaps = parse_heaps(value, ',')
                .ok_or_else(|| GameError::BadOption(format!("heaps={value} (like 3,4,5)")))?;
            Nim::from_heaps(&heaps, Side::White)
                .map_err(|why| GameError::BadOption(format!("heaps={value}: {why}")))?;
            if heaps.iter().all(|&h| h == 0) {
                return Err(GameError::BadOption(format!("heaps={value}: all empty")));
            }
            options.heaps = heaps;
        }
        Ok(options)
    }

    fn format_options(options: &Options) -> String {
        let heaps: Vec<String> = options.heaps.iter().map(u8::to_string).collect();
        format!("heaps={}", heaps.join(","))
    }

    fn start(options: &Options) -> Nim {
        Nim::from_heaps(&options.heaps, Side::White).unwrap_or(Nim {
            heaps: [3, 4, 5, 0, 0, 0, 0, 0],
            len: 3,
            side: Side::White,
        })
    }

    fn from_fen(fen: &str, _options: &Options) -> Result<Nim, GameError> {
        let bad = |what: String| GameError::BadPosition(what);
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let [heaps, side] = fields[..] else {
            return Err(bad(format!("expected 2 fields, got {}", fields.len())));
        };
        let side = match side {
            "w" => Side::White,
            "b" => Side::Black,
            other => return Err(bad(format!("side to move must be w or b, not {other}"))),
        };
        let heaps =
            parse_heaps(heaps, '/').ok_or_else(|| bad(format!("heaps like 3/4/5, not {heaps}")))?;
        Nim::from_heaps(&heaps, side).map_err(bad)
    }

    fn to_fen(&self) -> String {
        let heaps: Vec<String> = self.heaps().iter().map(u8::to_string).collect();
        let side = if self.side == Side::White { "w" } else { "b" };
        format!("{} {side}", heaps.join("/"))
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        for (heap, &size) in self.heaps().iter().enumerate() {
            for count in 1..=size {
                out.push(Move {
                    heap: heap as u8,
                    count,
                });
            }
        }
    }

    fn play(&mut self, mv: Move) {
        self.heaps[mv.heap as usize] -= mv.count;
        self.side = self.side.opponent();
    }

    fn outcome(&self) -> Option<Outcome> {
        // The player who took the last counter (the one not to move) has won.
        self.heaps()
            .iter()
            .all(|&h| h == 0)
            .then(|| Outcome::win(self.side.opponent(), "last-counter"))
    }

    fn format_move(&self, mv: Move) -> String {
        format!("{}{}", letter(mv.heap as usize), mv.count)
    }

    fn parse_move(&self, token: &str) -> Result<Move, GameError> {
        resolve_move(self, token, read_move(token), find_equal, |&mv| {
            self.why_illegal(mv)
                .map(|reason| GameError::illegal(token, reason))
        })
    }

    /// Bouton's theorem: the side to move wins exactly when the heaps' XOR is not zero.
    fn evaluate(&self) -> i32 {
        if self.heaps().iter().fold(0, |x, &h| x ^ h) == 0 {
            -100
        } else {
            100
        }
    }

    fn hash(&self) -> u64 {
        // Small enough to spell out: 7 bits per heap, then the side.
        let heaps = self
            .heaps()
            .iter()
            .fold(0u64, |key, &h| key << 7 | u64::from(h));
        (heaps << 1 | self.side.index() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn board_lines(&self) -> Vec<String> {
        self.heaps()
            .iter()
            .enumerate()
            .map(|(heap, &size)| {
                format!("{} {:>2} {}", letter(heap), size, "o".repeat(size as usize))
                    .trim_end()
                    .to_owned()
            })
            .collect()
    }
}

impl Hints for Nim {}

impl Dice for Nim {}

impl Formats for Nim {}

impl Exact for Nim {}

impl Harness for Nim {
    fn laws() -> Laws {
        laws::LAWS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_and_its_moves() {
        let start = Nim::start(&Options::default());
        assert_eq!(start.to_fen(), "3/4/5 w");
        let mut moves = Vec::new();
        start.legal_moves(&mut moves);
        assert_eq!(moves.len(), 12);
        assert!(start.parse_move("c6").is_err());
        assert!(start.parse_move("d1").is_err());
        let mut after = start;
        after.play(start.parse_move("a2").unwrap());
        assert_eq!(after.to_fen(), "1/4/5 b");
    }

    #[test]
    fn taking_the_last_counter_wins() {
        let mut pos = Nim::from_fen("0/0/2 b", &Options::default()).unwrap();
        pos.play(pos.parse_move("c2").unwrap());
        assert_eq!(
            pos.outcome(),
            Some(Outcome::win(Side::Black, "last-counter"))
        );
    }
}
