//! The transition function: user input, the pipeline, the LLM request and
//! its retries, cancel and interrupt. Tool rounds are in `tools.rs`.

use super::{
    is_pipeline_phase, is_request_phase, retry_delay_ms, ContextState, Effect, Event, InFlight, LoopProgress,
    QueuedMessage, Reply,
};
use crate::approval::{offered, permission_in};
use crate::llm::{LlmFailure, LlmResponse, StopReason};
use crate::validate::validate_user_message;
use braid_protocol::{
    BraidEvent, BranchId, ContentDelta, ContentFinal, ContextStatus, ContextStrategy, ContextUpdate, ControlKind,
    ErrorCode, ImageAttachment, Message, MessageChange, MessageId, MessageKind, MessageLifecycle, MessageType, Notice,
    QueuedPreview, RequestId, Role, SendReceipt, StatusKind, Timestamp, UpdateMetadata, WireError,
};
use braid_protocol::{FailureCode, NoticeCode};

/// `transition(state, event, now) -> (state, effects)`: pure and total.
/// Events that do not apply to the current state (a late chunk from an
/// aborted request, a timer for a cancelled retry) change nothing.
pub fn transition(state: &ContextState, event: Event, now: Timestamp) -> (ContextState, Vec<Effect>) {
    let mut step = Step { s: state.clone(), now, durable: Vec::new(), other: Vec::new(), progress_only: false };
    step.handle(event);
    step.start_queued_if_idle();
    let Step { s, mut durable, other, progress_only, .. } = step;
    if !progress_only && s != *state {
        durable.insert(0, Effect::PersistState);
    }
    durable.extend(other);
    (s, durable)
}

pub(super) struct Step {
    pub(super) s: ContextState,
    pub(super) now: Timestamp,
    durable: Vec<Effect>,
    other: Vec<Effect>,
    /// Only streaming counters moved: not worth a write per chunk (a crash
    /// loses the partial answer by design).
    progress_only: bool,
}

