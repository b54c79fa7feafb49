//! The HTTP API. Every handler validates its input, makes one runtime call
//! and formats the answer; errors are `{code, message}` with a status that
//! matches the code.

use crate::AppState;
use axum::extract::{Path, Request, State};
use axum::http::StatusCode;
use axum::middleware::{self, Next};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use braid_protocol::{
    BraidEvent, Command, ContextId, ErrorCode, MessageChange, NewMessage, SendReceipt, StatusKind, WireError,
};
use braid_runtime::Subscription;
use futures::stream::{self, Stream, StreamExt};
use serde::Deserialize;
use std::convert::Infallible;

pub(crate) struct ApiError(WireError);

/// A request body that is not what the route takes: one the server would
/// not read (too large, unreadable) or JSON that does not parse as the
/// route's type. Either is the same `{code, message}` JSON as every other
/// error, with the HTTP status.
enum BadBody {
    Unread(axum::extract::rejection::BytesRejection),
    Invalid(String),
}

impl IntoResponse for BadBody {
    fn into_response(self) -> Response {
        match self {
            BadBody::Unread(r) => {
                let status = r.status();
                let message = if status == StatusCode::PAYLOAD_TOO_LARGE {
                    "the request body is too large".to_owned()
                } else {
                    r.body_text()
                };
                (status, Json(WireError::new(ErrorCode::InvalidInput, message))).into_response()
            }
            BadBody::Invalid(message) => ApiError(WireError::new(ErrorCode::InvalidInput, message)).into_response(),
        }
    }
}

/// A request body as JSON of type `T`: every route reads its body through
/// this, so malformed JSON or a field of the wrong type is the same 400
/// everywhere (the content type is not required). `what` names the
/// expected body in the message.
fn json_body<T: serde::de::DeserializeOwned>(bytes: Body, what: &str) -> Result<T, BadBody> {
    let bytes = bytes.map_err(BadBody::Unread)?;
    serde_json::from_slice(&bytes).map_err(|e| BadBody::Invalid(format!("not a valid {what}: {e}")))
}

type Body = Result<axum::body::Bytes, axum::extract::rejection::BytesRejection>;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = match self.0.code {
            ErrorCode::AgentBusy | ErrorCode::InvalidState => StatusCode::CONFLICT,
            ErrorCode::InvalidInput => StatusCode::BAD_REQUEST,
            ErrorCode::NotFound => StatusCode::NOT_FOUND,
            ErrorCode::Provider => StatusCode::BAD_GATEWAY,
            ErrorCode::Storage | ErrorCode::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        };
        (status, Json(self.0)).into_response()
    }
}

impl From<braid_runtime::RuntimeError> for ApiError {
    fn from(e: braid_runtime::RuntimeError) -> ApiError {
        ApiError(e.to_wire())
    }
}

type ApiResult<T> = Result<T, ApiError>;

pub(crate) fn api(state: AppState) -> Router<AppState> {
    Router::new()
        // Images travel as Base64 in `store_image` (40 MB at most, a third
        // more encoded); every other command is small.
        .route("/api/command", post(command).layer(axum::extract::DefaultBodyLimit::max(56 * 1024 * 1024)))
        .route("/api/messages", post(send_payload).layer(axum::extract::DefaultBodyLimit::max(56 * 1024 * 1024)))
        .route("/api/contexts", get(list).post(create))
        .route("/api/contexts/{id}", get(load).delete(delete))
        .route("/api/contexts/{id}/messages", post(send))
        .route("/api/contexts/{id}/cancel", post(cancel))
        .route("/api/contexts/{id}/events", get(context_events))
        .route("/api/events", get(all_events))
        .route_layer(middleware::from_fn_with_state(state, require_token))
}

async fn require_token(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if state.token.admits(request.headers(), request.uri().query()) {
        return next.run(request).await;
    }
    let error = WireError::new(ErrorCode::InvalidInput, "missing or wrong token: send Authorization: Bearer <token>");
    (StatusCode::UNAUTHORIZED, Json(error)).into_response()
}

/// Any protocol command, as JSON; the answer is the command's documented
/// answer as JSON.
async fn command(State(s): State<AppState>, bytes: Body) -> Result<Json<serde_json::Value>, Response> {
    let command: Command = json_body(bytes, "command").map_err(IntoResponse::into_response)?;
    Ok(Json(s.runtime.execute(command).await.map_err(|e| ApiError(e).into_response())?))
}

/// A typed payload (`SendMessageRequest`, see
/// `docs/send-message.schema.json`): the receipt, or a 400 saying what is
/// wrong (an unknown `type` lists the known ones); nothing is stored then.
async fn send_payload(
    State(s): State<AppState>,
    bytes: Body,
) -> Result<Json<braid_protocol::PayloadReceipt>, Response> {
    let request: braid_protocol::SendMessageRequest =
        json_body(bytes, "message request").map_err(IntoResponse::into_response)?;
    Ok(Json(s.runtime.send_payload(request).await.map_err(|e| ApiError::from(e).into_response())?))
}

async fn list(State(s): State<AppState>) -> ApiResult<impl IntoResponse> {
    Ok(Json(s.runtime.list_contexts().await?))
}

#[derive(Deserialize, Default)]
struct CreateBody {
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    working_dir: Option<String>,
}

