//! `cargo bench -p braid-vision --bench images`: OCR of a 1080p screenshot
//! on the warm engine (one thread, as the app runs it; goal: median under
//! 1.5 s, light and dark), and scaling + encoding a 4K image for each
//! provider (goal: under 100 ms). Images are drawn with ImageMagick.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/common/mod.rs"]
mod common;

use braid_core::vision::limits_for;
use braid_protocol::ProviderKind;
use braid_vision::{prepare, Ocr};
use criterion::{criterion_group, criterion_main, Criterion};
use std::time::Duration;

/// An editor-like screenshot: 36 lines of code and prose at 16 pt.
fn screenshot(dir: &std::path::Path, name: &str, size: &str, bg: &str, fg: &str) -> Vec<u8> {
    let base = [
        "fn prepare(bytes: &[u8], limits: ImageLimits) -> Result<Prepared, VisionError> {",
        "    let decoded = decode(bytes)?; // EXIF orientation applied here",
        "error[E0308]: mismatched types: expected `u32`, found `usize` at src/lib.rs:42:17",
        "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 4.21s",
        "The quick brown fox jumps over the lazy dog; 0123456789 (){}[] <> != == => ->",
        "    for line in text.lines() { out.push_str(line.trim_end()); }",
    ];
    let mut args: Vec<String> =
        vec!["-size".into(), size.into(), format!("xc:{bg}"), "-fill".into(), fg.into(), "-font".into()];
    args.extend(["DejaVu-Sans-Mono".into(), "-pointsize".into(), "16".into()]);
    for i in 0..36 {
        args.extend(["-annotate".into(), format!("+24+{}", 40 + i * 28), base[i % base.len()].into()]);
    }
    // As screenshots are saved: 8-bit RGB.
    args.extend(["-type".into(), "TrueColor".into(), "-depth".into(), "8".into()]);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    std::fs::read(common::magick(dir, name, &refs)).unwrap()
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let light = screenshot(dir.path(), "light.png", "1920x1080", "white", "#222222");
    let dark = screenshot(dir.path(), "dark.png", "1920x1080", "#1e1e1e", "#d4d4d4");
    let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let ocr = Ocr::start("eng");
    // Warm: the engine loads its model on the first page.
    let first = rt.block_on(ocr.read(light.clone())).unwrap();
    eprintln!("1080p light: {} chars, confidence {:.0} %", first.text.len(), first.confidence);
    let first = rt.block_on(ocr.read(dark.clone())).unwrap();
    eprintln!(
        "1080p dark: {} chars, confidence {:.0} %, inverted {}",
        first.text.len(),
        first.confidence,
        first.inverted
    );

    let mut g = c.benchmark_group("ocr 1080p screenshot, warm engine, 1 thread");
    g.sample_size(10).measurement_time(Duration::from_secs(20)).warm_up_time(Duration::from_secs(1));
    g.bench_function("light", |b| b.iter(|| rt.block_on(ocr.read(light.clone())).unwrap()));
    g.bench_function("dark (inverted first)", |b| b.iter(|| rt.block_on(ocr.read(dark.clone())).unwrap()));
    g.finish();

    // A 4K screenshot (text on a light background, 8 bits a channel).
    let four_k = screenshot(dir.path(), "4k.png", "3840x2160", "white", "#222222");
    let photo =
        std::fs::read(common::magick(dir.path(), "4k.jpg", &["-size", "3840x2160", "plasma:", "-quality", "90"]))
            .unwrap();
    let mut g = c.benchmark_group("prepare a 4K image (decode, scale, encode)");
    g.sample_size(20);
    for kind in [ProviderKind::OpenAiCompatible, ProviderKind::Anthropic, ProviderKind::Gemini] {
        let limits = limits_for(kind);
        g.bench_function(format!("PNG for {kind:?} ({} px)", limits.max_long_edge), |b| {
            b.iter(|| prepare(&four_k, limits).unwrap())
        });
    }
    g.bench_function("JPEG photo for Anthropic", |b| {
        b.iter(|| prepare(&photo, limits_for(ProviderKind::Anthropic)).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