impl Step {
    fn handle(&mut self, event: Event) {
        match event {
            Event::Cancel => self.cancel(),
            Event::Interrupt => self.interrupt(),
            Event::UserMessage { body, queue_if_busy, force_tool, images } => {
                self.user_message(body, queue_if_busy, force_tool, images)
            }
            Event::RereadImage { message } => self.reread_image(message),
            Event::ImageReread { message } => {
                if self.kind() == StatusKind::ReadingImages && self.s.rereading == Some(message.id) {
                    self.s.rereading = None;
                    let status = match &message.body {
                        MessageType::Image { error: Some(_), .. } => "failed",
                        _ => "read",
                    };
                    self.rewrite(message, status.to_owned());
                    self.set_status(ContextStatus::Idle);
                }
            }
            Event::Unqueue { message_id } => self.unqueue(message_id),
            Event::PipelineStage { message_id, stage } => {
                if self.pending_is(message_id) && is_pipeline_phase(self.kind()) {
                    self.set_status(stage.status());
                }
            }
            Event::PipelineSucceeded { message, attachments } => {
                if self.pending_is(message.id) && is_pipeline_phase(self.kind()) {
                    self.s.force_tool = self.s.pending.take().and_then(|p| p.force_tool);
                    for body in attachments {
                        let id = self.alloc_message_id();
                        let attached = self.message(id, body);
                        self.append(attached);
                    }
                    self.append(message);
                    self.start_request(1);
                }
            }
            Event::PipelineFailed { message_id, error } => {
                if self.pending_is(message_id) && is_pipeline_phase(self.kind()) {
                    self.s.pending = None;
                    self.set_status(ContextStatus::Idle);
                    let text = format!("The message was not added: {error}");
                    self.notify(Notice::new(NoticeCode::MessageNotAdded, text));
                }
            }
            Event::RequestPrepared { request_id, prepared } => {
                let preparing = matches!(self.kind(), StatusKind::EnhancingSystemPrompt | StatusKind::ToolAutoLoop);
                if self.request_is(request_id) && preparing {
                    self.prepared(request_id, *prepared);
                }
            }
            Event::FileChecked { path, change } => self.file_checked(path, change),
            Event::CatalogueChanged { tools } => self.s.catalogue = tools,
            Event::LlmRequestStarted { request_id } => {
                if self.request_is(request_id)
                    && matches!(self.kind(), StatusKind::PreparingLlmRequest | StatusKind::ToolAutoLoop)
                {
                    self.set_status(ContextStatus::ConnectingToLlm);
                }
            }
            Event::LlmConnected { request_id } => {
                if self.request_is(request_id)
                    && matches!(
                        self.kind(),
                        StatusKind::PreparingLlmRequest | StatusKind::ToolAutoLoop | StatusKind::ConnectingToLlm
                    )
                {
                    self.set_status(ContextStatus::AwaitingLlmFirstChunk);
                }
            }
            Event::LlmDelta { request_id, text } => self.delta(request_id, text),
            Event::LlmCompleted { request_id, response } => {
                if self.request_is(request_id) && is_request_phase(self.kind()) {
                    self.completed(response);
                }
            }
            Event::LlmFailed { request_id, failure } => {
                if self.request_is(request_id) && is_request_phase(self.kind()) {
                    self.failed(failure);
                }
            }
            Event::RetryTimerFired { request_id } => {
                if self.request_is(request_id) && self.kind() == StatusKind::RetryingLlmRequest {
                    let old = self.s.request.take();
                    let attempt = old.as_ref().map_or(1, |r| r.attempt + 1);
                    // A retry asks the same as the request it repeats.
                    self.s.force_tool = old.and_then(|r| r.force_tool);
                    self.start_request(attempt);
                }
            }
            Event::ToolDecision { call_id, decision } => self.tool_decision(call_id, decision),
            Event::SetMode { mode } => self.set_mode(mode),
            Event::SetContextStrategy { strategy, summarize_at_percent } => {
                let bad_n = match strategy {
                    ContextStrategy::RecentN { n } => n == 0,
                    ContextStrategy::Intelligent { keep_last } | ContextStrategy::ImportanceScoring { keep_last } => {
                        keep_last == 0
                    }
                };
                let bad_pct = summarize_at_percent.is_some_and(|p| !(50..=100).contains(&p));
                if bad_n || bad_pct {
                    let text = "keep at least 1 message, and summarise at 50 to 100 % of the window";
                    self.reply(Err(WireError::new(ErrorCode::InvalidInput, text)));
                } else {
                    self.s.config.context = strategy;
                    if let Some(p) = summarize_at_percent {
                        self.s.config.summarize_at_percent = p;
                    }
                    self.reply(Ok(Reply::Done));
                }
            }
            Event::SummaryReady { request_id, text, replaces } => {
                if self.request_is(request_id) && self.kind() == StatusKind::Summarizing {
                    let id = self.alloc_message_id();
                    let n = replaces.len();
                    let message = self
                        .message(id, MessageType::SystemControl { control: ControlKind::Summary { text, replaces } });
                    self.append(message);
                    self.notify(Notice::new(
                        NoticeCode::Summarized,
                        format!(
                            "{n} earlier messages were summarised to fit the model's window; they stay in the history."
                        ),
                    ));
                    self.resume_request();
                }
            }
            Event::SummaryFailed { request_id, error } => {
                if self.request_is(request_id) && self.kind() == StatusKind::Summarizing {
                    self.notify(Notice::new(
                        NoticeCode::SummaryFailed,
                        format!("Could not summarise older messages ({error}); older messages are left out instead."),
                    ));
                    self.resume_request();
                }
            }
            Event::SetToolPolicy { policy, always_ask } => {
                self.s.config.tools.policy = policy;
                if let Some(list) = always_ask {
                    self.s.config.tools.always_ask = list;
                }
                self.reply(Ok(Reply::Done));
            }
            Event::ToolFinished { call_id, outcome } => self.tool_finished(call_id, outcome),
            Event::Retry => self.retry(),
            Event::SwitchBranch { from, to } => self.switch_branch(from, to),
            Event::CreateBranch { draft, switch } => self.create_branch(*draft, switch),
        }
    }

