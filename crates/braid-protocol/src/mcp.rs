//! MCP servers as the settings show them.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Where a server is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum McpState {
    Starting,
    Ready,
    Failed,
    Disabled,
    /// From a workspace's `.mcp.json` the user has not trusted yet: it
    /// does not start until they do.
    Untrusted,
}

/// Where a server's settings come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum McpOrigin {
    /// The app's own settings file.
    Settings,
    /// The workspace's `.mcp.json`.
    Workspace,
}

/// One configured server: how it runs, where it is, what it offers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct McpServerStatus {
    pub name: String,
    /// The command line, or the URL.
    pub transport: String,
    pub state: McpState,
    /// Why it failed (or is starting again).
    pub reason: Option<String>,
    /// Another attempt follows a failure on its own.
    pub retrying: bool,
    /// The last lines it wrote to stderr.
    pub stderr: Vec<String>,
    /// Its tools, by their catalogue names.
    pub tools: Vec<String>,
    /// How many times it became ready: more than once, it was restarted.
    pub ready_count: u32,
    pub origin: McpOrigin,
    /// The MCP protocol version agreed with it while ready (the stateless
    /// `2026-07-28`, or an older one it fell back to).
    pub protocol: Option<String>,
    /// Its limits, in milliseconds: to start, and for one call.
    pub startup_timeout_ms: u64,
    pub call_timeout_ms: u64,
    /// Tools whose definition changed since it was first seen: left out
    /// of the catalogue until the user accepts the new one.
    #[serde(default)]
    pub held: Vec<HeldTool>,
    /// Tools the catalogue refused (a name another source holds or that
    /// looks like one), each with why.
    #[serde(default)]
    pub refused: Vec<String>,
}

/// A tool held back because its server now describes it differently.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct HeldTool {
    /// Its catalogue name.
    pub name: String,
    pub description_before: String,
    pub description_now: String,
    /// The input schemas, as pretty JSON.
    pub schema_before: String,
    pub schema_now: String,
    /// Whether it said it only reads (what the sandboxed policy runs
    /// without asking).
    #[serde(default)]
    pub read_only_before: bool,
    #[serde(default)]
    pub read_only_now: bool,
    /// The name the server gave itself.
    #[serde(default)]
    pub server_before: Option<String>,
    #[serde(default)]
    pub server_now: Option<String>,
}

/// The `mcpServers` settings file and what became of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct McpSettings {
    /// Where the file is.
    pub path: String,
    /// Its text, as saved.
    pub text: String,
    pub servers: Vec<McpServerStatus>,
    /// Why the saved file could not be used, if it cannot.
    pub error: Option<String>,
    /// The workspace's own `.mcp.json`, when it has one.
    pub workspace: Option<McpWorkspace>,
    /// The secrets the settings name (`${secret:NAME}` in `env` or
    /// `headers`), and whether each is set. Their values never leave the
    /// backend.
    pub secrets: Vec<McpSecret>,
}

/// A workspace's `.mcp.json`: its servers start once the user trusts it,
/// and again after it changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct McpWorkspace {
    pub path: String,
    pub trusted: bool,
    /// Why it cannot be used, if it cannot.
    pub error: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct McpSecret {
    pub name: String,
    pub set: bool,
}

/// A family of resources a server offers, addressed by filling in the
/// variables of its URI template (RFC 6570, `{name}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct McpResourceTemplate {
    pub server: String,
    pub uri_template: String,
    pub name: String,
    pub description: Option<String>,
    pub mime_type: Option<String>,
    /// The template's variables, in order.
    pub variables: Vec<String>,
}

/// A resource an MCP server offers, to add to a conversation by typing
/// `@server:uri`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct McpResourceInfo {
    pub server: String,
    pub uri: String,
    pub name: String,
    pub description: Option<String>,
    pub mime_type: Option<String>,
}

/// A prompt an MCP server offers, filled in from the composer (`/`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct McpPromptInfo {
    pub server: String,
    pub name: String,
    pub description: Option<String>,
    pub arguments: Vec<McpPromptArgument>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct McpPromptArgument {
    pub name: String,
    pub description: Option<String>,
    pub required: bool,
}
