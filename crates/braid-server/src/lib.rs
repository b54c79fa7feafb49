//! Braid's headless server: the same runtime as the desktop app, over HTTP
//! and SSE, for a browser or a script. Bound to 127.0.0.1 by default and
//! guarded by a bearer token. Handlers validate, make one runtime call, and
//! format the answer; the events are the protocol's JSON, unchanged.

mod auth;
mod routes;
mod static_ui;

pub use auth::Token;

use axum::Router;
use braid_runtime::Runtime;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Clone)]
pub(crate) struct AppState {
    runtime: Runtime,
    token: Arc<Token>,
    ui_dir: Option<Arc<PathBuf>>,
}

/// The whole application: `/api/…` behind the token, the UI around it.
pub fn router(runtime: Runtime, token: Token, ui_dir: Option<PathBuf>) -> Router {
    let state = AppState { runtime, token: Arc::new(token), ui_dir: ui_dir.map(Arc::new) };
    routes::api(state.clone()).fallback(static_ui::serve).with_state(state)
}
