//! GIPF: the basic, standard and tournament games (rules: `shared/rules/gipf.es.txt` and the
//! GIPF project's standard and tournament rules, summarised in `docs/gipf.md`; notation:
//! notation.md, GIPF, extended for GIPF-pieces as documented in protocol.md).
//!
//! The board has 61 points: the 37 spots of the play area and the 24 dots on its rim. In the
//! basic game each player has 15 pieces: 3 on the board (White b5 e2 h5, Black b2 e8 h2) and
//! 12 in reserve.
//! A turn takes a piece from the reserve, puts it on a dot and pushes it onto the adjacent spot
//! (`a1-b2`); the pieces in the way slide one spot along the line. A push is legal only if the
//! line from the entry spot to the far edge has an empty spot.
//!
//! Four or more pieces of one colour in a row are removed with their extension (every piece on
//! that line up to the first empty spot): the owner's pieces go back to its reserve, the other
//! colour's are captured. Rows whose runs meet no other row of the same colour go at once; when
//! runs meet, the owner chooses (`xb2-e5`, the run's ends) and everything is looked at again.
//! After a push the mover removes first (choices after the push: `a1-b2:xb2-e5`), then the
//! opponent's rows that need no choice go; contested ones wait and the opponent writes its
//! choice before its next push (`xg3-g6:i5-h5`). Choice orders that reach the same position
//! are one move, spelt the byte-smallest way.
//!
//! The player to move loses when its reserve is empty and no row of its own waits for removal.
//!
//! `variant=standard` and `variant=tournament` add GIPF-pieces (two stacked pieces, `W`/`B` in
//! position strings): whoever removes a run decides for each GIPF-piece in it, of either
//! colour, whether it stays (`xb2-e5/c3`); a removed one counts two pieces; a player left
//! without a GIPF-piece on the board loses. The tournament game starts empty and each side
//! brings GIPF-pieces in (`Ga1-b2`) until its first single piece.

pub mod book;
mod eval;
mod fen;
mod geometry;
mod grid;
mod laws;
mod movegen;
mod notation;
mod rules;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_search;
#[cfg(test)]
mod tests_variants;
mod variant;

use crate::game::{
    Dice, Exact, Formats, Game, GameError, GameOption, Harness, Hints, Laws, OptionKind, Outcome,
    Side,
};
pub use movegen::Move;
pub use variant::Variant;

/// The most pieces in one count of a position string (the box holds 18 of each colour).
pub const PIECE_LIMIT: u8 = 18;

/// The start: White on b5 e2 h5, Black on b2 e8 h2 (internal (x, y) coordinates).
const START_PIECES: [u64; 2] = [
    bit(1, 4) | bit(4, 1) | bit(7, 7),
    bit(1, 1) | bit(4, 7) | bit(7, 4),
];

/// The bit of point (x, y).
const fn bit(x: i32, y: i32) -> u64 {
    match geometry::point_at(x, y) {
        Some(p) => 1 << p,
        None => 0,
    }
}

/// The game's options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Which rules: basic (the default), standard or tournament.
    pub variant: Variant,
}

/// A GIPF position: both colours as bitboards over the 61 points, reserves and captures.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Gipf {
    /// White's and Black's pieces, one bit per point (only spots are ever set).
    pieces: [u64; 2],
    /// The spots holding GIPF-pieces (of either colour; a subset of `pieces`).
    gipf: u64,
    /// Bit 0 White, bit 1 Black: may still bring GIPF-pieces in (tournament, before the
    /// side's first single piece).
    may_bring: u8,
    /// The rules followed.
    variant: Variant,
    /// Pieces each side still has to play.
    reserve: [u8; 2],
    /// Opposing pieces each side has captured.
    captured: [u8; 2],
    /// The player to move.
    to_move: Side,
}

/// Zobrist keys: per colour and point, per side's reserve and capture count, and the side.
mod zobrist {
    use super::geometry::POINTS;

