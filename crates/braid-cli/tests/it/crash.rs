//! The real crash test: a `braid` process streams from the fake model into
//! a database on disk and is killed with SIGKILL mid-stream. Reopening
//! restores the conversation Idle with its full history and a Recovery
//! message, and nothing else is lost.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_protocol::{ContextStatus, ControlKind, MessageType, StatusKind};
use braid_store::Store;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_braid");

fn braid(db: &std::path::Path, args: &[&str]) -> std::process::Output {
    let out = Command::new(BIN).arg("--db").arg(db).args(args).stdin(Stdio::null()).output().unwrap();
    assert!(out.status.success(), "braid {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    out
}

#[test]
fn sigkill_mid_stream_loses_nothing_that_was_stored() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("braid.db");
    let out = braid(&db, &["--send", "first question", "--fake-delay-ms", "0"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "You said: first question");

    let long: String = (1..=300).map(|i| format!("word{i} ")).collect();
    let mut child = Command::new(BIN)
        .arg("--db")
        .arg(&db)
        .args(["--send", long.trim(), "--fake-delay-ms", "20"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    // Wait until the answer is well under way, then kill without warning.
    loop {
        let line = rx.recv_timeout(Duration::from_secs(30)).expect("the stream should start");
        if line.starts_with("[state] Streaming (10 chunks") {
            break;
        }
    }
    child.kill().unwrap(); // SIGKILL
    let status = child.wait().unwrap();
    assert!(!status.success(), "the process was killed, not finished");

    {
        let store = Store::open(&db).unwrap();
        let listing = store.list_contexts().unwrap();
        assert_eq!(listing.len(), 1);
        assert!(listing[0].status.is_busy(), "the database shows the interrupted state: {:?}", listing[0].status);
    }

    // The next start recovers it and the conversation goes on.
    let out = braid(&db, &["--send", "after the crash", "--fake-delay-ms", "0"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("recovered conversation"), "the user is told: {stderr}");
    assert!(stderr.contains("StreamingLlmResponse"), "{stderr}");

    let store = Store::open(&db).unwrap();
    let id = store.list_contexts().unwrap()[0].meta.id.clone();
    let loaded = store.load_context(&id).unwrap();
    assert_eq!(loaded.state.status, ContextStatus::Idle);
    let bodies: Vec<&MessageType> = loaded.conversation.active_messages().map(|m| &m.body).collect();
    let texts: Vec<String> =
        bodies.iter().map(|b| b.plain_text().unwrap_or_else(|| format!("[{}]", b.kind().tag()))).collect();
    assert_eq!(
        texts,
        [
            "first question".to_owned(),
            "You said: first question".to_owned(),
            long.trim().to_owned(),
            "[system_control]".to_owned(),
            "after the crash".to_owned(),
            "You said: after the crash".to_owned(),
        ],
        "full history, the killed answer not half-stored, a Recovery message"
    );
    match bodies[3] {
        MessageType::SystemControl { control: ControlKind::Recovery { interrupted_state, detail } } => {
            assert_eq!(interrupted_state, &format!("{:?}", StatusKind::StreamingLlmResponse));
            assert!(detail.contains("Retry"), "{detail}");
            // Streaming progress is not stored per chunk: no stale counts.
            assert!(detail.contains("while the context was streaming an answer"), "{detail}");
            assert!(!detail.contains("chunks"), "{detail}");
        }
        other => panic!("expected a Recovery message, got {other:?}"),
    }
}
