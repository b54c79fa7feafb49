//! Merging one branch into another: what the user asks for, the preview
//! they see before anything changes, and the record a merge leaves in the
//! target branch. A merge never alters a stored message: it copies, and
//! the record says what to take back on undo.

use crate::ids::{BranchId, MessageId, Timestamp};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum MergeStrategy {
    /// The model summarises what the source found; the user edits it; it
    /// goes into the target as the merge card.
    #[default]
    Summary,
    /// The target has not moved since the fork: it takes the source's
    /// messages.
    FastForward,
    /// The source's messages since the common ancestor, in order, copied
    /// after the target's tip; duplicates skipped.
    Append,
    /// Chosen messages only, with what they depend on.
    CherryPick,
    /// The source's turns replayed onto the target's tip, as they are or
    /// answered again by the model.
    Rebase,
}

impl MergeStrategy {
    pub const ALL: [MergeStrategy; 5] = [
        MergeStrategy::Summary,
        MergeStrategy::FastForward,
        MergeStrategy::Append,
        MergeStrategy::CherryPick,
        MergeStrategy::Rebase,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            MergeStrategy::Summary => "summary",
            MergeStrategy::FastForward => "fast_forward",
            MergeStrategy::Append => "append",
            MergeStrategy::CherryPick => "cherry_pick",
            MergeStrategy::Rebase => "rebase",
        }
    }
}

/// What a conflict is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ConflictKind {
    /// Both branches wrote the same file, with different content.
    File,
    /// The branches have different system prompts.
    SystemPrompt,
    /// The source switched to another mode than the target is in.
    Mode,
    /// The branches answer with different models.
    Model,
    /// A summary on the source covers messages the target still has.
    Summary,
}

/// How a conflict is settled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Resolution {
    KeepSource,
    KeepTarget,
    KeepBoth,
    Drop,
}

/// Cherry-pick: what to do with the messages a pick depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum MissingDependencies {
    /// Bring them along.
    #[default]
    Bring,
    /// Go on without them: a tool call or result left alone becomes plain
    /// text, so the sequence stays valid for every provider.
    Without,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ConflictChoice {
    pub conflict: String,
    pub resolution: Resolution,
}

/// A merge as the user asks for it; the target is the branch in use.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct MergeOptions {
    pub source: BranchId,
    #[serde(default)]
    pub strategy: MergeStrategy,
    /// Cherry-pick: the source's messages to copy.
    #[serde(default)]
    pub picks: Vec<MessageId>,
    #[serde(default)]
    pub missing: MissingDependencies,
    #[serde(default)]
    pub resolutions: Vec<ConflictChoice>,
    /// Summary: the text as the user edited it.
    #[serde(default)]
    pub summary: Option<String>,
    /// Rebase: send each replayed user turn to the model again.
    #[serde(default)]
    pub answer_again: bool,
    /// How each file both branches changed in the same lines is settled.
    #[serde(default)]
    pub files: Vec<FileChoice>,
}

/// What a file that could not be merged by itself gets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum FileTake {
    /// The target's side of each conflicting part (the file on disk).
    Ours,
    /// The source's side of each conflicting part.
    Theirs,
    /// Both sides of each conflicting part, the target's first.
    Both,
    /// The text as the user wrote it.
    Edited { text: String },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct FileChoice {
    pub path: String,
    pub take: FileTake,
}

/// Why a file could not be merged by itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum FileConflictKind {
    /// Both changed the same lines.
    Lines,
    /// One side deleted the file, the other changed it.
    DeletedAndChanged,
    /// Both changed a file that is not text.
    Binary,
}

/// A file both branches changed in a way that cannot be merged by itself:
/// each side's text (when it is text), and the text with both marked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct FileConflict {
    pub kind: FileConflictKind,
    /// `None`: absent on that side, or not text.
    pub ours: Option<String>,
    pub theirs: Option<String>,
    /// Lines: the merged text with each conflict between markers.
    pub marked: Option<String>,
    /// The ways it can be settled (`both` and `edited` need text).
    pub options: Vec<String>,
}

/// What a merge does to one file of the workspace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct MergeFile {
    pub path: String,
    /// `added`, `changed`, `removed`, or `conflict` (until settled).
    pub action: String,
    /// From the file on disk to what the merge writes (unified); empty
    /// for a binary file or an unsettled conflict.
    pub diff: String,
    pub lines: Option<crate::LineCount>,
    pub conflict: Option<FileConflict>,
    /// The settlement given in the options, if any.
    pub chosen: Option<FileTake>,
}

impl MergeOptions {
    /// A merge of `source` by `strategy` with nothing chosen yet: no
    /// picks, dependencies brought, no resolutions, no summary.
    pub fn new(source: BranchId, strategy: MergeStrategy) -> MergeOptions {
        MergeOptions {
            source,
            strategy,
            picks: Vec::new(),
            missing: MissingDependencies::Bring,
            resolutions: Vec::new(),
            summary: None,
            answer_again: false,
            files: Vec::new(),
        }
    }
}

