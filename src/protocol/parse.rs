//! The protocol grammar (nom): one input line to one [`Command`].
//!
//! Tokens are separated by runs of spaces or tabs; a trailing CR is dropped; blank lines and
//! lines starting with `#` are not commands. The first word picks the command; if its
//! arguments do not parse, the error says what was expected. Move tokens and position strings
//! stay opaque here: each game reads its own.

use super::command::{Command, GoParams, Query, RolloutParams};
use nom::branch::alt;
use nom::bytes::complete::{tag, take_till, take_till1, take_while1};
use nom::character::complete::{char, digit1, space0, space1};
use nom::combinator::{
    all_consuming, eof, map, map_opt, map_res, opt, peek, recognize, rest, value, verify,
};
use nom::multi::{many0, separated_list1};
use nom::sequence::{preceded, separated_pair};
use nom::{IResult, Parser};

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The first word names no command.
    Unknown(String),
    /// The command's arguments are malformed; the text says what was expected.
    Expected(&'static str),
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParseError::Unknown(word) => write!(f, "unknown command: {word}"),
            ParseError::Expected(usage) => write!(f, "expected {usage}"),
        }
    }
}

/// Every command with its syntax, as `help` lists it and errors quote it.
pub const USAGE: &[(&str, &str)] = &[
    ("ugi", "ugi"),
    ("uci", "uci"),
    ("isready", "isready"),
    ("setoption", "setoption name NAME [value VALUE]"),
    ("uginewgame", "uginewgame"),
    ("ucinewgame", "ucinewgame"),
    ("newgame", "newgame GAME [key=value ...]"),
    (
        "position",
        "position startpos|fen STRING|FORMAT STRING [moves MOVE ...]",
    ),
    ("query", "query gameover|p1turn|result"),
    ("legalmoves", "legalmoves"),
    ("perft", "perft DEPTH (0..32)"),
    ("divide", "divide DEPTH (1..32)"),
    ("move", "move MOVE"),
    ("undo", "undo"),
    ("fen", "fen [FORMAT]"),
    ("result", "result"),
    ("d", "d"),
    ("eval", "eval"),
    ("dice", "dice ROLL"),
    ("roll", "roll"),
    (
        "go",
        "go [depth N] [nodes N] [movetime MS] [wtime MS] [btime MS] [winc MS] [binc MS] [p1time MS] [p2time MS] [p1inc MS] [p2inc MS] [movestogo N] [mate N] [searchmoves MOVE ...] [ponder] [infinite]",
    ),
    ("stop", "stop"),
    ("ponderhit", "ponderhit"),
    ("wait", "wait"),
    ("solve", "solve [movetime MS]"),
    ("rollout", "rollout [trials N] [plies N] [seed N] [luck 0|1]"),
    ("bench", "bench [NODES]"),
    ("help", "help"),
    ("quit", "quit"),
];

fn usage(word: &str) -> &'static str {
    USAGE
        .iter()
        .find(|(w, _)| *w == word)
        .map_or("a command", |(_, u)| u)
}

/// The line without its line ending and surrounding blanks. Only spaces and tabs separate
/// words: any other character (a vertical tab, a no-break space) is part of a word, so a
/// line reads the same to the parser and to [`command_word`].
pub(super) fn trimmed(line: &str) -> &str {
    line.trim_end_matches(['\r', '\n'])
        .trim_matches([' ', '\t', '\r'])
}

/// The command word and the rest of a trimmed line.
fn split_command(line: &str) -> (&str, &str) {
    match line.find([' ', '\t']) {
        Some(at) => (&line[..at], line[at..].trim_start_matches([' ', '\t'])),
        None => (line, ""),
    }
}

/// The command word of an input line, as [`parse_line`] reads it (`stop` in `stop\r\n`,
/// `go` in `go depth 1`), for the reader's look-ahead and the session's error handling.
pub fn command_word(line: &str) -> &str {
    split_command(trimmed(line)).0
}

