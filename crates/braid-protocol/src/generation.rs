//! How a conversation asks its model to answer: whether tools are offered,
//! the sampling temperature and the longest answer. Stored with the
//! context; every field left empty follows the model's default.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Whether the model is offered the tools on a normal turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ToolUse {
    /// The tools go with a message that calls for them (files, commands,
    /// code search, agents, an MCP server it names) and with every turn of
    /// work that used them; a plain question goes alone, short and quick
    /// for a small model. Decided by `braid_core::tool_need`.
    AsNeeded,
    /// The tools go with every request and the model decides
    /// (`tool_choice: "auto"`): local servers put them in the prompt only
    /// then.
    Auto,
    /// Plain chat; a tool is offered only when the user asks for it
    /// (`/tool name …`). For small models that call tools for every
    /// question.
    OnRequest,
    /// No tools at all; `/tool` is refused.
    Off,
}

impl ToolUse {
    pub fn as_str(self) -> &'static str {
        match self {
            ToolUse::AsNeeded => "as_needed",
            ToolUse::Auto => "auto",
            ToolUse::OnRequest => "on_request",
            ToolUse::Off => "off",
        }
    }
}

/// The highest temperature every provider accepts (OpenAI and Gemini go
/// to 2; Anthropic to 1, where Braid clamps).
pub const MAX_TEMPERATURE: f64 = 2.0;

/// A conversation's generation settings; `None` is the model's default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct GenerationSettings {
    /// `None`: Auto for models known to call tools well, AsNeeded for the
    /// others.
    pub tool_use: Option<ToolUse>,
    /// 0 to 2.
    pub temperature: Option<f64>,
    /// The longest answer, in tokens; capped at the model's own limit.
    pub max_output_tokens: Option<u32>,
    /// An answer cut at the output limit goes on by itself this many
    /// times (0: it stops and waits for Continue); `None`: once.
    pub continue_cut: Option<u32>,
}

impl GenerationSettings {
    /// Automatic continuations of an answer cut at the output limit.
    pub fn continuations(&self) -> u32 {
        self.continue_cut.unwrap_or(DEFAULT_CONTINUATIONS)
    }
}

/// An answer cut at the output limit continues once by itself unless the
/// conversation says otherwise.
pub const DEFAULT_CONTINUATIONS: u32 = 1;

/// The most automatic continuations a conversation may ask for.
pub const MAX_CONTINUATIONS: u32 = 10;
