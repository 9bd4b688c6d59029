//! Value parsers shared by the tool binaries' command lines, so that a nonsense number is a
//! usage error instead of a silently useless run.

/// A number from 0 to 1 (a chance, a fraction, a decay).
pub fn unit_interval(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("{text} is not a number from 0 to 1")),
    }
}

/// A finite number above 0 that stays finite and above 0 as an `f32` (a learning rate: the
/// trainers compute in `f32`, where 1e300 is infinite and 1e-300 is 0).
pub fn positive(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if (x as f32).is_finite() && x as f32 > 0.0 => Ok(x),
        _ => Err(format!("{text} is not a finite number above 0")),
    }
}

/// Makes a closed standard output end the process quietly, as it does for other command-line
/// tools (`tool | head`): Rust ignores SIGPIPE, so the next `println!` would panic instead.
/// Only for tools whose sole pipe is their output: any write to a closed pipe or socket then
/// kills the process (the engine and the web board handle those errors themselves).
pub fn exit_on_closed_output() {
    #[cfg(unix)]
    // SAFETY: restoring the default action of a signal at start-up, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_sensible_numbers_pass() {
        assert_eq!(unit_interval("0"), Ok(0.0));
        assert_eq!(unit_interval("1"), Ok(1.0));
        assert_eq!(positive("0.3"), Ok(0.3));
        for bad in ["-0.1", "1.5", "nan", "inf", "x", ""] {
            assert!(unit_interval(bad).is_err(), "{bad}");
        }
        for bad in ["0", "-1", "nan", "inf", "-inf", "x", "", "1e300", "1e-300"] {
            assert!(positive(bad).is_err(), "{bad}");
        }
    }
}
