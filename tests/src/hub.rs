//! A stand-in for Hugging Face's model hub on 127.0.0.1: the few API
//! calls Braid makes (search, a repository's files with their SHA-256)
//! and file downloads with range requests, serving one real GGUF file
//! (the starter model) under five repositories — a good one, one whose
//! listed checksum is wrong, a gated one, and two copies under other
//! names for downloads side by side. Downloads can be slowed, and faults queued (a status such as
//! 429 or 503, a body cut short) to see Braid go on from where it was.
//! Every file request is recorded with its range.
//!
//! Used in-process by the Rust tests and as `stand-in-hub` (a binary) by
//! the browser's end-to-end tests.

use axum::body::{Body, Bytes};
use axum::extract::{Path as UrlPath, State};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use futures::StreamExt as _;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::collections::VecDeque;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The repositories and the file each offers.
pub const GOOD: &str = "braid-test/SmolLM2-GGUF";
pub const COPY: &str = "braid-test/SmolLM2-copy-GGUF";
pub const WRONG_SUM: &str = "braid-test/Broken-GGUF";
pub const GATED: &str = "braid-test/Gated-GGUF";
pub const FILE: &str = "SmolLM2-135M-Instruct.Q4_1.gguf";
/// The copy's file (another name, so both can be on the shelf).
pub const COPY_FILE: &str = "SmolLM2-copy-Q4_1.gguf";
/// A third name, for a third download at once.
pub const THIRD: &str = "braid-test/SmolLM2-third-GGUF";
pub const THIRD_FILE: &str = "SmolLM2-third-Q4_1.gguf";

/// What the next file request gets instead of its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// This status (429 comes with `Retry-After: 1`).
    Status(u16),
    /// The body stops after this many bytes and the connection closes.
    CutAfter(u64),
    /// The body sends this many bytes and then nothing, the connection
    /// held open for an hour.
    StallAfter(u64),
}

/// One file request as received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fetch {
    pub repo: String,
    /// The first byte asked for (0 without a range).
    pub from: u64,
    pub status: u16,
}

#[derive(Default)]
struct Shared {
    faults: VecDeque<Fault>,
    fetches: Vec<Fetch>,
    /// Bytes per second for file bodies (0: as fast as it goes).
    rate: u64,
}

#[derive(Clone)]
pub struct StandInHub {
    file: Arc<PathBuf>,
    pub size: u64,
    pub sha256: String,
    shared: Arc<Mutex<Shared>>,
}

impl StandInHub {
    /// Serves `file` on a free port of 127.0.0.1; returns the hub and its
    /// address.
    pub async fn start(file: &Path) -> (StandInHub, String) {
        let (size, sha256) = digest(file);
        let hub = StandInHub { file: Arc::new(file.to_owned()), size, sha256, shared: Arc::default() };
        let app = axum::Router::new()
            .route("/api/models", get(search))
            .route("/api/models/{owner}/{name}", get(repo))
            .route("/{owner}/{name}/resolve/main/{*file}", get(download))
            .route("/_test/fetches", get(fetches))
            .with_state(hub.clone());
        (hub, crate::loopback::serve(app).await)
    }

    pub fn fault(&self, f: Fault) {
        self.shared.lock().unwrap().faults.push_back(f);
    }

    pub fn set_rate(&self, bytes_per_second: u64) {
        self.shared.lock().unwrap().rate = bytes_per_second;
    }

    pub fn fetches(&self) -> Vec<Fetch> {
        self.shared.lock().unwrap().fetches.clone()
    }

    fn listing(&self, repo: &str) -> Option<Value> {
        let (file, sha, gated) = match repo {
            GOOD => (FILE, self.sha256.clone(), false),
            COPY => (COPY_FILE, self.sha256.clone(), false),
            THIRD => (THIRD_FILE, self.sha256.clone(), false),
            WRONG_SUM => (FILE, "0".repeat(64), false),
            GATED => (FILE, self.sha256.clone(), true),
            _ => return None,
        };
        Some(json!({
            "id": repo,
            "downloads": if repo == GOOD { 1234 } else { 5 },
            "likes": 7,
            "tags": ["gguf", "license:apache-2.0"],
            "gated": if gated { json!("manual") } else { json!(false) },
            "lastModified": "2026-11-01T00:00:00.000Z",
            "siblings": [
                {"rfilename": "README.md", "size": 10},
                {"rfilename": file, "size": self.size, "lfs": {"sha256": sha, "size": self.size, "pointerSize": 135}},
                {"rfilename": "mmproj-f16.gguf", "size": 10, "lfs": {"sha256": "1".repeat(64), "size": 10}},
            ],
        }))
    }
}

