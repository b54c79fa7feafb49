//! Tools as clients see and configure them: permission categories, the
//! approval policy, modes and roles.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// What a tool can do; modes and roles allow tools by category.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Permission {
    Read,
    Write,
    Execute,
    Network,
}

/// When a tool call may run without asking the user.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ToolApprovalPolicy {
    /// These tools run; every other call is asked.
    WhiteList { tools: Vec<String> },
    /// Every call runs until the loop is `max_depth` rounds deep or has run
    /// `max_tools` tools in this turn; then each call is asked.
    LimitedAuto { max_depth: u32, max_tools: u32 },
    /// Every call is asked.
    Manual,
    /// Every call runs (the always-ask list still asks).
    AutoAll,
    /// What cannot reach outside the workspace runs: reads, the built-in
    /// file tools (workspace-write only) and commands in the sandbox.
    /// Everything else is asked: leaving the sandbox, full access, tools
    /// from MCP servers.
    Sandboxed,
}

/// Plan: planning instructions, read tools only. Act: every tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum AgentMode {
    Plan,
    #[default]
    Act,
}

impl AgentMode {
    pub fn as_str(self) -> &'static str {
        match self {
            AgentMode::Plan => "plan",
            AgentMode::Act => "act",
        }
    }
}

/// The agent's role; a Planner sees read tools only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum AgentRole {
    #[default]
    Assistant,
    Planner,
}

/// A conversation's tool settings (stored with the context).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ToolSettings {
    pub policy: ToolApprovalPolicy,
    /// Always asked, whatever the policy or earlier answers.
    pub always_ask: Vec<String>,
    /// "Always allow" answers given in this conversation.
    pub always_allowed: Vec<String>,
    /// For tools whose definition is pinned (an MCP server's), the pin
    /// each "Always allow" was given to: once the definition changes and
    /// the user accepts it, the tool is asked again.
    #[serde(default)]
    pub allowed_pins: std::collections::BTreeMap<String, String>,
    pub mode: AgentMode,
    pub role: AgentRole,
    /// One tool call longer than this ends with a timeout result.
    pub timeout_ms: u64,
    /// The workspace is a broad folder (the home folder, `/`): read tools
    /// are asked until the user approves one, whatever the policy but
    /// "run everything".
    #[serde(default)]
    pub confirm_reads: bool,
    /// What `run_command` may touch.
    #[serde(default)]
    pub sandbox: Sandbox,
}

/// Where a command may write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum SandboxLevel {
    /// Reads anywhere the user can; writes only to a private temp folder.
    ReadOnly,
    /// Writes inside the workspace and a private temp folder (its `.git`
    /// read-only unless allowed).
    #[default]
    WorkspaceWrite,
    /// No sandbox: the command has the user's full rights.
    FullAccess,
}

/// The sandbox a conversation's commands run in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
pub struct Sandbox {
    pub level: SandboxLevel,
    /// Commands may use the network (off: not even 127.0.0.1).
    #[serde(default)]
    pub network: bool,
    /// The workspace's `.git` is writable too (commits, branches).
    #[serde(default)]
    pub git_writable: bool,
}

/// The user's changes to what sandboxed commands may see and inherit
/// (`sandbox` in settings.json, read at start). Paths are absolute or
/// start with `~/`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SandboxPaths {
    /// Hidden besides the built-in list (credentials, Braid's own data).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hide: Vec<String>,
    /// Readable although in a home folder; a bare name (`.env`,
    /// `.mcp.json`) may be written in the workspace.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allow: Vec<String>,
    /// Environment variables commands keep although named like secrets.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env: Vec<String>,
}

impl SandboxPaths {
    pub fn is_empty(&self) -> bool {
        self.hide.is_empty() && self.allow.is_empty() && self.env.is_empty()
    }
}

/// Read tools run by themselves; writing and running commands are asked.
pub const DEFAULT_AUTO_TOOLS: [&str; 3] = ["read_file", "list_directory", "glob_files"];

impl Default for ToolSettings {
    fn default() -> ToolSettings {
        ToolSettings {
            policy: ToolApprovalPolicy::WhiteList {
                tools: DEFAULT_AUTO_TOOLS.iter().map(|s| (*s).to_owned()).collect(),
            },
            always_ask: Vec::new(),
            always_allowed: Vec::new(),
            allowed_pins: Default::default(),
            mode: AgentMode::Act,
            role: AgentRole::Assistant,
            timeout_ms: 30_000,
            confirm_reads: false,
            sandbox: Sandbox::default(),
        }
    }
}

