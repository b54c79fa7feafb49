//! What every part of the runtime shares: the configuration, the store,
//! the providers, the tool registry, the registry of loaded contexts, the
//! event channel, the pipeline and the image store.

use crate::{contexts, images};
use braid_core::pipeline::Pipeline;
use braid_core::MachineConfig;
use braid_protocol::BraidEvent;
use braid_store::Store;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, RwLock};
use tokio::sync::broadcast;

use crate::Providers;

#[derive(Debug, Clone)]
pub struct RuntimeConfig {
    pub db_path: PathBuf,
    /// Where a context works when it is created without a directory.
    pub default_working_dir: PathBuf,
    pub model: String,
    pub system_prompt: Option<String>,
    pub max_tokens: u32,
    /// Retry, backoff and loop limits for new contexts.
    pub machine: MachineConfig,
    /// Name a new conversation after its first exchange, by its model (the
    /// question's first words if it gives none). Off by default so a
    /// scripted model is asked only what a test scripts; the apps turn it on.
    pub model_titles: bool,
    /// Folders too broad to read without asking first (`/` and the home
    /// folder): the first read in a conversation working in one, or in a
    /// folder above one, is asked.
    pub broad_dirs: Vec<PathBuf>,
    /// Time, turns and concurrency of sub-agents.
    pub sub_agents: braid_protocol::SubAgentLimits,
    /// The user's additions to what sandboxed commands may see.
    pub sandbox_paths: braid_protocol::SandboxPaths,
    /// Workspaces whose secrets go to the model as they are (the filter
    /// is on everywhere else).
    pub show_secrets_in: Vec<PathBuf>,
}

impl RuntimeConfig {
    pub fn new(db_path: PathBuf, default_working_dir: PathBuf) -> RuntimeConfig {
        RuntimeConfig {
            db_path,
            default_working_dir,
            model: "default".to_owned(),
            system_prompt: None,
            max_tokens: 1024,
            machine: MachineConfig::default(),
            model_titles: false,
            broad_dirs: std::iter::once(PathBuf::from("/"))
                .chain(std::env::var_os("HOME").and_then(|h| std::fs::canonicalize(h).ok()))
                .collect(),
            sub_agents: braid_protocol::SubAgentLimits::default(),
            sandbox_paths: braid_protocol::SandboxPaths::default(),
            show_secrets_in: Vec::new(),
        }
    }
}

pub(crate) struct Shared {
    pub(crate) store: Mutex<Store>,
    pub(crate) providers: Providers,
    /// Replaced whole on each registration: a running call keeps the
    /// registry it started with.
    pub(crate) tools: RwLock<Arc<braid_tools::ToolRegistry>>,
    /// The workspaces' codebase indexes, which the codebase tools share.
    pub(crate) codebases: Arc<braid_codebase::Codebases>,
    pub(crate) contexts: contexts::Contexts,
    pub(crate) config: RuntimeConfig,
    pub(crate) events: broadcast::Sender<BraidEvent>,
    pub(crate) pipeline: Pipeline,
    pub(crate) images: Arc<images::Images>,
    /// The process groups of running commands, on disk.
    pub(crate) ledger: braid_tools::ledger::ProcessLedger,
    /// What each turn changed in the workspace, and rewinds.
    pub(crate) checkpoints: Arc<crate::checkpoints::Checkpoints>,
    /// The MCP servers and their state.
    pub(crate) mcp: crate::mcp_servers::Mcp,
    /// Each conversation's last request as sent ("What the model sees").
    pub(crate) sent: crate::seen::SentLog,
    /// Sub-agents' ends, heard by their supervisors.
    pub(crate) children: crate::children::Children,
    /// What sandboxed commands may see.
    pub(crate) confine: Arc<braid_tools::Confinement>,
    /// Secrets kept from the models, and the placeholders handed out.
    /// Shared with every request's filter (`outbound::Filter`).
    pub(crate) secrets: Arc<crate::secret_mask::SecretMask>,
    /// MCP tools' definitions as first seen.
    pub(crate) pins: crate::mcp_pins::Pins,
}

impl Shared {
    /// Store calls are short (well under a millisecond), so a plain mutex
    /// held briefly beats a database thread.
    pub(crate) fn lock_store(&self) -> MutexGuard<'_, Store> {
        self.store.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The tools registered now.
    pub(crate) fn tools(&self) -> Arc<braid_tools::ToolRegistry> {
        self.tools.read().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// What every context is offered: the registered tools, then the
    /// sub-agent tools (run by the runtime itself, never dispatched), whose
    /// tasks may name the models the providers have now.
    pub(crate) fn catalogue(&self) -> Vec<braid_protocol::ToolSpec> {
        let mut specs = self.tools().specs();
        // An MCP tool's approvals go to its pinned definition.
        for spec in &mut specs {
            if let braid_protocol::ToolSource::Mcp { server } = &spec.source {
                spec.pin = self.pins.pin_of(server, &spec.name);
            }
        }
        specs.extend(braid_core::subagents::tool_specs(&self.providers.task_models()));
        specs
    }
}

/// Images attached in the composer but never sent (removed there, or the
/// app closed) are kept a day, then deleted once no message refers to them.
pub(crate) const UNSENT_IMAGES_KEPT: std::time::Duration = std::time::Duration::from_secs(24 * 60 * 60);

/// What is left over from earlier runs, cleared off the start's path:
/// images no message names, checkpoints outside their time and space.
pub(crate) fn tidy(shared: &Shared) {
    sweep_images(shared);
    if let Err(e) = crate::checkpoint_storage::prune(&shared.checkpoints, &shared.store) {
        tracing::warn!(error = %e, "old checkpoints could not be pruned");
    }
}

fn sweep_images(shared: &Shared) {
    for id in shared.images.older_than(UNSENT_IMAGES_KEPT) {
        // One short query per image: the store lock is never held long.
        if matches!(shared.lock_store().image_in_use(&id), Ok(false)) {
            shared.images.remove(&id);
        }
    }
}
