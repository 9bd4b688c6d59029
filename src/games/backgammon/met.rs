//! The match equity table and the take points of match play.
//!
//! Match winning chances before a game come from a published table where it has them: the
//! Kazaross-XG2 table ([`super::met_kazaross`]) for every score up to 25 points away, pre-
//! and post-Crawford. Longer scores, and the take points at every score, come from a model
//! built on those chances (docs/backgammon.md "Match equities"): a game is a continuous
//! process in which the winning chance `p` of a side drifts without jumps from 1/2 to 0 or 1,
//! and a quarter of the games won are gammons ([`GAMMON_RATE`]; backgammons are left out).
//! With no jumps a double is best given exactly at the opponent's take point, where taking
//! and dropping are worth the same, so each cube state's equity is linear in `p` between the
//! two cash points. Working from the largest cube (64) down gives every take point from the
//! chances after each result (the table's), and the equity of a centred cube at `p = 1/2`
//! is the match winning chance before the game where the table has none. Scores are worked
//! through in order of points still needed, so every game's results are already known; the
//! Crawford game has no cube, post-Crawford games have the cube.

use super::cube::MAX_LOG2;
use super::met_kazaross::{AWAY, POST_CRAWFORD, PRE_CRAWFORD};
use super::score::MAX_LENGTH;
use std::sync::OnceLock;

/// The share of wins that are gammons in the model.
pub const GAMMON_RATE: f64 = 0.25;
/// Cube values 1, 2, ... 64.
const LEVELS: usize = MAX_LOG2 as usize + 1;
const N: usize = MAX_LENGTH as usize + 1;

/// One cube state's equity for a side as a function of its winning chance `p`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Live {
    /// The equity when the side loses (`p = 0`).
    pub lose: f64,
    /// The equity when it wins (`p = 1`).
    pub win: f64,
    /// `(q, D)`: the opponent can double it out below `q`, leaving the drop value `D`.
    pub opp_cash: Option<(f64, f64)>,
    /// `(c, C)`: it can double the opponent out above `c`, cashing `C`.
    pub my_cash: Option<(f64, f64)>,
}

impl Live {
    /// The equity at winning chance `p`, where `dead` is what the game is worth with nobody
    /// doubling. Past a cash point the side ahead may cash, or play on ("too good") and cash
    /// once its chance falls back to the cash point: with the chance moving without jumps
    /// that is worth the line from the cash value there to the game's end (winning at
    /// `p = 1`), which is Janowski's (and GNU Backgammon's) live value beyond the cash points.
    pub fn at(&self, p: f64, dead: f64) -> f64 {
        if let Some((q, d)) = self.opp_cash {
            if p <= q {
                return through((0.0, self.lose), (q, d), p).min(d);
            }
        }
        if let Some((c, cash)) = self.my_cash {
            if p >= c {
                return through((c, cash), (1.0, self.win), p).max(cash);
            }
        }
        let (from, to) = self.line();
        let line = through(from, to, p);
        match (self.opp_cash, self.my_cash) {
            (None, None) => dead,
            (None, Some(_)) => line.max(dead),
            (Some(_), None) => line.min(dead),
            (Some(_), Some(_)) => line,
        }
    }

    /// The two ends of the live-cube line: the cash points (or the game's own ends where a
    /// side cannot cash) with their values.
    fn line(&self) -> ((f64, f64), (f64, f64)) {
        (
            self.opp_cash.unwrap_or((0.0, self.lose)),
            self.my_cash.unwrap_or((1.0, self.win)),
        )
    }

    /// The dead-cube value of the model: linear between losing and winning.
    fn chord(&self, p: f64) -> f64 {
        self.lose + (self.win - self.lose) * p
    }

    /// The equity at `p` with the model's dead value (linear between losing and winning).
    pub fn model_at(&self, p: f64) -> f64 {
        self.at(p, self.chord(p))
    }