/// Where a tool comes from.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ToolSource {
    /// Ships with Braid.
    #[default]
    Builtin,
    /// Offered by a Model Context Protocol server.
    Mcp { server: String },
    /// Offered by Braid's agent machinery (sub-agents, team chat).
    Agent,
}

/// A tool in the catalogue: what the model is told about it and what the
/// approval policy judges it by. Registered at run time; the core decides
/// every call against the catalogue, never against a fixed list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ToolSpec {
    /// At most [`MAX_TOOL_NAME`] bytes of `[A-Za-z0-9_-]` (what every
    /// provider accepts).
    pub name: String,
    pub description: String,
    /// JSON Schema of the arguments object.
    #[ts(type = "unknown")]
    pub input_schema: serde_json::Value,
    pub permission: Permission,
    /// Safe to run alongside other calls (reads).
    pub parallel_safe: bool,
    /// Example argument objects; they reach the model in the system prompt.
    #[ts(type = "Array<unknown>")]
    #[serde(default)]
    pub examples: Vec<serde_json::Value>,
    #[serde(default)]
    pub source: ToolSource,
    /// Whether the tool's processes run in the command sandbox.
    #[serde(default)]
    pub sandbox: ToolSandbox,
    /// A tool whose definition is pinned (an MCP server's): a hash of
    /// what was pinned, which approvals are given to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub pin: Option<String>,
}

/// How a tool's processes are confined.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ToolSandbox {
    /// The tool starts no processes of its own (or is not Braid's to confine).
    #[default]
    NotUsed,
    /// Its commands run in the conversation's sandbox.
    Applied,
    /// They would, but this machine has no sandbox: every call is asked,
    /// and an approved one runs with the user's full rights.
    Missing { why: String },
}

/// A command the sandbox stopped, waiting for the user: run it again
/// outside the sandbox, or let the model have the blocked result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct BlockedCommand {
    pub call_id: crate::ids::CallId,
    /// What the sandbox refused, in words.
    pub reason: String,
    /// The blocked run's output (exit code, stdout, stderr).
    pub output: String,
}

/// The longest tool name providers accept.
pub const MAX_TOOL_NAME: usize = 64;

/// Whether a tool name is one every provider accepts.
pub fn check_tool_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("a tool name cannot be empty".to_owned());
    }
    if name.len() > MAX_TOOL_NAME {
        return Err(format!("the tool name {name:?} is {} bytes; at most {MAX_TOOL_NAME} are allowed", name.len()));
    }
    if let Some(c) = name.chars().find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-')) {
        return Err(format!("the tool name {name:?} contains {c:?}; use only letters, digits, '_' and '-'"));
    }
    Ok(())
}

/// How a conversation that no longer fits the model's window is trimmed
/// for sending (storage is never touched).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ContextStrategy {
    /// Only the last `n` messages.
    RecentN { n: u32 },
    /// The last `keep_last` messages; then older ones newest first, file
    /// references before text before tool results (dropped first).
    Intelligent { keep_last: u32 },
    /// The last `keep_last` messages; then older ones by a score of role,
    /// recency, references and size.
    ImportanceScoring { keep_last: u32 },
}

impl Default for ContextStrategy {
    fn default() -> ContextStrategy {
        ContextStrategy::Intelligent { keep_last: 10 }
    }
}

/// A secret a pending call would run with (its arguments hold the
/// placeholder): the approval dialog names it, whatever the policy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SecretUse {
    pub call_id: crate::ids::CallId,
    pub placeholder: String,
    /// What the placeholder says of the secret (`openai-key`,
    /// `database-url`…).
    pub kind: String,
    /// False: it stands for no secret Braid knows (from before the
    /// filter's key was replaced, or made up), and the call is refused.
    pub known: bool,
}

/// A pending call proposed right after text from outside the
/// conversation's people (a tool's result, a file, an MCP resource) that
/// asked for it: the approval dialog says so, with the words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PromptedCall {
    pub call_id: crate::ids::CallId,
    /// Where the text came from: "a tool result", "the file notes.md".
    pub source: String,
    /// The words that asked, cut short.
    pub excerpt: String,
}
