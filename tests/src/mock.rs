//! A mock HTTP server on 127.0.0.1 (axum): each request takes the next
//! scripted [`Reply`] and is recorded ([`Captured`]). Bodies can come in
//! pieces, after a delay, or end in a connection reset.

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::Response;
use futures::StreamExt;
use serde_json::Value;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(Debug, Clone, Default)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(&'static str, String)>,
    /// Sent one after the other, 2 ms apart.
    pub chunks: Vec<Vec<u8>>,
    /// Before the response starts (a slow first byte).
    pub delay_first: Duration,
    /// Abort the connection after the chunks instead of ending cleanly.
    pub reset: bool,
}

impl Reply {
    /// 200 with these chunks of an event stream.
    pub fn ok(chunks: Vec<String>) -> Reply {
        Reply { status: 200, chunks: chunks.into_iter().map(String::into_bytes).collect(), ..Reply::default() }
    }

    /// The same body re-cut into `n`-byte pieces: events, lines and UTF-8
    /// characters all split across network chunks.
    pub fn in_pieces(chunks: Vec<String>, n: usize) -> Reply {
        let all: Vec<u8> = chunks.concat().into_bytes();
        Reply { status: 200, chunks: all.chunks(n).map(<[u8]>::to_vec).collect(), ..Reply::default() }
    }

    /// An error status with a JSON body in the OpenAI style (which every
    /// family's error parser reads).
    pub fn error(status: u16, message: &str) -> Reply {
        let body = serde_json::json!({"error": {"message": message, "type": "invalid_request_error"}}).to_string();
        Reply {
            status,
            headers: vec![("content-type", "application/json".to_owned())],
            chunks: vec![body.into_bytes()],
            ..Reply::default()
        }
    }

    /// 200 with a JSON body.
    pub fn json(value: serde_json::Value) -> Reply {
        Reply {
            status: 200,
            headers: vec![("content-type", "application/json".to_owned())],
            chunks: vec![value.to_string().into_bytes()],
            ..Reply::default()
        }
    }

    pub fn after(mut self, delay: Duration) -> Reply {
        self.delay_first = delay;
        self
    }
}

/// One request as the server received it.
#[derive(Debug, Clone)]
pub struct Captured {
    pub path: String,
    pub headers: HeaderMap,
    /// The JSON body (`Null` when it was not JSON).
    pub body: Value,
    /// The body as it came, byte for byte.
    pub raw: Bytes,
}

#[derive(Clone, Default)]
pub struct MockServer {
    replies: Arc<Mutex<VecDeque<Reply>>>,
    captured: Arc<Mutex<Vec<Captured>>>,
    /// Token-count requests take scripted replies too; by default they get
    /// a 404 and are not captured, like a server without such endpoints.
    script_counts: Arc<std::sync::atomic::AtomicBool>,
}

async fn handle(mock: MockServer, uri: Uri, headers: HeaderMap, body: Bytes) -> Response {
    let counting = uri.path().ends_with("/tokenize") || uri.path().ends_with("/tokenize/count");
    if counting && !mock.script_counts.load(std::sync::atomic::Ordering::Relaxed) {
        return Response::builder().status(StatusCode::NOT_FOUND).body(Body::from("Not Found")).unwrap();
    }
    let raw = body;
    let body = serde_json::from_slice(&raw).unwrap_or(Value::Null);
    mock.captured.lock().unwrap().push(Captured { path: uri.to_string(), headers, body, raw });
    let reply = mock.replies.lock().unwrap().pop_front().unwrap_or_else(|| Reply::error(500, "no reply was scripted"));
    tokio::time::sleep(reply.delay_first).await;
    let mut items: Vec<Result<Bytes, std::io::Error>> = reply.chunks.into_iter().map(|c| Ok(Bytes::from(c))).collect();
    if reply.reset {
        items.push(Err(std::io::Error::other("connection reset")));
    }
    let stream = futures::stream::iter(items).then(|c| async {
        tokio::time::sleep(Duration::from_millis(2)).await;
        c
    });
    let mut builder = Response::builder().status(StatusCode::from_u16(reply.status).unwrap());
    if !reply.headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("content-type")) {
        builder = builder.header("content-type", "text/event-stream");
    }
    for (k, v) in reply.headers {
        builder = builder.header(k, v);
    }
    builder.body(Body::from_stream(stream)).unwrap()
}

impl MockServer {
    /// Listens on a free port of 127.0.0.1; returns the server and its
    /// base address (`http://127.0.0.1:PORT`).
    pub async fn start() -> (MockServer, String) {
        let mock = MockServer::default();
        let m = mock.clone();
        let app = axum::Router::new()
            .fallback(move |uri: Uri, headers: HeaderMap, body: Bytes| handle(m.clone(), uri, headers, body));
        (mock, crate::loopback::serve(app).await)
    }

    /// Token-count requests (`/tokenize`, `/extras/tokenize/count`) take
    /// the scripted replies from now on.
    pub fn script_counts(&self) {
        self.script_counts.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// Queues the reply to the next request.
    pub fn reply(&self, r: Reply) {
        self.replies.lock().unwrap().push_back(r);
    }

    /// Every request so far, in order.
    pub fn captured(&self) -> Vec<Captured> {
        self.captured.lock().unwrap().clone()
    }
}
