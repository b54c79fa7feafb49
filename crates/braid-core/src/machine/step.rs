//! The transition function: each event to its handler. A user's message
//! and the queue are in `input.rs`, the pipeline's stages in `stages.rs`,
//! the request is in `request.rs`, cancel,
//! interrupt, retry and branches in `control.rs`, preparing a request in
//! `prepare.rs`, and tool rounds in `tools.rs`.

use super::{is_pipeline_phase, is_request_phase, ContextState, Effect, Event, Reply};
use braid_protocol::NoticeCode;
use braid_protocol::{
    BraidEvent, ContextStatus, ContextUpdate, ControlKind, Message, MessageChange, MessageId, MessageKind,
    MessageLifecycle, MessageType, Notice, QueuedPreview, RequestId, StatusKind, Timestamp, UpdateMetadata, WireError,
};

/// `transition(state, event, now) -> (state, effects)`: pure and total.
/// Events that do not apply to the current state (a late chunk from an
/// aborted request, a timer for a cancelled retry) change nothing.
pub fn transition(state: &ContextState, event: Event, now: Timestamp) -> (ContextState, Vec<Effect>) {
    let mut next = state.clone();
    let effects = transition_in_place(&mut next, event, now, |next| stored_change(next, state));
    (next, effects)
}

/// Whether what is stored of the state changed: everything but the tool
/// catalogue, which the runtime hands over again whenever a context loads.
pub(crate) fn stored_change(next: &ContextState, before: &ContextState) -> bool {
    if std::sync::Arc::ptr_eq(&next.catalogue, &before.catalogue) {
        return next != before;
    }
    // Rare (a tool registered, a context loaded): the copy is cheap next
    // to what the state's comparison costs anyway.
    let mut before = before.clone();
    before.catalogue = next.catalogue.clone();
    *next != before
}

/// The same transition on the state in place, for the one who keeps what
/// it needs to tell a change (`changed`: whether the state now differs
/// from before the event; not asked when only the streaming counters
/// moved). `Context::handle` uses it so that a streamed chunk copies only
/// the counters it moves.
pub(crate) fn transition_in_place(
    state: &mut ContextState,
    event: Event,
    now: Timestamp,
    changed: impl FnOnce(&ContextState) -> bool,
) -> Vec<Effect> {
    let mut step = Step { s: state, now, durable: Vec::new(), other: Vec::new(), progress_only: false };
    step.handle(event);
    step.start_queued_if_idle();
    let Step { s, mut durable, other, progress_only, .. } = step;
    if !progress_only && changed(s) {
        durable.insert(0, Effect::PersistState);
    }
    // Most events (every streamed chunk) store nothing: no second list.
    if durable.is_empty() {
        return other;
    }
    durable.extend(other);
    durable
}

pub(super) struct Step<'a> {
    pub(super) s: &'a mut ContextState,
    pub(super) now: Timestamp,
    pub(super) durable: Vec<Effect>,
    other: Vec<Effect>,
    /// Only streaming counters moved: not worth a write per chunk (a crash
    /// loses the partial answer by design).
    pub(super) progress_only: bool,
}

