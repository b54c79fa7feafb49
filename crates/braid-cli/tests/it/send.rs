//! `braid --send` for scripts: the exit status says whether the turn
//! succeeded, and nothing but Braid's own lines reach stderr (no
//! Tesseract "LEAK" report at exit).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_braid");

fn send(db: &std::path::Path, text: &str) -> std::process::Output {
    Command::new(BIN)
        .arg("--db")
        .arg(db)
        .args(["--send", text, "--fake-delay-ms", "0"])
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn a_failed_turn_exits_with_an_error_and_a_good_one_with_success() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("braid.db");
    let ok = send(&db, "hello");
    assert!(ok.status.success());
    assert_eq!(String::from_utf8_lossy(&ok.stdout).trim(), "You said: hello");

    // More than the echo model's 8,192-token window: the turn fails.
    let huge: String = (0..12_000).map(|i| format!("w{i} ")).collect();
    let failed = send(&db, &huge);
    let stderr = String::from_utf8_lossy(&failed.stderr);
    assert_eq!(failed.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("the turn failed"), "{stderr}");
    for out in [&ok, &failed] {
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("LEAK"), "{stderr}");
    }
}
