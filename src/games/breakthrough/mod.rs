//! Breakthrough (Dan Troyka, 2000): Bombardment without the detonation, with diagonal
//! captures instead. The game added last, through `docs/adding-a-game.md`, to check that a
//! game is its folder, one registry line and its tests.
//!
//! Rules: each side starts with its two home rows full (White on ranks 1-2, moving up; Black
//! on the top two, moving down). A turn moves one man one square forward, straight or
//! diagonally, onto an empty square, or diagonally forward onto an enemy man, capturing it
//! (never straight). A man on the far rank wins; so does taking the last enemy man. A side
//! always has a move: its most advanced man's forward diagonals hold no man of its own.
//!
//! Notation: files `a`.., ranks `1`..; a move is its two squares, `e2e3` (a capture too:
//! `e2d3`). Position string: ranks from the top, `/`-separated, `w`/`b` for men and digits for
//! runs of empty squares, then the side to move: `bbbbbbbb/bbbbbbbb/8/8/8/8/wwwwwwww/wwwwwwww w`.
//!
//! Options: `size` (a square board of 5 to 8; see `OPTIONS`).

mod eval;
mod laws;
mod text;

use crate::game::{
    find_equal, resolve_move, Dice, Exact, Formats, Game, GameError, GameOption, Harness, Hints,
    Laws, OptionKind, Outcome, Side,
};

/// The smallest and largest board.
const SIZES: std::ops::RangeInclusive<u8> = 5..=8;

/// The board size (the one option).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Squares along a side.
    pub size: u8,
}

impl Default for Options {
    fn default() -> Options {
        Options { size: 8 }
    }
}

/// A move: a man from one square to another (square = rank * 8 + file).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Move {
    from: u8,
    to: u8,
}

/// A Breakthrough position: one bitboard of men per side (bit rank * 8 + file) and who is to
/// move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Breakthrough {
    men: [u64; 2],
    side: Side,
    size: u8,
}

/// Every square of a board of each size (index: the size).
const BOARDS: [u64; 9] = {
    let mut boards = [0; 9];
    let mut size = 1;
    while size <= 8 {
        let mut rank = 0;
        while rank < size {
            boards[size] |= ((1u64 << size) - 1) << (8 * rank);
            rank += 1;
        }
        size += 1;
    }
    boards
};

/// The squares of file a.
const FILE_A: u64 = 0x0101_0101_0101_0101;

impl Breakthrough {
    /// Every square of the board.
    fn board(&self) -> u64 {
        BOARDS[self.size as usize]
    }

    /// The squares of file `file` (0 = a).
    fn file(&self, file: u8) -> u64 {
        (FILE_A << file) & self.board()
    }

    /// The squares of rank `rank` (0 = rank 1).
    fn rank(&self, rank: u8) -> u64 {
        ((1u64 << self.size) - 1) << (8 * rank)
    }

    /// The rank a side's men win on.
    fn far_rank(&self, side: Side) -> u64 {
        match side {
            Side::White => self.rank(self.size - 1),
            Side::Black => self.rank(0),
        }
    }

    /// The squares `side`'s men can reach: straight ahead, and the two diagonals (each not
    /// onto its own men), as target sets of the men that stand one step behind.
    fn targets(&self, side: Side) -> [u64; 3] {
        let own = self.men[side.index()];
        let empty = self.board() & !(self.men[0] | self.men[1]);
        let not_first = own & !self.file(0);
        let not_last = own & !self.file(self.size - 1);
        let board = self.board();
        match side {
            Side::White => [
                (own << 8) & empty,
                (not_first << 7) & board & !own,
                (not_last << 9) & board & !own,
            ],
            Side::Black => [
                (own >> 8) & empty,
                (not_first >> 9) & board & !own,
                (not_last >> 7) & board & !own,
            ],
        }
    }

    /// How far back, in squares, each target set's men stand (straight, left, right).
    fn steps(side: Side) -> [i8; 3] {
        match side {
            Side::White => [8, 7, 9],
            Side::Black => [-8, -9, -7],
        }
    }

    /// Appends the legal moves landing on `squares`, in `legal_moves`' order (the quiescence
    /// search lists its moves without listing all of them first).
    fn moves_onto(&self, squares: u64, out: &mut Vec<Move>) {
        if self.outcome().is_some() {
            return;
        }
        for (targets, step) in self
            .targets(self.side)
            .into_iter()
            .zip(Self::steps(self.side))
        {
            let mut rest = targets & squares;
            while rest != 0 {
                let to = rest.trailing_zeros() as u8;
                rest &= rest - 1;
                out.push(Move {
                    from: (to as i8 - step) as u8,
                    to,
                });
            }
        }
    }

