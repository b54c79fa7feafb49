//! One connection to one MCP server over rmcp: started with a time limit,
//! its stderr's last lines kept for the settings, `list_changed`
//! notifications passed on, calls made with a time limit and failures
//! worded for the model.

use super::config::{ServerConfig, Transport};
use super::stdio::{self, Oversize};
use rmcp::model::{
    CallToolRequest, CallToolRequestParams, ClientConfig, ClientRequest, ProtocolVersion, ServerNotification,
    ServerResult, SubscriptionFilter,
};
use rmcp::service::PeerRequestOptions;
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, NotificationContext, Peer, RunningService};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientHandler, RoleClient};
use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::mpsc;

/// The variables a stdio server gets from Braid's environment (as the
/// MCP SDKs pass them); the rest it gets only from its `env` settings.
const INHERITED: &[&str] =
    &["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "LC_ALL", "TMPDIR", "XDG_RUNTIME_DIR"];

/// How many of a server's last stderr lines are kept.
const STDERR_LINES: usize = 20;

/// What a server tells the client between calls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    ToolsChanged,
    ResourcesChanged,
    PromptsChanged,
    /// A resource the client subscribed to changed (its URI).
    ResourceUpdated(String),
}

/// The client side of the connection: hands `list_changed` and resource
/// update notices on.
#[derive(Clone)]
pub struct Handler {
    notices: mpsc::UnboundedSender<Notice>,
}

impl ClientHandler for Handler {
    fn get_info(&self) -> ClientConfig {
        let mut info = ClientConfig::default();
        info.client_info.name = "braid".into();
        info.client_info.version = env!("CARGO_PKG_VERSION").into();
        info
    }
    async fn on_tool_list_changed(&self, _: NotificationContext<RoleClient>) {
        let _ = self.notices.send(Notice::ToolsChanged);
    }
    async fn on_resource_list_changed(&self, _: NotificationContext<RoleClient>) {
        let _ = self.notices.send(Notice::ResourcesChanged);
    }
    async fn on_prompt_list_changed(&self, _: NotificationContext<RoleClient>) {
        let _ = self.notices.send(Notice::PromptsChanged);
    }
    async fn on_resource_updated(
        &self,
        params: rmcp::model::ResourceUpdatedNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        let _ = self.notices.send(Notice::ResourceUpdated(params.uri));
    }
}

/// The last lines a server wrote to stderr.
#[derive(Clone, Default)]
pub struct StderrTail(Arc<Mutex<VecDeque<String>>>);

impl StderrTail {
    pub fn lines(&self) -> Vec<String> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).iter().cloned().collect()
    }
    fn push(&self, line: String) {
        let mut q = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if q.len() == STDERR_LINES {
            q.pop_front();
        }
        q.push_back(line);
    }
}

pub type Connection = RunningService<RoleClient, Handler>;

