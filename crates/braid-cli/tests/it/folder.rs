//! `/folder` in the terminal chat: shows the folder the tools work in, and
//! with a path moves the conversation there; a folder that does not exist
//! is refused with the reason and changes nothing.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use std::io::Write;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_braid");

#[test]
fn slash_folder_shows_and_moves_the_conversations_folder() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir(&project).unwrap();
    let project = std::fs::canonicalize(project).unwrap();
    let mut child = Command::new(BIN)
        .arg("--db")
        .arg(dir.path().join("braid.db"))
        .args(["--fake-delay-ms", "0"])
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let nowhere = dir.path().join("nowhere");
    writeln!(stdin, "/folder {}\n/folder {}\n/folder\n/quit", nowhere.display(), project.display()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let shown: Vec<&str> = stderr.lines().filter_map(|l| l.strip_prefix("folder: ")).collect();
    let project = project.display().to_string();
    assert_eq!(shown, [project.as_str(), project.as_str()], "{stderr}");
    assert!(stderr.contains(&format!("working directory {} does not exist", nowhere.display())), "{stderr}");
}
