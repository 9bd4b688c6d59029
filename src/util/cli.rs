//! Value parsers shared by the tool binaries' command lines, so that a nonsense number is a
//! usage error instead of a silently useless run, and the handling of their output errors.

use std::io::Write;

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
        _ => Err(format!(
            "{text} is not a number above 0 that 32-bit floats hold (about 1e-38 to 3e38)"
        )),
    }
}

/// Fails (naming the path) when `path` cannot be written, so that a long run finds out
/// before it starts, not when it saves its result. An existing file is opened for appending
/// and left as it was; a new one is created and removed again.
pub fn check_writable(path: &std::path::Path) -> Result<(), String> {
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// Makes a closed standard output end the process quietly, as it does for other command-line
/// tools (`tool | head`): Rust ignores SIGPIPE, so the next `println!` would panic instead.
/// Only for tools whose sole pipe is their output: any write to a closed pipe or socket then
/// kills the process (the engine and the web board handle those errors themselves). Other
/// failed writes to the output end it as [`exit_on_output_errors`] says.
pub fn exit_on_closed_output() {
    #[cfg(unix)]
    // SAFETY: restoring the default action of a signal at start-up, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    exit_on_output_errors();
}

/// Makes a failed write to standard output or standard error (a full disk, `> /dev/full`)
/// end the process with a one-line message and exit status 1: `println!` panics on such an
/// error, and a panic's message and status 101 would read as a bug in the tool.
pub fn exit_on_output_errors() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if let Some(cause) = output_failure(message) {
            let tool = std::env::args().next().unwrap_or_default();
            let name = std::path::Path::new(&tool)
                .file_name()
                .map_or(tool.clone(), |n| n.to_string_lossy().into_owned());
            // Standard error may be what failed: then only the status says so.
            let _ = writeln!(
                std::io::stderr(),
                "{name}: cannot write its output: {cause}"
            );
            std::process::exit(1);
        }
        default(info);
    }));
}

/// The cause in the message of `println!`'s (`eprintln!`'s) panic on a failed write.
fn output_failure(message: &str) -> Option<&str> {
    ["failed printing to stdout: ", "failed printing to stderr: "]
        .iter()
        .find_map(|prefix| message.strip_prefix(prefix))
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

    #[test]
    fn a_path_is_checked_without_being_left_behind() {
        let dir = std::env::temp_dir().join(format!("cli-writable-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let new = dir.join("new.txt");
        assert_eq!(check_writable(&new), Ok(()));
        assert!(!new.exists(), "the check leaves no file");
        let old = dir.join("old.txt");
        std::fs::write(&old, "kept").unwrap();
        assert_eq!(check_writable(&old), Ok(()));
        assert_eq!(std::fs::read_to_string(&old).unwrap(), "kept");
        let error = check_writable(&dir.join("no/such/dir/x")).unwrap_err();
        assert!(error.contains("no/such/dir/x"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn only_failed_prints_are_output_failures() {
        let full = "failed printing to stdout: No space left on device (os error 28)";
        assert_eq!(
            output_failure(full),
            Some("No space left on device (os error 28)")
        );
        assert!(output_failure("index out of bounds").is_none());
    }
}
