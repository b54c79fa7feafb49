//! One MCP server's life: started in the background, its tools listed
//! and handed over, listed again when it says they changed, and started
//! again with growing pauses when it dies or fails to start. Every change
//! is told to the owner as an [`Update`]; nothing here blocks the app.

use super::client::{self, Notice, StderrTail};
use super::config::ServerConfig;
use super::names;
use super::results::ResultStore;
use super::tool::McpTool;
use crate::Tool;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// Pauses between attempts: 1 s, 2 s, 4 s … at most a minute; after this
/// many failures in a row the server stays failed until restarted.
const MAX_ATTEMPTS: u32 = 6;
const MAX_PAUSE: Duration = Duration::from_secs(60);

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Phase {
    Starting {
        attempt: u32,
    },
    Ready,
    /// `retrying`: another attempt comes after a pause.
    Failed {
        reason: String,
        retrying: bool,
    },
}

/// A change in one server's state, with its tools when they changed.
pub struct Update {
    pub server: String,
    /// The supervisor's generation: an update from one since replaced
    /// (the server restarted or removed) is dropped.
    pub generation: u64,
    pub phase: Phase,
    pub stderr: Vec<String>,
    /// `Some` when the server's tools changed (empty when it went away).
    pub tools: Option<Vec<Arc<dyn Tool>>>,
    /// The process id of a stdio server while it runs.
    pub pid: Option<u32>,
    /// The connection, while the server is ready.
    pub peer: Option<super::McpPeer>,
    /// A resource the server said changed (its URI); nothing else in
    /// such an update is news.
    pub resource_updated: Option<String>,
    /// The protocol version agreed with the server, once ready.
    pub protocol: Option<String>,
}

/// Finds a secret's value by its name.
pub type Lookup = Arc<dyn Fn(&str) -> Option<String> + Send + Sync>;

pub struct Supervisor {
    pub name: String,
    pub generation: u64,
    pub config: ServerConfig,
    pub workspace: PathBuf,
    pub results: ResultStore,
    /// Whether a catalogue name is taken by a tool of another server.
    pub taken: Arc<dyn Fn(&str) -> bool + Send + Sync>,
    /// A secret's value (`${secret:NAME}` in `env` or `headers`), read
    /// when the server starts; it may wait on the keychain.
    pub secret: Lookup,
    pub updates: mpsc::UnboundedSender<Update>,
}

impl Supervisor {
    /// Runs until the owner drops the task (the app closes, the server is
    /// removed or restarted); the connection and its process go with it.
    pub async fn run(self) {
        let stderr = StderrTail::default();
        let mut failures = 0u32;
        loop {
            self.tell(Phase::Starting { attempt: failures + 1 }, &stderr, None, None);
            // Read at every start, so one set since is used; one missing
            // is not retried: nothing changes until it is set.
            let config = match self.with_secrets().await {
                Ok(config) => config,
                Err(reason) => return self.tell(Phase::Failed { reason, retrying: false }, &stderr, None, None),
            };
            let (tx, mut notices) = mpsc::unbounded_channel();
            let reason = match client::connect(&self.name, &config, &self.workspace, &stderr, tx.clone()).await {
                Err(e) => e,
                Ok((conn, pid, oversize)) => {
                    let peer = conn.peer().clone();
                    // Ends with the connection (aborted below).
                    let listening = tokio::spawn(client::listen(peer.clone(), tx)).abort_handle();
                    let _stop_listening = AbortOnDrop(listening);
                    match self.tools(&peer, &oversize).await {
                        Err(e) => e,
                        Ok(tools) => {
                            failures = 0;
                            self.tell_ready(&stderr, tools, pid, &peer);
                            let closed = conn.cancellation_token();
                            let waiting = conn.waiting();
                            tokio::pin!(waiting);
                            loop {
                                tokio::select! {
                                    _ = &mut waiting => break,
                                    n = notices.recv() => match n {
                                        Some(Notice::ToolsChanged) => {
                                            if let Ok(tools) = self.tools(&peer, &oversize).await {
                                                self.tell_ready(&stderr, tools, pid, &peer);
                                            }
                                        }
                                        Some(Notice::ResourceUpdated(uri)) => {
                                            let mut update = self.update(Phase::Ready, &stderr, None, pid);
                                            (update.peer, update.resource_updated) = (Some(peer.clone()), Some(uri));
                                            let _ = self.updates.send(update);
                                        }
                                        Some(_) => {}
                                        None => break,
                                    },
                                }
                            }
                            drop(closed);
                            format!("{} stopped", self.name)
                        }
                    }
                }
            };
            failures += 1;
            let retrying = failures < MAX_ATTEMPTS;
            self.tell(Phase::Failed { reason, retrying }, &stderr, Some(Vec::new()), None);
            if !retrying {
                return;
            }
            tokio::time::sleep(pause(failures)).await;
        }
    }

