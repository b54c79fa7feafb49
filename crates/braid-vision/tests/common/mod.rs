//! Test images drawn by the real ImageMagick, the way users' screenshots
//! are made: text rendered by a font engine, not pasted pixels.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

pub fn convert() -> &'static str {
    // /usr/local/bin/convert may be a stand-in on some machines.
    if Path::new("/usr/bin/convert").exists() {
        "/usr/bin/convert"
    } else {
        "convert"
    }
}

/// Runs ImageMagick with `args`, writing `name` in `dir`.
pub fn magick(dir: &Path, name: &str, args: &[&str]) -> PathBuf {
    let out = dir.join(name);
    // Without date chunks the same drawing gives the same bytes, whenever made.
    let status = Command::new(convert())
        .args(args)
        .args(["-define", "png:exclude-chunk=date,time"])
        .arg(&out)
        .status()
        .expect("ImageMagick (convert) runs");
    assert!(status.success(), "convert {args:?} failed");
    out
}

/// A screenshot-like image: lines of text on a plain background.
pub fn text_image(dir: &Path, name: &str, size: &str, bg: &str, fg: &str, lines: &[&str]) -> Vec<u8> {
    let mut args: Vec<String> =
        vec!["-size".into(), size.into(), format!("xc:{bg}"), "-fill".into(), fg.into(), "-font".into()];
    args.push("DejaVu-Sans".into());
    args.push("-pointsize".into());
    args.push("28".into());
    for (i, line) in lines.iter().enumerate() {
        args.push("-annotate".into());
        args.push(format!("+30+{}", 60 + i * 48));
        args.push((*line).into());
    }
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    std::fs::read(magick(dir, name, &refs)).unwrap()
}
