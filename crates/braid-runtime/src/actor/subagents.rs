//! Sub-agents carried out. A parent's `SpawnAgents` becomes one task that
//! runs each child as a conversation of its own — what it inherits is the
//! core's (`braid_core::subagents::Parent`) — at most `concurrency` at
//! once, each under its time limit, in its own copy of the folder when
//! its task says so (merged back when it submits, `isolation.rs`). The core decides everything else (the
//! child's rules, the aggregated result); this module
//! creates the children, hands them their task, waits for their end, and
//! reports back. Dropping the task cancels every child still running.

use super::ContextActor;
use crate::checkpoints::Watch;
use crate::isolation::Isolation;
use crate::mailbox::{Input, Mailbox};
use crate::{clock, RuntimeError, Shared};
use braid_core::machine::Event;
use braid_protocol::{
    CallId, ChildOutcome, ChildReport, ContextId, MessageType, ModelChoice, Role, SubAgentLimits, SubTask,
};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{oneshot, Semaphore};

/// What a child takes from its parent (the core's rules), and where its
/// reports go.
#[derive(Clone)]
pub(crate) struct ParentFacts {
    pub inherited: braid_core::subagents::Parent,
    pub mailbox: tokio::sync::mpsc::UnboundedSender<Input>,
    /// The parent's folder, looked at before the children start and
    /// after each copy comes back: what came back is the call's change.
    pub watch: Option<Arc<Watch>>,
}

/// The running children of one `spawn_agents` call; dropping it (the
/// parent cancelled, or closed) cancels them.
pub(crate) struct SubAgentsRun {
    pub call_id: CallId,
    pub handle: tokio::task::JoinHandle<()>,
}

impl Drop for SubAgentsRun {
    fn drop(&mut self) {
        self.handle.abort();
    }
}

/// Starts the children of `call_id`, reporting each start and end to the
/// parent.
pub(crate) fn spawn(shared: Arc<Shared>, parent: ParentFacts, call_id: CallId, tasks: Vec<SubTask>) -> SubAgentsRun {
    let limits = shared.config.sub_agents;
    let handle = tokio::spawn({
        let call_id = call_id.clone();
        async move {
            if let Some(watch) = &parent.watch {
                watch.before(&super::reports_to(parent.mailbox.clone())).await;
            }
            let slots = Arc::new(Semaphore::new(limits.concurrency.max(1) as usize));
            let mut children = tokio::task::JoinSet::new();
            for (index, task) in tasks.into_iter().enumerate() {
                let job = Job { shared: shared.clone(), parent: parent.clone(), call_id: call_id.clone(), index, task };
                children.spawn(job.run(slots.clone(), limits));
            }
            while children.join_next().await.is_some() {}
        }
    });
    SubAgentsRun { call_id, handle }
}

struct Job {
    shared: Arc<Shared>,
    parent: ParentFacts,
    call_id: CallId,
    index: usize,
    task: SubTask,
}

impl Job {
    async fn run(self, slots: Arc<Semaphore>, limits: SubAgentLimits) {
        let Ok(_slot) = slots.acquire().await else { return };
        let started = Instant::now();
        let (model, mut note) = self.parent.inherited.model_for(&self.task, &self.shared.providers.task_models());
        let id = clock::new_context_id();
        let copy = match self.isolate(&id).await {
            Ok(copy) => copy,
            Err(why) => {
                note = Some(note.map_or_else(|| why.clone(), |n| format!("{n}; {why}")));
                None
            }
        };
        let (child, (outcome, tokens)) = match self.start(id, limits, model, copy.as_ref()).await {
            Ok((id, mailbox)) => (Some(mailbox.clone()), self.wait(id, mailbox, limits).await),
            Err(e) => (None, (ChildOutcome::Failed { reason: format!("it could not start: {e}") }, 0)),
        };
        let submitted = matches!(outcome, ChildOutcome::Submitted { .. });
        let workspace = match copy {
            Some(copy) => {
                let back = copy.end(submitted).await;
                if let Some(child) = &child {
                    let _ = child.send(Input::Event(Event::CopyReturned(Box::new(back.clone()))));
                }
                if let (Some(watch), false) = (&self.parent.watch, back.merged.is_empty()) {
                    watch.after(&super::reports_to(self.parent.mailbox.clone())).await;
                }
                Some(back)
            }
            None => None,
        };
        let duration_ms = started.elapsed().as_millis() as u64;
        let report = ChildReport { outcome, duration_ms, tokens, note, workspace };
        let event = Event::SubAgentFinished { call_id: self.call_id.clone(), index: self.index as u32, report };
        let _ = self.parent.mailbox.send(Input::Event(event));
    }

