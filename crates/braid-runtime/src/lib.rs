//! Braid's imperative shell. It owns tokio: it creates, loads, lists and
//! deletes contexts, feeds events into the pure core, carries out the
//! effects the core returns (after writing what must be written), and
//! broadcasts protocol events to subscribers.
//!
//! Shells (the desktop app, the headless server, the CLI) call one method
//! here per request and hold no logic of their own.

mod actor;
mod agent_task;
mod branch_copies;
mod branches;
mod catalogue;
mod changes;
mod checkpoint_storage;
mod checkpoints;
mod children;
mod clock;
mod codebase;
mod complete;
mod contexts;
mod dispatch;
mod error;
mod fallback;
mod handlers;
mod image_task;
mod images;
mod isolation;
mod library;
mod llm_task;
mod local_models;
mod local_servers;
mod mailbox;
mod mcp;
mod mcp_context;
mod mcp_pins;
mod mcp_secrets;
mod mcp_servers;
mod mcp_workspace;
mod merge_files;
mod meta_edits;
mod model_count;
mod outbound;
mod payload;
pub mod providers;
mod queue;
mod references;
mod report;
mod rewind;
mod secret_files;
mod secret_mask;
mod seen;
mod send;
mod settings_file;
mod shared;
mod snapshot;
mod subscription;
mod summary_task;
mod team;
mod tool_settings;
mod tool_task;
mod transfer;
mod watch;
mod window;
mod workflows;
mod workspace;

pub use braid_vision::limit_ocr_threads;
pub use dispatch::Handlers;
pub use error::RuntimeError;
pub use mailbox::BranchEdit;
pub use providers::{detect_local_servers, Fallback, Providers};
pub use shared::RuntimeConfig;
use shared::Shared;
pub use subscription::Subscription;

use actor::ContextActor;
use braid_core::history::TransitionRecord;
use braid_core::machine::{Event, Reply};
use braid_core::pipeline::Pipeline;
use braid_core::{ContextState, Conversation};
use braid_llm::secrets::Secrets;
use braid_llm::LlmProvider;
use braid_protocol::{
    AgentMode, ApprovalDecision, CallId, ContextId, ContextSnapshot, ContextSummary, ErrorCode, ImageData, ImageMode,
    MessageId, StoredImage, WireError,
};
use braid_store::{ContextMeta, RecoveryReport, Store};
use mailbox::Input;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, RwLock};
use tokio::sync::{broadcast, oneshot};

/// How many recent messages a new subscriber receives first.
pub const SUBSCRIBE_TAIL: usize = 200;

/// The runtime. Cheap to clone; all clones share the same contexts.
#[derive(Clone)]
pub struct Runtime {
    shared: Arc<Shared>,
}

impl Runtime {
    /// Opens the database, recovers contexts a crash interrupted, and
    /// returns the runtime with the recovery report. Needs a tokio runtime.
    /// Every request goes to `provider` (with `config.model`) until
    /// providers are added through the settings commands (kept in memory).
    pub fn open(
        config: RuntimeConfig,
        provider: Arc<dyn LlmProvider>,
    ) -> Result<(Runtime, RecoveryReport), RuntimeError> {
        let dir = config.db_path.parent().map(PathBuf::from).unwrap_or_default();
        // A model the catalogue knows gets its window and tokenizer.
        let known = braid_llm::catalogue::Catalogue::new(&[]).lookup(&config.model).cloned();
        let fallback = Fallback {
            label: provider.name().to_owned(),
            model: config.model.clone(),
            context_window: known.as_ref().map_or(8_192, |m| m.context_window),
            max_output_tokens: config.max_tokens,
            vision: false,
            tools: known.as_ref().is_none_or(|m| m.tools),
            encoding: known.map_or(braid_protocol::TokenEncoding::O200k, |m| m.tokenizer.into()),
            provider,
        };
        let providers = Providers::in_memory(Secrets::file_only(&dir)).with_fallback(fallback);
        Runtime::open_with(config, providers)
    }