/// Starts the server and runs the MCP lifecycle (rmcp's automatic mode:
/// the stateless 2026-07-28 protocol, falling back to 2025-11-25), within
/// the server's start-up limit. `workspace` is where a stdio server
/// without its own `cwd` runs.
pub async fn connect(
    name: &str,
    config: &ServerConfig,
    workspace: &Path,
    stderr: &StderrTail,
    notices: mpsc::UnboundedSender<Notice>,
) -> Result<(Connection, Option<u32>, Oversize), String> {
    let handler = Handler { notices };
    let lifecycle = ClientLifecycleMode::Auto {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        legacy_version: Some(ProtocolVersion::V_2025_11_25),
    };
    let limit = config.startup_timeout;
    let started = async {
        match &config.transport {
            Transport::Stdio { command, args, env, cwd } => {
                let program = find_program(command)?;
                let mut cmd = match crate::command::which_setpriv() {
                    // Dies with Braid, crash or not (PR_SET_PDEATHSIG).
                    Some(setpriv) => {
                        let mut c = tokio::process::Command::new(setpriv);
                        c.args(["--pdeathsig", "KILL", "--"]).arg(&program);
                        c
                    }
                    None => tokio::process::Command::new(&program),
                };
                // Only what a program needs to run, then the server's own
                // settings: Braid's environment (tokens, keys) stays Braid's.
                cmd.env_clear().envs(INHERITED.iter().filter_map(|k| std::env::var_os(k).map(|v| (*k, v))));
                cmd.args(args).envs(env).current_dir(cwd.as_deref().map_or(workspace.to_owned(), PathBuf::from));
                let (transport, err, oversize) = stdio::spawn(cmd, config.max_message_bytes)
                    .map_err(|e| format!("{name}: could not start {command}: {e}"))?;
                let pid = transport.id();
                if let Some(err) = err {
                    let tail = stderr.clone();
                    tokio::spawn(stdio::drain_stderr(err, move |line| tail.push(line)));
                }
                let service = handler
                    .serve_with_lifecycle(transport, lifecycle)
                    .await
                    .map_err(|e| format!("{name} did not complete the MCP handshake: {e}"))?;
                Ok((service, pid, oversize))
            }
            Transport::Http { url, headers } => {
                let mut custom = HashMap::new();
                for (k, v) in headers {
                    let key = k.parse().map_err(|_| format!("{name}: the header name {k:?} is not valid"))?;
                    let value = v.parse().map_err(|_| format!("{name}: the value of header {k} is not valid"))?;
                    custom.insert(key, value);
                }
                let cfg = StreamableHttpClientTransportConfig::with_uri(url.as_str())
                    .custom_headers(custom)
                    .max_json_response_size(config.max_message_bytes)
                    .max_sse_event_size(config.max_message_bytes);
                // rmcp refuses a response over the limit; the watched
                // client says so, for the call it answered.
                let oversize = Oversize::default();
                let client = super::http::Watched { inner: reqwest::Client::new(), said: oversize.clone() };
                let transport = StreamableHttpClientTransport::with_client(client, cfg);
                let service = handler
                    .serve_with_lifecycle(transport, lifecycle)
                    .await
                    .map_err(|e| format!("{name} at {url} did not complete the MCP handshake: {e}"))?;
                Ok((service, None, oversize))
            }
        }
    };
    match tokio::time::timeout(limit, started).await {
        Ok(r) => r,
        Err(_) => Err(format!("{name} did not start within {} s", limit.as_secs_f32())),
    }
}

/// Under the stateless protocol (2026-07-28) a server tells nothing
/// unasked: list changes come on a `subscriptions/listen` stream, handed
/// on here like the older protocol's notices, until the stream or the
/// connection ends. Under older protocols there is nothing to do.
pub async fn listen(peer: Peer<RoleClient>, notices: mpsc::UnboundedSender<Notice>) {
    if peer.peer_info().is_none_or(|i| i.protocol_version.has_initialize()) {
        return;
    }
    let filter = SubscriptionFilter::builder().tools_list_changed().resources_list_changed().prompts_list_changed();
    let mut stream = match peer.listen(filter.build()).await {
        Ok(stream) => stream,
        Err(e) => {
            tracing::debug!(error = %e, "the MCP server offers no subscriptions/listen");
            return;
        }
    };
    while let Ok(Some(n)) = stream.next().await {
        let notice = match n {
            ServerNotification::ToolListChangedNotification(_) => Notice::ToolsChanged,
            ServerNotification::ResourceListChangedNotification(_) => Notice::ResourcesChanged,
            ServerNotification::PromptListChangedNotification(_) => Notice::PromptsChanged,
            ServerNotification::ResourceUpdatedNotification(u) => Notice::ResourceUpdated(u.params.uri),
            _ => continue,
        };
        if notices.send(notice).is_err() {
            return;
        }
    }
}

