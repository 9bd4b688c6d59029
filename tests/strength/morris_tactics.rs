//! `go` finds forced wins: positions with a win in 1 to 3 moves (1, 3 or 5 plies), both with
//! and without flying. The results were taken from the endgame tables (`morris-tb`, exact
//! retrograde analysis, checked ply by ply against the rules in the crate's tablebase tests);
//! here the shared search must report the mate at that distance and, playing both sides,
//! finish the game with White's win within that many plies.

use std::sync::atomic::AtomicBool;
use tabula::game::{Game, Side};
use tabula::games::morris::{Morris, Options};
use tabula::search::Score;
use tabula::search::{search, Limits, Table};

/// (position, flying, plies to the win with best play)
const POSITIONS: [(&str, bool, u32); 12] = [
    (".../.../.W./BBW.../W../.../BW. w 0 0 0", false, 1),
    ("W../B../.../WB..../.../B../W.. w 0 0 0", false, 3),
    ("W../B../.../WB..../B../W../W.. w 0 0 0", false, 3),
    ("B../B../.../W...../.W./B../.W. w 0 0 0", false, 5),
    (".../.../.../.W..../.B./WWB/.WB w 0 0 0", false, 5),
    ("B../.../.W./BBW.../W../B../.W. w 0 0 0", false, 5),
    ("B../B../.../W...../.W./B../.W. w 0 0 0", true, 1),
    (".../.../.W./BBW.../W../.../BW. w 0 0 0", true, 1),
    ("W../B../.../WB..../.../B../W.. w 0 0 0", true, 3),
    ("WB./.../.../WB..../.B./.../W.. w 0 0 0", true, 3),
    ("W../..B/B.B/W...../.../.../W.. w 0 0 0", true, 5),
    (".../.../.../W...B./.W./.B./BW. w 0 0 0", true, 5),
];

fn best(pos: &Morris, depth: u32) -> (<Morris as Game>::Move, Score) {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let table = Table::new(4);
    let stop = AtomicBool::new(false);
    let result = search(pos, &limits, &table, &stop, &mut |_| {});
    let info = result.info.expect("an iteration finished");
    (result.best.expect("a legal move"), info.score)
}

#[test]
fn go_finds_forced_wins() {
    for (fen, flying, plies) in POSITIONS {
        let options = Options {
            flying,
            ..Options::default()
        };
        let mut pos = Morris::from_fen(fen, &options).unwrap();
        let depth = plies + 1;
        let (_, score) = best(&pos, depth);
        assert_eq!(
            score,
            Score::Mate(plies.div_ceil(2) as i32),
            "{fen} flying={flying}"
        );
        for _ in 0..plies {
            let (mv, _) = best(&pos, depth);
            pos.play(mv);
            if pos.outcome().is_some() {
                break;
            }
        }
        let outcome = pos
            .outcome()
            .unwrap_or_else(|| panic!("{fen}: no result after {plies} plies"));
        assert_eq!(outcome.winner, Some(Side::White), "{fen}");
    }
}
