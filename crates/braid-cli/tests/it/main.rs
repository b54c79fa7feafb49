//! The `braid` binary's tests: real processes, killed and interrupted.
//! One test binary, so a cold build links once instead of once per file.

mod crash;
mod folder;
mod interrupt;
mod send;
mod window;

/// The terminal chat on a fresh database in `dir` with the fake model (no
/// delay): `lines` typed in, then what it wrote to stderr.
pub fn chat_in(dir: &std::path::Path, lines: &str) -> String {
    use std::io::Write;
    use std::process::{Command, Stdio};
    #[allow(clippy::unwrap_used)] // a panic is how a test reports
    let out = {
        let mut child = Command::new(env!("CARGO_BIN_EXE_braid"))
            .arg("--db")
            .arg(dir.join("braid.db"))
            .args(["--fake-delay-ms", "0"])
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        writeln!(stdin, "{lines}").unwrap();
        drop(stdin);
        child.wait_with_output().unwrap()
    };
    String::from_utf8_lossy(&out.stderr).into_owned()
}
