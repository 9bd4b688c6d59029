//! The search hooks: tactical moves and threats, checked against playing the moves out.

use super::eval::row_pushes;
use super::*;

fn options(variant: Variant) -> Options {
    Options { variant }
}

/// Random games of every version: the tactical moves are exactly the moves whose push, played
/// by the rules' own push, leaves the mover four in a row, and each side's threat pushes are
/// exactly the legal pushes after which that side owns four in a row.
#[test]
fn tactical_moves_are_the_row_making_pushes() {
    let mut rng = crate::util::rng::Rng::new(2020u64);
    let mut next = |n: usize| rng.below(n as u64) as usize;
    let mut seen = 0;
    for variant in [Variant::Basic, Variant::Standard, Variant::Tournament] {
        for _ in 0..20 {
            let mut p = Gipf::start(&options(variant));
            for _ in 0..200 {
                let mut list = Vec::new();
                p.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                let me = p.side_to_move();
                if !p.has_row(me) {
                    let mut tactical = Vec::new();
                    p.tactical_moves(&mut tactical);
                    let expected: Vec<Move> = list
                        .iter()
                        .copied()
                        .filter(|&mv| {
                            let mut q = p;
                            q.apply_push(mv.push as usize, me, mv.gipf_piece);
                            q.has_row(me)
                        })
                        .collect();
                    assert_eq!(tactical, expected, "{}", p.to_fen());
                    seen += tactical.len();
                }
                for side in [Side::White, Side::Black] {
                    let expected = (0..super::geometry::PUSHES).filter(|&push| {
                        let mut q = p;
                        q.reserve[side.index()] > 0
                            && !q.has_row(side)
                            && q.push_is_legal(push)
                            && {
                                q.apply_push(push, side, false);
                                q.has_row(side)
                            }
                    });
                    let bits = expected.fold(0u64, |bits, push| bits | 1 << push);
                    assert_eq!(row_pushes(&p, side), bits, "{}", p.to_fen());
                }
                p.play(list[next(list.len())]);
            }
        }
    }
    assert!(seen > 100, "too few row-making pushes met: {seen}");
}

/// A threat is worth what its removal takes: White's c1-c2 makes the row c2..c5, and with a
/// black piece on c6 the extension captures it; the same piece on h2 (also next to the rim,
/// the same centre bonus) is out of reach.
#[test]
fn evaluation_sees_the_capture_in_a_threat() {
    let fen = |text: &str| Gipf::from_fen(text, &Options::default()).expect("test fen");
    let capture = fen("4/1wwwb/6/7/6/5/4 w 5 5 9 7");
    let out_of_reach = fen("4/1www1/6/7/6/5/b3 w 5 5 9 7");
    assert!(capture.evaluate() > out_of_reach.evaluate());
    // For the side not to move the same threat is a danger.
    let danger = fen("4/1wwwb/6/7/6/5/4 b 5 5 9 7");
    let safe = fen("4/1www1/6/7/6/5/b3 b 5 5 9 7");
    assert!(danger.evaluate() < safe.evaluate());
}

/// The search looks one ply further exactly where the mover has a row of its own waiting for
/// its choice: after Black's a2-b2 two contested white rows stay for White to choose from
/// (transcript `gipf_removals.txt`), and not at the start or after an ordinary push.
#[test]
fn the_search_extends_where_a_row_choice_is_forced() {
    let before = Gipf::read_fen("w3/1www1/1w4/2w3b/2w3/5/b2w b 7 13 0 0", Variant::Basic).unwrap();
    assert!(!before.extends());
    let after = before.after_move(before.read_move("a2-b2").unwrap());
    assert_eq!(after.to_fen(), "b3/wwww1/1w4/2w3b/2w3/5/b2w w 7 12 0 0");
    assert!(after.extends());
    let start = Gipf::start(&options(Variant::Basic));
    assert!(!start.extends());
    assert!(!start
        .after_move(start.read_move("a1-b2").unwrap())
        .extends());
}
