//! Limits reached (protocol.md, Transport): the system refuses threads, memory or files, and
//! the engine and the tools say so and go on (or end with a clear message), never aborting.
//! Linux only: the limits are set with `prlimit` on the running engine, or before a tool
//! starts.

use crate::common;

use common::Engine;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::Duration;

/// The engine's address space in KiB, from `/proc/PID/status`.
fn address_space_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("Linux /proc");
    let line = status.lines().find(|l| l.starts_with("VmSize:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// Sets a resource limit of a running process.
fn limit(pid: u32, resource: libc::__rlimit_resource_t, value: u64) {
    let limit = libc::rlimit {
        rlim_cur: value,
        rlim_max: value,
    };
    // SAFETY: prlimit reads `limit` and writes nothing (the old limit is not asked for).
    let status =
        unsafe { libc::prlimit(pid as libc::pid_t, resource, &limit, std::ptr::null_mut()) };
    assert_eq!(status, 0, "prlimit: {}", std::io::Error::last_os_error());
}

/// No thread can be started once the engine runs (its address space is full but for half a
/// MiB, less than a thread's stack): every `go` still answers a legal move, after an `error`
/// line saying why; a count answers its error alone; the session goes on.
#[test]
fn a_thread_the_system_refuses_costs_an_error_line_not_the_answer() {
    for (game, setup) in [
        ("bombardment", "position startpos moves e2e3"),
        ("morris", "position startpos moves d2"),
        ("backgammon", "dice 31"),
    ] {
        let mut engine = Engine::start(&[game]);
        engine.send("setoption name OwnBook value false\nsetoption name Threads value 4");
        engine.send(setup);
        engine.send("legalmoves\nisready");
        let legal = engine
            .lines_until("readyok", Duration::from_secs(20))
            .into_iter()
            .find(|l| l.starts_with("legalmoves"))
            .expect("legalmoves answers");
        // Only the input thread has started: no stack of an ended thread can be reused.
        let room_kib = 512;
        limit(
            engine.pid(),
            libc::RLIMIT_AS,
            (address_space_kib(engine.pid()) + room_kib) * 1024,
        );
        for go in ["go depth 3", "go movetime 100", "go infinite"] {
            engine.send(go);
            let answer = engine.lines_until("bestmove", Duration::from_secs(20));
            let errors: Vec<&String> = answer.iter().filter(|l| l.starts_with("error")).collect();
            assert_eq!(errors.len(), 1, "{game} {go}: {answer:?}");
            assert!(errors[0].starts_with("error cannot start the search thread: "));
            let best = answer
                .last()
                .unwrap()
                .split_whitespace()
                .nth(1)
                .unwrap()
                .to_owned();
            assert!(
                legal.split_whitespace().skip(1).any(|m| m == best),
                "{game} {go}: {best} is not legal ({legal})"
            );
        }
        engine.send("perft 2\nisready");
        let counted = engine.lines_until("readyok", Duration::from_secs(20));
        assert_eq!(counted.len(), 2, "{game}: {counted:?}");
        assert!(counted[0].starts_with("error cannot start the search thread: "));
        engine.send("setoption name Hash value 4096\nd\nisready");
        let shown = engine.lines_until("readyok", Duration::from_secs(20));
        assert!(
            shown.iter().any(|l| l.starts_with("fen ")),
            "{game}: {shown:?}"
        );
        let status = engine.finish();
        assert_eq!(status.code(), Some(0), "{game}: {status}");
    }
}

/// Started in an address space too small for any thread but the first (16 MiB), the engine
/// reads its input in turn and answers every `go` with an `error` line and a legal move.
#[test]
fn an_engine_started_without_room_for_threads_still_plays() {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tabula"));
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 16 << 20,
                rlim_max: 16 << 20,
            };
            match libc::setrlimit(libc::RLIMIT_AS, &limit) {
                0 => Ok(()),
                _ => Err(std::io::Error::last_os_error()),
            }
        });
    }
    let mut child = command.spawn().expect("the engine starts");
    let input = "newgame bombardment\nlegalmoves\ngo depth 3\nsetoption name Threads value 4\ngo movetime 50\nisready\n";
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), input.as_bytes()).unwrap();
    let output = child.wait_with_output().expect("the engine ends");
    assert_eq!(output.status.code(), Some(0), "{}", output.status);
    let text = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with("info")).collect();
    let legal: Vec<&str> = lines[0].split_whitespace().skip(1).collect();
    assert!(legal.len() > 10, "{lines:?}");
    let answers: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("bestmove"))
        .copied()
        .collect();
    assert_eq!(answers.len(), 2, "{lines:?}");
    for answer in answers {
        assert!(
            legal.contains(&answer.split_whitespace().nth(1).unwrap()),
            "{answer}"
        );
    }
    let errors = lines
        .iter()
        .filter(|l| l.starts_with("error cannot start"))
        .count();
    assert_eq!(errors, 2, "{lines:?}");
    assert_eq!(lines.last(), Some(&"readyok"));
}

