//! The files the agent has in play, as a client sees them: whether each
//! changed outside Braid (live, or while Braid was closed), which pending
//! writes would replace what the model has not seen, and what each
//! pending write would change.

use crate::ids::CallId;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum FileState {
    Fresh,
    ChangedOutside,
    Deleted,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct FileInPlay {
    /// Relative to the workspace.
    pub path: String,
    pub state: FileState,
    /// The change was found when the conversation was opened: it happened
    /// while Braid was closed.
    #[serde(default)]
    pub while_closed: bool,
}

/// Why approving a pending write as is would have the tool refuse it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum OverwriteReason {
    /// The file exists and the model has not read it in this conversation.
    NotRead,
    /// The file changed outside Braid since the model read it.
    ChangedOutside,
}

/// A pending `write_file` / `edit_file` call over a file the model has not
/// seen as it is: the approval dialog offers "approve and overwrite".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct OverwriteRisk {
    pub call_id: CallId,
    /// Relative to the workspace.
    pub path: String,
    pub reason: OverwriteReason,
}

/// What a pending `write_file` / `edit_file` call would change, for the
/// approval dialog. Nothing is written until it is approved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WritePreview {
    pub call_id: CallId,
    /// Relative to the workspace.
    pub path: String,
    /// The file does not exist yet.
    pub new_file: bool,
    /// A unified diff against the file on disk (3 lines of context, at
    /// most 400 lines); empty when nothing would change.
    pub diff: String,
    /// Why the tool would refuse the call as it stands, if it would.
    pub problem: Option<String>,
}
