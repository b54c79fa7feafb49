//! The headless server over real HTTP on 127.0.0.1: auth, the context API,
//! a sent message answered as an SSE stream, busy and cancel, the generic
//! command endpoint, the event streams, and the UI files.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::llm::StopReason;
use braid_llm::fake::{FakeController, FakeProvider};
use braid_llm::sse::{SseDecoder, SseEvent};
use braid_protocol::{ContextSnapshot, ContextSummary, StatusKind};
use braid_runtime::{Runtime, RuntimeConfig};
use braid_server::Token;
use futures::StreamExt;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

const TOKEN: &str = "test-token-0123456789abcdef";

struct Server {
    base: String,
    http: reqwest::Client,
    _dir: tempfile::TempDir,
}

async fn start(provider: Arc<dyn braid_llm::LlmProvider>, ui: Option<std::path::PathBuf>) -> Server {
    let dir = tempfile::tempdir().unwrap();
    let (rt, _) = Runtime::open(RuntimeConfig::new(dir.path().join("b.db"), dir.path().to_owned()), provider).unwrap();
    let app = braid_server::router(rt, Token::new(TOKEN).unwrap(), ui);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    Server { base, http: reqwest::Client::new(), _dir: dir }
}

impl Server {
    fn get(&self, path: &str) -> reqwest::RequestBuilder {
        self.http.get(format!("{}{path}", self.base)).bearer_auth(TOKEN)
    }
    fn post(&self, path: &str) -> reqwest::RequestBuilder {
        self.http.post(format!("{}{path}", self.base)).bearer_auth(TOKEN)
    }
    async fn create(&self) -> ContextSummary {
        self.post("/api/contexts").json(&json!({"title": "t"})).send().await.unwrap().json().await.unwrap()
    }
}

/// Reads SSE events from a response until `stop` says so or it ends.
async fn read_sse(resp: reqwest::Response, mut stop: impl FnMut(&SseEvent) -> bool) -> Vec<SseEvent> {
    let mut body = resp.bytes_stream();
    let mut decoder = SseDecoder::new();
    let mut out = Vec::new();
    loop {
        let next = tokio::time::timeout(Duration::from_secs(10), body.next()).await.expect("events in time");
        let Some(chunk) = next else { return out };
        let mut events = Vec::new();
        decoder.push(&chunk.unwrap(), &mut events);
        for e in events {
            let done = stop(&e);
            out.push(e);
            if done {
                return out;
            }
        }
    }
}

fn message(text: &str) -> Value {
    json!({"message": {"body": {"type": "text", "role": "user", "parts": [{"kind": "text", "text": text}]}}})
}

#[tokio::test]
async fn every_api_call_needs_the_token() {
    let s = start(Arc::new(FakeProvider::echo(Duration::ZERO)), None).await;
    let r = s.http.get(format!("{}/api/contexts", s.base)).send().await.unwrap();
    assert_eq!(r.status(), 401);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["code"], "invalid_input");
    let r = s.http.get(format!("{}/api/contexts", s.base)).bearer_auth("wrong-token-0123456789").send().await.unwrap();
    assert_eq!(r.status(), 401);
    let r = s.http.get(format!("{}/api/contexts?token={TOKEN}", s.base)).send().await.unwrap();
    assert_eq!(r.status(), 200, "EventSource-style ?token= works too");
}

