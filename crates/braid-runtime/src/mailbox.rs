//! The way into a context's task and everything that travels through it:
//! the actor's vocabulary. Kept below the actor (and below the services
//! every part shares), so that the registry of contexts, the runtime's
//! entry points and the sub-agents' supervisor can talk to a context
//! without importing the actor, and no import circle forms
//! (`scripts/check-imports.py`). Cancel, Interrupt and Shutdown have a
//! lane of their own that the task reads first, so they never wait behind
//! stream chunks.

pub use braid_core::context::{BranchEdit, MessageOp, MetaChange};
use braid_core::history::TransitionRecord;
use braid_core::machine::{Event, Reply};
use braid_llm::LlmProvider;
use braid_protocol::{
    BraidEvent, BranchId, ContextSnapshot, ContextSummary, GraphView, MergeOptions, MergePreview, MessageId, Notice,
    WireError,
};
use std::path::PathBuf;
use std::sync::Arc;
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
        /// Everything before `from` rather than up to it.
        before: bool,
        name: String,
        system_prompt: Option<String>,
        answer: Answer<BranchId>,
    },
    /// Checked by the context's task, where the branches are, then fed
    /// to the machine.
    EditBranch {
        branch: BranchId,
        edit: BranchEdit,
        answer: Answer<Reply>,
    },
    /// Checked by the context's task, where the branches are, then fed
    /// to the machine.
    SwitchBranch {
        to: BranchId,
        answer: Answer<Reply>,
    },
    History {
        answer: Answer<Vec<TransitionRecord>>,
    },
    /// Merges, their previews and undos, and the history graph.
    Merge {
        op: MergeOp,
        answer: Answer<MergeAnswer>,
    },
    /// A file rewind: planned by the core, then its note recorded.
    Rewind {
        op: RewindOp,
        answer: Answer<RewindAnswer>,
    },
    /// A new title, model choice or pin.
    UpdateMeta {
        change: MetaChange,
        answer: Answer<ContextSummary>,
    },
    /// A title for a conversation still called "New conversation".
    AutoTitle(String),
    /// A watched file may have changed: check it now.
    CheckFile(PathBuf),
    /// Tell the context's clients (from its tasks).
    Notice(Notice),
    /// Something done to one stored message (looked up by the context's
    /// task, then fed to the machine).
    Message {
        message_id: MessageId,
        op: MessageOp,
        answer: Answer<Reply>,
    },
    /// The user started writing: what answering needs gets ready.
    WarmUp,
    /// The next request, part by part, with `draft` as its newest message.
    Breakdown {
        draft: String,
        answer: Answer<braid_protocol::ContextBreakdown>,
    },
    /// The breakdown's messages, counted by the model's server beside the
    /// task: planned now (`actor/breakdown.rs`).
    BreakdownCounted {
        look: Box<Counted>,
        answer: Answer<braid_protocol::ContextBreakdown>,
    },
    /// A summary asked for, approved, edited or taken back; a message or
    /// a tool group left out.
    Window {
        op: braid_core::context::WindowOp,
        answer: Answer<Reply>,
    },
    /// Stop everything in flight and end the task.
    Shutdown {
        answer: oneshot::Sender<()>,
    },
}

pub enum MergeOp {
    Preview(MergeOptions),
    /// The source's files the merge brings; `user`: what the user changed
    /// since the folder was last looked at, recorded first.
    Files {
        options: MergeOptions,
        user: Vec<braid_protocol::FileDelta>,
        checkpoints: Recorded,
    },
    /// The merge, with what it writes in the workspace.
    Apply(MergeOptions, Vec<braid_protocol::FileDelta>),
    /// What undoing the merge whose card this is writes back.
    UndoFiles {
        card: MessageId,
        user: Vec<braid_protocol::FileDelta>,
        checkpoints: Recorded,
    },
    Undo(MessageId, Vec<braid_protocol::FileDelta>),
    /// The graph, with the files and lines of the conversation's checkpoints.
    Graph(Recorded),
    /// What the model needs to summarise the source for a merge card.
    SummaryJob(BranchId),
}

pub enum RewindOp {
    /// What rewinding to the message would write. `user`: what the user
    /// changed since the folder was last looked at, recorded first.
    Plan { to: MessageId, user: Vec<braid_protocol::FileDelta>, checkpoints: Recorded },
    /// What switching to the branch with its files would write.
    PlanBranch { branch: BranchId, user: Vec<braid_protocol::FileDelta>, checkpoints: Recorded },
    /// What undoing the restore whose note this is would write.
    PlanUndo { note: MessageId, user: Vec<braid_protocol::FileDelta>, checkpoints: Vec<braid_protocol::Checkpoint> },
    /// What the turn holding `at` changed, as it stands (for its review
    /// or an undo of some of it).
    Changes { at: MessageId, user: Vec<braid_protocol::FileDelta>, checkpoints: Recorded },
    /// Every turn of the branch in use that changed files.
    Turns(Recorded),
    /// The restore is done: its note and checkpoint.
    Done(braid_core::context::Restored),
}

/// A conversation's checkpoints as stored, and its sub-agents' (theirs
/// and their own children's) by the call that started each.
pub struct Recorded {
    pub own: Vec<braid_protocol::Checkpoint>,
    pub children: Vec<(braid_protocol::CallId, Vec<braid_protocol::Checkpoint>)>,
}

pub enum RewindAnswer {
    Plan(braid_core::checkpoint::RewindPlan),
    Note(MessageId),
    Changes(MessageId, Vec<braid_protocol::FileDelta>),
    Turns(Vec<braid_protocol::TurnChangeCount>),
}

pub enum MergeAnswer {
    Preview(Box<MergePreview>),
    Files(Vec<braid_core::merge::files::FileSide>),
    Plan(braid_core::checkpoint::RewindPlan),
    Card(MessageId),
    Done,
    Graph(Box<GraphView>),
    Summarise {
        provider: Arc<dyn LlmProvider>,
        model: String,
        input: String,
        max_tokens: u32,
        filter: crate::outbound::Filter,
    },
}

/// The context's task has ended.
#[derive(Debug)]
pub struct Closed;

/// The way into a context's task. Cancel, Interrupt and Shutdown go to a
/// mailbox of their own that the task reads first.
#[derive(Clone)]
pub struct Mailbox {
    pub(crate) normal: mpsc::UnboundedSender<Input>,
    pub(crate) urgent: mpsc::UnboundedSender<Input>,
}

impl Mailbox {
    /// `Err` when the context's task has ended.
    pub fn send(&self, input: Input) -> Result<(), Closed> {
        let urgent = matches!(input, Input::Command(Event::Cancel | Event::Interrupt, _) | Input::Shutdown { .. });
        let sent = if urgent { self.urgent.send(input) } else { self.normal.send(input) };
        sent.map_err(|_| Closed)
    }

    pub fn is_closed(&self) -> bool {
        self.normal.is_closed()
    }
}

/// A look at the next request whose messages the model's server counted:
/// the core plans it next, and the server counts it whole (`provider`:
/// the server, when it counted).
pub struct Counted {
    pub prepared: braid_core::fit::PreparedRequest,
    pub drafted: Vec<braid_protocol::Message>,
    pub provider: Option<Arc<dyn LlmProvider>>,
}