impl Step<'_> {
    /// A step that only looks (the breakdown): its effects are dropped.
    pub(super) fn looking(s: &mut ContextState, now: Timestamp) -> Step<'_> {
        Step { s, now, durable: Vec::new(), other: Vec::new(), progress_only: false }
    }

    fn handle(&mut self, event: Event) {
        match event {
            Event::Cancel => self.cancel(),
            Event::Interrupt => self.interrupt(),
            Event::UserMessage { body, queue_if_busy, force_tool, images } => {
                self.user_message(body, queue_if_busy, force_tool, images)
            }
            Event::RereadImage { message } => self.reread_image(message),
            Event::ReleaseOutput { message } => {
                self.reply(Ok(Reply::Done));
                self.rewrite(message, "released to the model by the user".to_owned());
            }
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
            Event::EditQueued { message_id, change } => self.edit_queued(message_id, change),
            Event::PipelineStage { message_id, stage } => {
                if self.pending_is(message_id) && is_pipeline_phase(self.kind()) {
                    self.set_status(stage.status());
                }
            }
            Event::PipelineProcessed { message, mentions_files } => self.processed(message, mentions_files),
            Event::ReferencesResolved { message, attachments, images } => {
                self.references_resolved(message, attachments, images)
            }
            Event::PipelineSucceeded { message, attachments } => self.pipeline_succeeded(message, attachments),
            Event::FilesRestored { to, changes, kept, undoes, changes_of } => {
                self.files_restored(to, changes, kept, undoes, changes_of)
            }
            // Only for a message this conversation has made.
            Event::CheckpointTaken(checkpoint) => {
                if checkpoint.message_id.0 < self.s.next_message_id {
                    self.durable.push(Effect::RecordCheckpoint(checkpoint));
                }
            }
            Event::PipelineFailed { message_id, error } => self.pipeline_failed(message_id, error),
            Event::RequestPrepared { request_id, prepared } => {
                let preparing = matches!(self.kind(), StatusKind::EnhancingSystemPrompt | StatusKind::ToolAutoLoop);
                if self.request_is(request_id) && preparing {
                    self.prepared(request_id, *prepared);
                }
            }
            Event::FileChecked { path, change } => self.file_checked(path, change, false),
            Event::FilesChangedWhileClosed { changes } => {
                for c in changes {
                    self.file_checked(c.path, Some(c.kind), true);
                }
            }
            Event::CatalogueChanged { tools } => self.s.catalogue = tools.into(),
            Event::LlmRequestStarted { request_id } => {
                if self.request_is(request_id)
                    && matches!(self.kind(), StatusKind::PreparingLlmRequest | StatusKind::ToolAutoLoop)
                {
                    self.request_sent();
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
                    match self.s.request.take() {
                        Some(old) => {
                            let attempt = old.attempt + 1;
                            self.repeat_request(old, attempt);
                        }
                        None => self.start_request(1),
                    }
                }
            }
            Event::ToolDecision { call_id, decision, reason } => self.tool_decision(call_id, decision, reason),
            Event::SetMode { mode } => self.set_mode(mode),
            Event::SetWorkspace { confirm_reads } => self.set_workspace(confirm_reads),
            Event::KeepInContext { message, keep } => self.keep_in_context(message, keep),
            Event::SetContextStrategy { strategy, summarize_at_percent } => {
                self.set_context_strategy(strategy, summarize_at_percent)
            }
            Event::SetGeneration { settings } => self.set_generation(settings),
            Event::SummaryReady { request_id, text, replaces } if self.compacting(request_id) => {
                self.compacted(text, replaces)
            }
            Event::SummaryFailed { request_id, error } if self.compacting(request_id) => self.compaction_failed(error),
            Event::ContinueAnswer { answer } => self.continue_by_hand(*answer),
            Event::Compact { batch, instructions, preview } => self.compact(batch, instructions, preview),
            Event::ApplySummary { text } => self.apply_summary(text),
            Event::DiscardSummary => self.discard_summary(),
            Event::EditSummary { message } => self.edit_summary(message),
            Event::UndoSummary { summary } => self.undo_summary(summary),
            Event::SetToolGroup { group, offered } => self.set_tool_group(group, offered),
            Event::LeaveOut { message, out } => self.leave_out(message, out),
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
            Event::SetToolPolicy { policy, always_ask } => self.set_tool_policy(policy, always_ask),
            Event::SetSandbox { sandbox } => {
                self.s.config.tools.sandbox = sandbox;
                self.reply(Ok(Reply::Done));
            }
            Event::WorkflowStarted { name, arguments, message } => self.workflow_started(name, arguments, message),
            Event::ToolResultSupplied { call_id, outcome } => self.supply_result(call_id, outcome),
            Event::SetRole { role } => {
                self.s.config.tools.role = role;
                self.reply(Ok(Reply::Done));
            }
            Event::ToolFinished { call_id, outcome } => self.tool_finished(call_id, outcome),
            Event::Retry => self.retry(),
            Event::SwitchBranch { from, to } => self.switch_branch(from, to),
            Event::CreateBranch { draft, switch } => self.create_branch(*draft, switch),
            Event::RenameBranch { branch, name } => self.rename_branch(branch, name),
            Event::SetBranchPrompt { branch, system_prompt } => self.set_branch_prompt(branch, system_prompt),
            Event::DeleteBranch { deletion } => self.delete_branch(*deletion),
            Event::SetBranchModel { branch, model } => {
                self.durable.push(Effect::SetBranchModel { branch, model });
                self.reply(Ok(Reply::Done));
            }
            Event::SetBranchFolder { branch, folder } => {
                self.durable.push(Effect::SetBranchFolder { branch, folder });
                self.reply(Ok(Reply::Done));
            }
            Event::Merge { apply } => self.merge(*apply),
            Event::UndoMerge { undo } => self.undo_merge(*undo),
            Event::SetTeam { team } => self.set_team(team.map(|t| *t)),
            Event::SteerTeam { action } => self.steer(action),
            Event::SubAgentStarted { call_id, index, context_id } => self.sub_agent_started(call_id, index, context_id),
            Event::SubAgentFinished { call_id, index, report } => self.sub_agent_finished(call_id, index, report),
            Event::CopyReturned(returned) => self.copy_returned(*returned),
        }
    }

    pub(super) fn kind(&self) -> StatusKind {
        self.s.status.kind()
    }

    pub(super) fn pending_is(&self, id: MessageId) -> bool {
        self.s.pending.as_ref().is_some_and(|p| p.id == id)
    }

    pub(super) fn request_is(&self, id: RequestId) -> bool {
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
                team: self.route_view(),
                sub_agents: self.s.agents.clone().map(Box::new),
            },
        }))
    }

    /// Moves to `status` and tells subscribers; `previous_state` is set when
    /// the kind of state changes, not when only its counters move, except
    /// for sub-agents done (1 of 3, 2 of 3): a conversation list shows
    /// those, and there are only as many as there are children.
    pub(super) fn set_status(&mut self, status: ContextStatus) {
        self.set_status_saying(status, None);
    }

    /// [`Self::set_status`], the update also saying what happened to a
    /// message (one event where a client would otherwise wait for two).
    pub(super) fn set_status_saying(&mut self, status: ContextStatus, message: Option<MessageLifecycle>) {
        if status == self.s.status {
            return;
        }
        if let ContextStatus::Failed { message, .. } = &status {
            let message = message.clone();
            self.child_failed(&message);
        }
        let previous = std::mem::replace(&mut self.s.status, status);
        let changed_kind =
            previous.kind() != self.s.status.kind() || matches!(self.s.status, ContextStatus::AwaitingSubAgents { .. });
        if previous.is_busy() {
            self.workflow_ended();
        }
        let effect = self.update(changed_kind.then_some(previous), message, None);
        self.other.push(effect);
    }

    pub(super) fn update_effect(&self) -> Effect {
        self.update(None, None, None)
    }

    pub(super) fn notify(&mut self, notice: Notice) {
        let effect = self.update(None, None, Some(notice));
        self.other.push(effect);
    }

    pub(super) fn lifecycle(&mut self, message_id: MessageId, kind: MessageKind, change: MessageChange) {
        let effect = self.update(
            None,
            Some(MessageLifecycle { message_id, kind, change, message: None, withheld: false }),
            None,
        );
        self.other.push(effect);
    }

    pub(super) fn message(&self, id: MessageId, body: MessageType) -> Message {
        Message::new(id, self.now, body)
    }

    pub(super) fn append(&mut self, message: Message) {
        let message = self.counted(message);
        self.turn_saw(&message);
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
}
