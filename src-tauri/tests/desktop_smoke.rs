//! The real desktop app in a real window under Xvfb: it starts, stays up,
//! draws its UI and creates its database (scripts/desktop-smoke.sh does the
//! X11 side; the browser e2e drives the same UI click by click).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use std::path::Path;
use std::process::Command;

#[test]
fn the_window_comes_up_and_draws_the_ui() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = Command::new("bash")
        .arg(root.join("scripts/desktop-smoke.sh"))
        .arg(env!("CARGO_BIN_EXE_braid-desktop"))
        .env("SMOKE_OUT", root.join("ui/e2e/out"))
        .output()
        .expect("bash runs");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "desktop smoke test failed:\n{text}");
    assert!(text.contains("window up, UI drawn"), "{text}");
}
