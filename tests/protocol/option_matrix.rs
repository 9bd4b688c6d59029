//! Every pair of engine options and `go` tokens, in every game and decision kind: the promise
//! protocol.md gives each member of a pair still holds with the other one set (what `bestmove`
//! carries, when the answer comes, which lines are printed). One engine per game plays its
//! cases one after another; the games run side by side.

use crate::common;

use common::Engine;
use std::time::{Duration, Instant};

/// One option set or one `go` token.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Member {
    MultiPv,
    Ponder,
    Threads,
    Variety,
    NoBook,
    Greedy,
    Random,
    SearchMoves,
    Mate,
    Depth,
    Nodes,
    Movetime,
    Clock,
    OtherClock,
    Increments,
    MovesToGo,
    GoPonder,
    Infinite,
}

use Member::*;

const MEMBERS: [Member; 18] = [
    MultiPv,
    Ponder,
    Threads,
    Variety,
    NoBook,
    Greedy,
    Random,
    SearchMoves,
    Mate,
    Depth,
    Nodes,
    Movetime,
    Clock,
    OtherClock,
    Increments,
    MovesToGo,
    GoPonder,
    Infinite,
];

/// The lines `MultiPV` asks for.
const LINES: usize = 3;
/// `go movetime` of the cases that have it.
const MOVETIME_MS: u64 = 60;
/// How long an endless search is watched for an answer it must not give.
const HOLD_MS: u64 = 120;

impl Member {
    fn is_option(self) -> bool {
        matches!(
            self,
            MultiPv | Ponder | Threads | Variety | NoBook | Greedy | Random
        )
    }

    /// The `setoption` line of an option member.
    fn setoption(self) -> Option<&'static str> {
        Some(match self {
            MultiPv => "setoption name MultiPV value 3",
            Ponder => "setoption name Ponder value true",
            Threads => "setoption name Threads value 2",
            Variety => "setoption name Variety value true",
            NoBook => "setoption name OwnBook value false",
            Greedy => "setoption name Player value greedy",
            Random => "setoption name Player value random",
            _ => return None,
        })
    }

    /// Limits that end a search by themselves (after `ponderhit` for a pondering one).
    fn bounds(self) -> bool {
        matches!(
            self,
            Depth | Nodes | Movetime | Clock | OtherClock | Increments | MovesToGo
        )
    }
}

/// The options every case starts from.
const RESET: &str = "setoption name MultiPV value 1\nsetoption name Ponder value false\n\
    setoption name Threads value 1\nsetoption name Variety value false\n\
    setoption name OwnBook value true\nsetoption name Player value search";

/// A game at one kind of decision.
struct Setup {
    name: &'static str,
    /// `newgame` and `position` (and `dice`) lines.
    commands: &'static str,
    /// The `position` line the moves of a line are appended to (`None`: lines are not replayed).
    position: Option<&'static str>,
    /// Two legal moves for `searchmoves`.
    search_moves: [&'static str; 2],
    /// `go depth` of the cases that have it.
    depth: u32,
    /// The answers `go` may give (`None`: `legalmoves`).
    answers: Option<&'static [&'static str]>,
    /// `searchmoves` is refused here (before the roll with the cube on).
    refuses_searchmoves: bool,
    /// A game with dice: a line's second move needs a roll, so `ponder` names none.
    dice: bool,
    /// White (p1) is to move.
    white_to_move: bool,
}

