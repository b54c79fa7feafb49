//! What the next request would hold, part by part (the `/context` view),
//! and the user's hold on compaction: what a summary covers and the
//! summary waiting for approval.

use crate::ids::MessageId;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The next request as fitting would build it now, with the text being
/// typed as its newest message. Counts are the ones the request uses:
/// `total` is what the window would hold besides the answer's reserve.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ContextBreakdown {
    pub model: String,
    pub window: u32,
    pub reserved_output: u32,
    /// The sum of the parts sent.
    pub total: u32,
    pub parts: Vec<BreakdownPart>,
    /// Stored messages fitting leaves out to make room, and their tokens.
    pub left_out: u32,
    pub left_out_tokens: u32,
    /// The user's summary threshold (percent of the window; 0: only when
    /// asked) and whether this request would be summarised first.
    pub summarize_at_percent: u8,
    pub would_summarize: bool,
    /// Counted with an estimate (Braid lacks the model's tokenizer).
    pub estimated: bool,
    /// Every part and the whole were counted by the model's server as it
    /// will read the request (the total is its own count).
    #[serde(default)]
    pub counted_by_server: bool,
    /// Why nothing could be sent (the newest message alone is too long).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub too_large: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct BreakdownPart {
    pub category: BreakdownCategory,
    pub tokens: u32,
    pub items: Vec<BreakdownItem>,
}

/// The parts of a request, in the order they are sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum BreakdownCategory {
    /// Braid's base prompt (or the configured or branch one), the role,
    /// the mode, the workspace and the notes on changed files.
    BasePrompt,
    /// The project's instructions file.
    Instructions,
    /// A team member's instructions and the team task.
    Team,
    /// The tools' definitions and their lines in the prompt.
    Tools,
    Summary,
    Messages,
    Files,
    Images,
    Resources,
    /// What is being typed.
    Draft,
    /// What the model's server adds around the parts: roles, separators,
    /// the tools as its chat template writes them (known when the server
    /// counts the whole request).
    ChatFormat,
}

/// One thing in a part, and what frees its room.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct BreakdownItem {
    pub label: String,
    pub tokens: u32,
    /// Sent with the next request (false: left out, or held back).
    pub sent: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub message: Option<MessageId>,
    pub actions: Vec<BreakdownAction>,
}

/// What the user can do about an item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum BreakdownAction {
    /// Stop offering a tool group in this conversation (or offer it again).
    DropTools {
        group: String,
    },
    OfferTools {
        group: String,
    },
    /// Keep a reference or image ahead of older messages (or no longer).
    Keep {
        message: MessageId,
    },
    Unkeep {
        message: MessageId,
    },
    /// Leave a message out of what is sent (or send it again).
    LeaveOut {
        message: MessageId,
    },
    Include {
        message: MessageId,
    },
    /// Summarise the messages up to and including this one.
    SummarizeUpTo {
        message: MessageId,
    },
    /// Take a summary back: its messages are sent again.
    UndoSummary {
        message: MessageId,
    },
}

/// Which messages `/compact` summarises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CompactScope {
    /// Everything but the last exchange.
    #[default]
    All,
    /// From the start up to and including this message.
    UpTo { message: MessageId },
    /// From this message to the end.
    From { message: MessageId },
}

/// A summary made on request, waiting for the user to approve or edit it
/// before it replaces anything.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SummaryPreview {
    pub text: String,
    pub replaces: Vec<MessageId>,
    /// What the user asked the summary to keep, if anything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub instructions: Option<String>,
}
