//! Checkpoints: what a turn (or the user, or a restore) changed in the
//! workspace, file by file, as content names kept in the app's data
//! folder.

use crate::MessageId;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A file content's SHA-256, in hex: its name in the checkpoint store.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(transparent)]
pub struct ContentHash(pub String);

impl std::fmt::Display for ContentHash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum FileKind {
    File,
    Executable,
    /// The content is the link's target.
    Symlink,
}

/// One version of a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct FileVersion {
    pub hash: ContentHash,
    pub kind: FileKind,
    pub size: u64,
}

/// One file's change: absent before (created), absent after (deleted),
/// or another content or kind. `path` is relative to the workspace, with
/// `/` between its parts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct FileDelta {
    pub path: String,
    pub before: Option<FileVersion>,
    pub after: Option<FileVersion>,
    /// Lines added and removed, for a text file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<LineCount>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct LineCount {
    pub added: u32,
    pub removed: u32,
}

/// How many files, and lines, a message or a turn changed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ChangeCount {
    pub files: u32,
    pub added: u32,
    pub removed: u32,
}

/// Who made a checkpoint's changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ChangeAuthor {
    /// The model's tools (write tools, commands, MCP tools, team members'
    /// CLIs, sub-agents) during a turn.
    Model,
    /// Someone outside Braid, between turns.
    User,
    /// A rewind, or an undo of changes, done in Braid.
    Restore,
    /// A merge of two branches' files, or its undo.
    Merge,
}

/// The changes of one turn, one stretch between turns, or one restore,
/// attached to the message it follows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Checkpoint {
    pub id: u64,
    /// The message the changes were made for: the turn's tool result, the
    /// question the user's changes came before, or the restore's note.
    pub message_id: MessageId,
    pub author: ChangeAuthor,
    pub changes: Vec<FileDelta>,
    /// Files left out (too large), with why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<String>,
}

/// A file to put back: the version it is to have (`None`: removed) and
/// the one it is expected to hold now (`None`: absent); anything else on
/// disk was changed by someone since, and is not written without the
/// user's say.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RestoreTarget {
    pub path: String,
    pub to: Option<FileVersion>,
    pub expected: Option<ContentHash>,
}

/// What a rewind would do to one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum RewindAction {
    /// Back to an earlier content.
    Restore,
    /// It did not exist then: removed.
    Remove,
    /// It was removed since: written again.
    Recreate,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RewindFile {
    pub path: String,
    pub action: RewindAction,
    /// Unified diff from the file as it is to what it becomes (empty for
    /// a binary file, or one too large to show).
    pub diff: String,
    pub binary: bool,
    /// Changed by the user outside Braid since that point: written only
    /// when the user says so.
    pub changed_by_user: bool,
}

/// What rewinding the files to the moment `message_id` was sent would do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RewindPreview {
    pub message_id: MessageId,
    pub files: Vec<RewindFile>,
    /// The turns (and stretches of the user's edits) whose changes it undoes.
    pub checkpoints: u32,
}

/// A rewind done: the note it left in the conversation, and the files.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RewindOutcome {
    pub note: MessageId,
    pub files: u32,
    /// Left as they are (the user's changes, not chosen to be overwritten).
    pub kept: Vec<String>,
}

/// A turn that changed files: its question, its last message (where the
/// transcript offers its review), and how much it changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TurnChangeCount {
    pub question: MessageId,
    pub last: MessageId,
    pub count: ChangeCount,
}

/// How a turn changed a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum FileChange {
    Created,
    Modified,
    Deleted,
}

/// One hunk of a file's change, as `diff -U3` cuts it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ChangeHunk {
    /// Its number in the file, from 0: how `undo_changes` names it.
    pub index: u32,
    /// Its unified diff, the `@@` line first.
    pub diff: String,
    pub added: u32,
    pub removed: u32,
}

/// A file a turn changed, with the hunks still as the turn left them
/// (hunks undone since are gone from the list).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ChangedFile {
    pub path: String,
    pub change: FileChange,
    /// Not text, or too large to cut into hunks: undone as a whole.
    pub binary: bool,
    pub hunks: Vec<ChangeHunk>,
    pub added: u32,
    pub removed: u32,
    /// The file no longer holds what the turn left (the user or a later
    /// turn changed it): an undo is merged with what it holds, and a hunk
    /// whose lines changed since is refused.
    pub changed_since: bool,
}

/// What one turn changed in the files, as it stands now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TurnChanges {
    /// The question the turn answered.
    pub question: MessageId,
    pub files: Vec<ChangedFile>,
}

/// What to undo of one file's change: every hunk, or those named.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct UndoSelection {
    pub path: String,
    #[serde(default)]
    pub hunks: Option<Vec<u32>>,
}

/// How long checkpoints are kept, and the space they take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct CheckpointStorage {
    /// Checkpoints older than this many days are dropped (never the
    /// newest change of a file in a conversation).
    pub keep_days: u32,
    /// Beyond this many megabytes of kept contents, the oldest go first.
    pub budget_mb: u32,
    /// The space the checkpoint store takes on disk now, in bytes.
    #[serde(default)]
    pub used_bytes: u64,
    /// Checkpoints kept now, in every conversation.
    #[serde(default)]
    pub checkpoints: u32,
}

impl Default for CheckpointStorage {
    fn default() -> Self {
        CheckpointStorage { keep_days: 30, budget_mb: 2048, used_bytes: 0, checkpoints: 0 }
    }
}