/// Parses one line; `Ok(None)` for blank and comment lines.
pub fn parse_line(line: &str) -> Result<Option<Command<'_>>, ParseError> {
    let line = trimmed(line);
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let (word, args) = split_command(line);
    let parsed = match word {
        "ugi" => no_args(args, Command::Handshake { uci: false }),
        "uci" => no_args(args, Command::Handshake { uci: true }),
        "isready" => no_args(args, Command::IsReady),
        "quit" => no_args(args, Command::Quit),
        "help" => no_args(args, Command::Help),
        "uginewgame" | "ucinewgame" => no_args(args, Command::UgiNewGame),
        "legalmoves" => no_args(args, Command::LegalMoves),
        "undo" => no_args(args, Command::Undo),
        "result" => no_args(args, Command::Result),
        "d" => no_args(args, Command::Display),
        "eval" => no_args(args, Command::Eval),
        "stop" => no_args(args, Command::Stop),
        "ponderhit" => no_args(args, Command::PonderHit),
        "wait" => no_args(args, Command::Wait),
        "roll" => no_args(args, Command::Roll),
        "newgame" => full(newgame, args),
        "setoption" => full(setoption, args),
        "position" => full(position, args),
        "query" => full(query, args),
        "perft" => full(map(verify(number_u32, |d| *d <= 32), Command::Perft), args),
        "divide" => full(
            map(
                verify(number_u32, |d| (1..=32).contains(d)),
                Command::Divide,
            ),
            args,
        ),
        "fen" => full(map(opt(format_name), Command::Fen), args),
        "solve" => full(
            map(
                opt(preceded((tag("movetime"), space1), unsigned_millis)),
                Command::Solve,
            ),
            args,
        ),
        "rollout" => full(rollout, args),
        "move" => full(map(token, Command::Move), args),
        "dice" => full(map(token, Command::Dice), args),
        "go" => full(go, args),
        "bench" => full(map(opt(number_u64), Command::Bench), args),
        _ => return Err(ParseError::Unknown(word.to_owned())),
    };
    parsed.map(Some).ok_or(ParseError::Expected(usage(word)))
}

fn no_args<'a>(args: &str, command: Command<'a>) -> Option<Command<'a>> {
    args.is_empty().then_some(command)
}

fn full<'a, P>(parser: P, args: &'a str) -> Option<Command<'a>>
where
    P: Parser<&'a str, Output = Command<'a>, Error = nom::error::Error<&'a str>>,
{
    all_consuming(parser)
        .parse(args)
        .ok()
        .map(|(_, command)| command)
}

fn is_space(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// A run of non-blank characters.
fn token(i: &str) -> IResult<&str, &str> {
    take_till1(is_space).parse(i)
}

fn number_u32(i: &str) -> IResult<&str, u32> {
    map_res(digit1, str::parse).parse(i)
}

fn number_u64(i: &str) -> IResult<&str, u64> {
    map_res(digit1, str::parse).parse(i)
}

/// Milliseconds that cannot be negative (a time to spend, not a clock reading).
fn unsigned_millis(i: &str) -> IResult<&str, i64> {
    map_res(digit1, str::parse).parse(i)
}

/// Milliseconds; clocks may run below zero.
fn millis(i: &str) -> IResult<&str, i64> {
    map_res(recognize((opt(char('-')), digit1)), str::parse).parse(i)
}

/// `key=value`, or a bare `key` (an empty value): read as `setoption name GameOptions`
/// reads its words ([`super::option_pairs`]), so that both refuse a key without a
/// value in the registry's words, not here.
fn key_value(i: &str) -> IResult<&str, (&str, &str)> {
    (
        take_till1(|c| is_space(c) || c == '='),
        map(
            opt(preceded(char('='), take_till(is_space))),
            Option::unwrap_or_default,
        ),
    )
        .parse(i)
}

fn newgame(i: &str) -> IResult<&str, Command<'_>> {
    map(
        (token, many0(preceded(space1, key_value))),
        |(name, options)| Command::NewGame { name, options },
    )
    .parse(i)
}

/// Words up to (not including) a word equal to `stop`.
fn words_until<'a>(
    stop: &'static str,
) -> impl Parser<&'a str, Output = &'a str, Error = nom::error::Error<&'a str>> {
    recognize(separated_list1(
        space1,
        verify(token, move |t: &str| t != stop),
    ))
}

fn setoption(i: &str) -> IResult<&str, Command<'_>> {
    let value_part = preceded(
        (space1, tag("value")),
        alt((preceded(space1, rest), map(eof, |_| ""))),
    );
    map(
        (tag("name"), space1, words_until("value"), opt(value_part)),
        |(_, _, name, value)| Command::SetOption { name, value },
    )
    .parse(i)
}

