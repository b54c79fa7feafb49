//! One task per loaded context. It owns the context's state and
//! conversation, and for every event: runs the pure transition, applies and
//! writes the persistence effects (state is persisted before effects run),
//! then carries out the rest — streams, timers, the pipeline, events out.
//! Its mailbox is the only way in, so a context's events are processed one
//! at a time, in order.

use crate::clock;
use crate::image_task;
use crate::llm_task::{self, LlmTask};
use crate::providers;
use crate::references;
use crate::summary_task;
use crate::watch::FileWatch;
use braid_workspace::freshness::{FileFreshness, Freshness};
use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

/// Tokens a summary may take.
const SUMMARY_OUTPUT: u32 = 600;
use crate::snapshot;
use crate::tool_task::{self, ToolTask};
use crate::Shared;
use braid_core::approval;
use braid_core::history::{TransitionLog, TransitionRecord};
use braid_core::llm::LlmFailure;
use braid_core::machine::{Effect, Event, Reply};
use braid_core::optimize::{self, Budget};
use braid_core::prompt;
use braid_core::tokens::{self, TokenEncoding};
use braid_core::{ContextState, Conversation};
use braid_llm::LlmRequest;
use braid_llm::{ToolChoice, ToolDefinition};
use braid_protocol::{
    Approval, BraidEvent, BranchId, CallId, ContextSnapshot, ContextSummary, ContextUpdate, ContextUsage, ControlKind,
    ErrorCode, FileInPlay, FileState, Message, MessageId, MessageType, ModelChoice, Notice, QueuedPreview, RequestId,
    TokenCount, ToolCall, UpdateMetadata, WireError,
};
use braid_store::ContextMeta;
use braid_tools::ToolContext;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{broadcast, mpsc, oneshot};

pub type Answer<T> = oneshot::Sender<Result<T, WireError>>;

pub enum Input {
    /// From the context's own tasks (stream, timers, pipeline).
    Event(Event),
    /// From a caller, answered with the transition's reply.
    Command(Event, Answer<Reply>),
    Snapshot {
        tail: usize,
        answer: Answer<ContextSnapshot>,
    },
    Subscribe {
        tail: usize,
        answer: Answer<(ContextSnapshot, broadcast::Receiver<BraidEvent>)>,
    },
    CreateBranch {
        from: MessageId,
        name: String,
        system_prompt: Option<String>,
        answer: Answer<BranchId>,
    },
    /// Checked here, where the branches are, then fed to the machine.
    SwitchBranch {
        to: BranchId,
        answer: Answer<Reply>,
    },
    History {
        answer: Answer<Vec<TransitionRecord>>,
    },
    /// A new title and/or model choice (`Some(None)`: back to the default).
    UpdateMeta {
        title: Option<String>,
        model: Option<Option<ModelChoice>>,
        answer: Answer<ContextSummary>,
    },
    /// A watched file may have changed: check it now.
    CheckFile(PathBuf),
    /// Tell the context's clients (from its tasks).
    Notice(Notice),
    /// Read this Image message again (looked up here, then fed to the
    /// machine).
    RereadImage {
        message_id: MessageId,
        /// Read it this way from now on.
        mode: Option<braid_protocol::ImageMode>,
        answer: Answer<Reply>,
    },
    /// Stop everything in flight and end the task.
    Shutdown {
        answer: oneshot::Sender<()>,
    },
}