    /// True when `mv` takes an enemy man.
    fn captures(&self, mv: Move) -> bool {
        self.men[self.side.opponent().index()] & 1 << mv.to != 0
    }

    /// How many squares a man on `square` of `side` has come from its home rank.
    fn advance(&self, side: Side, square: u8) -> u8 {
        match side {
            Side::White => square / 8,
            Side::Black => self.size - 1 - square / 8,
        }
    }
}

impl Game for Breakthrough {
    type Move = Move;
    type Options = Options;

    const NAME: &'static str = "breakthrough";
    const OPTIONS: &'static [GameOption] = &[GameOption {
        key: "size",
        kind: OptionKind::Number {
            min: *SIZES.start() as u32,
            max: *SIZES.end() as u32,
            zero: false,
            menu: &[],
        },
        default: "8",
        doc: "the board's side in squares",
        needs: &[],
    }];

    fn parse_options(pairs: &[(&str, &str)]) -> Result<Options, GameError> {
        let mut options = Options::default();
        for &(key, value) in pairs {
            if key != "size" {
                return Err(GameError::BadOption(format!(
                    "{key} (breakthrough knows size)"
                )));
            }
            options.size = value
                .parse()
                .ok()
                .filter(|size| SIZES.contains(size))
                .ok_or_else(|| GameError::BadOption(format!("size={value} (expected 5 to 8)")))?;
        }
        Ok(options)
    }

    fn format_options(options: &Options) -> String {
        format!("size={}", options.size)
    }

    fn start(options: &Options) -> Breakthrough {
        let mut start = Breakthrough {
            men: [0, 0],
            side: Side::White,
            size: options.size,
        };
        start.men = [
            start.rank(0) | start.rank(1),
            start.rank(options.size - 1) | start.rank(options.size - 2),
        ];
        start
    }

    fn from_fen(fen: &str, options: &Options) -> Result<Breakthrough, GameError> {
        text::from_fen(fen, options.size)
    }

    fn to_fen(&self) -> String {
        text::to_fen(self)
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.moves_onto(!0, out);
    }

    fn play(&mut self, mv: Move) {
        let (me, them) = (self.side.index(), self.side.opponent().index());
        self.men[me] ^= 1 << mv.from | 1 << mv.to;
        self.men[them] &= !(1 << mv.to);
        self.side = self.side.opponent();
    }

    fn outcome(&self) -> Option<Outcome> {
        for side in [Side::White, Side::Black] {
            if self.men[side.index()] & self.far_rank(side) != 0 {
                return Some(Outcome::win(side, "far-rank"));
            }
            if self.men[side.opponent().index()] == 0 {
                return Some(Outcome::win(side, "no-pieces"));
            }
        }
        None
    }

    fn format_move(&self, mv: Move) -> String {
        format!("{}{}", text::square(mv.from), text::square(mv.to))
    }

    fn parse_move(&self, token: &str) -> Result<Move, GameError> {
        resolve_move(
            self,
            token,
            text::parse_move(token, self.size),
            find_equal,
            |&mv| text::why_illegal(self, mv).map(|reason| GameError::illegal(token, reason)),
        )
    }

    fn evaluate(&self) -> i32 {
        eval::evaluate(self)
    }

    fn hash(&self) -> u64 {
        eval::hash(self)
    }

    fn board_lines(&self) -> Vec<String> {
        text::board_lines(self)
    }

    fn count_moves(&self) -> u64 {
        if self.outcome().is_some() {
            return 0;
        }
        let [straight, left, right] = self.targets(self.side);
        u64::from(straight.count_ones() + left.count_ones() + right.count_ones())
    }
}

impl Hints for Breakthrough {
    fn move_order_hint(&self, mv: Move) -> i32 {
        eval::move_order_hint(self, mv)
    }

    /// Captures, and steps onto the last two ranks (a threat to win next move): the search
    /// follows them past its horizon.
    fn tactical_moves(&self, out: &mut Vec<Move>) {
        let last_two = match self.side {
            Side::White => self.rank(self.size - 1) | self.rank(self.size - 2),
            Side::Black => self.rank(0) | self.rank(1),
        };
        self.moves_onto(self.men[self.side.opponent().index()] | last_two, out);
    }
}

impl Dice for Breakthrough {}

impl Formats for Breakthrough {}

impl Exact for Breakthrough {}

impl Harness for Breakthrough {
    const BENCH_DEPTH: u32 = 8;

    fn laws() -> Laws {
        laws::LAWS
    }

    fn is_consistent(&self) -> bool {
        self.men[0] & self.men[1] == 0 && (self.men[0] | self.men[1]) & !self.board() == 0
    }
}

#[cfg(test)]
mod tests;