    pub(super) fn kind(&self) -> StatusKind {
        self.s.status.kind()
    }

    fn pending_is(&self, id: MessageId) -> bool {
        self.s.pending.as_ref().is_some_and(|p| p.id == id)
    }

    fn request_is(&self, id: RequestId) -> bool {
        self.s.request.as_ref().is_some_and(|r| r.id == id)
    }

    pub(super) fn alloc_message_id(&mut self) -> MessageId {
        let id = MessageId(self.s.next_message_id);
        self.s.next_message_id += 1;
        id
    }

    pub(super) fn reply(&mut self, reply: Result<Reply, WireError>) {
        self.other.push(Effect::Reply(reply));
    }

    pub(super) fn run(&mut self, effect: Effect) {
        self.other.push(effect);
    }

    fn update(
        &self,
        previous: Option<ContextStatus>,
        message: Option<MessageLifecycle>,
        notice: Option<Notice>,
    ) -> Effect {
        Effect::Emit(BraidEvent::ContextUpdate(ContextUpdate {
            context_id: self.s.context_id.clone(),
            current_state: self.s.status.clone(),
            previous_state: previous,
            message,
            timestamp: self.now,
            metadata: UpdateMetadata {
                queue: self.s.queue.iter().map(|q| QueuedPreview::of(q.id, &q.body)).collect(),
                notice,
            },
        }))
    }

    /// Moves to `status` and tells subscribers; `previous_state` is set when
    /// the kind of state changes, not when only its counters move.
    pub(super) fn set_status(&mut self, status: ContextStatus) {
        if status == self.s.status {
            return;
        }
        let previous = std::mem::replace(&mut self.s.status, status);
        let changed_kind = previous.kind() != self.s.status.kind();
        let effect = self.update(changed_kind.then_some(previous), None, None);
        self.other.push(effect);
    }

    pub(super) fn notify(&mut self, notice: Notice) {
        let effect = self.update(None, None, Some(notice));
        self.other.push(effect);
    }

    pub(super) fn lifecycle(&mut self, message_id: MessageId, kind: MessageKind, change: MessageChange) {
        let effect = self.update(None, Some(MessageLifecycle { message_id, kind, change }), None);
        self.other.push(effect);
    }

    pub(super) fn message(&self, id: MessageId, body: MessageType) -> Message {
        Message::new(id, self.now, body)
    }

    pub(super) fn append(&mut self, message: Message) {
        let message = self.counted(message);
        let (id, kind) = (message.id, message.body.kind());
        self.durable.push(Effect::AppendMessage(message));
        self.lifecycle(id, kind, MessageChange::Created);
    }

    pub(super) fn rewrite(&mut self, message: Message, status: String) {
        let message = self.counted(message);
        let (id, kind) = (message.id, message.body.kind());
        self.durable.push(Effect::UpdateMessage(message));
        self.lifecycle(id, kind, MessageChange::StatusChanged { status });
    }

