//! Sub-agents on the wire: the tasks a model hands out with
//! `spawn_agents`, the limits each child runs under, and what each child
//! reported (decided by `braid_core::subagents`).

use crate::ids::{CallId, ContextId};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The tool a model starts sub-agents with, and the two a sub-agent ends
/// with (each must be the only call of its response).
pub const SPAWN_AGENTS: &str = "spawn_agents";
pub const SUBMIT_RESULT: &str = "submit_result";
pub const SUBMIT_ERROR: &str = "submit_error";
/// Tasks one `spawn_agents` call may hand out.
pub const MAX_SUB_TASKS: usize = 10;

/// One piece of work for a sub-agent, as the model wrote it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SubTask {
    /// How the child is called in the parent's card and dialogs.
    pub name: String,
    pub instructions: String,
    /// A model of the parent's provider (or `provider/model`); `None`: the
    /// parent's model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub model: Option<String>,
    /// Works in its own copy of the workspace (parallel lines of work never
    /// write over each other); what it changed is merged back when it
    /// submits.
    #[serde(default)]
    pub isolated: bool,
}

/// What every child of a conversation runs under (settings).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct SubAgentLimits {
    /// Wall time from the child's start; past it, the child is stopped.
    #[ts(type = "number")]
    pub time_limit_ms: u64,
    /// Model turns; one more (the grace turn) tells it to submit now.
    pub turn_limit: u32,
    /// Children running at once; the others wait.
    pub concurrency: u32,
}

impl Default for SubAgentLimits {
    fn default() -> SubAgentLimits {
        SubAgentLimits { time_limit_ms: 10 * 60 * 1000, turn_limit: 20, concurrency: 3 }
    }
}

/// A child conversation's place: whose child it is and which task it does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ChildOf {
    pub parent: ContextId,
    /// The parent's `spawn_agents` call.
    pub call_id: CallId,
    /// The task's place in that call, from 0.
    pub index: u32,
    pub name: String,
    pub turn_limit: u32,
    /// The copy of the parent's folder it works in, when it has its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub workspace: Option<String>,
}

/// How a child ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ChildOutcome {
    /// `submit_result`: the child's answer.
    Submitted { result: String },
    /// `submit_error`, a failure, a limit, a cancel or a restart: why.
    Failed { reason: String },
}

/// One child's report, as the parent keeps it and the model reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ChildReport {
    pub outcome: ChildOutcome,
    #[ts(type = "number")]
    pub duration_ms: u64,
    /// Tokens the child's model read and wrote, as its servers reported.
    #[ts(type = "number")]
    pub tokens: u64,
    /// What the model should know about how the child ran (a model asked
    /// for that is not available, so the parent's ran it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub note: Option<String>,
    /// Where a child with its own copy of the workspace worked, and what
    /// of it came back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub workspace: Option<ChildWorkspace>,
}

/// How a copy of a workspace was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum IsolationKind {
    /// `git worktree add`, with the working changes copied over.
    GitWorktree,
    /// The working files copied (reflinks where the file system has them).
    Copy,
}

/// A child's own copy of the workspace, after it ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ChildWorkspace {
    pub folder: String,
    pub kind: IsolationKind,
    /// Files merged into the parent's folder.
    #[serde(default)]
    pub merged: Vec<String>,
    /// Of those, the ones both changed in the same lines: written with
    /// conflict markers (`<<<<<<<`), both sides kept.
    #[serde(default)]
    pub conflicts: Vec<String>,
    /// Changes not merged back (the child failed, or a binary or deleted
    /// file both changed): the copy is kept at `folder` with them.
    #[serde(default)]
    pub kept: Vec<String>,
    /// Why the copy could not be merged back or removed, if so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub problem: Option<String>,
}

/// One task of the running `spawn_agents` call, for the parent's card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SubAgentView {
    pub name: String,
    /// Set once the child's conversation exists (it waits until then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub context_id: Option<ContextId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub report: Option<ChildReport>,
    /// Works in its own copy of the workspace.
    #[serde(default)]
    pub isolated: bool,
}

/// The parent's running `spawn_agents` call.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SubAgentsView {
    pub call_id: CallId,
    pub agents: Vec<SubAgentView>,
}

/// A sub-agent conversation, as its parent lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ChildSummary {
    pub context_id: ContextId,
    pub child: ChildOf,
    pub status: crate::ContextStatus,
    /// How it ended, once it has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub outcome: Option<ChildOutcome>,
    /// What came back from its own copy of the workspace, once it has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub returned: Option<ChildWorkspace>,
}
