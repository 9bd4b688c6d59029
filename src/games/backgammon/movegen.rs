//! Generating the plays of a roll: every way to use the dice one checker step at a time,
//! kept only when it uses as many dice as possible (and the larger die when only one of two
//! can be used), then one play per resulting position.

use super::board::{apply_step, check_step, Side26, BAR};
use super::cube::CubeAction;

/// A roll of two dice, `hi >= lo`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Roll {
    /// The larger die.
    pub hi: u8,
    /// The smaller die (equal to `hi` for a double).
    pub lo: u8,
}

impl Roll {
    /// The roll of two dice in any order; `None` unless both are 1..=6.
    pub fn new(a: u8, b: u8) -> Option<Roll> {
        let ok = |d: u8| (1..=6).contains(&d);
        (ok(a) && ok(b)).then(|| Roll {
            hi: a.max(b),
            lo: a.min(b),
        })
    }

    /// Whether both dice show the same number (played four times).
    pub fn is_double(self) -> bool {
        self.hi == self.lo
    }

    /// The chance-event number: the two digits, high first (`31`).
    pub fn event(self) -> u32 {
        self.hi as u32 * 10 + self.lo as u32
    }

    /// The roll with this event number.
    pub fn from_event(event: u32) -> Option<Roll> {
        if event > 66 {
            return None;
        }
        let roll = Roll::new((event / 10) as u8, (event % 10) as u8)?;
        (roll.event() == event).then_some(roll)
    }

    /// How many single die steps the roll allows.
    pub fn steps(self) -> usize {
        if self.is_double() {
            4
        } else {
            2
        }
    }

    /// The 21 rolls in event order (15 non-doubles when `opening`), with probabilities.
    pub fn all(opening: bool) -> impl Iterator<Item = (Roll, f64)> {
        (1..=6u8).flat_map(move |hi| {
            (1..=hi).filter_map(move |lo| {
                let roll = Roll { hi, lo };
                match (roll.is_double(), opening) {
                    (true, true) => None,
                    (true, false) => Some((roll, 1.0 / 36.0)),
                    (false, true) => Some((roll, 1.0 / 15.0)),
                    (false, false) => Some((roll, 1.0 / 18.0)),
                }
            })
        })
    }
}

/// One checker moved by one die: `from` 25 = bar, `to` 0 = off, in the mover's numbering.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Step {
    /// Starting point (25 = bar).
    pub from: u8,
    /// Landing point (0 = borne off).
    pub to: u8,
}

/// A whole turn: the roll and the steps in canonical order (`len == 0` is a pass).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The dice this play uses.
    pub roll: Roll,
    /// How many of `steps` are used.
    pub len: u8,
    /// The steps, highest starting point first (bar first), larger die first on ties.
    pub steps: [Step; 4],
    /// A cube action instead of a checker play (`roll` and `steps` unused).
    pub cube: CubeAction,
}

impl Move {
    /// A cube action as a move.
    pub fn cube_action(cube: CubeAction) -> Move {
        Move {
            roll: Roll { hi: 0, lo: 0 },
            len: 0,
            steps: [Step::default(); 4],
            cube,
        }
    }

    /// The steps actually played.
    pub fn steps(&self) -> &[Step] {
        &self.steps[..self.len as usize]
    }
}

/// What a finished play leaves: the mover's checkers and which opposing points were hit.
/// Two plays with the same key are the same move.
pub fn position_key(me: &Side26, hits: u32) -> u128 {
    let mut key = hits as u128;
    for &count in &me[1..26] {
        key = (key << 4) | count as u128;
    }
    key
}

/// A step's rank for choosing among spellings of one play: higher start first, then the larger die.
fn step_rank(step: Step) -> u16 {
    step.from as u16 * 32 + (25 - step.to as u16)
}

/// Sorts steps into the canonical order players write them in.
pub fn canonical_order(steps: &mut [Step]) {
    steps.sort_unstable_by_key(|&s| std::cmp::Reverse(step_rank(s)));
}

struct Search<'a> {
    roll: Roll,
    best_len: usize,
    found: &'a mut Vec<(u128, Move)>,
    steps: [Step; 4],
    /// Set for the smaller-die-first pass of a non-double that cannot bear off or enter: the
    /// mover's checkers before the turn, to skip second steps the larger-die-first pass
    /// already played in the other order.
    replayed: Option<Side26>,
}

