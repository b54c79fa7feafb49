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