    /// The kinks of [`Live::model_at`] in [0, 1], in order, each with the model's value
    /// there: the ends, the cash points, and where the chord crosses the line between the
    /// cash points (the pieces beyond the cash points start from the chord's own ends, so they
    /// do not cross it). Between two of them the function is linear. On the stack: this runs
    /// at every evaluation in a match.
    fn kinks(&self) -> ([(f64, f64); 5], usize) {
        // A piece as (value at 0, slope); the chord's crossing of it.
        let chord = (self.lose, self.win - self.lose);
        let crossing = |(a, b): (f64, f64)| (b != chord.1).then(|| (a - chord.0) / (chord.1 - b));
        let ((x0, y0), (x1, y1)) = self.line();
        let line = if x1 - x0 < 1e-12 {
            ((y0 + y1) / 2.0, 0.0)
        } else {
            let slope = (y1 - y0) / (x1 - x0);
            (y0 - slope * x0, slope)
        };
        let candidates = [
            Some(0.0),
            Some(1.0),
            self.opp_cash.map(|(q, _)| q),
            self.my_cash.map(|(c, _)| c),
            crossing(line),
        ];
        let mut points = [(0.0, 0.0); 5];
        let mut n = 0;
        for p in candidates.into_iter().flatten() {
            if (0.0..=1.0).contains(&p) {
                points[n] = (p, 0.0);
                n += 1;
            }
        }
        points[..n].sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        for point in &mut points[..n] {
            point.1 = self.model_at(point.0);
        }
        (points, n)
    }

    /// The smallest `p` in [0, 1] with [`Live::model_at`]`(p) >= level` (1 when there is
    /// none): the model is non-decreasing and linear between its kinks, so the answer is
    /// exact, where a bisection paid two dozen evaluations for it in every match position.
    pub fn model_inf_above(&self, level: f64) -> f64 {
        let (points, n) = self.kinks();
        let points = &points[..n];
        if points[0].1 >= level {
            return 0.0;
        }
        for pair in points.windows(2) {
            if pair[1].1 >= level {
                return interpolate(pair[0], pair[1], level);
            }
        }
        1.0
    }

    /// The largest `p` in [0, 1] with [`Live::model_at`]`(p) <= level` (0 when there is
    /// none), exact as [`Live::model_inf_above`].
    pub fn model_sup_below(&self, level: f64) -> f64 {
        let (points, n) = self.kinks();
        let points = &points[..n];
        if points[n - 1].1 <= level {
            return 1.0;
        }
        for pair in points.windows(2).rev() {
            if pair[0].1 <= level {
                return interpolate(pair[0], pair[1], level);
            }
        }
        0.0
    }
}

/// Match winning chances and take points for every score of matches up to [`MAX_LENGTH`].
pub struct Met {
    /// `[a][b]`: the winning chance of a side `a` points away against one `b` away, before a
    /// game with the cube (pre- or post-Crawford).
    plain: Vec<[f64; N]>,
    /// `[a][b]` with `a` or `b` equal to 1: before the Crawford game.
    crawford: Vec<[f64; N]>,
    /// `[a][b][k]`: the lowest winning chance at which the `a`-away side takes a double from
    /// `2^k` to `2^(k+1)`.
    take: Vec<[[f64; LEVELS]; N]>,
}

/// The table, computed on first use (a few milliseconds).
pub fn table() -> &'static Met {
    static MET: OnceLock<Met> = OnceLock::new();
    MET.get_or_init(Met::compute)
}

impl Met {
    fn compute() -> Met {
        let mut met = Met {
            plain: vec![[0.0; N]; N],
            crawford: vec![[0.0; N]; N],
            take: vec![[[0.0; LEVELS]; N]; N],
        };
        for sum in 2..=2 * (N - 1) {
            for a in 1..N {
                let Some(b) = sum.checked_sub(a).filter(|&b| (1..N).contains(&b)) else {
                    continue;
                };
                if (a == 1) != (b == 1) {
                    met.crawford[a][b] =
                        published(a, b, true).unwrap_or_else(|| met.crawford_game(a, b));
                }
                let (mwc, take) = met.cube_game(a, b);
                met.plain[a][b] = published(a, b, false).unwrap_or(mwc);
                met.take[a][b] = take;
            }
        }
        met
    }

    /// The winning chance of a side `a` away against `b` away before a game; `crawford`:
    /// that game is the Crawford game.
    pub fn mwc(&self, a: i32, b: i32, crawford: bool) -> f64 {
        if a <= 0 {
            return 1.0;
        }
        if b <= 0 {
            return 0.0;
        }
        let (a, b) = (a as usize, b as usize);
        if crawford && (a == 1) != (b == 1) {
            self.crawford[a][b]
        } else {
            self.plain[a][b]
        }
    }

    /// The winning chance of the side `a` away (against `b`) once the game being played ends
    /// with it winning `points` (negative: losing them). `crawford`: this game is the
    /// Crawford game.
    pub fn after(&self, a: i32, b: i32, crawford: bool, points: i32) -> f64 {
        let (na, nb) = if points >= 0 {
            (a - points, b)
        } else {
            (a, b + points)
        };
        // The game after the first one to reach 1-away is the Crawford game.
        let next_is_crawford = !crawford && a > 1 && b > 1 && ((na == 1) != (nb == 1));
        self.mwc(na, nb, next_is_crawford)
    }