/// A file's size and SHA-256 (lowercase hex).
pub fn digest(file: &Path) -> (u64, String) {
    let mut f = std::fs::File::open(file).unwrap();
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut size = 0;
    loop {
        let n = f.read(&mut buf).unwrap();
        if n == 0 {
            break;
        }
        size += n as u64;
        hasher.update(&buf[..n]);
    }
    (size, hasher.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// What was fetched, for a test in another process.
async fn fetches(State(hub): State<StandInHub>) -> Response {
    let list: Vec<Value> =
        hub.fetches().into_iter().map(|f| json!({"repo": f.repo, "from": f.from, "status": f.status})).collect();
    axum::Json(list).into_response()
}

async fn search(State(hub): State<StandInHub>, uri: Uri) -> Response {
    let wanted = uri
        .query()
        .unwrap_or("")
        .split('&')
        .find_map(|p| p.strip_prefix("search="))
        .map(|s| s.replace('+', " ").replace("%2F", "/").to_lowercase())
        .unwrap_or_default();
    let found: Vec<Value> = [GOOD, COPY, THIRD, WRONG_SUM, GATED]
        .into_iter()
        .filter(|r| r.to_lowercase().contains(&wanted))
        .filter_map(|r| hub.listing(r))
        .map(|mut v| {
            v.as_object_mut().unwrap().remove("siblings");
            v
        })
        .collect();
    axum::Json(found).into_response()
}

async fn repo(State(hub): State<StandInHub>, UrlPath((owner, name)): UrlPath<(String, String)>) -> Response {
    match hub.listing(&format!("{owner}/{name}")) {
        Some(v) => axum::Json(v).into_response(),
        None => (StatusCode::NOT_FOUND, axum::Json(json!({"error": "Repository not found"}))).into_response(),
    }
}

async fn download(
    State(hub): State<StandInHub>,
    UrlPath((owner, name, file)): UrlPath<(String, String, String)>,
    headers: HeaderMap,
) -> Response {
    let repo = format!("{owner}/{name}");
    let from = headers
        .get("range")
        .and_then(|v| v.to_str().ok())
        .and_then(|r| r.strip_prefix("bytes="))
        .and_then(|r| r.split('-').next())
        .and_then(|s| s.parse::<u64>().ok());
    let to = headers
        .get("range")
        .and_then(|v| v.to_str().ok())
        .and_then(|r| r.split('-').nth(1))
        .and_then(|s| s.parse::<u64>().ok())
        .map_or(hub.size, |end| (end + 1).min(hub.size));
    let known = hub.listing(&repo).is_some_and(|l| l["siblings"][1]["rfilename"] == file.as_str());
    let (status, fault, rate) = {
        let mut s = hub.shared.lock().unwrap();
        let fault = if known && repo != GATED { s.faults.pop_front() } else { None };
        let status = match (known, repo.as_str(), fault, from) {
            (false, ..) => 404,
            (_, GATED, ..) => 401,
            (_, _, Some(Fault::Status(code)), _) => code,
            (_, _, _, Some(f)) if f >= hub.size => 416,
            (_, _, _, Some(_)) => 206,
            _ => 200,
        };
        s.fetches.push(Fetch { repo: repo.clone(), from: from.unwrap_or(0), status });
        (status, fault, s.rate)
    };
    let mut response = Response::builder().status(status);
    if status == 429 {
        response = response.header("retry-after", "1");
    }
    if status != 200 && status != 206 {
        return response.body(Body::from(format!("{status}"))).unwrap();
    }
    let start = from.unwrap_or(0);
    let end = match fault {
        Some(Fault::CutAfter(n) | Fault::StallAfter(n)) => (start + n).min(to),
        _ => to,
    };
    if status == 206 {
        response = response.header("content-range", format!("bytes {start}-{}/{}", to - 1, hub.size));
    }
    // The promised length stays that of the whole range: a cut body is
    // then a connection that ends early, as a dropped one does.
    response = response.header("content-length", (to - start).to_string());
    let body = stream_file(hub.file.as_ref().clone(), start, end, rate);
    if matches!(fault, Some(Fault::StallAfter(_))) {
        let silence = futures::stream::once(async {
            tokio::time::sleep(Duration::from_secs(3600)).await;
            Ok::<Bytes, std::io::Error>(Bytes::new())
        });
        return response
            .body(Body::from_stream(body.into_data_stream().map(|r| r.map_err(std::io::Error::other)).chain(silence)))
            .unwrap();
    }
    response.body(body).unwrap()
}

/// Bytes `start..end` of `file` in 64 KiB chunks, at `rate` bytes a
/// second when it is not 0.
fn stream_file(file: PathBuf, start: u64, end: u64, rate: u64) -> Body {
    use std::io::Seek;
    const CHUNK: u64 = 64 << 10;
    let stream = futures::stream::unfold((None::<std::fs::File>, start), move |(f, at)| {
        let file = file.clone();
        async move {
            if at >= end {
                return None;
            }
            let mut f = match f {
                Some(f) => f,
                None => {
                    let mut f = std::fs::File::open(&file).ok()?;
                    f.seek(std::io::SeekFrom::Start(at)).ok()?;
                    f
                }
            };
            let n = CHUNK.min(end - at);
            let mut buf = vec![0u8; n as usize];
            f.read_exact(&mut buf).ok()?;
            if rate > 0 {
                tokio::time::sleep(Duration::from_secs_f64(n as f64 / rate as f64)).await;
            }
            Some((Ok::<Bytes, std::io::Error>(Bytes::from(buf)), (Some(f), at + n)))
        }
    });
    Body::from_stream(stream)
}