pub struct ContextActor {
    shared: Arc<Shared>,
    meta: ContextMeta,
    state: ContextState,
    conversation: Conversation,
    log: TransitionLog,
    mailbox: mpsc::UnboundedSender<Input>,
    llm: Option<LlmTask>,
    retry: Option<(RequestId, tokio::task::JoinHandle<()>)>,
    tool: Option<ToolTask>,
    /// The encoding of the model in use, for counting stored messages.
    encoding: TokenEncoding,
    /// How the last request filled the window.
    context: Option<ContextUsage>,
    /// What the agent read and wrote in this conversation, and whether it
    /// changed outside Braid since (shared with the tools it runs).
    freshness: Arc<Mutex<FileFreshness>>,
    /// Files already reported changed, with the size reported, so a
    /// reminder is given once per change.
    reminded: HashMap<PathBuf, u64>,
    /// Files already announced as changed outside (with the size then).
    announced: HashMap<PathBuf, u64>,
    /// Watches the folders of the files in play (created on first use).
    watch: Option<FileWatch>,
    /// The answer being streamed, counted as it arrives, so the stored
    /// message is not tokenised again from scratch.
    streaming: Option<(MessageId, tokens::RunningCount)>,
    /// For models without a public tokenizer: reported prompt tokens over
    /// Braid's estimate for the same request (1.0 until a report comes).
    estimate_ratio: f64,
    /// The request a summary was already made for (at most one each).
    summarized_for: Option<RequestId>,
    summary: Option<(RequestId, tokio::task::JoinHandle<()>)>,
    /// Images being read (vision or OCR) for this pipeline message or
    /// Image message.
    reading: Option<(MessageId, tokio::task::JoinHandle<()>)>,
}

/// What fitting the conversation into the window decided.
enum Fit {
    Send(Vec<Message>),
    /// Past the threshold: summarise these first.
    Summarize(Vec<MessageId>),
}

impl ContextActor {
    pub fn spawn(
        shared: Arc<Shared>,
        meta: ContextMeta,
        state: ContextState,
        conversation: Conversation,
    ) -> mpsc::UnboundedSender<Input> {
        let (tx, rx) = mpsc::unbounded_channel();
        let actor = ContextActor {
            shared,
            meta,
            state,
            conversation,
            log: TransitionLog::new(1_000),
            mailbox: tx.clone(),
            llm: None,
            retry: None,
            tool: None,
            encoding: TokenEncoding::O200k,
            context: None,
            summarized_for: None,
            summary: None,
            estimate_ratio: 1.0,
            freshness: Arc::default(),
            reminded: HashMap::new(),
            announced: HashMap::new(),
            watch: None,
            streaming: None,
            reading: None,
        };
        tokio::spawn(actor.run(rx));
        tx
    }

    async fn run(mut self, mut rx: mpsc::UnboundedReceiver<Input>) {
        while let Some(input) = rx.recv().await {
            match input {
                Input::Event(event) => {
                    self.apply(event);
                }
                Input::Command(event, answer) => {
                    let reply = self.apply(event).unwrap_or(Ok(Reply::Done));
                    let _ = answer.send(reply);
                }
                Input::Snapshot { tail, answer } => {
                    let _ = answer.send(Ok(self.snapshot(tail)));
                }
                Input::Subscribe { tail, answer } => {
                    // Taken together, inside the actor: no event of this
                    // context can fall between the snapshot and the stream.
                    let rx = self.shared.events.subscribe();
                    let _ = answer.send(Ok((self.snapshot(tail), rx)));
                }
                Input::CreateBranch { from, name, system_prompt, answer } => {
                    let _ = answer.send(self.create_branch(from, &name, system_prompt));
                }
                Input::SwitchBranch { to, answer } => {
                    let reply = if self.conversation.branch(&to).is_some() {
                        let from = self.conversation.active_branch().clone();
                        self.apply(Event::SwitchBranch { from, to }).unwrap_or(Ok(Reply::Done))
                    } else {
                        Err(WireError::new(
                            ErrorCode::InvalidInput,
                            format!("branch {to} does not exist in context {}", self.meta.id),
                        ))
                    };
                    let _ = answer.send(reply);
                }
                Input::History { answer } => {
                    let _ = answer.send(Ok(self.log.records().cloned().collect()));
                }
                Input::UpdateMeta { title, model, answer } => {
                    let _ = answer.send(self.update_meta(title, model));
                }
                Input::CheckFile(path) => self.check_file(&path),
                Input::Notice(notice) => self.emit_notice(notice, clock::now()),
                Input::RereadImage { message_id, mode, answer } => {
                    let reply = match self.conversation.message(message_id).cloned() {
                        Some(mut message) => {
                            if let (MessageType::Image { mode: current, .. }, Some(m)) = (&mut message.body, mode) {
                                *current = m;
                            }
                            self.apply(Event::RereadImage { message }).unwrap_or(Ok(Reply::Done))
                        }
                        None => Err(WireError::new(ErrorCode::NotFound, format!("there is no message {message_id}"))),
                    };
                    let _ = answer.send(reply);
                }
                Input::Shutdown { answer } => {
                    self.apply(Event::Cancel);
                    self.stop_tasks();
                    let _ = answer.send(());
                    return;
                }
            }
        }
        self.stop_tasks();
    }