    fn user_message(
        &mut self,
        body: MessageType,
        queue_if_busy: bool,
        force_tool: Option<String>,
        mut images: Vec<ImageAttachment>,
    ) {
        // Images alone: the last image is the message, the others go just
        // before it, so they keep the order they were attached in.
        let body = match body {
            b if is_blank_text(&b) && !images.is_empty() => {
                let Some(last) = images.pop() else { return };
                MessageType::image(last.source, last.mode)
            }
            b => b,
        };
        if let Some(bad) = images.iter().find_map(|i| attachment_problem(&i.source)) {
            self.reply(Err(WireError::new(ErrorCode::InvalidInput, bad)));
            return;
        }
        if let Err(e) = validate_user_message(&body) {
            self.reply(Err(WireError::new(ErrorCode::InvalidInput, e.to_string())));
            return;
        }
        if let Some(name) = &force_tool {
            let offered = permission_in(&self.s.catalogue, name).map(|p| offered(&self.s.config.tools, p));
            let problem = match offered {
                None => Some(format!("there is no tool named {name:?}")),
                Some(false) => Some(format!("{name} is not available in this mode")),
                Some(true) => None,
            };
            if let Some(text) = problem {
                self.reply(Err(WireError::new(ErrorCode::InvalidInput, text)));
                return;
            }
        }
        if self.s.status.is_busy() {
            if !queue_if_busy {
                let what = self.s.status.describe(self.now);
                let text = format!("Braid is busy ({what}). Cancel or wait, or queue the message.");
                self.reply(Err(WireError::new(ErrorCode::AgentBusy, text)));
                return;
            }
            let id = self.alloc_message_id();
            self.s.queue.push_back(QueuedMessage { id, body, force_tool, images });
            self.reply(Ok(Reply::Accepted(SendReceipt { message_id: id, queued: true })));
            let effect = self.update(None, None, None);
            self.other.push(effect);
            return;
        }
        let id = self.alloc_message_id();
        self.reply(Ok(Reply::Accepted(SendReceipt { message_id: id, queued: false })));
        if self.s.queue.is_empty() {
            self.begin(QueuedMessage { id, body, force_tool, images });
        } else {
            // Only possible from Failed: earlier queued messages go first.
            self.s.queue.push_back(QueuedMessage { id, body, force_tool, images });
            if let Some(first) = self.s.queue.pop_front() {
                self.begin(first);
            }
        }
    }

    /// Reads an Image message again (after a failure, or with another
    /// model): only while idle or failed, and only for images.
    fn reread_image(&mut self, message: Message) {
        if self.s.status.is_busy() {
            let what = self.s.status.describe(self.now);
            let text = format!("Braid is busy ({what}). Try again when it is idle.");
            self.reply(Err(WireError::new(ErrorCode::AgentBusy, text)));
            return;
        }
        let id = message.id;
        if !matches!(message.body, MessageType::Image { .. }) {
            self.reply(Err(WireError::new(ErrorCode::InvalidInput, format!("message {id} is not an image"))));
            return;
        }
        self.reply(Ok(Reply::Done));
        self.s.rereading = Some(id);
        self.set_status(ContextStatus::ReadingImages { done: 0, total: 1 });
        self.run(Effect::RereadImage(message));
    }

    fn unqueue(&mut self, id: MessageId) {
        match self.s.queue.iter().position(|q| q.id == id) {
            Some(pos) => {
                self.s.queue.remove(pos);
                self.reply(Ok(Reply::Done));
                let effect = self.update(None, None, None);
                self.other.push(effect);
            }
            None => self.reply(Err(WireError::new(ErrorCode::NotFound, format!("message {id} is not queued")))),
        }
    }

    /// Starts processing a user message: it enters the pool only if the
    /// pipeline succeeds.
    fn begin(&mut self, queued: QueuedMessage) {
        let message = self.message(queued.id, queued.body.clone());
        self.s.pending = Some(queued);
        self.s.auto_loop = LoopProgress::default();
        self.set_status(ContextStatus::ProcessingUserMessage);
        self.run(Effect::RunPipeline(message));
    }

    pub(super) fn start_queued_if_idle(&mut self) {
        if self.s.status == ContextStatus::Idle {
            if let Some(next) = self.s.queue.pop_front() {
                self.begin(next);
            }
        }
    }

