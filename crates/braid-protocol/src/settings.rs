//! Model providers as clients see and edit them. A stored API key never
//! travels to a client: a client learns only whether one is set and where
//! it lives, and sends a key only to set or replace it.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ProviderKind {
    OpenAiCompatible,
    Anthropic,
    Gemini,
}

impl ProviderKind {
    pub fn default_base_url(self) -> &'static str {
        match self {
            ProviderKind::OpenAiCompatible => "https://api.openai.com/v1",
            ProviderKind::Anthropic => "https://api.anthropic.com/v1",
            ProviderKind::Gemini => "https://generativelanguage.googleapis.com/v1beta",
        }
    }
}

/// Where a provider's key is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum KeyLocation {
    /// `BRAID_<ID>_API_KEY` in Braid's environment (wins over the rest).
    Env,
    Keychain,
    /// A file readable only by the user, where no keychain service runs.
    File,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ProviderView {
    pub id: String,
    pub kind: ProviderKind,
    pub name: String,
    pub base_url: String,
    pub default_model: Option<String>,
    /// `None`: no key stored (fine for local servers).
    pub key: Option<KeyLocation>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SettingsView {
    pub providers: Vec<ProviderView>,
    pub default_provider: Option<String>,
    /// What answers when no provider is configured (e.g. "built-in echo"),
    /// or `None`: then a message fails until a provider is added.
    pub fallback: Option<String>,
    /// This Braid keeps built-in models (a shelf to manage, a hub to
    /// download from); not when started with a model server or the echo.
    #[serde(default)]
    pub built_in_models: bool,
    /// What a new conversation starts with.
    #[serde(default)]
    pub conversations: ConversationDefaults,
    /// What the user tells every conversation.
    #[serde(default)]
    pub instructions: StandingInstructions,
}

/// What the user tells the model in every conversation, after the base
/// prompt: who they are and how they like answers. Empty: nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct StandingInstructions {
    pub about_me: String,
    pub how_to_answer: String,
}

/// Longer standing instructions would crowd a small model's window.
pub const MAX_STANDING_INSTRUCTIONS: usize = 3_000;

impl StandingInstructions {
    pub fn is_empty(&self) -> bool {
        self.about_me.trim().is_empty() && self.how_to_answer.trim().is_empty()
    }

    /// The text sent, or `None` when there is none.
    pub fn text(&self) -> Option<String> {
        let part = |head: &str, text: &str| {
            let text = text.trim();
            (!text.is_empty()).then(|| format!("{head}\n{text}"))
        };
        let parts: Vec<String> = [
            part("What the developer says about themselves:", &self.about_me),
            part("How the developer wants answers:", &self.how_to_answer),
        ]
        .into_iter()
        .flatten()
        .collect();
        (!parts.is_empty()).then(|| parts.join("\n\n"))
    }
}

/// What a new conversation starts with; `None` is Braid's own default
/// (Intelligent keeping the latest 10, summaries at 92 %, a cut answer
/// continued once, the default provider's model, reads and searches
/// allowed, commands in a sandbox that writes only in the folder). A
/// conversation's own settings change it alone.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct ConversationDefaults {
    pub strategy: Option<crate::ContextStrategy>,
    /// Percent of the window (50 to 100), or 0: only when asked.
    pub summarize_at_percent: Option<u8>,
    pub continue_cut: Option<u32>,
    pub model: Option<ModelChoice>,
    pub tool_policy: Option<crate::ToolApprovalPolicy>,
    pub sandbox: Option<crate::Sandbox>,
    /// The folder a conversation started without one works in (else the
    /// one Braid was started in).
    pub working_dir: Option<String>,
}

impl ConversationDefaults {
    pub fn is_empty(&self) -> bool {
        *self == ConversationDefaults::default()
    }
}

/// What to do with a provider's key when saving it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum KeyChange {
    #[default]
    Keep,
    Set {
        key: String,
    },
    Clear,
}

/// A provider as the settings form submits it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ProviderInput {
    /// Absent for a new provider: derived from the name.
    #[serde(default)]
    pub id: Option<String>,
    pub kind: ProviderKind,
    pub name: String,
    pub base_url: String,
    #[serde(default)]
    pub default_model: Option<String>,
    #[serde(default)]
    pub key: KeyChange,
}

/// A model offered by a provider, with what the catalogue knows of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ModelSummary {
    pub id: String,
    pub context_window: u32,
    pub max_output_tokens: u32,
    pub vision: bool,
}

/// A conversation's own choice of model, instead of the default.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ModelChoice {
    pub provider_id: String,
    pub model: String,
}

/// The model a conversation's next request goes to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct EffectiveModel {
    /// `None` for the fallback (e.g. the built-in echo).
    pub provider_id: Option<String>,
    pub provider_name: String,
    pub model: String,
    pub context_window: u32,
    /// The model looks at images; without it their text is read by OCR.
    #[serde(default)]
    pub vision: bool,
    /// The model is known to call tools well: tools go with every turn
    /// unless the conversation says otherwise.
    #[serde(default)]
    pub tools: bool,
}

/// An OpenAI-compatible server found on this machine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct LocalServer {
    /// "llama.cpp", "Ollama", "LM Studio".
    pub name: String,
    pub base_url: String,
    pub models: Vec<String>,
}