    /// The lowest winning chance at which the side `a` away (against `b`) takes a double
    /// from `2^k` to `2^(k+1)`, in a game with the cube.
    pub fn take_point(&self, a: i32, b: i32, k: usize) -> f64 {
        let clamp = |x: i32| x.clamp(1, N as i32 - 1) as usize;
        self.take[clamp(a)][clamp(b)][k.min(LEVELS - 1)]
    }

    /// The Crawford game: no cube, so its value is the average of winning and losing.
    fn crawford_game(&self, a: usize, b: usize) -> f64 {
        let (a, b) = (a as i32, b as i32);
        let g = GAMMON_RATE;
        let win = (1.0 - g) * self.after(a, b, true, 1) + g * self.after(a, b, true, 2);
        let lose = (1.0 - g) * self.after(a, b, true, -1) + g * self.after(a, b, true, -2);
        (win + lose) / 2.0
    }

    /// The model's equity functions of a game with the cube at away scores `a`, `b`: the
    /// winning chance before it and the take points of the `a`-away side at each cube.
    fn cube_game(&self, a: usize, b: usize) -> (f64, [f64; LEVELS]) {
        let (ai, bi) = (a as i32, b as i32);
        let g = GAMMON_RATE;
        let value = |points: i32| self.after(ai, bi, false, points);
        let ends = |v: i32| {
            let win = (1.0 - g) * value(v) + g * value(2 * v);
            let lose = (1.0 - g) * value(-v) + g * value(-2 * v);
            (win, lose)
        };
        let top = LEVELS - 1;
        let (win, lose) = ends(1 << top);
        let dead = Live {
            lose,
            win,
            opp_cash: None,
            my_cash: None,
        };
        // Equities at cube 2^(k+1): the side owning it, and its opponent owning it.
        let (mut own_next, mut opp_next) = (dead, dead);
        let mut take = [0.0; LEVELS];
        take[top] = 1.0;
        let mut centred = dead;
        for k in (0..top).rev() {
            let v = 1 << k;
            let (win, lose) = ends(v);
            let (cash, drop) = (value(v), value(-v));
            // The opponent takes while its equity, mine negated, beats dropping.
            let c = opp_next.model_sup_below(cash);
            let q = own_next.model_inf_above(drop);
            take[k] = q;
            let mine = (v < ai).then_some((c, cash));
            let theirs = (v < bi).then_some((q, drop));
            let own = Live {
                lose,
                win,
                opp_cash: None,
                my_cash: mine,
            };
            let opp = Live {
                lose,
                win,
                opp_cash: theirs,
                my_cash: None,
            };
            centred = Live {
                lose,
                win,
                opp_cash: theirs,
                my_cash: mine,
            };
            (own_next, opp_next) = (own, opp);
        }
        (centred.model_at(0.5), take)
    }
}

/// The published winning chance of a side `a` away against `b` away before a game
/// (`crawford`: the Crawford game; else pre-Crawford, or post-Crawford when a side is 1
/// away), when the table covers the score. Each pair of scores is read from one triangle, so
/// the two sides' chances add up to 1 exactly.
fn published(a: usize, b: usize, crawford: bool) -> Option<f64> {
    if a > AWAY || b > AWAY {
        return None;
    }
    let pre = |a: usize, b: usize| match a.cmp(&b) {
        std::cmp::Ordering::Less => PRE_CRAWFORD[a - 1][b - 1],
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Greater => 1.0 - PRE_CRAWFORD[b - 1][a - 1],
    };
    Some(match (a, b) {
        _ if crawford || (a > 1 && b > 1) => pre(a, b),
        (1, 1) => 0.5,
        (_, 1) => POST_CRAWFORD[a - 1],
        _ => 1.0 - POST_CRAWFORD[b - 1],
    })
}

/// The value at `p` of the line through two points, met exactly at each end (their mean where
/// the two nearly share their `p`).
fn through((x0, y0): (f64, f64), (x1, y1): (f64, f64), p: f64) -> f64 {
    if x1 - x0 < 1e-12 {
        (y0 + y1) / 2.0
    } else {
        y0 + (y1 - y0) * (p - x0) / (x1 - x0)
    }
}

/// Where the line through the points `(p0, v0)` and `(p1, v1)` reaches `level`, kept
/// between them.
fn interpolate((p0, v0): (f64, f64), (p1, v1): (f64, f64), level: f64) -> f64 {
    if v1 == v0 {
        return p0;
    }
    (p0 + (level - v0) * (p1 - p0) / (v1 - v0)).clamp(p0, p1)
}
