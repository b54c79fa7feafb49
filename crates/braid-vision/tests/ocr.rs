//! OCR with the real Tesseract on images drawn in the test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use braid_vision::{Ocr, VisionError};

const LINES: &[&str] = &["Braid reads screenshots for models", "Error 42: connection refused on port 8089"];

fn words_found(text: &str, expected: &[&str]) -> usize {
    let lower = text.to_lowercase();
    expected.iter().filter(|w| lower.contains(&w.to_lowercase())).count()
}

const WORDS: &[&str] = &["Braid", "reads", "screenshots", "models", "Error", "connection", "refused", "port", "8089"];

#[tokio::test]
async fn reads_the_words_of_a_light_screenshot_with_high_confidence() {
    let dir = tempfile::tempdir().unwrap();
    let png = common::text_image(dir.path(), "light.png", "1000x200", "white", "black", LINES);
    let ocr = Ocr::start("eng");
    let read = ocr.read(png).await.unwrap();
    assert_eq!(words_found(&read.text, WORDS), WORDS.len(), "got {:?}", read.text);
    assert!(read.confidence >= 80.0, "confidence {}", read.confidence);
    assert_eq!(read.language, "eng");
    assert!(!read.inverted);
}

#[tokio::test]
async fn a_dark_mode_screenshot_is_inverted_and_read() {
    let dir = tempfile::tempdir().unwrap();
    let png = common::text_image(dir.path(), "dark.png", "1000x200", "#1e1e1e", "#d4d4d4", LINES);
    let read = Ocr::start("eng").read(png).await.unwrap();
    assert!(read.inverted, "a dark image is inverted first");
    assert_eq!(words_found(&read.text, WORDS), WORDS.len(), "got {:?}", read.text);
    assert!(read.confidence >= 75.0, "confidence {}", read.confidence);
}

#[tokio::test]
async fn a_jpeg_and_a_webp_are_read_too() {
    let dir = tempfile::tempdir().unwrap();
    common::text_image(dir.path(), "src.png", "1000x200", "white", "black", LINES);
    let src = dir.path().join("src.png");
    let src = src.to_str().unwrap();
    let jpg = std::fs::read(common::magick(dir.path(), "t.jpg", &[src, "-quality", "90"])).unwrap();
    let webp = std::fs::read(common::magick(dir.path(), "t.webp", &[src, "-define", "webp:lossless=true"])).unwrap();
    let ocr = Ocr::start("eng");
    for bytes in [jpg, webp] {
        let read = ocr.read(bytes).await.unwrap();
        assert!(words_found(&read.text, WORDS) >= WORDS.len() - 1, "got {:?}", read.text);
    }
}

#[tokio::test]
async fn the_language_of_the_text_is_detected() {
    let dir = tempfile::tempdir().unwrap();
    let german =
        ["Die Rechnung wurde gestern bezahlt und der Betrag", "ist auf dem Konto der Firma eingegangen. Vielen Dank"];
    let png = common::text_image(dir.path(), "de.png", "1000x200", "white", "black", &german);
    let read = Ocr::start("eng").read(png).await.unwrap();
    assert!(read.text.contains("Rechnung"), "{:?}", read.text);
    assert_eq!(read.language, "deu");
}

#[tokio::test]
async fn a_blank_image_gives_empty_text_without_error() {
    let dir = tempfile::tempdir().unwrap();
    let png = std::fs::read(common::magick(dir.path(), "blank.png", &["-size", "640x480", "xc:white"])).unwrap();
    let read = Ocr::start("eng").read(png).await.unwrap();
    assert_eq!(read.text, "");
    assert_eq!(read.confidence, 0.0);
}

#[tokio::test]
async fn a_corrupt_file_gives_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let mut png = common::text_image(dir.path(), "cut.png", "1000x200", "white", "black", LINES);
    png.truncate(png.len() / 2);
    let err = Ocr::start("eng").read(png).await.unwrap_err();
    assert!(matches!(err, VisionError::Corrupt(_)), "{err:?}");
    assert!(err.to_string().contains("damaged or incomplete"), "{err}");
    let err = Ocr::start("eng").read(b"%PDF-1.7 not an image".to_vec()).await.unwrap_err();
    assert!(err.to_string().contains("PNG, JPEG, WebP or GIF"), "{err}");
}

#[tokio::test]
async fn a_missing_language_is_explained() {
    let dir = tempfile::tempdir().unwrap();
    let png = common::text_image(dir.path(), "x.png", "400x100", "white", "black", &["hello"]);
    let err = Ocr::start("zzz").read(png).await.unwrap_err();
    assert!(err.to_string().contains("tesseract-ocr-zzz"), "{err}");
}

#[tokio::test]
async fn a_job_dropped_before_it_starts_is_skipped_and_the_worker_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let png = common::text_image(dir.path(), "q.png", "1000x200", "white", "black", LINES);
    let ocr = Ocr::start("eng");
    // Queue three, drop two at once: only the last is read.
    let a = tokio::spawn({
        let (o, p) = (ocr.clone(), png.clone());
        async move { o.read(p).await }
    });
    let b = tokio::spawn({
        let (o, p) = (ocr.clone(), png.clone());
        async move { o.read(p).await }
    });
    a.abort();
    b.abort();
    let read = ocr.read(png).await.unwrap();
    assert!(read.text.contains("Braid"));
}