    /// The child's own copy of the parent's folder, when its task asks
    /// for one: none in a folder as broad as the home folder (copying it
    /// would cost more than the task), which the note then says.
    async fn isolate(&self, id: &ContextId) -> Result<Option<Isolation>, String> {
        if !self.task.isolated {
            return Ok(None);
        }
        let source = PathBuf::from(&self.parent.inherited.working_dir);
        if self.shared.config.is_broad(&source) {
            return Err("it worked in this folder: one as broad as the home folder is not copied".to_owned());
        }
        let dir = crate::isolation::copies_dir(&self.shared.config.db_path);
        Isolation::make(&self.shared.checkpoints, &source, &dir, &id.0)
            .await
            .map(Some)
            .map_err(|e| format!("it worked in this folder: its own copy could not be made ({e})"))
    }

    /// The child's conversation, created and given its task.
    async fn start(
        &self,
        id: ContextId,
        limits: SubAgentLimits,
        model: Option<ModelChoice>,
        copy: Option<&Isolation>,
    ) -> Result<(ContextId, Mailbox), RuntimeError> {
        let defaults = &self.shared.config.machine;
        let seat = (&self.call_id, self.index as u32);
        let braid_core::Context { meta, state, conversation } = self.parent.inherited.child(
            &self.task,
            seat,
            limits,
            model,
            defaults,
            id,
            clock::now(),
            copy.map(|c| c.root.display().to_string()),
        );
        let id = meta.id.clone();
        self.shared.lock_store().create_context(&meta, &state, &conversation)?;
        let mailbox = ContextActor::spawn(self.shared.clone(), meta, state, conversation);
        self.shared.contexts.insert(id.clone(), mailbox.clone()).await;
        let started =
            Event::SubAgentStarted { call_id: self.call_id.clone(), index: self.index as u32, context_id: id.clone() };
        let _ = self.parent.mailbox.send(Input::Event(started));
        Ok((id, mailbox))
    }

    /// Sends the task and waits for the child's end, or its time limit.
    async fn wait(&self, id: ContextId, mailbox: Mailbox, limits: SubAgentLimits) -> (ChildOutcome, u64) {
        let ended = self.shared.children.expect(&id);
        let mut guard = CancelOnDrop(Some(mailbox.clone()));
        let (answer, sent) = oneshot::channel();
        let task = Event::UserMessage {
            body: MessageType::text(Role::User, self.task.instructions.clone()),
            queue_if_busy: false,
            force_tool: None,
            images: Vec::new(),
        };
        if mailbox.send(Input::Command(task, answer)).is_err() {
            self.shared.children.forget(&id);
            return (ChildOutcome::Failed { reason: "its conversation closed".into() }, 0);
        }
        if let Ok(Err(e)) = sent.await {
            self.shared.children.forget(&id);
            return (ChildOutcome::Failed { reason: format!("its task was refused: {}", e.message) }, 0);
        }
        match tokio::time::timeout(Duration::from_millis(limits.time_limit_ms), ended).await {
            Ok(Ok(end)) => {
                guard.0 = None;
                end
            }
            Ok(Err(_)) => (ChildOutcome::Failed { reason: "its conversation closed".into() }, 0),
            Err(_) => {
                self.shared.children.forget(&id);
                let reason = format!("it passed its time limit of {}", duration(limits.time_limit_ms));
                (ChildOutcome::Failed { reason }, 0)
            }
        }
    }
}

/// Cancels a child whose supervisor stops waiting for it (the parent
/// cancelled, or the child passed its time limit): its running tool's
/// process group is killed as on any cancel.
struct CancelOnDrop(Option<Mailbox>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if let Some(mailbox) = self.0.take() {
            let (answer, _) = oneshot::channel();
            let _ = mailbox.send(Input::Command(Event::Cancel, answer));
        }
    }
}

fn duration(ms: u64) -> String {
    match ms {
        ms if ms % 60_000 == 0 => format!("{} min", ms / 60_000),
        ms if ms % 1_000 == 0 => format!("{} s", ms / 1_000),
        ms => format!("{ms} ms"),
    }
}
