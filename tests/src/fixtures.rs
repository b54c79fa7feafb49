//! Fixtures: workspaces with files in them, and images drawn with
//! ImageMagick (installed by the set-up step) so OCR has real text to read.

use std::path::Path;

/// A temporary workspace holding `files` (path relative to it, content).
pub fn workspace(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, content) in files {
        let path = dir.path().join(path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(path, content).unwrap();
    }
    dir
}

/// A PNG drawn by ImageMagick's `convert` with `args`, written to
/// `dir/name`, returned as bytes. Without date chunks the same drawing
/// gives the same bytes, whenever made.
pub fn magick(dir: &Path, name: &str, args: &[&str]) -> Vec<u8> {
    let convert = if Path::new("/usr/bin/convert").exists() { "/usr/bin/convert" } else { "convert" };
    let out = dir.join(name);
    let status = std::process::Command::new(convert)
        .args(args)
        .args(["-define", "png:exclude-chunk=date,time"])
        .arg(&out)
        .status();
    assert!(status.unwrap().success(), "convert {args:?} failed");
    std::fs::read(out).unwrap()
}

/// Two lines of black text on white, 900×160: what OCR must read.
pub fn text_png(dir: &Path) -> Vec<u8> {
    magick(
        dir,
        "text.png",
        &[
            "-size",
            "900x160",
            "xc:white",
            "-fill",
            "black",
            "-font",
            "DejaVu-Sans",
            "-pointsize",
            "30",
            "-annotate",
            "+20+60",
            "Deploy failed: disk quota exceeded",
            "-annotate",
            "+20+115",
            "Retry in 30 seconds",
        ],
    )
}

/// A copy of `tests/fixtures/codebase` (small projects in Rust, Python,
/// TypeScript/TSX, JavaScript and Go) to change freely, with a
/// `.gitignore` and files it leaves out, which must never be found:
/// `build/generated.rs` and `debug.log` both mention `parse_config`.
pub fn codebase() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/codebase");
    copy_tree(&from, dir.path());
    std::fs::write(dir.path().join(".gitignore"), "build/\n*.log\n").unwrap();
    std::fs::create_dir_all(dir.path().join("build")).unwrap();
    std::fs::write(dir.path().join("build/generated.rs"), "pub fn parse_config() {}\n").unwrap();
    std::fs::write(dir.path().join("debug.log"), "called parse_config\n").unwrap();
    dir
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// A stand-in for a coding CLI (`claude`, `codex` or `gemini`), speaking
/// its streamed JSON exactly: `tests/fixtures/agents/standin.mjs` says how
/// its answers are chosen.
pub fn standin(program: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/agents").join(program)
}

/// A workspace for a team with CLI members: Gemini's key in its
/// `.gemini/.env` (where Gemini CLI reads it), and the stand-ins' log.
pub fn team_workspace() -> tempfile::TempDir {
    let dir = workspace(&[(".gemini/.env", "GEMINI_API_KEY=standin\n")]);
    std::fs::write(dir.path().join("notes.md"), "REPLY: from the file\n").unwrap();
    dir
}