    /// Opens request attempt `attempt`; during the tool loop the state stays
    /// ToolAutoLoop until the request is on its way.
    pub(super) fn start_request(&mut self, attempt: u32) {
        let id = RequestId(self.s.next_request_id);
        self.s.next_request_id += 1;
        let response_id = self.alloc_message_id();
        let force_tool = self.s.force_tool.take();
        self.s.request =
            Some(InFlight { id, attempt, response_id, sequence: 0, interrupted: false, force_tool, trimmed: false });
        // The runtime assembles the system prompt and the request's facts.
        if self.kind() != StatusKind::ToolAutoLoop {
            self.set_status(ContextStatus::EnhancingSystemPrompt);
        }
        self.run(Effect::StartLlmRequest { request_id: id, response_id });
    }

    /// After a summary: the same request goes out, now with the summary.
    fn resume_request(&mut self) {
        let Some(r) = self.s.request.as_ref() else { return };
        let (request_id, response_id) = (r.id, r.response_id);
        self.set_status(ContextStatus::EnhancingSystemPrompt);
        self.run(Effect::StartLlmRequest { request_id, response_id });
    }

    fn delta(&mut self, request_id: RequestId, text: String) {
        if !self.request_is(request_id) || !is_request_phase(self.kind()) || text.is_empty() {
            return;
        }
        let chars = text.chars().count() as u64;
        let (chunks, total) = match self.s.status {
            ContextStatus::StreamingLlmResponse { chunks, chars: so_far } => {
                self.progress_only = true;
                (chunks + 1, so_far + chars)
            }
            _ => (1, chars),
        };
        let Some(request) = self.s.request.as_mut() else { return };
        request.sequence += 1;
        let (message_id, sequence) = (request.response_id, request.sequence);
        if chunks == 1 {
            self.lifecycle(message_id, MessageKind::Text, MessageChange::Created);
        }
        self.set_status(ContextStatus::StreamingLlmResponse { chunks, chars: total });
        self.run(Effect::Emit(BraidEvent::ContentDelta(ContentDelta {
            context_id: self.s.context_id.clone(),
            message_id,
            sequence,
            delta: text,
            is_final: false,
        })));
    }

    fn completed(&mut self, response: LlmResponse) {
        let Some(request) = self.s.request.take() else { return };
        self.learn_usage(response.usage);
        self.set_status(ContextStatus::ProcessingLlmResponse);
        if request.sequence > 0 {
            self.run(Effect::Emit(BraidEvent::ContentFinal(ContentFinal {
                context_id: self.s.context_id.clone(),
                message_id: request.response_id,
                sequence: request.sequence + 1,
                is_final: true,
            })));
        }
        let interrupted = request.interrupted || response.stop_reason == StopReason::Interrupted;
        if response.usage.is_none() && !interrupted {
            // Said once per answer, never papered over with an estimate.
            self.notify(Notice::new(
                NoticeCode::UsageUnreported,
                "The server reported no token usage for this answer.",
            ));
        }
        if !interrupted && !response.tool_calls.is_empty() {
            self.open_tool_round(request.response_id, response);
            return;
        }
        if response.text.is_empty() {
            if request.sequence > 0 {
                self.discard(request.response_id);
            }
            if !interrupted {
                self.notify(Notice::new(NoticeCode::EmptyResponse, "The model returned an empty answer."));
            }
        } else {
            let body = MessageType::text(Role::Assistant, response.text);
            let mut message = self.message(request.response_id, body);
            message.meta.usage = response.usage.map(Into::into);
            // Cut at the output limit: kept, marked, and never presented
            // as a finished answer.
            message.meta.cut = response.stop_reason == StopReason::MaxTokens && !interrupted;
            let cut = message.meta.cut;
            self.append(message);
            self.lifecycle(request.response_id, MessageKind::Text, MessageChange::Completed);
            if cut {
                self.notify(Notice::new(
                    NoticeCode::AnswerCut,
                    "The answer reached the model's output limit and was cut. Press Continue to let the model go on.",
                ));
            }
        }
        if interrupted {
            self.notify(Notice::new(
                NoticeCode::Interrupted,
                "Stopped. The partial answer is kept; send a message to continue.",
            ));
        }
        self.set_status(ContextStatus::Idle);
    }