const SETUPS: [Setup; 8] = [
    Setup {
        name: "bombardment",
        commands: "newgame bombardment\nposition startpos moves e2e3 d7d6",
        position: Some("position startpos moves e2e3 d7d6"),
        search_moves: ["a2a3", "e3e4"],
        depth: 3,
        answers: None,
        refuses_searchmoves: false,
        dice: false,
        white_to_move: true,
    },
    Setup {
        name: "gipf",
        commands: "newgame gipf\nposition startpos",
        position: Some("position startpos"),
        search_moves: ["a5-b5", "e1-e2"],
        depth: 2,
        answers: None,
        refuses_searchmoves: false,
        dice: false,
        white_to_move: true,
    },
    Setup {
        name: "cascades",
        commands: "newgame cascades\nposition startpos moves b5",
        position: Some("position startpos moves b5"),
        search_moves: ["b4,c4", "b6,c6"],
        depth: 2,
        answers: None,
        refuses_searchmoves: false,
        dice: false,
        white_to_move: false,
    },
    Setup {
        name: "morris",
        commands: "newgame morris\nposition startpos moves d2 d6",
        position: Some("position startpos moves d2 d6"),
        search_moves: ["f4", "b4"],
        depth: 4,
        answers: None,
        refuses_searchmoves: false,
        dice: false,
        white_to_move: true,
    },
    Setup {
        name: "backgammon (checker play)",
        commands: "newgame backgammon\nposition startpos\ndice 31",
        position: None,
        search_moves: ["31:8/5,6/5", "31:24/23,13/10"],
        depth: 2,
        answers: None,
        refuses_searchmoves: false,
        dice: true,
        white_to_move: true,
    },
    Setup {
        name: "backgammon (before the roll, cube on)",
        commands: "newgame backgammon cube=on\nposition fen w=5:1,1:1 b=1:1 w -",
        position: None,
        search_moves: ["double", "roll"],
        depth: 1,
        answers: Some(&["double", "roll"]),
        refuses_searchmoves: true,
        dice: true,
        white_to_move: true,
    },
    Setup {
        name: "backgammon (facing a double)",
        commands: "newgame backgammon cube=on\nposition fen w=5:1,1:1 b=1:1 w - moves double",
        position: None,
        search_moves: ["take", "drop"],
        depth: 2,
        answers: Some(&["take", "drop"]),
        refuses_searchmoves: false,
        dice: true,
        white_to_move: false,
    },
    Setup {
        name: "nim",
        commands: "newgame nim heaps=3,4,5,6\nposition startpos",
        position: Some("position startpos"),
        search_moves: ["a1", "b2"],
        depth: 3,
        answers: None,
        refuses_searchmoves: false,
        dice: false,
        white_to_move: true,
    },
];

/// What one `go` printed, up to its `bestmove`.
struct Answer {
    infos: Vec<String>,
    errors: Vec<String>,
    bestmove: Option<String>,
    /// From the `go` (or the `ponderhit`, for a pondering search) to the `bestmove`.
    took: Duration,
    /// The `bestmove` came before the engine was told to stop or that the ponder was hit,
    /// though the search was endless.
    early: bool,
}

fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// The value after `key` in an `info` line.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let w = words(line);
    w.iter()
        .position(|x| *x == key)
        .and_then(|i| w.get(i + 1).copied())
}

/// The moves of an `info` line's `pv`.
fn pv(line: &str) -> Vec<&str> {
    let w = words(line);
    w.iter()
        .position(|x| *x == "pv")
        .map_or(Vec::new(), |i| w[i + 1..].to_vec())
}

struct Runner<'a> {
    engine: Engine,
    setup: &'a Setup,
    failures: Vec<String>,
}