impl Search<'_> {
    /// Tries every way to play `dice[depth..]`; `min_from` keeps doubles in non-increasing
    /// order of starting points (any legal double play can be written so).
    fn go(
        &mut self,
        me: &mut Side26,
        them: &mut Side26,
        dice: &[u8],
        depth: usize,
        max_from: usize,
        hits: u32,
    ) {
        let mut extended = false;
        if depth < dice.len() {
            let die = dice[depth] as usize;
            let top = if self.roll.is_double() { max_from } else { BAR };
            for from in (1..=top).rev() {
                if me[from] == 0 {
                    continue;
                }
                let Ok(to) = check_step(me, them, from, die) else {
                    if me[BAR] > 0 {
                        break;
                    }
                    continue;
                };
                extended = true;
                if depth == 1 && self.played_the_other_way(from) {
                    continue;
                }
                let saved_them = *them;
                let hit = apply_step(me, them, from, to);
                self.steps[depth] = Step {
                    from: from as u8,
                    to: to as u8,
                };
                let hits = if hit { hits | 1 << (to - 1) } else { hits };
                self.go(me, them, dice, depth + 1, from, hits);
                me[from] += 1;
                me[to] -= 1;
                *them = saved_them;
                if me[BAR] > 0 {
                    // Only the bar may move while a checker waits there.
                    break;
                }
            }
        }
        if !extended {
            self.record(me, depth, hits, dice[0]);
        }
    }

    /// Whether the larger die from `from` after the smaller die's step gives a position the
    /// larger-die-first pass found: when a checker stood on `from` before the turn (besides
    /// the one the smaller die moved), both orders are legal, as no step can bear off or
    /// enter, and leave the same position (a checker that only just arrived, on an empty
    /// point, is one checker moving both dice: those paths can differ in hits and stay).
    fn played_the_other_way(&self, from: usize) -> bool {
        self.replayed.is_some_and(|before| {
            let moved_off = usize::from(self.steps[0].from as usize == from);
            before[from] as usize > moved_off
        })
    }

    fn record(&mut self, me: &Side26, len: usize, hits: u32, first_die: u8) {
        if len < self.best_len {
            return;
        }
        if len > self.best_len {
            self.best_len = len;
            self.found.clear();
        }
        let mut mv = Move {
            roll: self.roll,
            len: len as u8,
            steps: self.steps,
            cube: CubeAction::None,
        };
        mv.steps[len..].fill(Step::default());
        canonical_order(&mut mv.steps[..len]);
        // A single step of the smaller die is tagged so the larger-die rule can drop it.
        let key = position_key(me, hits) | ((first_die == self.roll.lo && len == 1) as u128) << 127;
        self.found.push((key, mv));
    }
}

/// Appends the distinct plays of `roll` for the mover `me` against `them` to `out`
/// (a single pass when nothing can be played).
pub fn plays(me: &Side26, them: &Side26, roll: Roll, out: &mut Vec<Move>) {
    thread_local! {
        /// Every spelling found, kept between calls: once grown, generating allocates nothing.
        static SCRATCH: std::cell::RefCell<Vec<(u128, Move)>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    SCRATCH.with(|scratch| plays_into(me, them, roll, &mut scratch.borrow_mut(), out));
}

/// [`plays`] with the spellings collected in `scratch`.
fn plays_into(
    me: &Side26,
    them: &Side26,
    roll: Roll,
    scratch: &mut Vec<(u128, Move)>,
    out: &mut Vec<Move>,
) {
    scratch.clear();
    let mut me = *me;
    let mut them = *them;
    let mut search = Search {
        roll,
        best_len: 0,
        found: scratch,
        steps: [Step::default(); 4],
        replayed: None,
    };
    if roll.is_double() {
        search.go(&mut me, &mut them, &[roll.hi; 4], 0, BAR, 0);
    } else {
        search.go(&mut me, &mut them, &[roll.hi, roll.lo], 0, BAR, 0);
        // Checkers outside the home board: with two, no step of the turn can bear off.
        let outside: u32 = me[7..BAR].iter().map(|&n| u32::from(n)).sum();
        if me[BAR] == 0 && outside >= 2 {
            search.replayed = Some(me);
        }
        search.go(&mut me, &mut them, &[roll.lo, roll.hi], 0, BAR, 0);
    }
    let best_len = search.best_len;
    if best_len == 0 {
        out.push(Move {
            roll,
            len: 0,
            steps: [Step::default(); 4],
            cube: CubeAction::None,
        });
        return;
    }
    if best_len == 1 && !roll.is_double() && scratch.iter().any(|(k, _)| k >> 127 == 0) {
        // Either die alone, never both: the larger one must be played.
        scratch.retain(|(k, _)| k >> 127 == 0);
    }
    scratch.sort_unstable_by(|a, b| {
        a.0.cmp(&b.0)
            .then_with(|| spelling_rank(&b.1).cmp(&spelling_rank(&a.1)))
    });
    scratch.dedup_by_key(|(k, _)| *k & !(1u128 << 127));
    out.extend(scratch.iter().map(|&(_, mv)| mv));
}

/// Among spellings of one play, the one with the highest steps first is the canonical one.
fn spelling_rank(mv: &Move) -> [u16; 4] {
    let mut rank = [0u16; 4];
    for (r, &s) in rank.iter_mut().zip(mv.steps()) {
        *r = step_rank(s);
    }
    rank
}
