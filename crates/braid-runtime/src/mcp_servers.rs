//! The MCP servers' state the runtime keeps: the settings file's text,
//! each running server's supervisor, connection and status, and when
//! each resource last changed. `mcp.rs` starts and stops them.

use crate::mcp_workspace::{Wanted, WorkspaceFile};
use braid_core::resources::ResourceKey;
use braid_protocol::{McpServerStatus, Timestamp};
use braid_tools::mcp::{McpPeer, Update};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard, PoisonError};
use tokio::sync::{mpsc, watch};

pub(crate) struct Mcp {
    pub(crate) servers: Mutex<Servers>,
    /// Counts the changes applied, for whoever waits on one.
    pub(crate) changed: watch::Sender<u64>,
}

impl Default for Mcp {
    fn default() -> Mcp {
        Mcp { servers: Mutex::default(), changed: watch::Sender::new(0) }
    }
}

#[derive(Default)]
pub(crate) struct Servers {
    pub(crate) path: Option<PathBuf>,
    pub(crate) text: String,
    pub(crate) error: Option<String>,
    pub(crate) running: BTreeMap<String, Running>,
    /// The workspace's `.mcp.json`, and why it cannot be used (all or in
    /// part), if so.
    pub(crate) workspace: Option<(WorkspaceFile, Option<String>)>,
    pub(crate) updates: Option<mpsc::UnboundedSender<Update>>,
    /// Numbers each supervisor started, so a replaced one's last words
    /// are told apart.
    pub(crate) generations: u64,
    /// When each server last said one of its resources changed.
    pub(crate) updated: BTreeMap<ResourceKey, Timestamp>,
}

pub(crate) struct Running {
    pub(crate) generation: u64,
    pub(crate) wanted: Wanted,
    pub(crate) status: McpServerStatus,
    pub(crate) task: Option<tokio::task::AbortHandle>,
    /// The connection while the server is ready.
    pub(crate) peer: Option<McpPeer>,
}

impl Mcp {
    pub(crate) fn lock(&self) -> MutexGuard<'_, Servers> {
        self.servers.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The ready servers' connections, with each one's call limit.
    pub(crate) fn peers(&self) -> Vec<(String, McpPeer, std::time::Duration)> {
        let s = self.lock();
        s.running
            .iter()
            .filter_map(|(name, r)| r.peer.clone().map(|p| (name.clone(), p, r.wanted.config.call_timeout)))
            .collect()
    }

    /// When each resource was last said to have changed.
    pub(crate) fn updated(&self) -> BTreeMap<ResourceKey, Timestamp> {
        self.lock().updated.clone()
    }

    pub(crate) fn settings_text(&self) -> String {
        self.lock().text.clone()
    }

    /// Stops every server (their processes go with their tasks).
    pub(crate) fn stop_all(&self) {
        for r in self.lock().running.values_mut() {
            if let Some(t) = r.task.take() {
                t.abort();
            }
        }
    }
}
