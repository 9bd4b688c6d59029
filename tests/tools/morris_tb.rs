//! `morris-tb` resumes a pair from its checkpoint (`.partial`) and says so, and refuses one
//! that does not verify by name and builds the pair from the start; either way the table is
//! the one a run that never stopped writes, and the checkpoint is gone once it is written.
//! Every file goes under /tmp/toolfix.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use tabula::games::morris::tablebase::{BuildSettings, Tablebase};

/// Runs `morris-tb --max 3` (the flying 3v3 table) into `dir`; returns its stderr.
fn build_3v3(dir: &Path, threads: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_morris-tb"))
        .args(["--max", "3", "--threads", threads, "--dir"])
        .arg(dir)
        .output()
        .expect("morris-tb starts");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    stderr
}

#[test]
fn morris_tb_resumes_from_a_checkpoint_and_refuses_a_bad_one() {
    let root = PathBuf::from(format!("/tmp/toolfix/morris_tb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let [fresh, resumed, bad] = ["fresh", "resumed", "bad"].map(|name| root.join(name));
    for dir in [&fresh, &resumed, &bad] {
        std::fs::create_dir_all(dir).unwrap();
    }
    let table = |dir: &Path| std::fs::read(Tablebase::file_name(dir, true, 3, 3)).unwrap();
    let partial = |dir: &Path| Tablebase::partial_name(dir, true, 3, 3);

    let stderr = build_3v3(&fresh, "1");
    assert!(
        stderr.starts_with("morris-tb: 1 thread, a checkpoint every 10 minutes\n"),
        "{stderr}"
    );
    let expected = table(&fresh);

    // A build stopped after level 6, as a run killed there would leave it.
    let stop = BuildSettings {
        threads: 2,
        checkpoints: Some(resumed.clone()),
        checkpoint_every: Some(Duration::ZERO),
        stop_after_level: Some(6),
    };
    let stopped = Tablebase::new(true).build_pair_with(3, 3, &stop, &mut |_| {});
    assert_eq!(stopped, Err("stopped after level 6".into()));
    let stderr = build_3v3(&resumed, "2");
    let said = format!(
        "morris-tb: resuming 3v3 from {} (level 7)",
        partial(&resumed).display()
    );
    assert!(stderr.contains(&said), "{stderr}");
    assert!(table(&resumed) == expected, "the resumed table differs");
    assert!(!partial(&resumed).exists());

    std::fs::write(partial(&bad), b"not a checkpoint").unwrap();
    let stderr = build_3v3(&bad, "2");
    let said = format!(
        "morris-tb: {}: cut short: 16 bytes, ",
        partial(&bad).display()
    );
    assert!(
        stderr.contains(&said) && stderr.contains("expected; building 3v3 from the start"),
        "{stderr}"
    );
    assert!(table(&bad) == expected, "the rebuilt table differs");
    assert!(!partial(&bad).exists());
    std::fs::remove_dir_all(&root).unwrap();
}
