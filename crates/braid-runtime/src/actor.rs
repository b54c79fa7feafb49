//! One task per loaded context. It owns the context's state and
//! conversation, and for every input runs the loop "event → transition →
//! persist → carry out": the pure transition decides, its persistence
//! effects are written in one transaction, and only then do the other
//! effects run — by the small modules beside this one (requests, the
//! pipeline and tools, files). Cancel and Interrupt have a mailbox of their
//! own that is always read first, so they never wait behind a flood of
//! stream chunks.

mod approval;
mod breakdown;
mod checkpoints;
mod children;
mod draft;
mod failure;
mod files;
mod merge;
mod meta;
mod request;
mod secrets;
mod sent;
mod subagents;
mod team;
mod title;
mod window;
mod work;

use crate::mailbox::{Input, Mailbox};

use crate::tool_task::ToolTask;
use crate::watch::FileWatch;
use crate::Shared;
use crate::{clock, llm_task::LlmTask};
use braid_core::history::{TransitionLog, TransitionRecord};
use braid_core::machine::{Effect, Event, Reply};
use braid_core::{Context, ContextMeta, ContextState, Conversation, Step};
use braid_protocol::{BraidEvent, ErrorCode, MessageId, RequestId, Timestamp, WireError};
use braid_store::FileRow;
use braid_workspace::freshness::FileFreshness;
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

pub struct ContextActor {
    shared: Arc<Shared>,
    /// The conversation as the core owns it: every decision is made there.
    ctx: Context,
    log: TransitionLog,
    /// For the context's own tasks (streams, timers, the pipeline, tools).
    mailbox: mpsc::UnboundedSender<Input>,
    llm: Option<LlmTask>,
    /// A prepared request waiting for the machine to say what to send.
    outgoing: Option<request::Outgoing>,
    retry: Option<(RequestId, tokio::task::JoinHandle<()>)>,
    /// The calls running: one, or a run of reads together.
    tools: Vec<ToolTask>,
    /// What the agent read and wrote in this conversation, and whether it
    /// changed outside Braid since (shared with the tools it runs).
    freshness: Arc<Mutex<FileFreshness>>,
    /// Watches the folders of the files in play (created on first use).
    watch: Option<FileWatch>,
    /// Files found changed when the conversation opened.
    changed_while_closed: std::collections::HashSet<std::path::PathBuf>,
    summary: Option<(RequestId, tokio::task::JoinHandle<()>)>,
    /// Images being read (vision or OCR) for this pipeline message or
    /// Image message.
    reading: Option<(MessageId, tokio::task::JoinHandle<()>)>,
    /// The model's own counts of messages, for models Braid has no
    /// tokenizer for (asked of their server once per message).
    model_counts: crate::model_count::Counts,
    /// A title was asked for already (once per task).
    titling: bool,
    /// How many secrets the last notice counted.
    secrets_noticed: usize,
    /// The user was told the secret filter's key was replaced.
    key_noticed: bool,
    /// The children of a running `spawn_agents` call.
    sub_agents: Option<subagents::SubAgentsRun>,
    /// The answer being written, as streamed so far (`draft.rs`).
    draft: Option<braid_protocol::Draft>,
    /// A message's pipeline began without its state written: the stage
    /// that ends it writes it, or [`Self::store_begun`] before a stage
    /// that waits.
    begun_unstored: bool,
}

/// Inputs handled at most in one go before the actor yields.
const RUN: usize = 64;

/// The executors' way back into this mailbox, as the only thing they see.
fn reports_to(mailbox: mpsc::UnboundedSender<Input>) -> crate::report::Reports {
    use crate::report::Report;
    crate::report::Reports::new(move |report| {
        let input = match report {
            Report::Event(event) => Input::Event(event),
            Report::Notice(notice) => Input::Notice(notice),
            Report::CheckFile(path) => Input::CheckFile(path),
        };
        mailbox.send(input).is_ok()
    })
}

impl ContextActor {
    /// Where an executor this context starts reports back.
    fn reports(&self) -> crate::report::Reports {
        reports_to(self.mailbox.clone())
    }

    pub fn spawn(shared: Arc<Shared>, meta: ContextMeta, state: ContextState, conversation: Conversation) -> Mailbox {
        let (tx, rx) = mpsc::unbounded_channel();
        let (urgent_tx, urgent_rx) = mpsc::unbounded_channel();
        let mut actor = ContextActor {
            shared,
            ctx: Context::new(meta, state, conversation),
            log: TransitionLog::new(1_000),
            mailbox: tx.clone(),
            llm: None,
            outgoing: None,
            retry: None,
            tools: Vec::new(),
            freshness: Arc::default(),
            watch: None,
            changed_while_closed: Default::default(),
            summary: None,
            reading: None,
            model_counts: Arc::default(),
            titling: false,
            secrets_noticed: 0,
            key_noticed: false,
            sub_agents: None,
            draft: None,
            begun_unstored: false,
        };
        // The catalogue first: the stored one may be from an older run.
        let tools = actor.shared.catalogue();
        let _ = tx.send(Input::Event(Event::CatalogueChanged { tools }));
        actor.restore_files();
        tokio::spawn(actor.run(rx, urgent_rx));
        Mailbox { normal: tx, urgent: urgent_tx }
    }

