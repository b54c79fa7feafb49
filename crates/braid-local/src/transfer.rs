//! One file from the hub into a partial file on the shelf, going on from
//! the bytes already there (an HTTP range request), so a pause, a dropped
//! connection or a restart loses nothing; then the whole file checked
//! against the repository's SHA-256 before it takes its name.

use crate::hub::{status_words, Hub};
use futures::StreamExt;
use sha2::{Digest, Sha256};
use std::collections::VecDeque;
use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};
use tokio::io::AsyncWriteExt;
use tokio::sync::watch;

/// Failures in a row (no byte received between them) before giving up.
const TRIES: u32 = 5;
/// Room left on the disk beyond the file, for everything else.
const SPARE: u64 = 64 << 20;

pub enum Outcome {
    Complete,
    /// Paused or cancelled.
    Stopped,
}

/// Bytes on disk, and the recent pace.
#[derive(Default)]
pub struct Progress {
    done: AtomicU64,
    samples: Mutex<VecDeque<(Instant, u64)>>,
}

/// The pace is measured over this much time.
const PACE_WINDOW: Duration = Duration::from_secs(5);

impl Progress {
    pub fn done(&self) -> u64 {
        self.done.load(Ordering::Relaxed)
    }

    pub fn set(&self, bytes: u64) {
        self.done.store(bytes, Ordering::Relaxed);
        self.samples.lock().unwrap_or_else(PoisonError::into_inner).clear();
    }

    fn add(&self, bytes: u64) {
        let done = self.done.fetch_add(bytes, Ordering::Relaxed) + bytes;
        let now = Instant::now();
        let mut samples = self.samples.lock().unwrap_or_else(PoisonError::into_inner);
        if samples.back().is_none_or(|(at, _)| now.duration_since(*at) >= Duration::from_millis(200)) {
            samples.push_back((now, done));
        }
        while samples.len() > 2 && samples.front().is_some_and(|(at, _)| now.duration_since(*at) > PACE_WINDOW) {
            samples.pop_front();
        }
    }

    /// Bytes per second over the last seconds.
    pub fn speed(&self) -> u64 {
        let samples = self.samples.lock().unwrap_or_else(PoisonError::into_inner);
        let (Some((t0, b0)), Some((_, b1))) = (samples.front(), samples.back()) else { return 0 };
        let seconds = t0.elapsed().as_secs_f64();
        if seconds < 0.5 {
            return 0;
        }
        ((self.done().max(*b1) - b0) as f64 / seconds) as u64
    }
}

/// Fetches `url` (a file of `total` bytes) into `part`, from its length
/// on, until it is whole or `stop` says so. Errors are sentences.
pub async fn fetch(
    hub: &Hub,
    url: &str,
    part: &Path,
    total: u64,
    progress: &Progress,
    stop: &mut watch::Receiver<bool>,
) -> Result<Outcome, String> {
    let mut failures = 0;
    let mut before = None;
    loop {
        let mut offset = std::fs::metadata(part).map_or(0, |m| m.len());
        if offset > total {
            truncate(part)?;
            offset = 0;
        }
        // Failures count in a row: bytes that came since reset them.
        if before.is_some_and(|b| offset > b) {
            failures = 0;
        }
        before = Some(offset);
        let mut fail = |why: String| again(&mut failures, why);
        progress.set(offset);
        if offset == total && total > 0 {
            return Ok(Outcome::Complete);
        }
        room_for(part, total - offset)?;
        let request = hub.client().get(url).header(reqwest::header::RANGE, format!("bytes={offset}-")).send();
        let response = tokio::select! {
            r = request => r,
            _ = stop.changed() => return Ok(Outcome::Stopped),
        };
        let wait = match response {
            Err(e) => fail(hub.failed(&e))?,
            Ok(r) => match r.status().as_u16() {
                206 if starts_at(&r, offset) => match write_body(r, part, progress, stop).await? {
                    Some(outcome) => return Ok(outcome),
                    // The body ended early: go on from where it stopped,
                    // a failure only when nothing came.
                    None if progress.done() > offset => Duration::ZERO,
                    None => fail("the download broke off".to_owned())?,
                },
                // A server that ignores ranges sends the whole file.
                200 | 206 => {
                    truncate(part)?;
                    progress.set(0);
                    match write_body(r, part, progress, stop).await? {
                        Some(outcome) => return Ok(outcome),
                        None => fail("the download broke off".to_owned())?,
                    }
                }
                429 => {
                    let asked =
                        r.headers().get(reqwest::header::RETRY_AFTER).and_then(|v| v.to_str().ok()?.parse().ok());
                    fail(status_words(429, "", &hub.endpoint))?;
                    Duration::from_secs(asked.unwrap_or(5).min(60))
                }
                s @ 500.. => fail(status_words(s, "the file", &hub.endpoint))?,
                416 => {
                    truncate(part)?;
                    fail("the hub refused the range Braid asked for".to_owned())?
                }
                s => return Err(status_words(s, "the file", &hub.endpoint)),
            },
        };
        tokio::select! {
            _ = tokio::time::sleep(wait) => {}
            _ = stop.changed() => return Ok(Outcome::Stopped),
        }
    }
}