/// What happens to one of the source's messages in the merge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum MergeItemFate {
    /// Copied into the target (or taken, on a fast-forward).
    Brought,
    /// Brought because a chosen message depends on it.
    Dependency,
    /// Brought as plain text: its tool partner stays behind.
    AsText,
    /// The target has it already (same id, same origin, or same role and
    /// content).
    Duplicate,
    /// Covered by the summary (Summary), or not chosen (Cherry-pick).
    LeftOut,
    /// Left out by a conflict's resolution.
    Resolved,
    /// Rebase with "answer again": the user turn is sent again; the rest
    /// of the turn is answered anew.
    Replayed,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct MergeItem {
    pub id: MessageId,
    /// The message's kind tag (`text`, `tool_request`, …).
    pub kind: String,
    pub role: Option<String>,
    pub preview: String,
    pub tokens: u32,
    pub created_at: Timestamp,
    pub fate: MergeItemFate,
}

/// A chosen message needs another one that was not chosen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct MergeDependency {
    pub message: MessageId,
    pub needs: MessageId,
    pub why: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct MessageStamp {
    pub id: MessageId,
    pub created_at: Timestamp,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct MergeConflict {
    /// Stable for the same branches: the key of its resolution.
    pub id: String,
    pub kind: ConflictKind,
    pub title: String,
    pub detail: String,
    pub source_messages: Vec<MessageStamp>,
    pub target_messages: Vec<MessageStamp>,
    pub options: Vec<Resolution>,
    pub suggested: Resolution,
    /// The resolution given in the options, if any.
    pub chosen: Option<Resolution>,
}

/// What a merge would do, computed without changing anything.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct MergePreview {
    pub source: BranchId,
    pub target: BranchId,
    pub strategy: MergeStrategy,
    /// The last message both branches share.
    pub base: Option<MessageId>,
    /// The source's messages since the common ancestor and their fate.
    pub items: Vec<MergeItem>,
    /// Messages the target holds that the source does not, since the
    /// common ancestor.
    pub target_new: u32,
    pub fast_forward_possible: bool,
    pub dependencies: Vec<MergeDependency>,
    pub conflicts: Vec<MergeConflict>,
    /// Tokens the merge adds to the target.
    pub added_tokens: u32,
    pub target_tokens_before: u32,
    pub target_tokens_after: u32,
    /// Why the merge cannot be applied as asked; `None` when it can.
    pub blocked: Option<String>,
    /// What the merge writes in the workspace, by path.
    #[serde(default)]
    pub files: Vec<MergeFile>,
}

/// What a merge did, kept in the merge card on the target: enough to show
/// it, draw it in the graph and undo it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct MergeRecord {
    pub source: BranchId,
    pub source_name: String,
    pub target: BranchId,
    /// The source's last message at the merge: the card's second parent.
    pub source_tip: MessageId,
    pub strategy: MergeStrategy,
    /// The messages the merge put on the target after the card (copies),
    /// or took from the source (fast-forward).
    pub brought: Vec<MessageId>,
    /// The target's messages the resolutions took off it.
    #[serde(default)]
    pub removed: Vec<MessageId>,
    /// The target's messages before the merge, when the merge rewrote
    /// them (fast-forward, removals): undo puts them back.
    #[serde(default)]
    pub before: Option<Vec<MessageId>>,
    #[serde(default)]
    pub summary: Option<String>,
    #[serde(default)]
    pub resolutions: Vec<ConflictChoice>,
    /// The target's own system prompt before a resolution changed it.
    #[serde(default)]
    pub prompt_before: Option<PromptBefore>,
    /// Rebase with "answer again": the user turns sent again.
    #[serde(default)]
    pub replayed: u32,
    /// Their ids, in order: undo takes them and their answers off.
    #[serde(default)]
    pub replay_ids: Vec<MessageId>,
    /// The target's own model before a resolution changed it.
    #[serde(default)]
    pub model_before: Option<ModelBefore>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ModelBefore {
    pub model: Option<crate::settings::ModelChoice>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PromptBefore {
    pub system_prompt: Option<String>,
}

/// One row of the history graph, as `braid_core::graph::layout` drew it,
/// with what the UI shows of its message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct GraphRow {
    pub id: MessageId,
    /// The message it follows on its line first, then (a merge) the
    /// source's tip.
    pub parents: Vec<MessageId>,
    pub lane: u32,
    pub color: u32,
    pub up: bool,
    pub down: bool,
    /// `[lane, colour]` of each line leaving for a fork.
    pub forks: Vec<[u32; 2]>,
    /// `[lane, colour]` of each merged-in line ending here.
    pub merges: Vec<[u32; 2]>,
    pub kind: String,
    pub role: Option<String>,
    pub preview: String,
    pub created_at: Timestamp,
    /// Branches whose last message this is.
    pub tips: Vec<BranchId>,
    /// A merge card (undone or not).
    pub merge: bool,
    /// A tool request that started sub-agents: its `spawn_agents` calls,
    /// whose children the graph shows as side lanes.
    #[serde(default)]
    pub spawns: Vec<crate::CallId>,
    /// The files and lines this message's tools (or a restore) changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changes: Option<crate::ChangeCount>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct GraphBranch {
    pub id: BranchId,
    pub name: String,
    pub color: u32,
    pub parent: Option<BranchId>,
    pub tip: Option<MessageId>,
    pub message_count: u32,
    pub system_prompt: Option<String>,
    /// Its own copy of the workspace, if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub folder: Option<String>,
}

/// The conversation as a history graph, oldest row first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct GraphView {
    pub rows: Vec<GraphRow>,
    /// Lines passing rows without touching their nodes, as
    /// `[lane, first row, last row, colour]`: a few per line, however
    /// long, where a list per row would grow with rows × lanes.
    pub spans: Vec<[u32; 4]>,
    pub width: u32,
    pub branches: Vec<GraphBranch>,
    pub active: BranchId,
}
