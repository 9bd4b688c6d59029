//! The typed commands of the protocol, as parsed from one input line.

/// Search limits as written in a `go` command (all times in milliseconds).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// `depth N`
    pub depth: Option<u32>,
    /// `nodes N`
    pub nodes: Option<u64>,
    /// `movetime MS`
    pub movetime: Option<i64>,
    /// `wtime MS` or `p1time MS`: White's clock.
    pub white_time: Option<i64>,
    /// `btime MS` or `p2time MS`: Black's clock.
    pub black_time: Option<i64>,
    /// `winc MS` or `p1inc MS`.
    pub white_increment: Option<i64>,
    /// `binc MS` or `p2inc MS`.
    pub black_increment: Option<i64>,
    /// `movestogo N`: moves until the next time control.
    pub moves_to_go: Option<u32>,
    /// `mate N`: stop once a win in at most N moves is proven.
    pub mate: Option<u32>,
    /// `searchmoves M1 M2 ...`: search only these root moves (as written).
    pub search_moves: Vec<String>,
    /// `ponder`: search the given position without a time limit until `ponderhit`.
    pub ponder: bool,
    /// `infinite`
    pub infinite: bool,
}

/// A UGI `query`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Query {
    /// `query gameover`
    GameOver,
    /// `query p1turn`
    P1Turn,
    /// `query result`
    Result,
}

/// One command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command<'a> {
    /// `ugi`: handshake (also `uci`, answered with `uciok`).
    Handshake {
        /// True for `uci`.
        uci: bool,
    },
    /// `isready`
    IsReady,
    /// `quit`
    Quit,
    /// `help`
    Help,
    /// `uginewgame` (also `ucinewgame`)
    UgiNewGame,
    /// `newgame NAME [key=value ...]`
    NewGame {
        /// The game's name.
        name: &'a str,
        /// Its options.
        options: Vec<(&'a str, &'a str)>,
    },
    /// `setoption name NAME [value VALUE]`
    SetOption {
        /// The option name (may contain spaces).
        name: &'a str,
        /// The value (may contain spaces); absent for buttons.
        value: Option<&'a str>,
    },
    /// `position startpos|fen STRING|FORMAT STRING [moves M ...]`
    Position {
        /// `None` for `startpos`; else the format (`fen`, or a game's own such as `xgid`)
        /// and the position written in it.
        setup: Option<(&'a str, &'a str)>,
        /// The moves to play from there.
        moves: Vec<&'a str>,
    },
    /// `query gameover|p1turn|result`
    Query(Query),
    /// `legalmoves`
    LegalMoves,
    /// `perft D`
    Perft(u32),
    /// `divide D`
    Divide(u32),
    /// `rollout [trials N] [plies P] [seed S] [luck 0|1]`
    Rollout(RolloutParams),
    /// `move M`
    Move(&'a str),
    /// `undo`
    Undo,
    /// `fen [FORMAT]`: the position string, or the position in one of the game's formats.
    Fen(Option<&'a str>),
    /// `result`
    Result,
    /// `d`
    Display,
    /// `eval`
    Eval,
    /// `go ...`
    Go(GoParams),
    /// `stop`
    Stop,
    /// `ponderhit`: the opponent played the move being pondered; the clock starts.
    PonderHit,
    /// `wait`: block until the running search has answered.
    Wait,
    /// `solve [movetime MS]`: try to prove the position's value.
    Solve(Option<i64>),
    /// `bench [NODES]`
    Bench(Option<u64>),
    /// `dice NN`
    Dice(&'a str),
    /// `roll`
    Roll,
}

/// `rollout` arguments; each absent one takes its default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RolloutParams {
    /// Trials to play (default 1296: every pair of first rolls once).
    pub trials: Option<u64>,
    /// Moves per trial before the evaluation is taken (default 0: to the end).
    pub plies: Option<u32>,
    /// Seed of the dice (default: the `Seed` option).
    pub seed: Option<u64>,
    /// Luck-based variance reduction on (1) or off (0).
    pub luck: Option<bool>,
}