    fn stop_tasks(&mut self) {
        if let Some((_, t)) = self.reading.take() {
            t.abort();
        }
        if let Some((_, t)) = self.summary.take() {
            t.abort();
        }
        if let Some(t) = self.tool.take() {
            t.handle.abort();
        }
        if let Some(t) = self.llm.take() {
            t.handle.abort();
        }
        if let Some((_, h)) = self.retry.take() {
            h.abort();
        }
    }

    fn snapshot(&self, tail: usize) -> ContextSnapshot {
        let effective = self.shared.providers.effective(self.meta.model.as_ref());
        snapshot::build(
            &self.meta,
            &self.state,
            &self.conversation,
            tail,
            effective,
            self.context,
            self.files_in_play(),
        )
    }

    /// Written to the store first; the copy here changes only if that worked.
    fn update_meta(
        &mut self,
        title: Option<String>,
        model: Option<Option<ModelChoice>>,
    ) -> Result<ContextSummary, WireError> {
        let now = clock::now();
        let storage = |e: braid_store::StoreError| WireError::new(ErrorCode::Storage, e.to_string());
        let mut store = self.shared.lock_store();
        if let Some(title) = &title {
            store.rename_context(&self.meta.id, title, now).map_err(storage)?;
            self.meta.title = title.clone();
        }
        if let Some(model) = &model {
            store.set_context_model(&self.meta.id, model.as_ref(), now).map_err(storage)?;
            self.meta.model = model.clone();
        }
        drop(store);
        self.meta.updated_at = now;
        Ok(snapshot::summary(&self.meta, &self.state, self.conversation.len() as u64))
    }

    fn create_branch(
        &mut self,
        from: MessageId,
        name: &str,
        system_prompt: Option<String>,
    ) -> Result<BranchId, WireError> {
        let source = self.conversation.branch_of(from).cloned().ok_or_else(|| {
            WireError::new(ErrorCode::NotFound, format!("message {from} is not in this conversation"))
        })?;
        let id = self
            .conversation
            .create_branch(&source, from, name, system_prompt, clock::now())
            .map_err(|e| WireError::new(ErrorCode::InvalidInput, e.to_string()))?;
        if let Some(branch) = self.conversation.branch(&id) {
            let mut store = self.shared.lock_store();
            store.save_branch(&self.meta.id, branch).map_err(|e| WireError::new(ErrorCode::Storage, e.to_string()))?;
        }
        Ok(id)
    }

