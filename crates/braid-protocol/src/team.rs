//! Team chat on the wire: a conversation's members, its task, and the
//! route of turns the `[NEXT:name]` markers queued (decided by
//! `braid_core::team`).

use crate::settings::ModelChoice;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The longest team task, in bytes; a longer one is cut here with a warning.
pub const TEAM_TASK_LIMIT: usize = 5 * 1024;
/// Messages before the current one each member sees, unless it says.
pub const DEFAULT_TEAM_WINDOW: u32 = 5;
/// The most context a member is given, oldest dropped first.
pub const DEFAULT_TEAM_BUDGET: u64 = 768 * 1024;
/// Turns one chain may queue in all, and agent turns in a row before the
/// chain pauses and asks the user.
pub const MAX_QUEUED_TURNS: u32 = 50;
pub const MAX_AGENT_TURNS: u32 = 5;

/// The members of a team conversation and what they work on together.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Team {
    pub members: Vec<TeamMember>,
    /// What the team works on; at most [`TEAM_TASK_LIMIT`] bytes.
    #[serde(default)]
    pub task: String,
    /// Messages before the current one each member sees.
    #[serde(default = "default_window")]
    pub window: u32,
    /// The most context, in bytes, a member is given.
    #[serde(default = "default_budget")]
    #[ts(type = "number")]
    pub byte_budget: u64,
}

fn default_window() -> u32 {
    DEFAULT_TEAM_WINDOW
}

fn default_budget() -> u64 {
    DEFAULT_TEAM_BUDGET
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TeamMember {
    /// How the others address it: `[NEXT:name]`.
    pub name: String,
    pub agent: AgentType,
    /// A CSS colour for its name on its messages.
    #[serde(default)]
    pub colour: String,
    #[serde(default)]
    pub instruction: String,
    /// A file in the workspace whose text follows the instruction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub instruction_file: Option<String>,
    /// Its own window, in place of the team's (0: no context).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub window: Option<u32>,
    /// A coding CLI's program, when it is not the usual name on PATH.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub program: Option<String>,
    /// A coding CLI runs each turn in its own copy of the workspace (a git
    /// worktree in a repository), merged back when its turn ends.
    #[serde(default)]
    pub isolated: bool,
}

/// What answers for a member: a coding CLI run as a process, or a model
/// of the provider settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum AgentType {
    ClaudeCode,
    OpenaiCodex,
    GoogleGemini,
    /// A model of the provider settings; `None`: the conversation's own.
    Api {
        #[serde(default)]
        model: Option<ModelChoice>,
    },
    /// A type this version does not know: answered with plain text.
    Other {
        name: String,
    },
}

impl AgentType {
    /// The program a CLI member runs by default; `None` for API members.
    pub fn default_program(&self) -> Option<&'static str> {
        match self {
            AgentType::ClaudeCode => Some("claude"),
            AgentType::OpenaiCodex => Some("codex"),
            AgentType::GoogleGemini => Some("gemini"),
            AgentType::Api { .. } | AgentType::Other { .. } => None,
        }
    }

    /// How the user names it.
    pub fn label(&self) -> String {
        match self {
            AgentType::ClaudeCode => "claude-code".to_owned(),
            AgentType::OpenaiCodex => "openai-codex".to_owned(),
            AgentType::GoogleGemini => "google-gemini".to_owned(),
            AgentType::Api { model: Some(model) } => format!("{} / {}", model.provider_id, model.model),
            AgentType::Api { model: None } => "the conversation's model".to_owned(),
            AgentType::Other { name } => name.clone(),
        }
    }
}

/// The turns a chain has queued: who answers now, who follows, and
/// whether it paused for the user.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TeamRoute {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub running: Option<String>,
    pub queue: Vec<String>,
    /// Agent turns since the user last spoke.
    pub agent_turns: u32,
    /// Turns this chain queued so far.
    pub queued_total: u32,
    /// Stopped after [`MAX_AGENT_TURNS`] in a row: Resume goes on.
    pub paused: bool,
}

impl TeamRoute {
    pub fn is_empty(&self) -> bool {
        self.running.is_none() && self.queue.is_empty()
    }

    /// The route as clients see it: absent when no chain runs or waits.
    pub fn visible(&self) -> Option<TeamRoute> {
        (!self.is_empty() || self.paused).then(|| self.clone())
    }
}

/// The user steering a chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TeamAction {
    /// Take the queued turn at this place (0: the next one) out.
    Skip { position: u32 },
    /// Stop the member answering now and go on with the next.
    SkipRunning,
    /// Stop the answer running and drop the queue.
    Stop,
    /// Go on after a pause.
    Resume,
}

/// Whether a member can answer, found when the team is set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct MemberCheck {
    pub name: String,
    pub ready: bool,
    /// What is wrong, and what to do about it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub problem: Option<String>,
    /// The program found, for CLI members.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub program: Option<String>,
}

/// A conversation's team as the team panel shows it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TeamView {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub team: Option<Team>,
    pub checks: Vec<MemberCheck>,
    pub route: TeamRoute,
    /// The task was longer than [`TEAM_TASK_LIMIT`] and was cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub warning: Option<String>,
}