impl Runner<'_> {
    /// Lines until one starts with `prefix`, within `timeout`; `None` when it does not come.
    fn collect_until(&mut self, prefix: &str, timeout: Duration, into: &mut Vec<String>) -> bool {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.engine.next_line(left) {
                Some(line) => {
                    let done = line.starts_with(prefix);
                    into.push(line);
                    if done {
                        return true;
                    }
                }
                None => return false,
            }
        }
    }

    /// Lines printed within `wait` (the engine keeps running).
    fn drain(&mut self, wait: Duration, into: &mut Vec<String>) {
        let deadline = Instant::now() + wait;
        while let Some(line) = self
            .engine
            .next_line(deadline.saturating_duration_since(Instant::now()))
        {
            into.push(line);
        }
    }

    fn sync(&mut self) -> Vec<String> {
        self.engine.send("isready");
        let mut lines = Vec::new();
        if !self.collect_until("readyok", Duration::from_secs(30), &mut lines) {
            panic!("{}: no readyok within 30 s", self.setup.name);
        }
        lines.pop();
        lines
    }

    fn legal_after(&mut self, moves: &[&str]) -> Option<Vec<String>> {
        let position = self.setup.position?;
        self.engine
            .send(&format!("{position} moves {}", moves.join(" ")));
        self.engine.send("legalmoves");
        let mut lines = Vec::new();
        self.collect_until("legalmoves", Duration::from_secs(10), &mut lines);
        let before = self.sync();
        let last = lines.last().cloned().unwrap_or_default();
        if lines.iter().chain(&before).any(|l| l.starts_with("error")) {
            return None;
        }
        Some(words(&last)[1..].iter().map(|s| s.to_string()).collect())
    }

    fn fail(&mut self, case: &[Member], what: String) {
        self.failures
            .push(format!("{} {:?}: {what}", self.setup.name, case));
    }

    fn run(&mut self, case: &[Member]) {
        let setup = self.setup;
        self.engine.send(RESET);
        for member in case {
            if let Some(line) = member.setoption() {
                self.engine.send(line);
            }
        }
        self.engine.send(setup.commands);
        let stray = self.sync();
        if !stray.is_empty() {
            return self.fail(case, format!("set-up printed {stray:?}"));
        }
        let legal: Vec<String> = match setup.answers {
            Some(answers) => answers.iter().map(|s| s.to_string()).collect(),
            None => {
                self.engine.send("legalmoves");
                let line = self.engine.until("legalmoves", Duration::from_secs(10));
                words(&line)[1..].iter().map(|s| s.to_string()).collect()
            }
        };
        let has = |m: Member| case.contains(&m);
        let mut go = vec!["go".to_string()];
        let bounded_by_tokens = case.iter().any(|m| m.bounds());
        // Two options alone: a timed search, so that the book and the clock take part.
        let only_options = case.iter().all(|m| m.is_option());
        if only_options {
            go.push(format!("movetime {MOVETIME_MS}"));
        }
        for member in case {
            match member {
                SearchMoves => go.push(format!("searchmoves {}", setup.search_moves.join(" "))),
                Mate => go.push("mate 2".into()),
                Depth => go.push(format!("depth {}", setup.depth)),
                Nodes => go.push("nodes 3000".into()),
                Movetime => go.push(format!("movetime {MOVETIME_MS}")),
                Clock => go.push("wtime 3000 btime 3000 winc 20 binc 20".into()),
                // Clock words without the side to move's clock end the search by themselves.
                OtherClock if setup.white_to_move => go.push("btime 3000 binc 20".into()),
                OtherClock => go.push("wtime 3000 winc 20".into()),
                Increments => go.push("winc 100 binc 100".into()),
                MovesToGo => go.push("movestogo 3".into()),
                GoPonder => go.push("ponder".into()),
                Infinite => go.push("infinite".into()),
                _ => {}
            }
        }
        let refused = has(SearchMoves) && setup.refuses_searchmoves;
        let endless = has(Infinite) || !(bounded_by_tokens || only_options);
        let answer = self.answer(&go.join(" "), case, endless, refused);
        self.check(case, &answer, &legal, endless, refused);
    }

    /// Sends `go`, `ponderhit` and `stop` as the case needs and collects the answer.
    fn answer(&mut self, go: &str, case: &[Member], endless: bool, refused: bool) -> Answer {
        let mut lines = Vec::new();
        let mut start = Instant::now();
        self.engine.send(go);
        let mut early = false;
        let hold = Duration::from_millis(HOLD_MS);
        let mate_ok = |lines: &[String]| {
            lines
                .iter()
                .rev()
                .find(|l| l.starts_with("info depth"))
                .and_then(|l| field(l, "mate"))
                .and_then(|m| m.parse::<i32>().ok())
                .is_some_and(|m| (1..=2).contains(&m))
        };
        let answered = |lines: &[String]| lines.iter().any(|l| l.starts_with("bestmove"));
        if case.contains(&GoPonder) && !refused {
            self.drain(hold, &mut lines);
            early |= answered(&lines);
            start = Instant::now();
            self.engine.send("ponderhit");
        }
        if endless && !refused {
            self.drain(hold, &mut lines);
            if answered(&lines)
                && !(case.contains(&Mate) && !case.contains(&Infinite) && mate_ok(&lines))
            {
                early = true;
            }
            if !answered(&lines) {
                self.engine.send("stop");
            }
        }
        if !answered(&lines) {
            self.collect_until("bestmove", Duration::from_secs(20), &mut lines);
        }
        let took = start.elapsed();
        let mut answer = Answer {
            infos: Vec::new(),
            errors: Vec::new(),
            bestmove: None,
            took,
            early,
        };
        for line in lines {
            if line.starts_with("bestmove") {
                answer.bestmove = Some(line);
            } else if line.starts_with("info") {
                answer.infos.push(line);
            } else {
                answer.errors.push(line);
            }
        }
        answer
    }

    fn check(
        &mut self,
        case: &[Member],
        answer: &Answer,
        legal: &[String],
        endless: bool,
        refused: bool,
    ) {
        let setup = self.setup;
        let has = |m: Member| case.contains(&m);
        let after = self.sync();
        if after.iter().any(|l| !l.starts_with("info")) {
            self.fail(case, format!("after the bestmove: {after:?}"));
        }
        let Some(bestmove) = &answer.bestmove else {
            return self.fail(
                case,
                format!(
                    "no bestmove within 20 s ({} info lines)",
                    answer.infos.len()
                ),
            );
        };
        if answer.early {
            self.fail(
                case,
                format!("an endless search answered by itself: {bestmove}"),
            );
        }
        let b = words(bestmove);
        if refused {
            if b.get(1) != Some(&"0000") || answer.errors.len() != 1 {
                self.fail(
                    case,
                    format!(
                        "searchmoves must be refused: {:?} {bestmove}",
                        answer.errors
                    ),
                );
            }
            return;
        }
        if !answer.errors.is_empty() {
            self.fail(case, format!("unexpected lines {:?}", answer.errors));
        }
        let best = b.get(1).copied().unwrap_or("");
        if !legal.iter().any(|m| m == best) {
            self.fail(case, format!("{bestmove} is not one of the answers"));
        }
        if has(SearchMoves) && !setup.search_moves.contains(&best) {
            self.fail(case, format!("{bestmove} is not a searchmoves move"));
        }
        if !endless && !has(GoPonder) && (has(Movetime) || case.iter().all(|m| m.is_option())) {
            // A loose bound: the games run side by side on a small machine.
            let limit = Duration::from_millis(MOVETIME_MS + 1500);
            if answer.took > limit {
                self.fail(
                    case,
                    format!("movetime {MOVETIME_MS} answered after {:?}", answer.took),
                );
            }
        }
        let searched = !has(Random);
        let depth_lines: Vec<&String> = answer
            .infos
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .collect();
        for line in &depth_lines {
            let depth: u32 = field(line, "depth")
                .and_then(|d| d.parse().ok())
                .unwrap_or(0);
            if has(Depth) && depth > setup.depth {
                self.fail(case, format!("deeper than asked: {line}"));
            }
            if has(Greedy) && depth > 1 {
                self.fail(
                    case,
                    format!("the greedy player searched deeper than 1: {line}"),
                );
            }
            let multipv = field(line, "multipv");
            if has(MultiPv) != multipv.is_some() && searched {
                self.fail(
                    case,
                    format!(
                        "multipv field {multipv:?} with MultiPV {}",
                        if has(MultiPv) { 3 } else { 1 }
                    ),
                );
            }
            let first = pv(line).first().copied().unwrap_or("");
            if !legal.iter().any(|m| m == first) {
                self.fail(case, format!("a line starts with no legal answer: {line}"));
            }
            if has(SearchMoves) && !setup.search_moves.contains(&first) {
                self.fail(case, format!("a line outside searchmoves: {line}"));
            }
        }
        // The last depth's lines, line 1 first.
        let last_depth = depth_lines.last().and_then(|l| field(l, "depth"));
        let last: Vec<&&String> = depth_lines
            .iter()
            .filter(|l| field(l, "depth") == last_depth)
            .collect();
        let best_line = last
            .iter()
            .find(|l| field(l, "multipv").is_none_or(|k| k == "1"))
            .map(|l| l.to_string());
        if has(MultiPv) && searched && !last.is_empty() {
            let ks: Vec<&str> = last.iter().filter_map(|l| field(l, "multipv")).collect();
            let allowed = if has(SearchMoves) { 2 } else { legal.len() };
            let want: Vec<String> = (1..=LINES.min(allowed)).map(|k| k.to_string()).collect();
            // Backgammon's passes list only the plays they looked at.
            let fine = if setup.dice {
                !ks.is_empty() && ks.iter().zip(&want).all(|(k, w)| k == w)
            } else {
                ks == want
            };
            if !fine {
                self.fail(
                    case,
                    format!("multipv lines {ks:?} at the last depth, want {want:?}"),
                );
            }
        }
        if let Some(line) = &best_line {
            let first = pv(line).first().copied().unwrap_or("");
            if first != best && searched && !answer.early {
                self.fail(case, format!("{bestmove} is not line 1's move ({line})"));
            }
        }
        let ponder = b
            .iter()
            .position(|w| *w == "ponder")
            .and_then(|i| b.get(i + 1))
            .copied();
        if !has(Ponder) && ponder.is_some() {
            self.fail(case, format!("{bestmove} names a reply with Ponder off"));
        }
        if let Some(reply) = ponder {
            match self.legal_after(&[best]) {
                Some(next) if !next.iter().any(|m| m == reply) => {
                    self.fail(case, format!("{bestmove}: the reply is not legal"))
                }
                _ => {}
            }
        }
        if has(Ponder) && ponder.is_none() && !setup.dice {
            if let Some(line) = &best_line {
                let moves = pv(line);
                if moves.len() >= 2 && moves[0] == best {
                    self.fail(
                        case,
                        format!("{bestmove} names no reply though its line is {line}"),
                    );
                }
            }
        }
    }
}