    /// One transition, start to finish. Returns the reply, if the event was
    /// a command.
    fn apply(&mut self, event: Event) -> Option<Result<Reply, WireError>> {
        let now = clock::now();
        let name = event.name();
        let from = self.state.status.kind();
        let (next, mut effects) = braid_core::transition(&self.state, event, now);
        // Counted once, here in the shell (the transition stays cheap), and
        // stored with the message.
        for effect in &mut effects {
            if let Effect::Emit(BraidEvent::ContentDelta(d)) = &*effect {
                let running = match &mut self.streaming {
                    Some((id, r)) if *id == d.message_id => r,
                    _ => &mut self.streaming.insert((d.message_id, tokens::RunningCount::default())).1,
                };
                running.push(self.encoding, &d.delta);
            }
            if let Effect::AppendMessage(m) = &mut *effect {
                if let (Some((id, running)), MessageType::Text { .. }) = (&self.streaming, &m.body) {
                    if *id == m.id && m.meta.tokens.is_none() {
                        let count = running.total(self.encoding) + tokens::PER_MESSAGE;
                        m.meta.tokens = Some(TokenCount { encoding: self.encoding, count });
                        self.streaming = None;
                    }
                }
            }
            if let (Effect::AppendMessage(m), Some(sent)) = (&*effect, self.context) {
                // What the provider counted for the request we estimated.
                if let (TokenEncoding::Estimate, Some(usage)) = (self.encoding, m.meta.usage) {
                    let ours = f64::from(sent.system + sent.tools + sent.messages).max(1.0);
                    self.estimate_ratio = (f64::from(usage.prompt_tokens) / ours).clamp(0.5, 3.0);
                }
            }
            if let Effect::AppendMessage(m) | Effect::UpdateMessage(m) = effect {
                if m.meta.tokens.is_none_or(|t| t.encoding != self.encoding) {
                    let count = tokens::message_tokens(self.encoding, &m.body);
                    m.meta.tokens = Some(TokenCount { encoding: self.encoding, count });
                }
            }
        }
        for effect in effects.iter().filter(|e| e.is_persistence()) {
            if let Err(e) = self.conversation.apply(effect) {
                tracing::error!(context = %self.meta.id, error = %e, "effect did not apply to the conversation");
            }
        }
        self.state = next;
        if let Err(e) = self.shared.lock_store().persist(&self.meta.id, &self.state, &self.conversation, &effects, now)
        {
            // Keep going in memory, and say so: the user must know that
            // what they see may not survive a restart.
            tracing::error!(context = %self.meta.id, error = %e, "could not save the context");
            self.emit_notice(Notice::from_error(ErrorCode::Storage, format!("Could not save: {e}")), now);
        }
        self.log.push(TransitionRecord {
            at: now,
            event: name.to_owned(),
            from,
            to: self.state.status.kind(),
            effects: effects.len(),
        });
        let mut reply = None;
        for effect in effects {
            match effect {
                Effect::Reply(r) => reply = Some(r),
                Effect::Emit(e) => {
                    let _ = self.shared.events.send(e);
                }
                Effect::RunPipeline(message) => self.run_pipeline(message),
                // The pipeline itself runs inline; only reading images is a task.
                Effect::AbortPipeline(id) => {
                    if let Some((reading, handle)) = self.reading.take() {
                        if reading == id {
                            handle.abort();
                        } else {
                            self.reading = Some((reading, handle));
                        }
                    }
                }
                Effect::RereadImage(message) => {
                    let id = message.id;
                    let handle = image_task::spawn_reread(self.reading_job(), message);
                    self.reading = Some((id, handle));
                }
                Effect::StartLlmRequest { request_id, .. } => self.start_llm(request_id),
                Effect::AbortLlmRequest { request_id, keep_partial } => self.abort_llm(request_id, keep_partial),
                Effect::ScheduleRetry { request_id, at } => self.schedule_retry(request_id, at),
                Effect::CancelRetry { request_id } => {
                    if let Some((id, handle)) = self.retry.take() {
                        if id == request_id {
                            handle.abort();
                        } else {
                            self.retry = Some((id, handle));
                        }
                    }
                }
                Effect::RequestApproval { .. } => {} // the state carries the calls; clients show the dialog
                Effect::RunTool { call, .. } => self.run_tool(call),
                Effect::AppendMessage(ref m)
                    if matches!(m.body, MessageType::ToolResult { .. } | MessageType::FileReference { .. }) =>
                {
                    self.cover_files()
                }
                Effect::KillTool { call_id } => self.kill_tool(&call_id),
                Effect::Summarize { request_id, replaces } => self.start_summary(request_id, replaces),
                Effect::PersistState
                | Effect::AppendMessage(_)
                | Effect::UpdateMessage(_)
                | Effect::SetActiveBranch(_) => {}
            }
        }
        reply
    }

    fn emit_notice(&self, notice: Notice, now: braid_protocol::Timestamp) {
        let update = ContextUpdate {
            context_id: self.meta.id.clone(),
            current_state: self.state.status.clone(),
            previous_state: None,
            message: None,
            timestamp: now,
            metadata: UpdateMetadata {
                queue: self.state.queue.iter().map(|q| QueuedPreview::of(q.id, &q.body)).collect(),
                notice: Some(notice),
            },
        };
        let _ = self.shared.events.send(BraidEvent::ContextUpdate(update));
    }

