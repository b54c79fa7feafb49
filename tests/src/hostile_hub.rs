//! A model hub on 127.0.0.1 that answers as an attacker or a broken
//! mirror would (issue #65): HTML where JSON belongs, a JSON array that
//! never ends, 10 MB of JSON, 60,000 results to a search for 30, headers
//! and then silence, and a repository whose one file has the crafted
//! header of arrays in arrays. What a request gets is chosen by its search
//! words or its repository's name, so one hub serves every case at once.

use crate::crafted;
use axum::body::{Body, Bytes};
use axum::extract::{Path as UrlPath, RawQuery};
use axum::response::Response;
use axum::routing::get;
use futures::StreamExt as _;
use serde_json::json;
use std::time::Duration;

/// Search words and what the hub answers to them.
pub const HTML: &str = "html";
pub const ENDLESS: &str = "endless";
pub const BIG: &str = "big";
pub const MANY: &str = "many";
pub const SILENT: &str = "silent";
/// A repository whose file is [`crafted::nested`], and one whose file
/// sends its headers and then nothing.
pub const NESTED_REPO: &str = "hostile/nested-GGUF";
pub const SILENT_REPO: &str = "hostile/silent-GGUF";
pub const FILE: &str = "crafted-Q4_0.gguf";

/// Starts the hub on a free port; returns its address.
pub async fn start() -> String {
    let app = axum::Router::new()
        .route("/api/models", get(search))
        .route("/api/models/{owner}/{name}", get(repo))
        .route("/{owner}/{name}/resolve/main/{*file}", get(file));
    crate::loopback::serve(app).await
}

fn model(i: usize) -> serde_json::Value {
    json!({"id": format!("someone/model-{i}-GGUF"), "downloads": i, "likes": 0, "tags": ["gguf"], "gated": false})
}

fn json_body(body: Body) -> Response {
    Response::builder().header("content-type", "application/json").body(body).unwrap()
}

/// Headers, then nothing for an hour.
fn silence() -> Response {
    let stream = futures::stream::once(async {
        tokio::time::sleep(Duration::from_secs(3600)).await;
        Ok::<Bytes, std::io::Error>(Bytes::new())
    });
    json_body(Body::from_stream(stream))
}

async fn search(RawQuery(query): RawQuery) -> Response {
    let query = query.unwrap_or_default();
    let asked = |word: &str| query.contains(&format!("search={word}"));
    if asked(HTML) {
        return Response::builder()
            .header("content-type", "text/html")
            .body(Body::from("<!doctype html><html><body>Sign in to continue</body></html>"))
            .unwrap();
    }
    if asked(ENDLESS) {
        // `[` and then models for ever, 64 KB at a time.
        let piece: String = (0..400).map(|i| format!("{},", model(i))).collect();
        let stream = futures::stream::iter(
            std::iter::once(Bytes::from_static(b"[")).chain(std::iter::repeat(Bytes::from(piece))),
        )
        .map(Ok::<Bytes, std::io::Error>);
        return json_body(Body::from_stream(stream));
    }
    if asked(BIG) {
        // One model whose description is 10 MB.
        let big =
            json!([{"id": "someone/big-GGUF", "downloads": 1, "tags": ["gguf"], "cardData": "x".repeat(10 << 20)}]);
        return json_body(Body::from(big.to_string()));
    }
    if asked(MANY) {
        let all: Vec<serde_json::Value> = (0..60_000).map(model).collect();
        return json_body(Body::from(serde_json::Value::Array(all).to_string()));
    }
    if asked(SILENT) {
        return silence();
    }
    json_body(Body::from(json!([model(1)]).to_string()))
}

async fn repo(UrlPath((owner, name)): UrlPath<(String, String)>) -> Response {
    let bytes = crafted::nested().len();
    let listing = json!({
        "id": format!("{owner}/{name}"),
        "downloads": 1,
        "tags": ["gguf"],
        "gated": false,
        "siblings": [{"rfilename": FILE, "size": bytes, "lfs": {"sha256": "0".repeat(64), "size": bytes}}],
    });
    json_body(Body::from(listing.to_string()))
}

async fn file(UrlPath((owner, name, _file)): UrlPath<(String, String, String)>) -> Response {
    if format!("{owner}/{name}") == SILENT_REPO {
        return silence();
    }
    // The whole crafted file whatever the range: a server may ignore it.
    Response::builder().status(200).body(Body::from(crafted::nested())).unwrap()
}
