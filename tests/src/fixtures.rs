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