    /// The pipeline runs inline (its processors are fast and pure so far);
    /// its stages and result go through the mailbox, so a Cancel that is
    /// already waiting there is processed first.
    fn run_pipeline(&mut self, message: Message) {
        let id = message.id;
        let disabled = self
            .conversation
            .branch(self.conversation.active_branch())
            .and_then(|b| b.pipeline.as_ref())
            .map(|p| p.disabled_processors.clone())
            .unwrap_or_default();
        let mailbox = self.mailbox.clone();
        let mut on_stage = |stage| {
            let _ = mailbox.send(Input::Event(Event::PipelineStage { message_id: id, stage }));
        };
        let outcome =
            self.shared.pipeline.run(message, &self.conversation, &disabled, &mut clock::micros, &mut on_stage);
        // Images sent with the message, then those its text mentions.
        let mut images = self.state.pending.as_ref().map(|p| p.images.clone()).unwrap_or_default();
        let event = match outcome {
            Ok((message, report)) => {
                tracing::debug!(context = %self.meta.id, micros = report.total_micros, "pipeline done");
                if references::wanted(&message)
                    && !approval::offered(&self.state.config.tools, braid_protocol::Permission::Read)
                {
                    let error = "the agent's role may not read files, so file references cannot be resolved".to_owned();
                    Event::PipelineFailed { message_id: id, error }
                } else if references::wanted(&message) {
                    on_stage(braid_core::machine::PipelineStage::ResolvingFileReferences);
                    let workspace = PathBuf::from(&self.meta.working_dir);
                    let mut freshness = self.freshness.lock().unwrap_or_else(PoisonError::into_inner);
                    match references::resolve_message(message, Some(&workspace), &mut freshness) {
                        Ok((message, attachments, mentioned)) => {
                            images.extend(mentioned);
                            Event::PipelineSucceeded { message, attachments }
                        }
                        Err(error) => Event::PipelineFailed { message_id: id, error },
                    }
                } else {
                    Event::PipelineSucceeded { message, attachments: Vec::new() }
                }
            }
            Err((error, _)) => Event::PipelineFailed { message_id: id, error: error.to_string() },
        };
        let event = match event {
            Event::PipelineSucceeded { message, attachments }
                if !images.is_empty() || matches!(message.body, MessageType::Image { .. }) =>
            {
                let handle = image_task::spawn_pipeline(self.reading_job(), message, attachments, images);
                self.reading = Some((id, handle));
                return;
            }
            other => other,
        };
        let _ = self.mailbox.send(Input::Event(event));
    }

    fn reading_job(&self) -> image_task::Reading {
        image_task::Reading {
            images: self.shared.images.clone(),
            model: self.shared.providers.resolve(self.meta.model.as_ref()).ok(),
            workspace: PathBuf::from(&self.meta.working_dir),
            mailbox: self.mailbox.clone(),
        }
    }

    fn start_llm(&mut self, request_id: RequestId) {
        if let Some(old) = self.llm.take() {
            old.handle.abort();
        }
        let resolved = match self.shared.providers.resolve(self.meta.model.as_ref()) {
            Ok(r) => r,
            Err(message) => {
                let failure = LlmFailure::fatal("no_provider", message);
                let _ = self.mailbox.send(Input::Event(Event::LlmFailed { request_id, failure }));
                return;
            }
        };
        self.encoding = resolved.encoding;
        let config = &self.shared.config;
        let settings = &self.state.config.tools;
        // Only the tools the mode and role offer are described to the model.
        let tools: Vec<ToolDefinition> = self
            .shared
            .tools
            .tools()
            .filter(|t| approval::offered(settings, t.permission()))
            .map(|t| ToolDefinition {
                name: t.name().to_owned(),
                description: t.description().to_owned(),
                input_schema: t.input_schema(),
            })
            .collect();
        let mut system = prompt::system_prompt_for(&self.conversation, config.system_prompt.as_deref(), settings);
        let max_tokens = config.max_tokens.min(resolved.max_output_tokens);
        if let Some(reminder) = self.freshness_reminder() {
            system = Some(match system {
                Some(s) => format!("{s}\n\n{reminder}"),
                None => reminder,
            });
        }
        let messages = prompt::request_messages(&self.conversation);
        let messages = match self.fit(request_id, messages, &system, &tools, &resolved, max_tokens) {
            Ok(Fit::Send(m)) => m,
            Ok(Fit::Summarize(replaces)) => {
                self.summarized_for = Some(request_id);
                let _ = self.mailbox.send(Input::Event(Event::ContextFull { request_id, replaces }));
                return;
            }
            Err(message) => {
                let failure = LlmFailure::fatal("context_too_large", message);
                let _ = self.mailbox.send(Input::Event(Event::LlmFailed { request_id, failure }));
                return;
            }
        };
        // Models that see get the pixels (attached in the task: scaling
        // takes milliseconds); the others get what was read from them.
        let messages = braid_core::vision::for_request(messages, resolved.view.vision);
        let pixels = messages.iter().any(|m| matches!(m.body, MessageType::Image { .. })).then(|| llm_task::Pixels {
            images: self.shared.images.clone(),
            workspace: PathBuf::from(&self.meta.working_dir),
            limits: braid_core::vision::limits_for(resolved.kind),
        });
        let request = LlmRequest {
            model: resolved.model,
            system,
            messages,
            tools,
            tool_choice: self.state.request.as_ref().and_then(|r| r.force_tool.clone()).map(ToolChoice::Function),
            max_tokens: Some(max_tokens),
        };
        self.llm = Some(llm_task::spawn(resolved.provider, request, request_id, self.mailbox.clone(), pixels));
    }