/// The program a command names, looked up in `PATH` the way a shell
/// would, so a missing one is said plainly rather than as an exec error.
fn find_program(command: &str) -> Result<PathBuf, String> {
    let p = Path::new(command);
    if command.contains('/') {
        return if p.is_file() { Ok(p.to_owned()) } else { Err(format!("the command {command} does not exist")) };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|d| d.join(command))
        .find(|c| c.is_file())
        .ok_or_else(|| format!("the command {command:?} was not found in PATH"))
}

/// Calls a tool with the call's time limit; an error says what happened
/// in words the model can act on. An answer over the message limit,
/// which the transport drops, fails the call at once with its size.
pub async fn call(
    peer: &Peer<RoleClient>,
    oversize: &Oversize,
    server: &str,
    tool: &str,
    args: serde_json::Map<String, serde_json::Value>,
    limit: std::time::Duration,
) -> Result<rmcp::model::CallToolResult, String> {
    let mut params = CallToolRequestParams::new(tool.to_owned());
    params.arguments = Some(args);
    let mut dropped = oversize.subscribe();
    let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
    let handle = peer.send_cancellable_request(request, PeerRequestOptions::no_options()).await;
    let handle = handle.map_err(|e| describe(server, &e))?;
    let id = handle.id.to_string();
    // Cancelled, timed out or too large: the server is told to stop.
    let mut abandoned = Abandoned(peer.clone(), Some(handle.id.clone()));
    // An oversized message that names no id may be this call's answer.
    let mine = async {
        loop {
            match dropped.recv().await {
                Ok(o) if o.id.as_ref().is_none_or(|i| *i == id) => return o,
                Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                Err(tokio::sync::broadcast::error::RecvError::Closed) => std::future::pending::<()>().await,
            }
        }
    };
    let answered = async {
        tokio::pin!(mine);
        tokio::select! {
            r = handle.await_response() => {
                abandoned.1 = None; // answered: nothing to cancel
                match r {
                    Ok(ServerResult::CallToolResult(r)) => Ok(r),
                    Ok(_) => Err(format!("the MCP server {server} answered the call with something else than a result")),
                    // Over HTTP a refused answer closes the session: the
                    // call ends first, and why comes just after.
                    Err(e @ (rmcp::ServiceError::TransportClosed | rmcp::ServiceError::TransportSend(_))) => {
                        match tokio::time::timeout(std::time::Duration::from_millis(500), &mut mine).await {
                            Ok(o) => Err(o.describe(server)),
                            Err(_) => Err(describe(server, &e)),
                        }
                    }
                    Err(e) => Err(describe(server, &e)),
                }
            }
            o = &mut mine => Err(o.describe(server)),
        }
    };
    match tokio::time::timeout(limit, answered).await {
        Err(_) => Err(format!("the MCP server {server} did not answer within {} s", limit.as_secs())),
        Ok(r) => r,
    }
}

/// Tells the server a call's answer is no longer wanted, unless it came.
struct Abandoned(Peer<RoleClient>, Option<rmcp::model::RequestId>);

impl Drop for Abandoned {
    fn drop(&mut self) {
        let Some(id) = self.1.take() else { return };
        let peer = self.0.clone();
        let params =
            rmcp::model::CancelledNotificationParam::new(Some(id), Some("request abandoned by the caller".into()));
        tokio::spawn(async move { peer.notify_cancelled(params).await });
    }
}

/// A failed request in words the model (or the user) can act on.
pub fn describe(server: &str, e: &rmcp::ServiceError) -> String {
    match e {
        rmcp::ServiceError::TransportClosed | rmcp::ServiceError::TransportSend(_) => format!(
            "the MCP server {server} stopped during the call; Braid is starting it again, so the call can be tried \
             again shortly"
        ),
        rmcp::ServiceError::McpError(e) => format!("the MCP server {server} refused the call: {}", e.message),
        e => format!("the call to the MCP server {server} failed: {e}"),
    }
}