    /// As [`Runtime::open`], with the providers given (from a settings
    /// file, usually).
    pub fn open_with(config: RuntimeConfig, providers: Providers) -> Result<(Runtime, RecoveryReport), RuntimeError> {
        let mut store = Store::open(&config.db_path)?;
        let mut report = store.recover_interrupted(clock::now())?;
        let data_dir = config.db_path.parent().map(PathBuf::from).unwrap_or_default();
        let ledger = braid_tools::ledger::ProcessLedger::new(data_dir.join("processes"));
        report.stopped_process_groups = ledger.reap();
        let checkpoints = Arc::new(checkpoints::Checkpoints::open(&data_dir, &config.db_path));
        report.completed_restores =
            checkpoints.recover(&|commit, targets| merge_files::recorded(&store, commit, targets));
        let (events, _) = broadcast::channel(4096);
        let image_dir = data_dir.join("images");
        let images = images::Images::open(image_dir).map_err(|e| RuntimeError::InvalidInput(e.to_string()))?;
        let (tools, codebases) = codebase::registry(&data_dir, config.broad_dirs.clone());
        // Braid's data folder (keys, database, logs) is hidden from
        // sandboxed commands wherever it is.
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let confine =
            braid_tools::Confinement::new(home.as_deref(), std::slice::from_ref(&data_dir), &config.sandbox_paths);
        let had_conversations = || store.list_contexts().is_ok_and(|l| !l.is_empty());
        let secrets = secret_mask::SecretMask::open(
            &data_dir,
            providers.stored_keys(),
            config.show_secrets_in.clone(),
            had_conversations,
        );
        let shared = Arc::new(Shared {
            confine: Arc::new(confine),
            secrets: Arc::new(secrets),
            pins: mcp_pins::Pins::open(data_dir.join("tool-pins.json")),
            store: Mutex::new(store),
            providers,
            tools: RwLock::new(Arc::new(tools)),
            codebases,
            contexts: contexts::Contexts::default(),
            config,
            events,
            pipeline: Pipeline::standard(),
            images: Arc::new(images),
            ledger,
            checkpoints,
            mcp: Default::default(),
            sent: Default::default(),
            children: Default::default(),
        });
        let sweep = shared.clone();
        std::thread::spawn(move || shared::tidy(&sweep));
        // Downloads a restart interrupted go on; one that lands on the
        // shelf may be the new default.
        if let Some(shelf) = shared.providers.local() {
            let weak = Arc::downgrade(&shared);
            shelf.hub().start(Arc::new(move || {
                if let Some(shared) = weak.upgrade() {
                    shared.providers.reopen_local();
                }
            }));
        }
        Ok((Runtime { shared }, report))
    }