#[tokio::test]
async fn contexts_are_created_listed_loaded_and_deleted() {
    let s = start(Arc::new(FakeProvider::echo(Duration::ZERO)), None).await;
    let c = s.create().await;
    let list: Vec<ContextSummary> = s.get("/api/contexts").send().await.unwrap().json().await.unwrap();
    assert_eq!(list.iter().map(|c| &c.id).collect::<Vec<_>>(), [&c.id]);
    let snap: ContextSnapshot = s.get(&format!("/api/contexts/{}", c.id)).send().await.unwrap().json().await.unwrap();
    assert_eq!(snap.summary.title, "t");
    let r = s.http.delete(format!("{}/api/contexts/{}", s.base, c.id)).bearer_auth(TOKEN).send().await.unwrap();
    assert_eq!(r.status(), 204);
    let r = s.get(&format!("/api/contexts/{}", c.id)).send().await.unwrap();
    assert_eq!(r.status(), 404);
    assert_eq!(r.json::<Value>().await.unwrap()["code"], "not_found");
    let r = s.post("/api/contexts").json(&json!({"working_dir": "/no/such/dir"})).send().await.unwrap();
    assert_eq!(r.status(), 400);
}

/// Malformed JSON, a field of the wrong type and a body without a content
/// type are answered like every other error: a 400 with `{code, message}`.
#[tokio::test]
async fn every_bad_body_is_a_400_with_a_code_and_a_message() {
    let s = start(Arc::new(FakeProvider::echo(Duration::ZERO)), None).await;
    let c = s.create().await;
    let json = ("content-type", "application/json");
    let cases = [
        ("/api/contexts".to_owned(), Some(json), "{not json"),
        ("/api/contexts".to_owned(), Some(json), r#"{"title": 7}"#),
        (format!("/api/contexts/{}/messages", c.id), Some(json), r#"{"message": 1}"#),
        ("/api/command".to_owned(), Some(json), r#"{"type": "no_such_command"}"#),
        ("/api/messages".to_owned(), None, "[]"),
    ];
    for (path, header, body) in cases {
        let mut r = s.post(&path).body(body);
        if let Some((k, v)) = header {
            r = r.header(k, v);
        }
        let r = r.send().await.unwrap();
        assert_eq!(r.status(), 400, "{path} {body}");
        let e: Value = r.json().await.unwrap_or_else(|e| panic!("{path} {body}: not JSON: {e}"));
        assert_eq!(e["code"], "invalid_input", "{path} {body}");
        assert!(e["message"].as_str().is_some_and(|m| m.starts_with("not a valid ")), "{path} {body}: {e}");
    }
    // No body and no content type still creates an untitled conversation;
    // so does a title sent without a content type.
    let r = s.post("/api/contexts").send().await.unwrap();
    assert_eq!(r.status(), 201);
    let r = s.post("/api/contexts").body(r#"{"title": "plain"}"#).send().await.unwrap();
    assert_eq!(r.status(), 201);
    assert_eq!(r.json::<Value>().await.unwrap()["title"], "plain");
}

#[tokio::test]
async fn a_typed_payload_is_sent_and_a_bad_one_is_a_400_that_says_why() {
    let s = start(Arc::new(FakeProvider::echo(Duration::ZERO)), None).await;
    let c = s.create().await;
    let ok = json!({"context_id": c.id, "payload": {"type": "text", "text": "hi"}, "client_metadata": {"n": 1}});
    let r = s.post("/api/messages").json(&ok).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let receipt: Value = r.json().await.unwrap();
    assert_eq!(receipt["client_metadata"], json!({"n": 1}));
    let unknown = json!({"context_id": c.id, "payload": {"type": "video", "url": "x"}});
    let r = s.post("/api/messages").json(&unknown).send().await.unwrap();
    assert_eq!(r.status(), 400);
    let e: Value = r.json().await.unwrap();
    let message = e["message"].as_str().unwrap();
    assert!(message.contains("unknown variant `video`") && message.contains("`mcp_resource`"), "{message}");
    let up = json!({"context_id": c.id, "payload": {"type": "file_reference", "path": "../x"}});
    let r = s.post("/api/messages").json(&up).send().await.unwrap();
    assert_eq!(r.status(), 400);
    assert!(r.json::<Value>().await.unwrap()["message"].as_str().unwrap().contains(".."));
}

#[tokio::test]
async fn a_sent_message_answers_with_an_sse_stream_that_ends_when_idle() {
    let s = start(Arc::new(FakeProvider::echo(Duration::from_millis(1))), None).await;
    let c = s.create().await;
    let resp = s.post(&format!("/api/contexts/{}/messages", c.id)).json(&message("hello there")).send().await.unwrap();
    assert_eq!(resp.status(), 200);
    assert!(resp.headers()["content-type"].to_str().unwrap().starts_with("text/event-stream"));
    let events = read_sse(resp, |_| false).await; // the server closes the stream
    assert_eq!(events[0].event.as_deref(), Some("receipt"));
    let text: String = events
        .iter()
        .filter(|e| e.event.as_deref() == Some("content_delta"))
        .map(|e| serde_json::from_str::<Value>(&e.data).unwrap()["delta"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(text, "You said: hello there");
    assert!(events.iter().any(|e| e.event.as_deref() == Some("content_final")));
    let last: Value = serde_json::from_str(&events.last().unwrap().data).unwrap();
    assert_eq!(last["event"], "context_update", "the same JSON as over Tauri IPC");
    assert_eq!(last["current_state"]["state"], "idle");
    let snap: ContextSnapshot = s.get(&format!("/api/contexts/{}", c.id)).send().await.unwrap().json().await.unwrap();
    assert_eq!(snap.messages.len(), 2);
}

async fn manual() -> (Server, FakeController) {
    let (p, fake) = FakeProvider::manual();
    (start(Arc::new(p), None).await, fake)
}

#[tokio::test]
async fn busy_is_409_and_cancel_ends_the_stream_without_a_partial_answer() {
    let (s, mut fake) = manual().await;
    let c = s.create().await;
    let resp = s.post(&format!("/api/contexts/{}/messages", c.id)).json(&message("long")).send().await.unwrap();
    let req = fake.next_request().await.unwrap();
    req.connect();
    req.text("partial ");
    let busy = s.post(&format!("/api/contexts/{}/messages", c.id)).json(&message("again")).send().await.unwrap();
    assert_eq!(busy.status(), 409);
    assert_eq!(busy.json::<Value>().await.unwrap()["code"], "agent_busy");
    let r = s.post(&format!("/api/contexts/{}/cancel", c.id)).send().await.unwrap();
    assert_eq!(r.status(), 204);
    let events = read_sse(resp, |_| false).await;
    let last: Value = serde_json::from_str(&events.last().unwrap().data).unwrap();
    assert_eq!(last["current_state"]["state"], "idle");
    let snap: ContextSnapshot = s.get(&format!("/api/contexts/{}", c.id)).send().await.unwrap().json().await.unwrap();
    assert_eq!(snap.messages.len(), 1, "no partial answer stored");
    drop(req);
}

#[tokio::test]
async fn the_command_endpoint_takes_any_protocol_command() {
    let s = start(Arc::new(FakeProvider::echo(Duration::ZERO)), None).await;
    let created: Value = s
        .post("/api/command")
        .json(&json!({"type": "create_context", "title": "via command"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let list: Value =
        s.post("/api/command").json(&json!({"type": "list_contexts"})).send().await.unwrap().json().await.unwrap();
    assert_eq!(list[0]["id"], created["id"]);
    let r = s.post("/api/command").json(&json!({"type": "fly_to_the_moon"})).send().await.unwrap();
    assert_eq!(r.status(), 400);
    assert!(r.json::<Value>().await.unwrap()["message"].as_str().unwrap().contains("not a valid command"));
    let r = s.post("/api/command").json(&json!({"type": "cancel", "context_id": "ctx-nope"})).send().await.unwrap();
    assert_eq!(r.status(), 404);
}

#[tokio::test]
async fn event_streams_start_with_a_snapshot_then_follow_the_context() {
    let (s, mut fake) = manual().await;
    let c = s.create().await;
    let events = s.get(&format!("/api/contexts/{}/events", c.id)).send().await.unwrap();
    let all = s.get("/api/events").send().await.unwrap();
    let sent = s.post(&format!("/api/contexts/{}/messages", c.id)).json(&message("hi")).send().await.unwrap();
    let req = fake.next_request().await.unwrap();
    req.text("yo");
    req.finish(StopReason::EndTurn);
    let is_idle = |e: &SseEvent| {
        e.event.as_deref() == Some("context_update")
            && serde_json::from_str::<Value>(&e.data).unwrap()["current_state"]["state"] == "idle"
            && serde_json::from_str::<Value>(&e.data).unwrap()["previous_state"].is_object()
    };
    let got = read_sse(events, is_idle).await;
    assert_eq!(got[0].event.as_deref(), Some("snapshot"));
    let snap: ContextSnapshot = serde_json::from_str(&got[0].data).unwrap();
    assert_eq!(snap.summary.status.kind(), StatusKind::Idle);
    assert!(got.iter().any(|e| e.event.as_deref() == Some("content_delta")));
    let global = read_sse(all, is_idle).await;
    assert!(global.iter().any(|e| e.event.as_deref() == Some("content_final")));
    drop(sent);
}

#[tokio::test]
async fn the_ui_is_served_with_its_files_and_index_for_routes() {
    let ui = tempfile::tempdir().unwrap();
    std::fs::write(ui.path().join("index.html"), "<!doctype html><title>Braid UI</title>").unwrap();
    std::fs::create_dir(ui.path().join("assets")).unwrap();
    std::fs::write(ui.path().join("assets/app.js"), "console.log(1)").unwrap();
    let s = start(Arc::new(FakeProvider::echo(Duration::ZERO)), Some(ui.path().to_owned())).await;
    let r = s.http.get(format!("{}/assets/app.js", s.base)).send().await.unwrap();
    assert_eq!(r.headers()["content-type"], "text/javascript");
    let r = s.http.get(format!("{}/conversations/42", s.base)).send().await.unwrap();
    assert!(r.text().await.unwrap().contains("Braid UI"), "client routes get index.html");
    let r = s.http.get(format!("{}/../../etc/passwd", s.base)).send().await.unwrap();
    assert!(!r.text().await.unwrap().contains("root:"), "no path leaves the UI directory");
    let bare = start(Arc::new(FakeProvider::echo(Duration::ZERO)), None).await;
    let page = bare.http.get(format!("{}/", bare.base)).send().await.unwrap().text().await.unwrap();
    assert!(page.contains("UI has not been built"));
}

#[tokio::test]
async fn a_refused_message_is_a_400_and_an_oversized_body_a_json_413() {
    let s = start(Arc::new(FakeProvider::echo(Duration::ZERO)), None).await;
    let ctx = s.create().await;
    // The pipeline refuses a reference that leaves the workspace: the
    // caller gets the reason, not a receipt, and nothing is stored.
    let resp = s
        .post(&format!("/api/contexts/{}/messages", ctx.id))
        .json(&message("see @../../etc/passwd"))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 400);
    let error: Value = resp.json().await.unwrap();
    assert_eq!(error["code"], "invalid_input");
    assert!(error["message"].as_str().unwrap().contains("outside the workspace"), "{error}");
    let stored: Value = s.get(&format!("/api/contexts/{}", ctx.id)).send().await.unwrap().json().await.unwrap();
    assert_eq!(stored["messages"].as_array().unwrap().len(), 0, "nothing stored");

    // A body past the limit: the same JSON error shape, status 413.
    let huge = "x".repeat(3 * 1024 * 1024);
    let resp = s.post(&format!("/api/contexts/{}/messages", ctx.id)).body(huge).send().await.unwrap();
    assert_eq!(resp.status(), 413);
    let error: Value = resp.json().await.unwrap();
    assert_eq!(error["code"], "invalid_input");
    assert_eq!(error["message"], "the request body is too large");
}