/// An empty body creates an untitled context in the default folder.
async fn create(State(s): State<AppState>, bytes: Body) -> Result<impl IntoResponse, Response> {
    let body: CreateBody = match &bytes {
        Ok(b) if b.iter().all(u8::is_ascii_whitespace) => CreateBody::default(),
        _ => json_body(bytes, "new conversation (title, working_dir)").map_err(IntoResponse::into_response)?,
    };
    let created =
        s.runtime.create_context(body.title, body.working_dir).await.map_err(|e| ApiError::from(e).into_response())?;
    Ok((StatusCode::CREATED, Json(created)))
}

async fn load(State(s): State<AppState>, Path(id): Path<String>) -> ApiResult<impl IntoResponse> {
    Ok(Json(s.runtime.load_context(&ContextId(id)).await?))
}

async fn delete(State(s): State<AppState>, Path(id): Path<String>) -> ApiResult<StatusCode> {
    s.runtime.delete_context(&ContextId(id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn cancel(State(s): State<AppState>, Path(id): Path<String>) -> ApiResult<StatusCode> {
    s.runtime.cancel(&ContextId(id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize)]
struct SendBody {
    message: NewMessage,
    #[serde(default)]
    queue_if_busy: bool,
}

fn sse_event(e: &BraidEvent) -> Event {
    let name = match e {
        BraidEvent::ContextUpdate(_) => "context_update",
        BraidEvent::ContentDelta(_) => "content_delta",
        BraidEvent::ContentFinal(_) => "content_final",
    };
    Event::default().event(name).data(serde_json::to_string(e).unwrap_or_default())
}

fn json_event<T: serde::Serialize>(name: &str, value: &T) -> Event {
    Event::default().event(name).data(serde_json::to_string(value).unwrap_or_default())
}

fn events(sub: Subscription) -> impl Stream<Item = Result<BraidEvent, u64>> {
    stream::unfold(sub, |mut sub| async move { sub.recv().await.map(|e| (e, sub)) })
}

/// Sends a message; the answer is an SSE stream: `receipt` first, then the
/// context's events until it rests after this message (Idle or Failed).
async fn send(
    State(s): State<AppState>,
    Path(id): Path<String>,
    bytes: Body,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, Response> {
    let body: SendBody = json_body(bytes, "message").map_err(IntoResponse::into_response)?;
    let id = ContextId(id);
    // Subscribe first so no event of this message can be missed.
    let (_, sub) = s.runtime.subscribe(&id).await.map_err(|e| ApiError::from(e).into_response())?;
    // A message the pipeline refuses is a 400 with the reason; nothing
    // was stored.
    let receipt: SendReceipt = s
        .runtime
        .send_message(&id, body.message, body.queue_if_busy)
        .await
        .map_err(|e| ApiError::from(e).into_response())?;
    let mine = receipt.message_id;
    let started = !receipt.queued;
    let head = stream::once(async move { Ok(json_event("receipt", &receipt)) });
    // Ends right after the event that shows the context resting after this
    // message, without waiting for another event to arrive.
    let tail = stream::unfold((sub, started, false), move |(mut sub, mut started, done)| async move {
        if done {
            return None;
        }
        let item = sub.recv().await?;
        let mut done = false;
        let event = match item {
            Ok(e) => {
                if let BraidEvent::ContextUpdate(u) = &e {
                    if u.message.as_ref().is_some_and(|m| m.message_id == mine && m.change == MessageChange::Created) {
                        started = true;
                    }
                    let rests = matches!(u.current_state.kind(), StatusKind::Idle | StatusKind::Failed);
                    done = started && rests && u.previous_state.is_some();
                }
                sse_event(&e)
            }
            Err(missed) => json_event("lagged", &serde_json::json!({ "missed": missed })),
        };
        Some((Ok(event), (sub, started, done)))
    });
    Ok(Sse::new(head.chain(tail)).keep_alive(KeepAlive::default()))
}

/// A context's events: `snapshot` (current state and recent messages)
/// first, then everything that happens.
async fn context_events(
    State(s): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Sse<impl Stream<Item = Result<Event, Infallible>>>> {
    let (snapshot, sub) = s.runtime.subscribe(&ContextId(id)).await?;
    let head = stream::once(async move { Ok(json_event("snapshot", &snapshot)) });
    let tail = events(sub).map(|item| {
        Ok(match item {
            Ok(e) => sse_event(&e),
            Err(missed) => json_event("lagged", &serde_json::json!({ "missed": missed })),
        })
    });
    Ok(Sse::new(head.chain(tail)).keep_alive(KeepAlive::default()))
}

/// Every context's events; with `?states=true` only their changes of
/// state: the conversation list's feed, without every streamed word of
/// every conversation.
async fn all_events(
    State(s): State<AppState>,
    uri: axum::http::Uri,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    if uri.query().is_some_and(|q| q.split('&').any(|p| p == "states=true")) {
        let tail = events(s.runtime.subscribe_states()).map(|item| {
            Ok(match item {
                Ok(e) => sse_event(&e),
                Err(missed) => json_event("lagged", &serde_json::json!({ "missed": missed })),
            })
        });
        return Sse::new(tail.boxed()).keep_alive(KeepAlive::default());
    }
    let rx = s.runtime.subscribe_all();
    let stream = stream::unfold(rx, |mut rx| async move {
        let event = match rx.recv().await {
            Ok(e) => sse_event(&e),
            Err(tokio::sync::broadcast::error::RecvError::Lagged(n)) => {
                json_event("lagged", &serde_json::json!({ "missed": n }))
            }
            Err(tokio::sync::broadcast::error::RecvError::Closed) => return None,
        };
        Some((Ok(event), rx))
    });
    Sse::new(stream.boxed()).keep_alive(KeepAlive::default())
}
