//! Serves the built UI (`ui/dist`), with `index.html` for unknown paths so
//! client-side routes work. Paths cannot leave the UI directory.

use crate::AppState;
use axum::extract::State;
use axum::http::{header, StatusCode, Uri};
use axum::response::{Html, IntoResponse, Response};

const NOT_BUILT: &str = "<!doctype html><meta charset=utf-8><title>Braid</title>\
<p>Braid's server is running, but the UI has not been built. Run <code>make run</code>, \
or use the API under <code>/api</code>.</p>";

fn mime(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript",
        Some("css") => "text/css",
        Some("json") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("woff2") => "font/woff2",
        _ => "application/octet-stream",
    }
}

pub(crate) async fn serve(State(state): State<AppState>, uri: Uri) -> Response {
    let Some(dir) = state.ui_dir.as_deref() else { return Html(NOT_BUILT).into_response() };
    let rel = uri.path().trim_start_matches('/');
    let safe = !rel.split('/').any(|c| c == ".." || c.contains('\\'));
    let file = if rel.is_empty() || !safe { dir.join("index.html") } else { dir.join(rel) };
    let (path, bytes) = match tokio::fs::read(&file).await {
        Ok(b) => (file, b),
        Err(_) => match tokio::fs::read(dir.join("index.html")).await {
            Ok(b) => (dir.join("index.html"), b),
            Err(_) => return (StatusCode::OK, Html(NOT_BUILT)).into_response(),
        },
    };
    let name = path.to_string_lossy().into_owned();
    ([(header::CONTENT_TYPE, mime(&name))], bytes).into_response()
}