/// A case is playable when it has one `Player` and at most one clock word set.
fn playable(case: &[Member]) -> bool {
    let clocks = [Clock, OtherClock, Increments];
    !(case.contains(&Greedy) && case.contains(&Random))
        && case.iter().filter(|m| clocks.contains(m)).count() <= 1
}

/// Runs `cases` in every set-up (one engine per set-up, side by side) and fails with every
/// broken promise.
fn run_cases(cases: &[Vec<Member>], what: &str) {
    let started = Instant::now();
    let results: Vec<Vec<String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = SETUPS
            .iter()
            .map(|setup| {
                scope.spawn(move || {
                    let mut runner = Runner {
                        engine: Engine::start(&[]),
                        setup,
                        failures: Vec::new(),
                    };
                    for case in cases {
                        runner.run(case);
                    }
                    runner.failures
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let failures: Vec<String> = results.into_iter().flatten().collect();
    eprintln!(
        "{} {what} x {} set-ups = {} cases in {:?}",
        cases.len(),
        SETUPS.len(),
        cases.len() * SETUPS.len(),
        started.elapsed()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_pair_of_options_and_go_tokens_keeps_each_promise() {
    let mut pairs = Vec::new();
    for (i, a) in MEMBERS.iter().enumerate() {
        for b in &MEMBERS[i + 1..] {
            if playable(&[*a, *b]) {
                pairs.push(vec![*a, *b]);
            }
        }
    }
    run_cases(&pairs, "pairs");
}

/// Three members at once, a fixed sample of the triples (every member in several).
#[test]
fn sampled_triples_keep_each_promise() {
    let mut triples = Vec::new();
    // A fixed stride through the triples (i < j < k) visits every member without a random
    // generator: the sample is the same on every run.
    let mut index = 0usize;
    for (i, a) in MEMBERS.iter().enumerate() {
        for (j, b) in MEMBERS.iter().enumerate().skip(i + 1) {
            for c in &MEMBERS[j + 1..] {
                index += 1;
                let case = vec![*a, *b, *c];
                if index.is_multiple_of(7) && playable(&case) {
                    triples.push(case);
                }
            }
        }
    }
    run_cases(&triples, "triples");
}

/// Setting an option to the value it has does what setting it did the first time
/// (protocol.md, Handshake and options): `Seed` restarts its sequence, `Hash` starts an empty
/// table, `TablebasePath` looks at its directory again.
#[test]
fn an_option_set_again_does_what_it_did_the_first_time() {
    let mut engine = Engine::start(&["backgammon"]);
    let mut rolls = Vec::new();
    for _ in 0..2 {
        engine.send("position startpos\nsetoption name Seed value 7\nroll\nroll");
        engine.send("position startpos\nroll");
        rolls.push(engine.until("roll", Duration::from_secs(10)));
        // The second `roll` of each round has no roll pending; the third follows a new position.
        rolls.push(engine.until("roll", Duration::from_secs(10)));
    }
    assert_eq!(rolls[0], rolls[2], "{rolls:?}");
    assert_eq!(rolls[1], rolls[3], "{rolls:?}");

    let nodes = |engine: &mut Engine| {
        engine.send("go depth 7");
        let mut last = String::new();
        loop {
            let line = engine.until("", Duration::from_secs(30));
            if line.starts_with("bestmove") {
                return field(&last, "nodes").unwrap_or("").to_owned();
            }
            last = line;
        }
    };
    engine.send("newgame bombardment\nsetoption name Hash value 16");
    let first = nodes(&mut engine);
    engine.send("setoption name Hash value 16");
    let again = nodes(&mut engine);
    // A warm table would have found the same depth with fewer nodes.
    assert_eq!(first, again);

    let dir = std::env::temp_dir().join(format!("tabula-no-tables-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let set = format!("setoption name TablebasePath value {}", dir.display());
    engine.send("newgame morris");
    for _ in 0..2 {
        engine.send(&set);
        let note = engine.until("info string", Duration::from_secs(10));
        assert!(note.contains(": no usable morris-"), "{note}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