/// A tool and its arguments, writing its output (if any) to `out`.
struct Tool {
    path: &'static str,
    args: Vec<String>,
    /// Whether it writes a file: given an unwritable `out`, it must fail and name it.
    writes: bool,
}

fn tools(out: &str) -> Vec<Tool> {
    let engine = env!("CARGO_BIN_EXE_tabula");
    let words = |text: String| text.split(' ').map(String::from).collect::<Vec<_>>();
    vec![
        Tool {
            path: engine,
            args: words("bombardment".into()),
            writes: false,
        },
        Tool {
            path: env!("CARGO_BIN_EXE_arena"),
            args: words(format!(
                "--game nim --games 2 --tc movetime=10 --engine cmd={engine} --engine cmd={engine} --record {out}"
            )),
            writes: true,
        },
        Tool {
            path: env!("CARGO_BIN_EXE_morris-tb"),
            args: words(format!("--max 3 --dir {out}")),
            writes: true,
        },
        Tool {
            path: env!("CARGO_BIN_EXE_backgammon-train"),
            args: words(format!("--games 10 --out {out}")),
            writes: true,
        },
        Tool {
            path: env!("CARGO_BIN_EXE_opening-book"),
            args: words(format!("--game morris --plies 1 --nodes 1000 --out {out}")),
            writes: true,
        },
        Tool {
            path: env!("CARGO_BIN_EXE_cascades-solve"),
            args: words("1 1 3x3".into()),
            writes: false,
        },
        Tool {
            path: env!("CARGO_BIN_EXE_backgammon-match"),
            args: words("2".into()),
            writes: false,
        },
    ]
}

/// Runs `tool` with one resource limit set before it starts (`None`: none); returns its exit
/// status and first line of stderr, after checking it was not killed by an abort or a panic.
fn run_limited(
    tool: &Tool,
    limit: Option<(libc::__rlimit_resource_t, u64)>,
    what: &str,
) -> (Option<i32>, String) {
    let mut command = Command::new(tool.path);
    command
        .args(&tool.args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .env_remove("RUST_BACKTRACE");
    if let Some((resource, value)) = limit {
        // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
        unsafe {
            command.pre_exec(move || {
                let limit = libc::rlimit {
                    rlim_cur: value,
                    rlim_max: value,
                };
                if libc::setrlimit(resource, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    let output = command.output().expect("the tool starts");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let name = tool.path.rsplit('/').next().unwrap();
    let code = output.status.code();
    assert!(
        code.is_some() && code != Some(101) && !stderr.contains("panicked"),
        "{name} under {what}: {}\n{stderr}",
        output.status
    );
    (code, stderr.lines().next().unwrap_or("").to_owned())
}

/// Each tool under a small address space, under a file-descriptor limit, and told to write
/// where nothing can be written: it may fail, but with a message and an exit status, never
/// killed by an abort or a panic; a file it cannot write is named.
#[test]
fn the_tools_end_with_a_message_under_tight_limits() {
    let dir = std::env::temp_dir().join(format!("tabula-faults-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("a-file");
    std::fs::write(&file, "not a directory").unwrap();
    // Unwritable even for root: a path through a regular file.
    let unwritable = file.join("out");
    let unwritable = unwritable.to_str().unwrap();
    let mut report = Vec::new();
    let limits: [(&str, libc::__rlimit_resource_t, u64); 2] = [
        ("an address space of 64 MiB", libc::RLIMIT_AS, 64 << 20),
        ("4 file descriptors", libc::RLIMIT_NOFILE, 4),
    ];
    for (what, resource, value) in limits {
        for tool in &tools(dir.join("out").to_str().unwrap()) {
            let (code, line) = run_limited(tool, Some((resource, value)), what);
            report.push(format!(
                "{} under {what}: {code:?} {line}",
                tool.path.rsplit('/').next().unwrap()
            ));
            let _ = std::fs::remove_dir_all(dir.join("out"));
            let _ = std::fs::remove_file(dir.join("out"));
        }
    }
    for tool in tools(unwritable).iter().filter(|t| t.writes) {
        let name = tool.path.rsplit('/').next().unwrap();
        let (code, line) = run_limited(tool, None, "an unwritable path");
        report.push(format!("{name} writing {unwritable}: {code:?} {line}"));
        assert_ne!(code, Some(0), "{name} wrote nowhere and said nothing");
        assert!(line.contains(unwritable), "{name}: {line}");
    }
    eprintln!("{}", report.join("\n"));
    std::fs::remove_dir_all(&dir).unwrap();
}
