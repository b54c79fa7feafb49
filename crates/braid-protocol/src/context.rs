//! A conversation as clients draw it: its line in the list (with its
//! branches), and the snapshot a subscriber starts from.

use crate::files::{FileInPlay, OverwriteRisk, WritePreview};
use crate::generation::{GenerationSettings, ToolUse};
use crate::ids::{BranchId, ContextId, MessageId, Timestamp};
use crate::message::Message;
use crate::settings::{EffectiveModel, ModelChoice};
use crate::status::ContextStatus;
use crate::tools::{ContextStrategy, ToolSettings};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ContextSummary {
    pub id: ContextId,
    pub title: String,
    pub working_dir: String,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
    pub status: ContextStatus,
    pub message_count: u64,
    /// The conversation's own model; `None` follows the default.
    pub model: Option<ModelChoice>,
    /// Kept at the top of the conversation list.
    #[serde(default)]
    pub pinned: bool,
    /// Every branch, oldest first, so the list can show them under the
    /// conversation rather than as chats of their own.
    #[serde(default)]
    pub branches: Vec<BranchLabel>,
    /// The branch in use.
    #[serde(default = "BranchId::main")]
    pub active_branch: BranchId,
}

/// A branch as the conversation list names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct BranchLabel {
    pub id: BranchId,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct BranchSummary {
    pub id: BranchId,
    pub name: String,
    pub parent: Option<BranchId>,
    pub fork_point: Option<MessageId>,
    pub message_count: u64,
    /// The branch's own system prompt, used in place of the
    /// conversation's; `None`: the conversation's.
    #[serde(default)]
    pub system_prompt: Option<String>,
    /// The branch's own model; `None`: the conversation's.
    #[serde(default)]
    pub model: Option<ModelChoice>,
    /// Its own copy of the workspace, where its tools work while it is in
    /// use; `None`: the conversation's folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub folder: Option<String>,
}

impl BranchSummary {
    /// What the branch is called where it is named.
    pub fn label(&self) -> String {
        branch_label(&self.id, &self.name)
    }
}

/// A branch's name, or for an unnamed one (a version an edit or an answer
/// again made, until the user names it) its id.
pub fn branch_label(id: &BranchId, name: &str) -> String {
    if name.is_empty() {
        format!("unnamed {id}")
    } else {
        name.to_owned()
    }
}

/// What a client needs to draw a context: its state, its queue, its
/// branches, and the active branch's messages (the most recent ones when
/// the snapshot is for a new subscriber).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ContextSnapshot {
    pub summary: ContextSummary,
    pub active_branch: BranchId,
    pub branches: Vec<BranchSummary>,
    pub queued: Vec<Message>,
    pub messages: Vec<Message>,
    /// True when `messages` holds only the tail of the branch.
    pub truncated: bool,
    /// Where the next request goes; `None` when no provider is set up.
    pub effective_model: Option<EffectiveModel>,
    pub tools: ToolSettings,
    pub strategy: ContextStrategy,
    pub summarize_at_percent: u8,
    /// Tools on a normal turn, temperature, longest answer.
    pub generation: GenerationSettings,
    /// Whether tools go with a normal turn for this model (the setting or,
    /// when it is empty, the model's default).
    pub tool_use: ToolUse,
    /// The files the agent read or wrote, most recent first, and whether
    /// each changed outside Braid since.
    pub files: Vec<FileInPlay>,
    /// Pending writes that would replace what the model has not seen.
    #[serde(default)]
    pub overwrites: Vec<OverwriteRisk>,
    /// What each pending write would change.
    #[serde(default)]
    pub previews: Vec<WritePreview>,
    /// Pending calls that text from a tool, a file or a server asked for.
    #[serde(default)]
    pub prompted: Vec<crate::tools::PromptedCall>,
    /// The secrets pending calls would run with.
    #[serde(default)]
    pub secret_uses: Vec<crate::tools::SecretUse>,
    /// Pending calls of tools allowed always here whose definition
    /// changed since (the user accepted the server's new one): what
    /// changed, by the tool's name.
    #[serde(default)]
    pub tool_changes: Vec<crate::HeldTool>,
    /// The command the sandbox just stopped, while the user decides.
    #[serde(default)]
    pub blocked: Option<crate::tools::BlockedCommand>,
    /// How the last request filled the window, from Braid's own counts;
    /// `None` before the first request since the app started.
    pub context: Option<ContextUsage>,
    /// References and images the user keeps in what is sent.
    #[serde(default)]
    pub kept: Vec<MessageId>,
    /// A team conversation's members and task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub team: Option<crate::Team>,
    /// The route of a team chain running or paused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub route: Option<crate::TeamRoute>,
    /// The running `spawn_agents` call's children.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub sub_agents: Option<crate::SubAgentsView>,
    /// A sub-agent's parent and task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub child: Option<crate::ChildOf>,
    /// Tool groups the user stopped offering in this conversation.
    #[serde(default)]
    pub dropped_tools: Vec<String>,
    /// Messages the user left out of what is sent.
    #[serde(default)]
    pub left_out: Vec<MessageId>,
    /// A summary made on request, waiting for approval.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub summary_preview: Option<crate::SummaryPreview>,
    /// Messages of the branch in use that have other versions on other
    /// branches (an edited question, an answer written again).
    #[serde(default)]
    pub versions: Vec<MessageVersions>,
    /// The answer being written, as streamed so far: a client that opens
    /// the conversation mid-answer starts from it, then adds the deltas.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub draft: Option<Draft>,
}

/// An answer's text as streamed so far (before it is stored).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Draft {
    pub message_id: MessageId,
    pub text: String,
}

/// A change to a message waiting in the queue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum QueueChange {
    /// Its text, replaced (not blank).
    Edit { text: String },
    /// Its place: 0 is the next to go.
    Move { to: u32 },
    /// It goes next, now: the answer being written is interrupted (what
    /// was written is kept).
    SendNow,
}

/// The versions of one place in the conversation, oldest first: `message`
/// (on the branch in use) is one of them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct MessageVersions {
    pub message: MessageId,
    pub versions: Vec<MessageVersion>,
}

/// One version and the branch that shows it when switched to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct MessageVersion {
    pub message: MessageId,
    pub branch: BranchId,
}

/// The window as the last request used it (local counts, before sending).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ContextUsage {
    pub window: u32,
    pub system: u32,
    pub tools: u32,
    pub messages: u32,
    pub reserved_output: u32,
    /// Messages sent, and stored ones left out to fit.
    pub sent_messages: u32,
    pub left_out: u32,
    /// The references, images and resources among those left out: the
    /// chat marks each, as the model did not see it.
    #[serde(default)]
    pub left_out_references: Vec<MessageId>,
    /// Counted with an estimate (the model's tokenizer is not one Braid
    /// has), so the figures are approximate.
    #[serde(default)]
    pub estimated: bool,
    /// Tools not offered because the message did not call for them
    /// (tools "as needed"); "Tools: always" sends them.
    #[serde(default)]
    pub tools_held_back: Vec<String>,
}

/// How a conversation is exported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ExportFormat {
    /// Braid's versioned JSON: everything, to import again.
    Json,
    /// For reading: the active branch, or every branch.
    Markdown { all_branches: bool },
}

/// An export, ready to save.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ExportedFile {
    /// A file name from the title (`.braid.json` or `.md`).
    pub file_name: String,
    pub media_type: String,
    pub text: String,
}
