//! A workflow as clients see it: a named prompt template with parameters
//! (parsed and filled in by `braid_core::workflow`).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Workflow {
    pub name: String,
    pub description: String,
    pub parameters: Vec<WorkflowParameter>,
    /// The template, `{{name}}` where a parameter goes.
    pub body: String,
    /// Where it was found (`workspace` or `config`), for the user.
    pub origin: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WorkflowParameter {
    pub name: String,
    pub description: String,
    /// Used when the parameter is not given; `None`: it must be.
    pub default: Option<String>,
}

/// How a workflow's turn ended, recorded on its card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WorkflowOutcome {
    pub status: WorkflowStatus,
    /// The model's last answer in the turn.
    pub answer: Option<crate::MessageId>,
    /// Tool results written in the turn.
    pub tool_results: u32,
    /// Why it failed.
    pub error: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum WorkflowStatus {
    Completed,
    Failed,
    Cancelled,
}

/// The workflows a conversation can run, and the files that could not be
/// read as one (each with why).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
pub struct WorkflowList {
    pub workflows: Vec<Workflow>,
    pub problems: Vec<String>,
}
