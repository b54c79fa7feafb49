//! OCR with Tesseract (leptess) on one worker thread that keeps its engine
//! warm: loading the English model takes longer than reading a screenshot.
//! The engine loads with the first page, not at start: there it took the
//! CPU the window needed for its first paint (70–90 ms on two cores), and
//! tens of MB that a session without images never uses.
//! Jobs queue; one whose caller has gone (cancelled) is skipped unread.
//! Tesseract cannot be stopped mid-page, so a cancelled page still finishes
//! on the worker, but nobody waits for it.

use crate::decode::decode;
use crate::VisionError;
use image::{DynamicImage, GrayImage};
use std::sync::{mpsc, Arc};
use tokio::sync::oneshot;

#[derive(Debug, Clone, PartialEq)]
pub struct OcrText {
    pub text: String,
    /// Tesseract's mean word confidence, 0–100.
    pub confidence: f32,
    /// The language of the text (ISO 639-3, e.g. "eng", "deu") when it
    /// can be told reliably, else the Tesseract model it was read with.
    pub language: String,
    /// The image was dark (a dark-mode screenshot) and was inverted first.
    pub inverted: bool,
}

struct Job {
    bytes: Vec<u8>,
    reply: oneshot::Sender<Result<OcrText, VisionError>>,
}

#[derive(Clone)]
pub struct Ocr {
    inner: Arc<Worker>,
}

/// The worker thread and the way to it. When the last handle goes, the
/// queue closes and the worker is joined, so Tesseract's engine is freed
/// before the process exits (else its caches report "LEAK" at exit).
struct Worker {
    jobs: Option<mpsc::Sender<Job>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.jobs.take();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Ocr {
    /// Starts the worker. The engine loads there with the first page; if
    /// it cannot (no language data), every job says why.
    /// Binaries call [`limit_ocr_threads`] first thing in `main`.
    pub fn start(language: &str) -> Ocr {
        let (tx, rx) = mpsc::channel::<Job>();
        let language = language.to_owned();
        let spawned = std::thread::Builder::new().name("braid-ocr".into()).spawn(move || worker(&language, &rx));
        let thread = spawned.map_err(|e| tracing::error!(error = %e, "could not start the OCR thread")).ok();
        Ocr { inner: Arc::new(Worker { jobs: Some(tx), thread }) }
    }

    /// Reads the text in an image (encoded bytes). Dropping the future
    /// cancels the job if it has not started.
    pub async fn read(&self, bytes: Vec<u8>) -> Result<OcrText, VisionError> {
        let (reply, answer) = oneshot::channel();
        self.inner
            .jobs
            .as_ref()
            .ok_or_else(|| VisionError::OcrUnavailable("the OCR thread has stopped".into()))?
            .send(Job { bytes, reply })
            .map_err(|_| VisionError::OcrUnavailable("the OCR thread has stopped".into()))?;
        answer.await.map_err(|_| VisionError::OcrUnavailable("the OCR thread has stopped".into()))?
    }
}

/// Tesseract's OpenMP threads made a 1080p page 8× slower here (7.1 s
/// instead of 0.9 s on two cores: the threads fight the app and each
/// other). libgomp reads `OMP_THREAD_LIMIT` once, when it is loaded, before
/// `main` runs, so setting it later changes nothing: a binary started
/// without it restarts itself once with it set (same process id, same
/// arguments), which costs a start ~90 ms. The desktop entry sets it
/// (src-tauri/linux/braid.desktop.hbs), so a start from the menu does not
/// restart; tests and benches get it from `.cargo/config.toml`.
pub fn limit_ocr_threads() {
    use std::os::unix::process::CommandExt;
    if std::env::var_os("OMP_THREAD_LIMIT").is_some() {
        return;
    }
    let Ok(exe) = std::env::current_exe() else { return };
    let err = std::process::Command::new(exe).args(std::env::args_os().skip(1)).env("OMP_THREAD_LIMIT", "1").exec();
    tracing::warn!(error = %err, "could not restart with OMP_THREAD_LIMIT=1; OCR will be slower");
}

fn worker(language: &str, jobs: &mpsc::Receiver<Job>) {
    let mut engine = None;
    while let Ok(job) = jobs.recv() {
        if job.reply.is_closed() {
            continue;
        }
        let engine = engine.get_or_insert_with(|| {
            leptess::LepTess::new(None, language).map_err(|e| {
                format!(
                    "Tesseract could not load its {language:?} language data ({e}); install tesseract-ocr-{language}"
                )
            })
        });
        let result = match engine {
            Ok(engine) => read_page(engine, &job.bytes, language),
            Err(why) => Err(VisionError::OcrUnavailable(why.clone())),
        };
        let _ = job.reply.send(result);
    }
}

fn read_page(engine: &mut leptess::LepTess, bytes: &[u8], language: &str) -> Result<OcrText, VisionError> {
    let decoded = decode(bytes)?;
    let (gray, inverted) = prepare_for_ocr(&decoded.image);
    engine.set_image_from_mem(&pnm(&gray)).map_err(|e| VisionError::Ocr(e.to_string()))?;
    // Screenshots carry no resolution; 96 dpi is what they are.
    engine.set_source_resolution(96);
    let text = engine.get_utf8_text().map_err(|e| VisionError::Ocr(e.to_string()))?;
    let text = tidy(&text);
    let confidence = if text.is_empty() { 0.0 } else { engine.mean_text_conf().clamp(0, 100) as f32 };
    let language = whatlang::detect(&text)
        .filter(whatlang::Info::is_reliable)
        .map_or_else(|| language.to_owned(), |info| info.lang().code().to_owned());
    Ok(OcrText { text, confidence, language, inverted })
}

/// Grey, with dark backgrounds made light: Tesseract reads dark text on a
/// light page; inverting beats switching its own inversion pass off.
pub fn prepare_for_ocr(image: &DynamicImage) -> (GrayImage, bool) {
    let mut gray = image.to_luma8();
    let pixels = gray.as_raw();
    let mean =
        if pixels.is_empty() { 255 } else { pixels.iter().map(|&p| u64::from(p)).sum::<u64>() / pixels.len() as u64 };
    let dark = mean < 110;
    if dark {
        image::imageops::invert(&mut gray);
    }
    (gray, dark)
}

/// Binary PGM: Leptonica reads it without any decoding work.
fn pnm(gray: &GrayImage) -> Vec<u8> {
    let mut out = format!("P5\n{} {}\n255\n", gray.width(), gray.height()).into_bytes();
    out.extend_from_slice(gray.as_raw());
    out
}

/// Tesseract ends pages with form feeds and leaves runs of blank lines.
fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank = 0;
    for line in text.replace('\u{c}', "").lines() {
        let line = line.trim_end();
        if line.trim().is_empty() {
            blank += 1;
            continue;
        }
        if !out.is_empty() {
            out.push_str(if blank > 0 { "\n\n" } else { "\n" });
        }
        blank = 0;
        out.push_str(line);
    }
    out
}