    /// The settings with their secrets filled in, read off the runtime's
    /// threads (a keychain answers over D-Bus).
    async fn with_secrets(&self) -> Result<ServerConfig, String> {
        let (transport, secret) = (self.config.transport.clone(), self.secret.clone());
        let filled = tokio::task::spawn_blocking(move || transport.with_secrets(&*secret))
            .await
            .map_err(|e| format!("{}: its secrets could not be read ({e})", self.name))??;
        Ok(ServerConfig { transport: filled, ..self.config.clone() })
    }

    async fn tools(
        &self,
        peer: &rmcp::service::Peer<rmcp::RoleClient>,
        oversize: &super::stdio::Oversize,
    ) -> Result<Vec<Arc<dyn Tool>>, String> {
        let listed = tokio::time::timeout(self.config.startup_timeout, peer.list_all_tools())
            .await
            .map_err(|_| format!("{} did not list its tools in time", self.name))?
            .map_err(|e| format!("{} could not list its tools: {e}", self.name))?;
        let mut mine: Vec<String> = Vec::new();
        Ok(listed
            .iter()
            .map(|t| {
                let name = names::tool_name(&self.name, &t.name, |n| (self.taken)(n) || mine.iter().any(|m| m == n));
                mine.push(name.clone());
                let link = (peer.clone(), oversize.clone());
                let tool = McpTool::new(name, &self.name, t, link, self.config.call_timeout, self.results.clone());
                Arc::new(tool) as Arc<dyn Tool>
            })
            .collect())
    }

    fn update(&self, phase: Phase, stderr: &StderrTail, tools: Option<Vec<Arc<dyn Tool>>>, pid: Option<u32>) -> Update {
        Update {
            server: self.name.clone(),
            generation: self.generation,
            phase,
            stderr: stderr.lines(),
            tools,
            pid,
            peer: None,
            resource_updated: None,
            protocol: None,
        }
    }

    fn tell(&self, phase: Phase, stderr: &StderrTail, tools: Option<Vec<Arc<dyn Tool>>>, pid: Option<u32>) {
        let _ = self.updates.send(self.update(phase, stderr, tools, pid));
    }

    fn tell_ready(&self, stderr: &StderrTail, tools: Vec<Arc<dyn Tool>>, pid: Option<u32>, peer: &super::McpPeer) {
        let mut update = self.update(Phase::Ready, stderr, Some(tools), pid);
        update.protocol = peer.peer_info().map(|i| i.protocol_version.to_string());
        update.peer = Some(peer.clone());
        let _ = self.updates.send(update);
    }
}

/// Aborts a task when dropped: a connection's helpers end with it.
struct AbortOnDrop(tokio::task::AbortHandle);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

fn pause(failures: u32) -> Duration {
    Duration::from_secs(1u64 << failures.saturating_sub(1).min(6)).min(MAX_PAUSE)
}
