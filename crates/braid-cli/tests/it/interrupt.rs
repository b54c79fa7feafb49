//! `/interrupt` in the terminal chat: a real `braid` process streams a long
//! answer from the echo model; `/interrupt` stops it after the running
//! step, the partial answer is kept (stored, not discarded), and the user
//! is told with the `interrupted` notice. Waits on the process's output,
//! never on a timer.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_protocol::{MessageType, Role};
use braid_store::Store;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_braid");

#[test]
fn slash_interrupt_stops_the_answer_and_keeps_what_was_written() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("braid.db");
    let mut child = Command::new(BIN)
        .arg("--db")
        .arg(&db)
        .args(["--fake-delay-ms", "20"])
        .stdin(Stdio::piped())
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
    let wait_for = |prefix: &str| loop {
        let line = rx.recv_timeout(Duration::from_secs(30)).unwrap_or_else(|_| panic!("no line {prefix:?}"));
        if line.starts_with(prefix) {
            return line;
        }
    };
    let mut stdin = child.stdin.take().unwrap();
    let long: String = (1..=300).map(|i| format!("word{i} ")).collect();
    writeln!(stdin, "{}", long.trim()).unwrap();
    wait_for("[state] Streaming (10 chunks");
    writeln!(stdin, "/interrupt").unwrap();
    let told = wait_for("[interrupted]");
    assert!(told.contains("partial answer is kept"), "{told}");
    wait_for("[state] Idle");
    writeln!(stdin, "/quit").unwrap();
    assert!(child.wait().unwrap().success());

    let store = Store::open(&db).unwrap();
    let id = store.list_contexts().unwrap()[0].meta.id.clone();
    let loaded = store.load_context(&id).unwrap();
    let answer = loaded
        .conversation
        .active_messages()
        .find_map(|m| match &m.body {
            MessageType::Text { role: Role::Assistant, .. } => m.body.plain_text(),
            _ => None,
        })
        .expect("the partial answer is stored");
    assert!(answer.starts_with("You said: word1 word2"), "{answer}");
    assert!(!answer.contains("word300"), "stopped before the end: {answer}");
}