    /// The messages that fit the model's window with the conversation's
    /// strategy (a tighter budget after the model said it was too long).
    /// Stored counts are used when their encoding matches.
    fn fit(
        &mut self,
        request_id: RequestId,
        messages: Vec<Message>,
        system: &Option<String>,
        tools: &[ToolDefinition],
        resolved: &providers::Resolved,
        max_tokens: u32,
    ) -> Result<Fit, String> {
        let enc = resolved.encoding;
        let sees = resolved.view.vision;
        let cost = |m: &Message| {
            // An image the model looks at costs its pixels, not its text.
            if let Some(pixels) = braid_core::vision::pixel_tokens(&m.body, sees) {
                return pixels;
            }
            match m.meta.tokens {
                Some(t) if t.encoding == enc => t.count,
                _ => tokens::message_tokens(enc, &m.body),
            }
        };
        // As the provider sees each tool: name, description, schema.
        let tools_tokens: u32 = tools
            .iter()
            .map(|t| {
                tokens::count(enc, &t.name)
                    + tokens::count(enc, &t.description)
                    + tokens::count(enc, &t.input_schema.to_string())
            })
            .sum();
        let budget = Budget {
            window: resolved.view.context_window,
            reserved_output: max_tokens,
            system: system.as_deref().map_or(0, |s| tokens::count(enc, s) + tokens::PER_MESSAGE),
            tools: tools_tokens,
        };
        let trimmed = self.state.request.as_ref().is_some_and(|r| r.trimmed);
        let mut available = if trimmed { budget.for_messages() / 2 } else { budget.for_messages() };
        if enc == TokenEncoding::Estimate && self.estimate_ratio > 1.0 {
            // Our estimate runs low for this model: leave room for that.
            available = (f64::from(available) / self.estimate_ratio) as u32;
        }
        let counted: Vec<(&Message, u32)> = messages.iter().map(|m| (m, cost(m))).collect();
        // Past the threshold, summarise the oldest messages first (once per
        // request), within what the summariser itself can read.
        let all: u64 = counted.iter().map(|c| u64::from(c.1)).sum();
        let all = if enc == TokenEncoding::Estimate { (all as f64 * self.estimate_ratio) as u64 } else { all };
        let total = all + u64::from(budget.system + budget.tools + budget.reserved_output);
        let limit = u64::from(budget.window) * u64::from(self.state.config.summarize_at_percent) / 100;
        if total >= limit && self.summarized_for != Some(request_id) {
            let readable = budget.window.saturating_sub(SUMMARY_OUTPUT + 600).max(256);
            let keep = optimize::keep_last(self.state.config.context);
            let batch = optimize::summary_batch(&counted, keep, readable);
            if batch.len() >= 2 {
                return Ok(Fit::Summarize(batch));
            }
        }
        // A summary stands for older messages: it goes before any of them.
        let pinned = self
            .conversation
            .active_messages()
            .filter_map(|m| match &m.body {
                MessageType::SystemControl { control: ControlKind::Summary { .. } } => Some(m.id),
                _ => None,
            })
            .last();
        let selection =
            optimize::select_pinned(&counted, self.state.config.context, available, pinned).map_err(|e| {
                format!(
                "The latest message is too long for {} ({} tokens; about {} fit after the system prompt, tools and \
                 the answer's reserve). Shorten it or choose a model with a larger window.",
                resolved.view.model, e.needed, e.available
            )
            })?;
        self.context = Some(ContextUsage {
            window: budget.window,
            system: budget.system,
            tools: budget.tools,
            messages: selection.tokens,
            reserved_output: budget.reserved_output,
            sent_messages: selection.keep.len() as u32,
            left_out: selection.dropped.len() as u32,
        });
        if !selection.dropped.is_empty() {
            tracing::debug!(context = %self.meta.id, left_out = selection.dropped.len(), "older messages left out to fit");
        }
        let keep: std::collections::HashSet<_> = selection.keep.into_iter().collect();
        Ok(Fit::Send(messages.into_iter().filter(|m| keep.contains(&m.id)).collect()))
    }

