//! Time controls: what `go` says, how long the arbiter waits, and the clocks.

use std::time::Duration;

/// A time control: `movetime=MS`, `depth=N`, `nodes=N`, or a clock `BASE+INC` in seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// A fixed time per move (`go movetime MS`).
    MoveTime(u64),
    /// A fixed depth (`go depth N`); only the hang timeout limits it.
    Depth(u32),
    /// A node budget (`go nodes N`); only the hang timeout limits it.
    Nodes(u64),
    /// A clock per side: base and increment in milliseconds (`go p1time .. p1inc ..`).
    Clock {
        /// Starting time.
        base_ms: u64,
        /// Added after each move.
        increment_ms: u64,
    },
}

/// The longest time arena takes anywhere (movetime, clock, increment, margin, timeout):
/// 10^10 ms, some 116 days, so that sums of them and instants that far ahead cannot overflow.
pub const MAX_MS: u64 = 10_000_000_000;

impl TimeControl {
    /// Parses `movetime=100`, `depth=3`, `nodes=5000`, `10+0.1` or `60`.
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let text = text.trim();
        let bad =
            || format!("--tc: expected movetime=MS, depth=N, nodes=N or BASE+INC, not {text}");
        if let Some((key, value)) = text.split_once('=') {
            return match key {
                "movetime" => match value.parse() {
                    Ok(ms) if ms <= MAX_MS => Ok(TimeControl::MoveTime(ms)),
                    _ => Err(bad()),
                },
                "depth" => value.parse().map(TimeControl::Depth).map_err(|_| bad()),
                "nodes" => value.parse().map(TimeControl::Nodes).map_err(|_| bad()),
                _ => Err(bad()),
            };
        }
        let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
        let seconds = |s: &str| -> Result<u64, String> {
            let value: f64 = s.parse().map_err(|_| bad())?;
            if !(0.0..=(MAX_MS / 1000) as f64).contains(&value) {
                return Err(bad());
            }
            Ok((value * 1000.0).round() as u64)
        };
        let base_ms = seconds(base)?;
        if base_ms == 0 {
            return Err(bad());
        }
        Ok(TimeControl::Clock {
            base_ms,
            increment_ms: seconds(increment)?,
        })
    }

    /// The time control as written on the command line, for records.
    pub fn describe(&self) -> String {
        match self {
            TimeControl::MoveTime(ms) => format!("movetime={ms}"),
            TimeControl::Depth(n) => format!("depth={n}"),
            TimeControl::Nodes(n) => format!("nodes={n}"),
            TimeControl::Clock {
                base_ms,
                increment_ms,
            } => format!(
                "{}+{}",
                *base_ms as f64 / 1000.0,
                *increment_ms as f64 / 1000.0
            ),
        }
    }

    /// Milliseconds on a fresh clock (clock controls only).
    pub fn start_ms(&self) -> i64 {
        match self {
            TimeControl::Clock { base_ms, .. } => *base_ms as i64,
            _ => 0,
        }
    }
}

/// The clocks of one game, one per colour, each under its engine's time control.
#[derive(Clone, Debug)]
pub struct Clocks {
    controls: [TimeControl; 2],
    left_ms: [i64; 2],
    least_ms: [Option<i64>; 2],
}

impl Clocks {
    /// Fresh clocks; `controls[0]` is White's.
    pub fn new(controls: [TimeControl; 2]) -> Clocks {
        Clocks {
            controls,
            left_ms: [controls[0].start_ms(), controls[1].start_ms()],
            least_ms: [None; 2],
        }
    }

    /// The `go` command for the side `mover` (0 White, 1 Black).
    pub fn go_command(&self, mover: usize) -> String {
        match self.controls[mover] {
            TimeControl::MoveTime(ms) => format!("go movetime {ms}"),
            TimeControl::Depth(n) => format!("go depth {n}"),
            TimeControl::Nodes(n) => format!("go nodes {n}"),
            TimeControl::Clock { .. } => {
                let inc = |side: usize| match self.controls[side] {
                    TimeControl::Clock { increment_ms, .. } => increment_ms,
                    _ => 0,
                };
                format!(
                    "go p1time {} p2time {} p1inc {} p2inc {}",
                    self.left_ms[0].max(0),
                    self.left_ms[1].max(0),
                    inc(0),
                    inc(1)
                )
            }
        }
    }