    fn discard(&mut self, id: MessageId) {
        self.lifecycle(id, MessageKind::Text, MessageChange::StatusChanged { status: "discarded".to_owned() });
    }

    pub(super) fn failed(&mut self, failure: LlmFailure) {
        let Some(request) = self.s.request.take() else { return };
        if request.sequence > 0 {
            self.discard(request.response_id);
        }
        // Too long for the model: once, send again with less of the
        // conversation (the stored messages stay as they are).
        if failure.code == FailureCode::ContextLengthExceeded && !request.trimmed {
            self.notify(Notice::new(
                NoticeCode::ContextTrimmed,
                "The model said the conversation is too long; older messages were left out and it was sent again.",
            ));
            self.s.force_tool = request.force_tool.clone();
            self.start_request(request.attempt);
            if let Some(r) = self.s.request.as_mut() {
                r.trimmed = true;
            }
            return;
        }
        let max = self.s.config.max_retries;
        if failure.retryable && request.attempt <= max {
            let delay = retry_delay_ms(&self.s.config, request.attempt, request.id, failure.retry_after_ms);
            let at = self.now.plus_ms(delay);
            let attempt = request.attempt;
            let request_id = request.id;
            self.s.request = Some(InFlight { sequence: 0, ..request });
            self.set_status(ContextStatus::RetryingLlmRequest { attempt, max, retry_at: at });
            self.notify(Notice::new(failure.code, failure.message));
            self.run(Effect::ScheduleRetry { request_id, at });
            return;
        }
        let message = if failure.retryable {
            format!("{} (gave up after {max} retries)", failure.message)
        } else {
            failure.message
        };
        self.set_status(ContextStatus::Failed { error_code: failure.code, message, recoverable: failure.retryable });
    }

    fn retry(&mut self) {
        match self.kind() {
            StatusKind::Failed | StatusKind::Idle => {
                self.reply(Ok(Reply::Done));
                self.s.auto_loop = LoopProgress::default();
                self.start_request(1);
            }
            _ => {
                let what = self.s.status.describe(self.now);
                self.reply(Err(WireError::new(
                    ErrorCode::AgentBusy,
                    format!("Braid is busy ({what}); nothing to retry."),
                )));
            }
        }
    }

    fn create_branch(&mut self, mut branch: crate::conversation::Branch, switch: bool) {
        if branch.name.trim().is_empty() {
            let text = "a branch name cannot be empty";
            self.reply(Err(WireError::new(ErrorCode::InvalidInput, text)));
            return;
        }
        if switch && self.s.status.is_busy() {
            let what = self.s.status.describe(self.now);
            let text = format!("Braid is busy ({what}). Cancel or wait before switching to a new branch.");
            self.reply(Err(WireError::new(ErrorCode::AgentBusy, text)));
            return;
        }
        let id = BranchId(format!("b{}", self.s.next_branch_id));
        self.s.next_branch_id += 1;
        branch.id = id.clone();
        let from = branch.parent.clone().unwrap_or_else(BranchId::main);
        self.durable.push(Effect::CreateBranch(Box::new(branch)));
        self.reply(Ok(Reply::Branch(id.clone())));
        if switch {
            self.switch_to(from, id);
        }
    }

    fn switch_branch(&mut self, from: BranchId, to: BranchId) {
        if self.s.status.is_busy() {
            let what = self.s.status.describe(self.now);
            let text = format!("Braid is busy ({what}). Cancel or wait before switching branch.");
            self.reply(Err(WireError::new(ErrorCode::AgentBusy, text)));
            return;
        }
        self.reply(Ok(Reply::Done));
        self.switch_to(from, to);
    }