/// How long to wait before trying again, or the error once there were
/// too many failures in a row.
fn again(failures: &mut u32, why: String) -> Result<Duration, String> {
    *failures += 1;
    if *failures >= TRIES {
        Err(format!("{why} ({TRIES} tries); Resume tries again"))
    } else {
        Ok(Duration::from_secs(1 << (*failures - 1)))
    }
}

/// A 206 answer that starts where the partial file ends.
fn starts_at(r: &reqwest::Response, offset: u64) -> bool {
    let range = r.headers().get(reqwest::header::CONTENT_RANGE).and_then(|v| v.to_str().ok()).unwrap_or("");
    range.strip_prefix("bytes ").and_then(|r| r.split('-').next()).and_then(|s| s.parse::<u64>().ok()) == Some(offset)
}

/// Appends the body to `part`: `Some` when stopped, `None` when the body
/// ended (whole or not: the caller looks at the length).
async fn write_body(
    r: reqwest::Response,
    part: &Path,
    progress: &Progress,
    stop: &mut watch::Receiver<bool>,
) -> Result<Option<Outcome>, String> {
    let mut file = tokio::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(part)
        .await
        .map_err(|e| format!("could not write {}: {e}", part.display()))?;
    let mut body = r.bytes_stream();
    let stopped = loop {
        tokio::select! {
            chunk = body.next() => match chunk {
                Some(Ok(bytes)) => {
                    file.write_all(&bytes).await.map_err(|e| write_error(part, &e))?;
                    progress.add(bytes.len() as u64);
                }
                Some(Err(_)) | None => break false,
            },
            _ = stop.changed() => break true,
        }
    };
    file.flush().await.map_err(|e| write_error(part, &e))?;
    Ok(stopped.then_some(Outcome::Stopped))
}

fn write_error(part: &Path, e: &std::io::Error) -> String {
    let dir = part.parent().unwrap_or(part).display();
    if e.raw_os_error() == Some(28) {
        format!("the disk of {dir} is full; free some space and Resume")
    } else {
        format!("could not write to {dir}: {e}")
    }
}

fn truncate(part: &Path) -> Result<(), String> {
    match std::fs::File::create(part) {
        Ok(_) => Ok(()),
        Err(e) => Err(write_error(part, &e)),
    }
}

/// Refuses to start when the disk cannot hold the rest of the file.
pub fn room_for(part: &Path, bytes: u64) -> Result<(), String> {
    let dir = part.parent().unwrap_or(part);
    std::fs::create_dir_all(dir).map_err(|e| format!("could not make {}: {e}", dir.display()))?;
    let Some(free) = free_space(dir) else { return Ok(()) };
    if free < bytes + SPARE {
        return Err(format!(
            "not enough space in {}: the model needs {} more and {} is free",
            dir.display(),
            megabytes(bytes),
            megabytes(free)
        ));
    }
    Ok(())
}

fn free_space(dir: &Path) -> Option<u64> {
    let s = rustix::fs::statvfs(dir).ok()?;
    Some(s.f_bavail.saturating_mul(s.f_frsize))
}

pub fn megabytes(bytes: u64) -> String {
    if bytes >= 1 << 30 {
        format!("{:.1} GB", bytes as f64 / f64::from(1u32 << 30))
    } else {
        format!("{} MB", bytes >> 20)
    }
}

/// The SHA-256 of a file, in lowercase hex (blocking: a model takes
/// seconds).
pub fn sha256(path: &Path) -> Result<String, String> {
    let mut file = std::fs::File::open(path).map_err(|e| format!("could not read {}: {e}", path.display()))?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut buf).map_err(|e| format!("could not read {}: {e}", path.display()))?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hasher.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_disk_too_small_is_refused_with_both_sizes() {
        let dir = tempfile::tempdir().unwrap();
        let e = room_for(&dir.path().join("m.gguf.download"), u64::MAX / 4).unwrap_err();
        assert!(e.contains("not enough space") && e.contains("GB"), "{e}");
        assert!(room_for(&dir.path().join("m.gguf.download"), 1 << 20).is_ok());
    }

    #[test]
    fn the_checksum_is_the_files_sha256() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f");
        std::fs::write(&p, b"abc").unwrap();
        assert_eq!(sha256(&p).unwrap(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}