    /// How long the arbiter waits for `mover`'s answer: its allowance plus `margin`, or
    /// `hang` for controls without a time limit.
    pub fn allowance(&self, mover: usize, margin: Duration, hang: Duration) -> Duration {
        match self.controls[mover] {
            TimeControl::MoveTime(ms) => Duration::from_millis(ms) + margin,
            TimeControl::Depth(_) | TimeControl::Nodes(_) => hang,
            TimeControl::Clock { .. } => {
                Duration::from_millis(self.left_ms[mover].max(0) as u64) + margin
            }
        }
    }

    /// Charges `mover` for a move that took `elapsed`; false when that overstepped the
    /// allowance (a time loss). Clocks may end slightly negative within the margin.
    pub fn charge(&mut self, mover: usize, elapsed: Duration, margin: Duration) -> bool {
        let used = elapsed.as_millis() as i64;
        let margin = margin.as_millis() as i64;
        match self.controls[mover] {
            TimeControl::MoveTime(ms) => used <= ms as i64 + margin,
            TimeControl::Depth(_) | TimeControl::Nodes(_) => true,
            TimeControl::Clock { increment_ms, .. } => {
                self.left_ms[mover] -= used;
                let least = &mut self.least_ms[mover];
                *least = Some(least.map_or(self.left_ms[mover], |l| l.min(self.left_ms[mover])));
                if self.left_ms[mover] < -margin {
                    return false;
                }
                // Time spent within the margin is forgiven, not carried over.
                self.left_ms[mover] = self.left_ms[mover].max(0) + increment_ms as i64;
                true
            }
        }
    }

    /// The least time `side` had left on its clock right after one of its moves (before the
    /// increment; negative within the margin), `None` before its first move on a clock.
    pub fn least_left_ms(&self, side: usize) -> Option<i64> {
        self.least_ms[side]
    }

    /// Milliseconds left on `mover`'s clock (0 for controls without a clock).
    pub fn left_ms(&self, mover: usize) -> i64 {
        self.left_ms[mover]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_form() {
        assert_eq!(
            TimeControl::parse("movetime=100"),
            Ok(TimeControl::MoveTime(100))
        );
        assert_eq!(TimeControl::parse("depth=1"), Ok(TimeControl::Depth(1)));
        assert_eq!(
            TimeControl::parse("10+0.1"),
            Ok(TimeControl::Clock {
                base_ms: 10_000,
                increment_ms: 100
            })
        );
        assert_eq!(TimeControl::parse("5").map(|t| t.start_ms()), Ok(5000));
        assert_eq!(
            TimeControl::parse("movetime=10000000000"),
            Ok(TimeControl::MoveTime(MAX_MS))
        );
        for bad in [
            "",
            "movetime=",
            "movetime=10000000001",
            "movetime=18446744073709551615",
            "movetime=-1",
            "sideways=1",
            "0+1",
            "-5+1",
            "x+y",
            "1+z",
            "10000001+0",
            "1+10000001",
        ] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn clocks_run_down_and_flag() {
        let tc = TimeControl::parse("1+0.1").expect("parses");
        let mut clocks = Clocks::new([tc, TimeControl::MoveTime(50)]);
        let margin = Duration::from_millis(20);
        assert_eq!(
            clocks.go_command(0),
            "go p1time 1000 p2time 0 p1inc 100 p2inc 0"
        );
        assert!(clocks.charge(0, Duration::from_millis(400), margin));
        assert_eq!(clocks.left_ms(0), 700);
        assert_eq!(clocks.least_left_ms(0), Some(600));
        assert!(clocks.charge(0, Duration::from_millis(710), margin));
        assert_eq!(clocks.left_ms(0), 100);
        assert_eq!(clocks.least_left_ms(0), Some(-10));
        assert!(!clocks.charge(0, Duration::from_millis(130), margin));
        assert_eq!(clocks.least_left_ms(0), Some(-30));
        assert_eq!(clocks.go_command(1), "go movetime 50");
        assert!(clocks.charge(1, Duration::from_millis(70), margin));
        assert!(!clocks.charge(1, Duration::from_millis(71), margin));
        assert_eq!(clocks.least_left_ms(1), None);
    }
}
