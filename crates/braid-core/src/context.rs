//! One conversation as the core owns it: its descriptive fields (title,
//! model, folder, pin), the state machine's state and the conversation
//! itself, changed in place by one event at a time. Every change returns
//! a [`Step`]: the effects the runtime must carry out, and the record that
//! puts everything back when the store refuses the write (as quinn-proto's
//! connection is driven through `&mut self`).
//!
//! The runtime's actor holds one `Context` and sends it only facts from
//! the world (a finished stream, a tool's result, a folder that exists);
//! what those facts mean — which branch may be switched to, whether a
//! title is still the default, what a pin changes — is decided here.

mod branches;
mod compaction;
mod meta;
mod rewind;

use crate::conversation::{self, Conversation};
use crate::machine::{
    is_pipeline_phase, is_request_phase, stored_change, transition_in_place, ContextState, Effect, Event, InFlight,
    Reply,
};
use braid_protocol::{
    BraidEvent, ContextId, ContextStatus, ContextUpdate, FailureCode, Notice, QueuedPreview, StatusKind, Timestamp,
    UpdateMetadata, WireError,
};

pub use branches::{BranchEdit, MessageOp};
pub use compaction::WindowOp;
pub use meta::{ContextMeta, MetaChange, TITLE_MAX_CHARS};
pub use rewind::Restored;

/// A loaded conversation: everything the core decides about.
#[derive(Debug, Clone)]
pub struct Context {
    pub meta: ContextMeta,
    pub state: ContextState,
    pub conversation: Conversation,
}

/// One handled event: what to carry out, and how to take it back.
#[derive(Debug)]
#[must_use = "a step's effects must be carried out, or the step undone"]
pub struct Step {
    /// Persistence effects first.
    pub effects: Vec<Effect>,
    /// The event's name, for the transition log.
    pub event: &'static str,
    /// The status before the event.
    pub from: StatusKind,
    /// Effects the conversation could not take (logged by the runtime; a
    /// broken invariant, never expected).
    pub unapplied: Vec<String>,
    undo: Undo,
}

/// What puts the context back as it was before a step.
#[derive(Debug, Default)]
struct Undo {
    state: StateUndo,
    meta: Option<Box<ContextMeta>>,
    conversation: Vec<conversation::Undo>,
}

/// The machine's state before a step: all of it, or for a streamed chunk
/// only the two fields a chunk moves (the status's counters and the
/// request's sequence), so that a chunk copies nothing else.
#[derive(Debug, Default)]
enum StateUndo {
    #[default]
    Unchanged,
    // Boxed: the state is about 2 KB and a step is moved around by value.
    Whole(Box<ContextState>),
    // Not boxed: an undo is made for every chunk, and copying a request
    // costs less than allocating one.
    Stream {
        status: ContextStatus,
        request: Option<InFlight>,
    },
}

impl StateUndo {
    fn or(self, later: StateUndo) -> StateUndo {
        match self {
            StateUndo::Unchanged => later,
            earlier => earlier,
        }
    }
}

impl Step {
    /// Whether the step changes what is stored (most streamed chunks do not).
    pub fn stores(&self) -> bool {
        self.effects.iter().any(Effect::is_persistence)
    }

    /// The answer to the command the event carried, if it was one.
    pub fn reply(&self) -> Option<&Result<Reply, WireError>> {
        self.effects.iter().rev().find_map(|e| match e {
            Effect::Reply(r) => Some(r),
            _ => None,
        })
    }

    /// A step that only answers (a refused command changes nothing).
    fn refused(event: &'static str, from: StatusKind, error: WireError) -> Step {
        Step { effects: vec![Effect::Reply(Err(error))], event, from, unapplied: Vec::new(), undo: Undo::default() }
    }

    /// Adds `later`'s effects and undo after this step's (persistence
    /// effects still first).
    fn then(mut self, later: Step) -> Step {
        let (persist, rest): (Vec<Effect>, Vec<Effect>) = later.effects.into_iter().partition(Effect::is_persistence);
        let at = self.effects.iter().take_while(|e| e.is_persistence()).count();
        self.effects.splice(at..at, persist);
        self.effects.extend(rest);
        self.unapplied.extend(later.unapplied);
        self.undo.conversation.extend(later.undo.conversation);
        // The earliest copy is the one that restores the start.
        self.undo.state = std::mem::take(&mut self.undo.state).or(later.undo.state);
        self.undo.meta = self.undo.meta.or(later.undo.meta);
        self
    }
}

impl Context {
    pub fn new(meta: ContextMeta, state: ContextState, conversation: Conversation) -> Context {
        Context { meta, state, conversation }
    }

    pub fn id(&self) -> &ContextId {
        &self.meta.id
    }

    /// The machine's transition, and its persistence effects applied to
    /// the conversation. The change time moves with every stored change,
    /// as the store's row does.
    pub fn handle(&mut self, event: Event, now: Timestamp) -> Step {
        let event = self.continuing(event);
        let name = event.name();
        let from = self.state.status.kind();
        let (effects, state) = if matches!(event, Event::LlmDelta { .. }) {
            self.stream(event, now)
        } else {
            let before = self.state.clone();
            let effects = transition_in_place(&mut self.state, event, now, |next| stored_change(next, &before));
            (effects, StateUndo::Whole(Box::new(before)))
        };
        let mut undo = Undo { state, ..Undo::default() };
        let mut unapplied = Vec::new();
        for effect in effects.iter().filter(|e| e.is_persistence()) {
            match self.conversation.apply_undoable(effect) {
                Ok(u) => undo.conversation.extend(u),
                Err(e) => unapplied.push(format!("{name}: {e}")),
            }
        }
        let step = Step { effects, event: name, from, unapplied, undo };
        if step.stores() && self.meta.updated_at != now {
            let mut step = step;
            step.undo.meta = Some(Box::new(self.meta.clone()));
            self.meta.updated_at = now;
            return step;
        }
        step
    }

