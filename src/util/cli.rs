//! Value parsers shared by the tool binaries' command lines, so that a nonsense number is a
//! usage error instead of a silently useless run.

/// A number from 0 to 1 (a chance, a fraction, a decay).
pub fn unit_interval(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("{text} is not a number from 0 to 1")),
    }
}

/// A finite number above 0 (a learning rate).
pub fn positive(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(format!("{text} is not a finite number above 0")),
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
        for bad in ["0", "-1", "nan", "inf", "-inf", "x", ""] {
            assert!(positive(bad).is_err(), "{bad}");
        }
    }
}
