//! What the model saw: the last request of a conversation exactly as it
//! went to the provider, part by part, with the tokens each part cost.

use crate::ids::{MessageId, Timestamp};
use crate::message::MessageKind;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A named part of the system prompt, in the order they are sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum PromptPart {
    /// Braid's own base prompt, or the one set in the settings instead.
    Base,
    /// The branch's own prompt: it takes the base prompt's place.
    BranchOverride,
    /// What the user tells every conversation (Settings → Your
    /// instructions).
    Personal,
    /// What comes from outside (tools, files, MCP, other agents) is data:
    /// sent with tools or such content.
    Untrusted,
    /// The agent's role (a Planner plans and does not change files).
    Role,
    /// Plan mode's instructions.
    Mode,
    /// The folder the tools work in.
    Workspace,
    /// The project's `AGENTS.md`, `BRAID.md` or `CLAUDE.md`.
    Instructions,
    /// The tools offered, one line each.
    Tools,
    /// Well-formed calls of the tools that have examples.
    ToolExamples,
    /// Files that changed outside Braid since the model read them.
    FileChanges,
    /// "Go on from where you stopped", after a cut or stopped answer.
    Continuation,
    /// A team member's instructions and the team task.
    Team,
    /// A sub-agent's task rules (and, on its grace turn, "submit now").
    SubAgent,
}

/// One part of the system prompt as sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SentPart {
    pub part: PromptPart,
    pub text: String,
    pub tokens: u32,
}

/// One message as the model read it (after fitting; images as the model
/// got them: pixels, or the text read from them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SentMessage {
    pub id: MessageId,
    /// `user`, `assistant` or `tool`, as the provider was told.
    pub role: String,
    pub kind: MessageKind,
    pub text: String,
    pub tokens: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SentTool {
    pub name: String,
    pub description: String,
    pub tokens: u32,
}

/// The last request of a conversation as it left for the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct SentRequest {
    pub sent_at: Timestamp,
    pub provider: String,
    pub model: String,
    /// The system prompt, part by part; sent joined by blank lines.
    pub system: Vec<SentPart>,
    pub messages: Vec<SentMessage>,
    pub tools: Vec<SentTool>,
    /// `auto`, `none`, `required`, or the tool the user forced.
    pub tool_choice: Option<String>,
    pub max_tokens: u32,
    pub temperature: Option<f64>,
    /// Counted with an estimate (not the model's own tokenizer).
    pub estimated: bool,
    /// Stored messages left out to fit the window.
    pub left_out: u32,
    /// The server answered nothing with the tools offered, so the same
    /// request went again without tools (and without a tool choice).
    pub tools_dropped: bool,
    /// Tools not offered because the conversation did not call for them
    /// (tools "as needed").
    #[serde(default)]
    pub tools_held_back: Vec<String>,
}

impl SentRequest {
    /// The system prompt exactly as sent.
    pub fn system_text(&self) -> Option<String> {
        join_parts(self.system.iter().map(|p| p.text.as_str()))
    }
}

/// Parts joined as they are sent: by a blank line.
pub fn join_parts<'a>(parts: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let parts: Vec<&str> = parts.into_iter().collect();
    (!parts.is_empty()).then(|| parts.join("\n\n"))
}