    /// Continue after an answer that was cut or stopped goes on from it
    /// as the same answer (its text joined), not as a second one.
    fn continuing(&self, event: Event) -> Event {
        use braid_protocol::{MessageType, Role, StatusKind};
        if !matches!(event, Event::Retry) || !matches!(self.state.status.kind(), StatusKind::Idle | StatusKind::Failed)
        {
            return event;
        }
        match self.conversation.active_messages().last() {
            Some(m)
                if matches!(m.body, MessageType::Text { role: Role::Assistant, .. })
                    && (m.meta.cut || m.meta.stopped) =>
            {
                Event::ContinueAnswer { answer: Box::new(m.clone()) }
            }
            _ => event,
        }
    }

    /// A streamed chunk, the event every answer sends most of: it moves
    /// the status's counters and the request's sequence and nothing else,
    /// so only those are kept to take it back (the rest of the state is
    /// not copied, and not compared to tell whether it changed).
    fn stream(&mut self, event: Event, now: Timestamp) -> (Vec<Effect>, StateUndo) {
        let status = self.state.status.clone();
        let request = self.state.request.clone();
        #[cfg(debug_assertions)]
        let whole = self.state.clone();
        let effects =
            transition_in_place(&mut self.state, event, now, |next| next.status != status || next.request != request);
        #[cfg(debug_assertions)]
        {
            let mut put_back = self.state.clone();
            put_back.status = status.clone();
            put_back.request = request.clone();
            debug_assert!(put_back == whole, "a streamed chunk changed more than its counters");
        }
        (effects, StateUndo::Stream { status, request })
    }

    /// Takes a step back (its write failed): memory is as the store has it.
    pub fn undo(&mut self, step: Step) {
        let Undo { state, meta, conversation } = step.undo;
        for u in conversation.into_iter().rev() {
            self.conversation.undo(u);
        }
        match state {
            StateUndo::Unchanged => {}
            StateUndo::Whole(state) => self.state = *state,
            StateUndo::Stream { status, request } => {
                self.state.status = status;
                self.state.request = request;
            }
        }
        if let Some(meta) = meta {
            self.meta = *meta;
        }
    }

    /// Whether the step brought the context to rest (the moment a
    /// conversation may be named).
    /// Whether the step's only stored change is the status of a request
    /// in flight (prepared → connecting → first chunk). Its write may
    /// follow carrying it out, off the path to the first token: a crash
    /// in between leaves the earlier in-flight status stored, which
    /// recovery treats the same way.
    pub fn status_only(&self, step: &Step) -> bool {
        is_request_phase(step.from)
            && is_request_phase(self.state.status.kind())
            && step.effects.iter().all(|e| !e.is_persistence() || matches!(e, Effect::PersistState))
    }

    /// Whether the step's status is one the request's own task moves on
    /// from at once (prepared, then connecting as it starts): its write
    /// is left to the next, which follows within the millisecond.
    pub fn passes_at_once(&self, step: &Step) -> bool {
        self.state.status.kind() == StatusKind::PreparingLlmRequest
            && step.effects.iter().any(|e| matches!(e, Effect::SendLlmRequest { .. }))
    }

    /// Whether the step only begins a message's pipeline: the message
    /// waits in the state, and its sender's receipt comes once it is in
    /// the conversation (or refused). Its write may go with the stage that
    /// ends the pipeline, which the runtime stores anyway, as long as no
    /// stage waits on the world before (the runtime stores first then): a
    /// crash in between leaves the context as it was before a message
    /// nobody was told was taken.
    pub fn begins_pipeline(&self, step: &Step) -> bool {
        is_pipeline_phase(self.state.status.kind())
            && step.effects.iter().any(|e| matches!(e, Effect::RunPipeline(_)))
            && step.effects.iter().all(|e| !e.is_persistence() || matches!(e, Effect::PersistState))
    }

    pub fn rested(&self, step: &Step) -> bool {
        step.from != StatusKind::Idle && self.state.status.kind() == StatusKind::Idle
    }

    /// What the client sees of the context now, with `notice`.
    pub fn update(&self, previous: Option<ContextStatus>, notice: Option<Notice>, now: Timestamp) -> ContextUpdate {
        ContextUpdate {
            context_id: self.meta.id.clone(),
            current_state: self.state.status.clone(),
            previous_state: previous.filter(|p| p.kind() != self.state.status.kind()),
            message: None,
            timestamp: now,
            metadata: UpdateMetadata {
                queue: self.state.queue.iter().map(|q| QueuedPreview::of(q.id, &q.body)).collect(),
                notice,
                team: self.state.route.visible().map(Box::new),
                sub_agents: self.state.agents.clone().map(Box::new),
            },
        }
    }

    /// A write failed (disk full, database locked or read-only): nothing in
    /// flight carries on, and the context shows Failed with `message`.
    /// What was stored stays; Retry or a new message carries on once the
    /// disk takes writes again. Returns the event that tells the clients.
    pub fn stop_for_storage(&mut self, message: String, now: Timestamp) -> BraidEvent {
        let previous = self.state.status.clone();
        self.state.request = None;
        self.state.pending = None;
        self.state.round = None;
        self.state.rereading = None;
        self.state.status = ContextStatus::Failed {
            error_code: FailureCode::StorageFailed,
            message: message.clone(),
            recoverable: true,
        };
        let notice = Notice::from_error(braid_protocol::ErrorCode::Storage, message);
        BraidEvent::ContextUpdate(self.update(Some(previous), Some(notice), now))
    }
}