    const fn splitmix(state: u64) -> u64 {
        let mut z = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    const fn table<const N: usize>(seed: u64) -> [u64; N] {
        let mut out = [0u64; N];
        let mut i = 0;
        while i < N {
            out[i] = splitmix(seed.wrapping_mul(0x1000_0000_01b3) ^ (i as u64 + 1));
            i += 1;
        }
        out
    }

    /// Keys for a piece of each colour on each point.
    pub const PIECES: [[u64; POINTS]; 2] = [table(1), table(2)];
    /// Keys for each reserve count of each side.
    pub const RESERVE: [[u64; 32]; 2] = [table(3), table(4)];
    /// Keys for each capture count of each side.
    pub const CAPTURED: [[u64; 32]; 2] = [table(5), table(6)];
    /// Key for Black to move.
    pub const BLACK: u64 = splitmix(7);
    /// Keys for a GIPF-piece on each point (XORed on top of the piece's own key).
    pub const GIPF: [u64; POINTS] = table(8);
    /// Keys for each nonzero value of `may_bring`.
    pub const MAY_BRING: [u64; 4] = table(9);
}

impl Gipf {
    /// The game-end rules: with GIPF-pieces, a player without one on the board loses (unless
    /// it may still bring one in); the player to move is looked at first, since the mover
    /// made the situation. Then the player to move with an empty reserve and no row of its
    /// own waiting (which would give pieces back) loses.
    pub(crate) fn outcome_now(&self) -> Option<Outcome> {
        let side = self.to_move;
        if self.variant.has_gipf_pieces() {
            for loser in [side, side.opponent()] {
                if self.lost_gipf_pieces(loser) {
                    return Some(Outcome::win(loser.opponent(), "no-gipf"));
                }
            }
        }
        if self.reserve[side.index()] == 0 && !self.has_row(side) {
            Some(Outcome::win(side.opponent(), "no-reserve"))
        } else {
            None
        }
    }

    /// Whether `side` has no GIPF-piece on the board and cannot bring one in.
    fn lost_gipf_pieces(&self, side: Side) -> bool {
        self.gipf & self.pieces[side.index()] == 0
            && !(self.may_bring(side) && self.reserve[side.index()] >= 2)
    }

    /// Whether `side` may still bring GIPF-pieces in.
    pub(crate) fn may_bring(&self, side: Side) -> bool {
        self.may_bring & (1 << side.index()) != 0
    }

    /// How many GIPF-pieces `side` has on the board.
    pub(crate) fn gipf_count(&self, side: Side) -> u32 {
        (self.gipf & self.pieces[side.index()]).count_ones()
    }

    /// Every piece of `side`: on the board (a GIPF-piece counting two), in reserve, and
    /// captured by the opponent.
    pub(crate) fn owned(&self, side: Side) -> u32 {
        self.pieces_on_board(side)
            + u32::from(self.reserve[side.index()])
            + u32::from(self.captured[side.opponent().index()])
    }

    /// The pieces `side` still has in reserve.
    pub fn reserve(&self, side: Side) -> u32 {
        u32::from(self.reserve[side.index()])
    }

    /// The opposing pieces `side` has captured (lost to the opponent for good).
    pub fn captured(&self, side: Side) -> u32 {
        u32::from(self.captured[side.index()])
    }

    /// The points holding `side`'s pieces: bit `i` is point `i` of [`Gipf::point_name`].
    pub fn board(&self, side: Side) -> u64 {
        self.pieces[side.index()]
    }

    /// The name (`a1` .. `i5`) of point `point`, `None` past the 61 points. Points are
    /// numbered in the byte order of their names, the numbering of [`Gipf::board`].
    pub fn point_name(point: usize) -> Option<String> {
        (point < geometry::POINTS)
            .then(|| String::from_utf8_lossy(&geometry::name(point)).into_owned())
    }

    /// The pieces `side` owns on the board, counting a GIPF-piece as two.
    pub(crate) fn pieces_on_board(&self, side: Side) -> u32 {
        self.pieces[side.index()].count_ones() + self.gipf_count(side)
    }
}

impl Game for Gipf {
    type Move = Move;
    type Options = Options;

