//! Events to clients (DESIGN.md §5). `context_update` is small and never
//! carries large text; text arrives as `content_delta`s with a growing
//! sequence and ends with one `content_final`.

use crate::codes::NoticeCode;
use crate::error::ErrorCode;
use crate::ids::{ContextId, MessageId, Timestamp};
use crate::message::{MessageKind, MessageType};
use crate::status::ContextStatus;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum BraidEvent {
    ContextUpdate(ContextUpdate),
    ContentDelta(ContentDelta),
    ContentFinal(ContentFinal),
}

impl BraidEvent {
    /// A context's change of state (idle → streaming, → awaiting approval,
    /// → failed…): what a list of every conversation follows, without
    /// each streamed word.
    pub fn state_change(&self) -> Option<&ContextUpdate> {
        match self {
            BraidEvent::ContextUpdate(u) if u.previous_state.is_some() => Some(u),
            _ => None,
        }
    }

    pub fn context_id(&self) -> &ContextId {
        match self {
            BraidEvent::ContextUpdate(e) => &e.context_id,
            BraidEvent::ContentDelta(e) => &e.context_id,
            BraidEvent::ContentFinal(e) => &e.context_id,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ContextUpdate {
    pub context_id: ContextId,
    pub current_state: ContextStatus,
    /// Present when this update is a change of state.
    pub previous_state: Option<ContextStatus>,
    pub message: Option<MessageLifecycle>,
    pub timestamp: Timestamp,
    pub metadata: UpdateMetadata,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct MessageLifecycle {
    pub message_id: MessageId,
    pub kind: MessageKind,
    pub change: MessageChange,
    /// The message as stored after the change, when it is on the branch in
    /// use and small (`braid_core::events`): a client puts it in place
    /// instead of loading the branch again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub message: Option<Box<crate::message::Message>>,
    /// Stored and on the branch in use, but too large to travel here (this
    /// event stays small): a client that shows it loads it. Neither this
    /// nor `message`: not stored yet (a streamed answer starting) or on
    /// another branch.
    #[serde(default)]
    pub withheld: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "change", rename_all = "snake_case")]
pub enum MessageChange {
    /// The message entered the pool (or, for a streamed answer, started).
    Created,
    /// e.g. a tool call's approval changed, or a streamed answer was
    /// discarded (`discarded`) after a cancel or a retry.
    StatusChanged {
        status: String,
    },
    Completed,
}

/// Small facts that travel with an update.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
pub struct UpdateMetadata {
    /// Messages waiting to be sent when the context is Idle. Always present,
    /// so a queue is never hidden.
    pub queue: Vec<QueuedPreview>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notice: Option<Notice>,
    /// A team conversation's route of turns, while a chain runs or waits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub team: Option<Box<crate::TeamRoute>>,
    /// The sub-agents of the running `spawn_agents` call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub sub_agents: Option<Box<crate::SubAgentsView>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct QueuedPreview {
    pub message_id: MessageId,
    /// At most 120 characters of the message.
    pub preview: String,
}

impl QueuedPreview {
    pub const MAX_CHARS: usize = 120;

    pub fn of(message_id: MessageId, body: &MessageType) -> QueuedPreview {
        let full = body.plain_text().unwrap_or_else(|| format!("[{}]", body.kind().tag()));
        let preview = match full.char_indices().nth(Self::MAX_CHARS) {
            Some((cut, _)) => format!("{}…", &full[..cut]),
            None => full,
        };
        QueuedPreview { message_id, preview }
    }
}

/// Something the user should be told, with a code the UI can switch on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Notice {
    pub code: NoticeCode,
    pub message: String,
}

impl Notice {
    pub fn new(code: impl Into<NoticeCode>, message: impl Into<String>) -> Notice {
        Notice { code: code.into(), message: message.into() }
    }
    pub fn from_error(code: ErrorCode, message: impl Into<String>) -> Notice {
        Notice::new(code, message)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ContentDelta {
    pub context_id: ContextId,
    pub message_id: MessageId,
    /// 1 for the first delta of a message, growing by one.
    pub sequence: u64,
    pub delta: String,
    pub is_final: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ContentFinal {
    pub context_id: ContextId,
    pub message_id: MessageId,
    /// The sequence number after the last delta.
    pub sequence: u64,
    pub is_final: bool,
}