    /// Asks the model for a summary of `batch` (ids as sent: the previous
    /// summary stands for the messages it replaced, which are folded in).
    fn start_summary(&mut self, request_id: RequestId, batch: Vec<MessageId>) {
        let previous = self
            .conversation
            .active_messages()
            .filter_map(|m| match &m.body {
                MessageType::SystemControl { control: ControlKind::Summary { text, replaces } } => {
                    Some((m.id, text.clone(), replaces.clone()))
                }
                _ => None,
            })
            .last();
        let mut replaces: Vec<MessageId> = Vec::new();
        let mut prior_text = None;
        if let Some((id, text, earlier)) = &previous {
            if batch.contains(id) {
                replaces.extend(earlier);
                prior_text = Some(text.clone());
            }
        }
        let wanted: std::collections::HashSet<MessageId> = batch.iter().copied().collect();
        let messages: Vec<&Message> = self
            .conversation
            .active_messages()
            .filter(|m| wanted.contains(&m.id) && !matches!(m.body, MessageType::SystemControl { .. }))
            .collect();
        replaces.extend(messages.iter().map(|m| m.id));
        let input = prompt::summary_input(prior_text.as_deref(), &messages);
        let resolved = match self.shared.providers.resolve(self.meta.model.as_ref()) {
            Ok(r) => r,
            Err(error) => {
                let _ = self.mailbox.send(Input::Event(Event::SummaryFailed { request_id, error }));
                return;
            }
        };
        let job = summary_task::SummaryJob {
            provider: resolved.provider,
            model: resolved.model,
            request_id,
            replaces,
            input,
            max_tokens: SUMMARY_OUTPUT.min(resolved.max_output_tokens),
        };
        if let Some((_, old)) = self.summary.replace((request_id, summary_task::spawn(job, self.mailbox.clone()))) {
            old.abort();
        }
    }

    /// Watches the folders of every file in play (after reads and writes).
    fn cover_files(&mut self) {
        let freshness = self.freshness.lock().unwrap_or_else(PoisonError::into_inner);
        let watch = self.watch.get_or_insert_with(|| FileWatch::new(self.mailbox.clone()));
        watch.cover(freshness.tracked());
    }

    /// A watched file's event: announce a real change once.
    fn check_file(&mut self, path: &std::path::Path) {
        let how = {
            let freshness = self.freshness.lock().unwrap_or_else(PoisonError::into_inner);
            if freshness.record_of(path).is_none() {
                return;
            }
            freshness.check(path)
        };
        let size = match how {
            Freshness::ModifiedExternally { size_now, .. } => size_now,
            Freshness::Deleted => u64::MAX,
            _ => {
                self.announced.remove(path);
                return;
            }
        };
        if self.announced.insert(path.to_path_buf(), size) == Some(size) {
            return;
        }
        let shown = braid_workspace::paths::shown(&PathBuf::from(&self.meta.working_dir), path);
        let text = if size == u64::MAX {
            format!("{shown} was deleted outside Braid.")
        } else {
            format!("{shown} changed outside Braid; the model will be told before its next request.")
        };
        self.emit_notice(Notice::new("file_changed", text), clock::now());
    }