fn position(i: &str) -> IResult<&str, Command<'_>> {
    let start = alt((
        value(None, tag("startpos")),
        map(
            separated_pair(format_name, space1, words_until("moves")),
            Some,
        ),
    ));
    let moves = preceded((space1, tag("moves")), many0(preceded(space1, token)));
    map((start, opt(moves)), |(setup, moves)| Command::Position {
        setup,
        moves: moves.unwrap_or_default(),
    })
    .parse(i)
}

/// A position format's name: a lower-case word (`fen`, `xgid`), never `moves`.
fn format_name(i: &str) -> IResult<&str, &str> {
    verify(
        take_while1(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit()),
        |name: &str| name != "moves" && name != "startpos",
    )
    .parse(i)
}

fn query(i: &str) -> IResult<&str, Command<'_>> {
    map(
        alt((
            value(Query::GameOver, tag("gameover")),
            value(Query::P1Turn, tag("p1turn")),
            value(Query::Result, tag("result")),
        )),
        Command::Query,
    )
    .parse(i)
}

/// One `go` limit, applied to the parameters being built.
#[derive(Clone, Debug)]
enum GoItem<'a> {
    Depth(u32),
    Nodes(u64),
    MoveTime(i64),
    WhiteTime(i64),
    BlackTime(i64),
    WhiteIncrement(i64),
    BlackIncrement(i64),
    MovesToGo(u32),
    Mate(u32),
    SearchMoves(Vec<&'a str>),
    Ponder,
    Infinite,
}

/// The words that start a `go` limit: a `searchmoves` list ends before any of them.
const GO_WORDS: &[&str] = &[
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "p1time",
    "p2time",
    "p1inc",
    "p2inc",
    "movestogo",
    "mate",
    "searchmoves",
    "ponder",
    "infinite",
];

fn go_item(i: &str) -> IResult<&str, GoItem<'_>> {
    let timed = |name: &'static str, make: fn(i64) -> GoItem<'static>| {
        map(preceded((tag(name), space1), millis), make)
    };
    alt((
        map(preceded((tag("depth"), space1), number_u32), GoItem::Depth),
        map(preceded((tag("nodes"), space1), number_u64), GoItem::Nodes),
        timed("movetime", GoItem::MoveTime),
        timed("wtime", GoItem::WhiteTime),
        timed("btime", GoItem::BlackTime),
        timed("winc", GoItem::WhiteIncrement),
        timed("binc", GoItem::BlackIncrement),
        timed("p1time", GoItem::WhiteTime),
        timed("p2time", GoItem::BlackTime),
        timed("p1inc", GoItem::WhiteIncrement),
        timed("p2inc", GoItem::BlackIncrement),
        map(
            preceded((tag("movestogo"), space1), number_u32),
            GoItem::MovesToGo,
        ),
        map(preceded((tag("mate"), space1), number_u32), GoItem::Mate),
        map(
            preceded(
                (tag("searchmoves"), space1),
                separated_list1(space1, verify(token, |t: &str| !GO_WORDS.contains(&t))),
            ),
            GoItem::SearchMoves,
        ),
        value(GoItem::Ponder, (tag("ponder"), peek_end)),
        value(GoItem::Infinite, (tag("infinite"), peek_end)),
    ))
    .parse(i)
}

/// The end of a word: a blank or the end of the line (so `ponder` is not `ponderx`).
fn peek_end(i: &str) -> IResult<&str, ()> {
    value((), peek(alt((space1, eof)))).parse(i)
}

fn go(i: &str) -> IResult<&str, Command<'_>> {
    let items = opt(separated_list1(space1, go_item));
    map((space0, items), |(_, items)| {
        let mut params = GoParams::default();
        for item in items.unwrap_or_default() {
            match item {
                GoItem::Depth(n) => params.depth = Some(n),
                GoItem::Nodes(n) => params.nodes = Some(n),
                GoItem::MoveTime(ms) => params.movetime = Some(ms),
                GoItem::WhiteTime(ms) => params.white_time = Some(ms),
                GoItem::BlackTime(ms) => params.black_time = Some(ms),
                GoItem::WhiteIncrement(ms) => params.white_increment = Some(ms),
                GoItem::BlackIncrement(ms) => params.black_increment = Some(ms),
                GoItem::MovesToGo(n) => params.moves_to_go = Some(n),
                GoItem::Mate(n) => params.mate = Some(n),
                GoItem::SearchMoves(moves) => {
                    params.search_moves = moves.into_iter().map(str::to_owned).collect()
                }
                GoItem::Ponder => params.ponder = true,
                GoItem::Infinite => params.infinite = true,
            }
        }
        Command::Go(params)
    })
    .parse(i)
}