    pub async fn create_context(
        &self,
        title: Option<String>,
        working_dir: Option<String>,
    ) -> Result<ContextSummary, RuntimeError> {
        let dir = self.folder(working_dir.as_deref())?;
        let defaults = self.shared.providers.conversation_defaults();
        let now = clock::now();
        let id = clock::new_context_id();
        let title = title
            .map(|t| t.trim().to_owned())
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| braid_core::title::DEFAULT_TITLE.to_owned());
        let meta = ContextMeta {
            id: id.clone(),
            title,
            working_dir: dir.display().to_string(),
            created_at: now,
            updated_at: now,
            // The default model, while its provider is still set up.
            model: defaults.model.clone().filter(|m| self.shared.providers.has(&m.provider_id)),
            pinned: false,
        };
        let mut state = ContextState::new(id.clone());
        state.config = self.shared.config.machine.clone();
        braid_core::machine::apply_defaults(&mut state.config, &defaults);
        state.config.tools.confirm_reads = self.shared.config.is_broad(&dir);
        let conversation = Conversation::new(now);
        self.shared.lock_store().create_context(&meta, &state, &conversation)?;
        let summary = snapshot::summary(&meta, &state, &conversation);
        let tx = ContextActor::spawn(self.shared.clone(), meta, state, conversation);
        self.shared.contexts.insert(id, tx).await;
        Ok(summary)
    }

    /// Every context, most recently updated first.
    pub async fn list_contexts(&self) -> Result<Vec<ContextSummary>, RuntimeError> {
        let listing = self.shared.lock_store().list_contexts()?;
        Ok(listing
            .into_iter()
            .map(|l| ContextSummary {
                id: l.meta.id,
                title: l.meta.title,
                working_dir: l.meta.working_dir,
                created_at: l.meta.created_at,
                updated_at: l.meta.updated_at,
                status: l.status,
                message_count: l.message_count,
                model: l.meta.model,
                pinned: l.meta.pinned,
                branches: l.branches,
                active_branch: l.active_branch,
            })
            .collect())
    }

    /// The whole active branch and the rest of the context's picture.
    pub async fn load_context(&self, id: &ContextId) -> Result<ContextSnapshot, RuntimeError> {
        self.ask(id, |answer| Input::Snapshot { tail: usize::MAX, answer }).await
    }

    /// The context's state, queue and branches without its messages: cheap
    /// whatever the conversation's length.
    pub async fn peek(&self, id: &ContextId) -> Result<ContextSnapshot, RuntimeError> {
        self.ask(id, |answer| Input::Snapshot { tail: 0, answer }).await
    }

    /// The current state and recent messages, then every later event.
    pub async fn subscribe(&self, id: &ContextId) -> Result<(ContextSnapshot, Subscription), RuntimeError> {
        let (snapshot, rx) = self.ask(id, |answer| Input::Subscribe { tail: SUBSCRIBE_TAIL, answer }).await?;
        self.open_codebase(&snapshot.summary.working_dir);
        Ok((snapshot, Subscription { only: subscription::Only::Context(id.clone()), rx }))
    }

    /// Stops whatever runs in the context, then deletes it for good, with
    /// its sub-agents.
    pub async fn delete_context(&self, id: &ContextId) -> Result<(), RuntimeError> {
        let children = self.shared.lock_store().children_of(id)?;
        for child in children.iter().map(|c| &c.context_id).chain([id]) {
            self.delete_one(child).await?;
        }
        Ok(())
    }

    async fn delete_one(&self, id: &ContextId) -> Result<(), RuntimeError> {
        self.drop_branch_copies(id).await;
        self.shared.contexts.close(id).await;
        self.shared.sent.forget(id);
        // Its images go too, unless another conversation uses them.
        let orphans = {
            let mut store = self.shared.lock_store();
            let images = store.image_ids(id).unwrap_or_default();
            store.delete_context(id)?;
            images.into_iter().filter(|i| matches!(store.image_in_use(i), Ok(false))).collect::<Vec<_>>()
        };
        for image in orphans {
            self.shared.images.remove(&image);
        }
        Ok(())
    }

    pub async fn cancel(&self, id: &ContextId) -> Result<(), RuntimeError> {
        self.command(id, Event::Cancel).await.map(drop)
    }

    pub async fn interrupt(&self, id: &ContextId) -> Result<(), RuntimeError> {
        self.command(id, Event::Interrupt).await.map(drop)
    }

    pub async fn retry(&self, id: &ContextId) -> Result<(), RuntimeError> {
        self.command(id, Event::Retry).await.map(drop)
    }

    /// `store_image`: checks the image and keeps it once, by content.
    pub async fn store_image(&self, data: String, name: Option<String>) -> Result<StoredImage, RuntimeError> {
        self.shared.images.put(data, name).await.map_err(RuntimeError::InvalidInput)
    }

    /// `read_image`: a stored image's bytes, for the full-size viewer.
    pub async fn read_image(&self, id: String) -> Result<ImageData, RuntimeError> {
        self.shared.images.get(id).await.map_err(|e| RuntimeError::Rejected(WireError::new(ErrorCode::NotFound, e)))
    }

    /// `retry_image`: reads an Image message again, as its mode and the
    /// conversation's current model say.
    pub async fn retry_image(
        &self,
        id: &ContextId,
        message_id: MessageId,
        mode: Option<ImageMode>,
    ) -> Result<(), RuntimeError> {
        self.ask(id, |answer| Input::Message { message_id, op: mailbox::MessageOp::Reread(mode), answer })
            .await
            .map(drop)
    }

    /// After the tool loop stopped (limit, repeat, interrupt): go on.
    pub async fn continue_loop(&self, id: &ContextId) -> Result<(), RuntimeError> {
        self.command(id, Event::Retry).await.map(drop)
    }

    /// Files of the context's workspace for the `@` picker.
    pub async fn workspace_files(
        &self,
        id: &ContextId,
        query: String,
        limit: Option<u32>,
    ) -> Result<Vec<String>, RuntimeError> {
        let root = PathBuf::from(self.peek(id).await?.summary.working_dir);
        let limit = limit.unwrap_or(50).clamp(1, 500) as usize;
        tokio::task::spawn_blocking(move || braid_workspace::files::find(&root, &query, limit))
            .await
            .map_err(|e| RuntimeError::InvalidInput(format!("listing files failed: {e}")))
    }

    pub async fn set_context_strategy(
        &self,
        id: &ContextId,
        strategy: braid_protocol::ContextStrategy,
        summarize_at_percent: Option<u8>,
    ) -> Result<(), RuntimeError> {
        self.command(id, Event::SetContextStrategy { strategy, summarize_at_percent }).await.map(drop)
    }

    /// Tools on a normal turn, temperature, longest answer: from the next
    /// request on. Answers the settings as kept.
    pub async fn set_generation(
        &self,
        id: &ContextId,
        settings: braid_protocol::GenerationSettings,
    ) -> Result<braid_protocol::GenerationSettings, RuntimeError> {
        self.command(id, Event::SetGeneration { settings }).await?;
        Ok(self.peek(id).await?.generation)
    }

    /// Plan (read tools only) or Act; recorded in the conversation.
    pub async fn set_mode(&self, id: &ContextId, mode: AgentMode) -> Result<(), RuntimeError> {
        self.command(id, Event::SetMode { mode }).await.map(drop)
    }

    pub async fn decide_tool_call(
        &self,
        id: &ContextId,
        call_id: CallId,
        decision: ApprovalDecision,
    ) -> Result<(), RuntimeError> {
        self.decide_tool_call_with_reason(id, call_id, decision, None).await
    }

    /// As [`Runtime::decide_tool_call`]; with a denial, `reason` is told
    /// to the model.
    pub async fn decide_tool_call_with_reason(
        &self,
        id: &ContextId,
        call_id: CallId,
        decision: ApprovalDecision,
        reason: Option<String>,
    ) -> Result<(), RuntimeError> {
        self.command(id, Event::ToolDecision { call_id, decision, reason }).await.map(drop)
    }

    /// The model providers: settings, tests, model lists.
    pub fn providers(&self) -> &Providers {
        &self.shared.providers
    }

    /// The context's recent transitions, oldest first.
    pub async fn transition_history(&self, id: &ContextId) -> Result<Vec<TransitionRecord>, RuntimeError> {
        self.ask(id, |answer| Input::History { answer }).await
    }

    /// Stops every context's work (aborting requests) and ends their tasks.
    pub async fn shutdown(&self) {
        self.shared.mcp.stop_all();
        self.shared.contexts.close_all().await;
    }

    /// The context's mailbox, its task started from the store on first use.
    pub(crate) async fn mailbox(&self, id: &ContextId) -> Result<mailbox::Mailbox, RuntimeError> {
        let shared = &self.shared;
        let load = || {
            let stored = match shared.lock_store().load_context(id) {
                Ok(l) => l,
                Err(braid_store::StoreError::NotFound(_)) => return Err(RuntimeError::NotFound(id.clone())),
                Err(e) => return Err(e.into()),
            };
            Ok(ContextActor::spawn(shared.clone(), stored.meta, stored.state, stored.conversation))
        };
        shared.contexts.get_or_load(id, load).await
    }

    pub(crate) async fn command(&self, id: &ContextId, event: Event) -> Result<Reply, RuntimeError> {
        self.ask(id, |answer| Input::Command(event, answer)).await
    }

    pub(crate) async fn ask<T>(
        &self,
        id: &ContextId,
        make: impl FnOnce(mailbox::Answer<T>) -> Input,
    ) -> Result<T, RuntimeError> {
        let tx = self.mailbox(id).await?;
        let (answer, reply) = oneshot::channel();
        tx.send(make(answer)).map_err(|_| RuntimeError::Closed(id.clone()))?;
        match reply.await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(wire)) => Err(RuntimeError::Rejected(wire)),
            Err(_) => Err(RuntimeError::Closed(id.clone())),
        }
    }
}