    /// The files in play (at most 30), most recent first, with their state.
    fn files_in_play(&self) -> Vec<FileInPlay> {
        let root = PathBuf::from(&self.meta.working_dir);
        let freshness = self.freshness.lock().unwrap_or_else(PoisonError::into_inner);
        freshness
            .important_files(&root, 30)
            .into_iter()
            .map(|p| {
                let state = match freshness.check(&p) {
                    Freshness::ModifiedExternally { .. } => FileState::ChangedOutside,
                    Freshness::Deleted => FileState::Deleted,
                    _ => FileState::Fresh,
                };
                FileInPlay { path: braid_workspace::paths::shown(&root, &p), state }
            })
            .collect()
    }

    /// A short note for the model about files it read that changed outside
    /// Braid since, once per change.
    fn freshness_reminder(&mut self) -> Option<String> {
        let changed = self.freshness.lock().unwrap_or_else(PoisonError::into_inner).changed();
        let root = PathBuf::from(&self.meta.working_dir);
        let mut lines = Vec::new();
        for (path, how) in changed {
            let size = match how {
                Freshness::ModifiedExternally { size_now, .. } => size_now,
                _ => u64::MAX,
            };
            if self.reminded.get(&path) == Some(&size) {
                continue;
            }
            self.reminded.insert(path.clone(), size);
            let shown = braid_workspace::paths::shown(&root, &path);
            lines.push(match how {
                Freshness::ModifiedExternally { size_before, size_now, .. } => {
                    format!("- {shown}: changed ({size_before} → {size_now} bytes)")
                }
                _ => format!("- {shown}: deleted"),
            });
        }
        (!lines.is_empty()).then(|| {
            format!(
                "Files you read earlier changed outside Braid since; read them again before relying on them or \
                 editing them:\n{}",
                lines.join("\n")
            )
        })
    }

    /// Only approved calls reach here: the core decided (policy or user).
    fn run_tool(&mut self, call: ToolCall) {
        if let Some(old) = self.tool.take() {
            old.handle.abort();
        }
        let ctx = ToolContext {
            workspace: PathBuf::from(&self.meta.working_dir),
            freshness: Some(self.freshness.clone()),
            allow_overwrite: call.approval == Approval::ApprovedOverwrite,
        };
        let timeout = Duration::from_millis(self.state.config.tools.timeout_ms.max(1));
        self.tool = Some(tool_task::spawn(self.shared.tools.clone(), call, ctx, timeout, self.mailbox.clone()));
    }

    /// Cancel: the task is aborted (its process group killed) and the core
    /// hears at once that the call ended.
    fn kill_tool(&mut self, call_id: &CallId) {
        if let Some(task) = self.tool.take_if(|t| &t.call_id == call_id) {
            task.handle.abort();
        }
        let event = Event::ToolFinished { call_id: call_id.clone(), outcome: tool_task::killed() };
        let _ = self.mailbox.send(Input::Event(event));
    }

    fn abort_llm(&mut self, request_id: RequestId, keep_partial: bool) {
        if let Some((_, task)) = self.summary.take_if(|(id, _)| *id == request_id) {
            task.abort();
        }
        let Some(mut task) = self.llm.take() else { return };
        if task.request_id != request_id {
            self.llm = Some(task);
            return;
        }
        if keep_partial {
            if let Some(stop) = task.stop.take() {
                let _ = stop.send(());
            }
        } else {
            // Dropping the stream closes the connection at once.
            task.handle.abort();
        }
    }

    fn schedule_retry(&mut self, request_id: RequestId, at: braid_protocol::Timestamp) {
        let delay = std::time::Duration::from_millis(clock::now().ms_until(at));
        let mailbox = self.mailbox.clone();
        let handle = tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            let _ = mailbox.send(Input::Event(Event::RetryTimerFired { request_id }));
        });
        if let Some((_, old)) = self.retry.replace((request_id, handle)) {
            old.abort();
        }
    }
}