    async fn run(mut self, mut rx: mpsc::UnboundedReceiver<Input>, mut urgent: mpsc::UnboundedReceiver<Input>) {
        loop {
            let input = tokio::select! {
                biased;
                Some(input) = urgent.recv() => input,
                input = rx.recv() => match input {
                    Some(input) => input,
                    None => break,
                },
            };
            if !self.handle(input) {
                return;
            }
            // What is queued already (a stream's chunks come in runs) is
            // taken without going back to the scheduler, urgent first
            // each time; a bounded run, so the worker serves others too.
            for _ in 0..RUN {
                let Ok(input) = urgent.try_recv().or_else(|_| rx.try_recv()) else { break };
                if !self.handle(input) {
                    return;
                }
            }
        }
        self.stop_tasks();
    }

    /// One input; `false` when the task must end.
    fn handle(&mut self, input: Input) -> bool {
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
            Input::CreateBranch { from, before, name, system_prompt, answer } => {
                let step = self.ctx.create_branch(from, before, &name, system_prompt, clock::now());
                let created = match self.carry_out(step) {
                    Some(Ok(Reply::Branch(id))) => Ok(id),
                    Some(Err(e)) => Err(e),
                    _ => Err(WireError::new(ErrorCode::Internal, "the branch was not created")),
                };
                let _ = answer.send(created);
            }
            Input::EditBranch { branch, edit, answer } => {
                let _ = answer.send(self.edit_branch(branch, edit));
            }
            Input::SwitchBranch { to, answer } => {
                let step = self.ctx.switch_branch(to, clock::now());
                let _ = answer.send(self.carry_out(step).unwrap_or(Ok(Reply::Done)));
            }
            Input::Merge { op, answer } => {
                let _ = answer.send(self.merge_op(op));
            }
            Input::Rewind { op, answer } => {
                let _ = answer.send(self.rewind_op(op));
            }
            Input::History { answer } => {
                let _ = answer.send(Ok(self.log.records().cloned().collect()));
            }
            Input::UpdateMeta { change, answer } => {
                let _ = answer.send(self.update_meta(change));
            }
            Input::AutoTitle(title) => self.auto_title(title),
            Input::CheckFile(path) => self.check_file(&path),
            Input::Notice(notice) => self.emit_notice(notice, clock::now()),
            Input::Message { message_id, op, answer } => {
                let step = self.ctx.message_op(message_id, op, clock::now());
                let _ = answer.send(self.carry_out(step).unwrap_or(Ok(Reply::Done)));
            }
            Input::WarmUp => self.warm_up(),
            Input::Breakdown { draft, answer } => self.breakdown(&draft, answer),
            Input::BreakdownCounted { look, answer } => self.breakdown_counted(*look, answer),
            Input::Window { op, answer } => {
                let _ = answer.send(self.window_op(op));
            }
            Input::Shutdown { answer } => {
                self.apply(Event::Cancel);
                self.stop_tasks();
                let _ = answer.send(());
                return false;
            }
        }
        true
    }

    fn stop_tasks(&mut self) {
        if let Some((_, t)) = self.reading.take() {
            t.abort();
        }
        if let Some((_, t)) = self.summary.take() {
            t.abort();
        }
        for t in self.tools.drain(..) {
            t.handle.abort();
        }
        if let Some(t) = self.llm.take() {
            t.handle.abort();
        }
        if let Some((_, h)) = self.retry.take() {
            h.abort();
        }
        self.outgoing = None;
        self.sub_agents = None;
    }

    /// One event, start to finish. Returns the reply, if the event was a
    /// command.
    fn apply(&mut self, event: Event) -> Option<Result<Reply, WireError>> {
        let step = self.ctx.handle(event, clock::now());
        self.carry_out(step)
    }

    /// A step the core took: stored in one transaction (with the files the
    /// tools read or wrote), taken back if that fails, then carried out.
    fn carry_out(&mut self, step: Step) -> Option<Result<Reply, WireError>> {
        let now = clock::now();
        for problem in &step.unapplied {
            tracing::error!(context = %self.ctx.meta.id, error = %problem, "effect did not apply to the conversation");
        }
        let files = self.unsaved_files();
        // A request's status moving on is stored after it is carried out
        // (the request sent, the first chunk shown): off the path to the
        // first token.
        let status_later = files.is_empty() && step.stores() && self.ctx.status_only(&step);
        // Not at all for a status the request's task moves on from at once.
        let write_later = status_later && !self.ctx.passes_at_once(&step);
        // A message's pipeline runs in this actor, its stages one after
        // another: the state is written once, with the message entering
        // the conversation (one write fewer before the first token).
        let begun = files.is_empty() && self.ctx.begins_pipeline(&step);
        // Most steps (every streamed chunk) store nothing: they do not
        // take the store's lock, which every context shares.
        let store_now = !status_later && !begun && (!files.is_empty() || step.stores());
        let saved = if store_now { self.store(&step.effects, &files, now) } else { Ok(()) };
        if let Err(e) = saved {
            self.unsaved_again(files);
            // Nothing of this step happens: memory goes back to what is
            // stored, and the user is told why the context stopped.
            self.ctx.undo(step);
            return Some(Err(self.storage_failed(&e, now)));
        }
        // Every write holds the whole state.
        self.begun_unstored = begun || (self.begun_unstored && !store_now && !status_later);
        self.log.push(TransitionRecord {
            at: now,
            event: step.event.into(),
            from: step.from,
            to: self.ctx.state.status.kind(),
            effects: step.effects.len(),
        });
        if self.ctx.rested(&step) {
            self.maybe_title();
        }
        let mut reply = None;
        for effect in step.effects {
            self.after_append(&effect);
            match effect {
                Effect::Reply(r) => reply = Some(r),
                Effect::Emit(mut e) => {
                    if let BraidEvent::ContextUpdate(update) = &mut e {
                        braid_core::events::attach_message(update, &self.ctx.conversation);
                    }
                    self.follow_draft(&e);
                    let _ = self.shared.events.send(e);
                }
                Effect::RunPipeline(message) => self.run_pipeline(message),
                Effect::ResolveReferences(message) => self.resolve_references(message),
                Effect::ReadAttachments { message, attachments, images } => {
                    self.read_attachments(message, attachments, images)
                }
                Effect::AbortPipeline(id) => self.abort_reading(id),
                Effect::RereadImage(message) => self.reread_image(message),
                Effect::StartLlmRequest { request_id, member, .. } => self.prepare_request(request_id, member),
                e @ Effect::RunAgent { .. } => self.run_agent(e),
                Effect::SendLlmRequest {
                    request_id,
                    system,
                    messages,
                    tools,
                    tool_choice,
                    max_tokens,
                    temperature,
                } => {
                    let fitted = request::Fitted { system, messages, tools, tool_choice, max_tokens, temperature };
                    self.send_request(request_id, fitted)
                }
                Effect::AbortLlmRequest { request_id, keep_partial } => self.abort_llm(request_id, keep_partial),
                Effect::ScheduleRetry { request_id, at } => self.schedule_retry(request_id, at),
                Effect::CancelRetry { request_id } => self.cancel_retry(request_id),
                Effect::RunTool { call, .. } => self.run_tool(call),
                Effect::KillTool { call_id } => self.kill_tool(&call_id),
                Effect::Summarize { request_id, replaces, instructions } => {
                    self.start_summary(request_id, replaces, instructions)
                }
                e @ (Effect::SpawnAgents { .. } | Effect::StopSubAgents { .. } | Effect::ChildEnded { .. }) => {
                    self.sub_agent_effect(e)
                }
                Effect::PersistState
                | Effect::AppendMessage(_)
                | Effect::UpdateMessage(_)
                | Effect::SetActiveBranch(_)
                | Effect::CreateBranch(_)
                | Effect::RenameBranch { .. }
                | Effect::SetBranchPrompt { .. }
                | Effect::DeleteBranch(_)
                | Effect::SetBranchMessages { .. }
                | Effect::SetBranchModel { .. }
                | Effect::SetBranchFolder { .. }
                | Effect::SaveMeta(_)
                | Effect::RecordCheckpoint(_) => {}
            }
        }
        if write_later {
            if let Err(e) = self.store(&[Effect::PersistState], &[], now) {
                // The request is already out: memory stays as it is, and
                // the context stops and says why.
                self.storage_failed(&e, now);
            }
        }
        reply
    }

    /// Writes a begun pipeline's state before a stage that waits on the
    /// world (resources, images): a crash while it reads keeps the message
    /// for recovery to show.
    fn store_begun(&mut self) -> bool {
        if !std::mem::take(&mut self.begun_unstored) {
            return true;
        }
        let now = clock::now();
        match self.store(&[Effect::PersistState], &[], now) {
            Ok(()) => true,
            Err(e) => {
                self.storage_failed(&e, now);
                false
            }
        }
    }

    fn store(&self, effects: &[Effect], files: &[FileRow], now: Timestamp) -> Result<(), braid_store::StoreError> {
        let ctx = &self.ctx;
        let mut store = self.shared.lock_store();
        store.persist_with_files(&ctx.meta.id, &ctx.state, &ctx.conversation, effects, files, now)
    }
}