    const NAME: &'static str = "gipf";
    const OPTIONS: &'static [GameOption] = &[GameOption {
        key: "variant",
        kind: OptionKind::Choice(&["basic", "standard", "tournament"]),
        default: "basic",
        doc: "the rules: basic pieces, GIPF-pieces at the start, or GIPF-pieces brought in",
        needs: &[],
    }];

    fn parse_options(pairs: &[(&str, &str)]) -> Result<Options, GameError> {
        let mut options = Options::default();
        for &(key, value) in pairs {
            match key {
                "variant" => options.variant = Variant::parse(value)?,
                _ => return Err(GameError::BadOption(format!("unknown option {key}"))),
            }
        }
        Ok(options)
    }

    fn format_options(options: &Options) -> String {
        format!("variant={}", options.variant.name())
    }

    fn start(options: &Options) -> Gipf {
        let variant = options.variant;
        let (pieces, gipf, reserve, may_bring) = match variant {
            Variant::Basic => (START_PIECES, 0, 12, 0),
            // The same spots, each a GIPF-piece: 6 of the 18 pieces on the board.
            Variant::Standard => (START_PIECES, START_PIECES[0] | START_PIECES[1], 12, 0),
            Variant::Tournament => ([0, 0], 0, PIECE_LIMIT, 0b11),
        };
        Gipf {
            pieces,
            gipf,
            may_bring,
            variant,
            reserve: [reserve, reserve],
            captured: [0, 0],
            to_move: Side::White,
        }
    }

    fn from_fen(fen: &str, options: &Options) -> Result<Gipf, GameError> {
        Gipf::read_fen(fen, options.variant)
    }

    fn to_fen(&self) -> String {
        self.write_fen()
    }

    fn side_to_move(&self) -> Side {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        if self.outcome_now().is_none() {
            self.generate(out);
        }
    }

    fn play(&mut self, mv: Move) {
        self.apply(mv);
        debug_assert!(self.is_consistent());
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome_now()
    }

    fn format_move(&self, mv: Move) -> String {
        self.spell(mv)
    }

    fn parse_move(&self, token: &str) -> Result<Move, GameError> {
        self.read_move(token)
    }

    fn evaluate(&self) -> i32 {
        eval::evaluate(self)
    }

    fn hash(&self) -> u64 {
        let mut key = if self.to_move == Side::Black {
            zobrist::BLACK
        } else {
            0
        };
        for side in 0..2 {
            let mut bits = self.pieces[side];
            while bits != 0 {
                key ^= zobrist::PIECES[side][bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
            key ^= zobrist::RESERVE[side][self.reserve[side] as usize % 32];
            key ^= zobrist::CAPTURED[side][self.captured[side] as usize % 32];
        }
        // Zero in the basic game, so its keys stay what they were.
        let mut gipf = self.gipf;
        while gipf != 0 {
            key ^= zobrist::GIPF[gipf.trailing_zeros() as usize];
            gipf &= gipf - 1;
        }
        if self.may_bring != 0 {
            key ^= zobrist::MAY_BRING[self.may_bring as usize & 3];
        }
        key
    }

    fn board_lines(&self) -> Vec<String> {
        self.draw()
    }

    fn count_moves(&self) -> u64 {
        if self.outcome_now().is_some() {
            return 0;
        }
        Gipf::count_moves(self)
    }
}

impl Hints for Gipf {
    fn move_order_hint(&self, mv: Move) -> i32 {
        eval::move_order_hint(self, mv)
    }

    fn tactical_moves(&self, out: &mut Vec<Move>) {
        eval::tactical_moves(self, out);
    }

    /// One ply at most: a reduced quiet push can hide a row the opponent completes next
    /// (at equal nodes, 13-0 against reducing two plies; docs/gipf.md, Playing strength).
    fn max_reduction(&self) -> i32 {
        1
    }

    fn book_move(&self) -> Option<Move> {
        book::lookup(self)
    }

    /// A row of the mover's own waits for its choice of which to remove.
    fn extends(&self) -> bool {
        self.has_row(self.to_move)
    }
}

impl Dice for Gipf {}

impl Formats for Gipf {}

impl Exact for Gipf {}

impl Harness for Gipf {
    const BENCH_DEPTH: u32 = 7;

    fn laws() -> Laws {
        laws::LAWS
    }

    fn is_consistent(&self) -> bool {
        let within = |side: Side| self.owned(side) == u32::from(self.variant.pieces());
        self.pieces_on_spots()
            && self.gipf & !self.occupied() == 0
            && (self.variant.has_gipf_pieces() || self.gipf == 0)
            && (self.variant == Variant::Tournament || self.may_bring == 0)
            && within(Side::White)
            && within(Side::Black)
            && !self.has_row(self.to_move.opponent())
    }
}