/// `rollout [trials N] [plies N] [seed N] [luck 0|1]`, in any order, each at most once; trials at
/// least 1.
fn rollout(i: &str) -> IResult<&str, Command<'_>> {
    let item = (
        alt((tag("trials"), tag("plies"), tag("seed"), tag("luck"))),
        space1,
        number_u64,
    );
    let items = opt(separated_list1(space1, item));
    map_opt(items, |items| {
        let mut params = RolloutParams::default();
        for (key, _, value) in items.unwrap_or_default() {
            let slot = match key {
                "trials" if value >= 1 => &mut params.trials,
                "seed" => &mut params.seed,
                "plies" => {
                    if params.plies.is_some() {
                        return None;
                    }
                    params.plies = Some(u32::try_from(value).ok()?);
                    continue;
                }
                "luck" if value <= 1 => {
                    if params.luck.replace(value == 1).is_some() {
                        return None;
                    }
                    continue;
                }
                _ => return None,
            };
            if slot.replace(value).is_some() {
                return None;
            }
        }
        Some(Command::Rollout(params))
    })
    .parse(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Command<'_> {
        parse_line(line).expect("parses").expect("is a command")
    }

    #[test]
    fn whitespace_and_line_endings_are_tolerated() {
        assert_eq!(ok("  isready \r"), Command::IsReady);
        assert_eq!(ok("\tperft\t \t3\r\n"), Command::Perft(3));
        assert_eq!(parse_line("   "), Ok(None));
        assert_eq!(parse_line("# a comment"), Ok(None));
        assert_eq!(parse_line("\r"), Ok(None));
    }

    #[test]
    fn commands_are_lower_case_words() {
        assert_eq!(
            parse_line("ISREADY"),
            Err(ParseError::Unknown("ISREADY".into()))
        );
        assert_eq!(
            parse_line("isreadyx"),
            Err(ParseError::Unknown("isreadyx".into()))
        );
        assert_eq!(
            parse_line("isready now").unwrap_err().to_string(),
            "expected isready"
        );
    }

    #[test]
    fn position_splits_fen_and_moves() {
        assert_eq!(
            ok("position fen 8/8 w   moves e2e3 xe7"),
            Command::Position {
                setup: Some(("fen", "8/8 w")),
                moves: vec!["e2e3", "xe7"]
            }
        );
        assert_eq!(
            ok("position startpos"),
            Command::Position {
                setup: None,
                moves: vec![]
            }
        );
        assert_eq!(
            ok("position startpos moves"),
            Command::Position {
                setup: None,
                moves: vec![]
            }
        );
        assert!(parse_line("position").is_err());
        assert!(parse_line("position fen").is_err());
        assert!(parse_line("position fen moves a").is_err());
        assert!(parse_line("position startpos e2e3").is_err());
        assert_eq!(
            ok("position xgid XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10 moves 31:8/5,6/5"),
            Command::Position {
                setup: Some(("xgid", "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10")),
                moves: vec!["31:8/5,6/5"]
            }
        );
        assert!(parse_line("position Fen 8/8").is_err());
        assert!(parse_line("position moves 8/8").is_err());
    }

    #[test]
    fn every_usage_error_fits_uncut() {
        // Error text is cut after 200 characters (response.rs); a usage must survive whole.
        for (word, usage) in USAGE {
            let message = format!("expected {usage}");
            assert!(message.len() <= 200, "{word}: {} characters", message.len());
        }
    }

    #[test]
    fn fen_and_solve_take_optional_arguments() {
        assert_eq!(ok("fen"), Command::Fen(None));
        assert_eq!(ok("fen gnubgid"), Command::Fen(Some("gnubgid")));
        assert!(parse_line("fen two words").is_err());
        assert_eq!(ok("solve"), Command::Solve(None));
        assert_eq!(ok("solve movetime 500"), Command::Solve(Some(500)));
        assert!(parse_line("solve depth 3").is_err());
        assert!(parse_line("solve movetime -1").is_err());
        assert!(parse_line("solve movetime 9223372036854775808").is_err());
        assert_eq!(
            ok("solve movetime 9223372036854775807"),
            Command::Solve(Some(i64::MAX))
        );
    }

    #[test]
    fn setoption_names_and_values_may_have_spaces() {
        assert_eq!(
            ok("setoption name Move Overhead value 30"),
            Command::SetOption {
                name: "Move Overhead",
                value: Some("30")
            }
        );
        assert_eq!(
            ok("setoption name GameOptions value size=6 x=y"),
            Command::SetOption {
                name: "GameOptions",
                value: Some("size=6 x=y")
            }
        );
        assert_eq!(
            ok("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash",
                value: None
            }
        );
        assert_eq!(
            ok("setoption name GameOptions value"),
            Command::SetOption {
                name: "GameOptions",
                value: Some("")
            }
        );
        assert!(parse_line("setoption Hash 3").is_err());
    }

    #[test]
    fn go_reads_every_limit_in_any_order() {
        let Command::Go(params) = ok("go p2inc 5 wtime -20 depth 7 infinite nodes 100 movetime 50")
        else {
            panic!("not a go");
        };
        assert_eq!(params.depth, Some(7));
        assert_eq!(params.nodes, Some(100));
        assert_eq!(params.movetime, Some(50));
        assert_eq!(params.white_time, Some(-20));
        assert_eq!(params.black_increment, Some(5));
        assert!(params.infinite);
        assert_eq!(ok("go"), Command::Go(GoParams::default()));
        assert!(parse_line("go depth").is_err());
        assert!(parse_line("go depth x").is_err());
        assert!(parse_line("go sideways").is_err());
        assert!(parse_line("go nodes -5").is_err());
    }

    #[test]
    fn go_reads_what_uci_runners_send() {
        let Command::Go(params) =
            ok("go ponder wtime 100 btime 200 movestogo 7 searchmoves e2e3 xd7 mate 3 depth 9")
        else {
            panic!("not a go");
        };
        assert!(params.ponder);
        assert_eq!(params.moves_to_go, Some(7));
        assert_eq!(params.search_moves, vec!["e2e3", "xd7"]);
        assert_eq!(params.mate, Some(3));
        assert_eq!(params.depth, Some(9));
        let Command::Go(params) = ok("go infinite searchmoves pass") else {
            panic!("not a go");
        };
        assert!(params.infinite && params.search_moves == vec!["pass"]);
        assert!(parse_line("go searchmoves").is_err());
        assert!(parse_line("go searchmoves depth 3").is_err());
        assert!(parse_line("go ponderx").is_err());
        assert!(parse_line("go mate").is_err());
        assert!(parse_line("go movestogo -1").is_err());
        assert_eq!(ok("ponderhit"), Command::PonderHit);
        assert!(parse_line("ponderhit now").is_err());
    }

    #[test]
    fn newgame_takes_key_value_options() {
        assert_eq!(
            ok("newgame cascades width=5  rows=4"),
            Command::NewGame {
                name: "cascades",
                options: vec![("width", "5"), ("rows", "4")]
            }
        );
        assert_eq!(
            ok("newgame cascades width rows="),
            Command::NewGame {
                name: "cascades",
                options: vec![("width", ""), ("rows", "")]
            }
        );
        assert!(parse_line("newgame").is_err());
        assert!(parse_line("newgame cascades =5").is_err());
    }

    #[test]
    fn numbers_are_checked() {
        assert!(parse_line("perft 33").is_err());
        assert!(parse_line("perft 99999999999999999999").is_err());
        assert!(parse_line("divide 0").is_err());
        assert_eq!(ok("bench"), Command::Bench(None));
        assert_eq!(ok("bench 5000"), Command::Bench(Some(5000)));
    }

    #[test]
    fn queries() {
        assert_eq!(ok("query p1turn"), Command::Query(Query::P1Turn));
        assert_eq!(
            parse_line("query fen").unwrap_err().to_string(),
            "expected query gameover|p1turn|result"
        );
    }
}
