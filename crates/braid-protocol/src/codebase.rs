//! The codebase index as clients see it: its build's progress and state,
//! and a file opened at a line from a codebase tool's result.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct CodebaseIndex {
    /// The workspace indexed.
    pub root: String,
    pub state: IndexState,
    /// Files parsed so far of those to parse (a build after a restart
    /// parses only what changed while Braid was closed).
    pub done: u32,
    pub total: u32,
    /// Files and definitions in the index.
    pub files: u32,
    /// Files the last build read (the rest were unchanged since stored).
    pub parsed: u32,
    pub symbols: u32,
    /// How long the last build took.
    pub build_ms: u64,
    /// Why the build failed.
    pub error: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum IndexState {
    Building,
    Ready,
    /// Stopped by the user; the tools answer from a walk of the files
    /// until it is built again.
    Cancelled,
    Failed,
}

/// Lines of a workspace file around one line, for "open at the line".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct FileExcerpt {
    pub path: String,
    /// The line asked for (1-based).
    pub line: u32,
    /// The first line in `lines` (1-based).
    pub start_line: u32,
    pub lines: Vec<String>,
    pub total_lines: u32,
}