    fn switch_to(&mut self, from: BranchId, to: BranchId) {
        if from == to {
            return;
        }
        self.durable.push(Effect::SetActiveBranch(to.clone()));
        let id = self.alloc_message_id();
        let message = self.message(id, MessageType::SystemControl { control: ControlKind::BranchSwitch { from, to } });
        self.append(message);
    }

    /// Cancel: processed first, stops at once, keeps no partial answer.
    /// The queue is left alone: queued messages were sent on purpose and
    /// start when the context is Idle (the user removes one with Unqueue).
    fn cancel(&mut self) {
        self.reply(Ok(Reply::Done));
        match self.kind() {
            StatusKind::Idle => return,
            StatusKind::Failed => {}
            k if is_pipeline_phase(k) => {
                if let Some(p) = self.s.pending.take() {
                    self.run(Effect::AbortPipeline(p.id));
                }
                if let Some(id) = self.s.rereading.take() {
                    self.run(Effect::AbortPipeline(id));
                }
            }
            StatusKind::RetryingLlmRequest => {
                if let Some(r) = self.s.request.take() {
                    self.run(Effect::CancelRetry { request_id: r.id });
                }
            }
            k if is_request_phase(k) => {
                if let Some(r) = self.s.request.take() {
                    self.run(Effect::AbortLlmRequest { request_id: r.id, keep_partial: false });
                    if r.sequence > 0 {
                        self.discard(r.response_id);
                    }
                }
            }
            StatusKind::ExecutingTool => {
                if self.kill_running_tool("cancelled by the user") {
                    self.notify(Notice::new(NoticeCode::Cancelled, "Cancelled."));
                    return;
                }
            }
            StatusKind::Cancelling => self.s.round = None,
            _ => self.close_round("cancelled by the user"),
        }
        self.s.request = None;
        self.s.pending = None;
        self.s.round = None;
        self.set_status(ContextStatus::Idle);
        self.notify(Notice::new(NoticeCode::Cancelled, "Cancelled."));
    }

    /// Interrupt: softer than cancel. A streamed answer is kept as far as it
    /// got; a running tool finishes; no further round starts.
    fn interrupt(&mut self) {
        let kind = self.kind();
        let streaming = self.s.request.as_ref().is_some_and(|r| r.sequence > 0);
        if is_request_phase(kind) && streaming {
            if let Some(r) = self.s.request.as_mut() {
                r.interrupted = true;
                let request_id = r.id;
                self.run(Effect::AbortLlmRequest { request_id, keep_partial: true });
            }
            self.reply(Ok(Reply::Done));
        } else if kind == StatusKind::ExecutingTool {
            if let Some(round) = self.s.round.as_mut() {
                round.interrupted = true;
            }
            self.reply(Ok(Reply::Done));
            self.notify(Notice::new(NoticeCode::Interrupting, "Stopping after the running tool."));
        } else {
            // Nothing partial to keep: the same as cancel.
            self.cancel();
        }
    }
}

fn is_blank_text(body: &MessageType) -> bool {
    match body {
        MessageType::Text { parts, .. } => parts.iter().all(|p| match p {
            braid_protocol::ContentPart::Text { text } => text.trim().is_empty(),
        }),
        _ => false,
    }
}

/// Only images checked into the store (or URLs) may come with a message:
/// inline Base64 would put the bytes into every stored copy.
fn attachment_problem(source: &braid_protocol::ImageSource) -> Option<String> {
    match source {
        braid_protocol::ImageSource::Stored(s) if s.id.len() == 64 && s.id.bytes().all(|b| b.is_ascii_hexdigit()) => {
            None
        }
        braid_protocol::ImageSource::Stored(_) => Some("an attached image has an invalid id".to_owned()),
        braid_protocol::ImageSource::Url { url } if url.starts_with("https://") || url.starts_with("http://") => None,
        braid_protocol::ImageSource::Url { .. } => Some("an image URL must start with http:// or https://".to_owned()),
        _ => Some("attach images with store_image first".to_owned()),
    }
}
