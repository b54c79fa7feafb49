//! What is measured about a message rather than said in it: its token
//! counts and usage, how fast an answer came, and the marks (cut, stopped,
//! copied) the chat shows. Re-exported from `message`.

use crate::ids::MessageId;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Facts measured about a message, not part of its content.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct MessageMeta {
    /// Time the processing pipeline took for this message, in microseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub processing_us: Option<u64>,
    /// Tokens the provider reported for the response that produced this
    /// message. Absent when the server reported none (never estimated here).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<TokenUsage>,
    /// What the message costs as it is sent, counted once when it was
    /// stored (with the encoding of the model in use then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens: Option<TokenCount>,
    /// The answer stopped at the model's output limit: it is incomplete,
    /// and Continue lets the model go on from where it was cut.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cut: bool,
    /// The user stopped the answer while it streamed: it is kept as far as
    /// it got, and Continue lets the model go on from there.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stopped: bool,
    /// A merge's copy of this message of another branch: the original,
    /// also when the copy was made from a copy (older stores may name the
    /// copy in between; `braid_core::merge` follows the chain).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub copied_from: Option<MessageId>,
    /// A writing tool's result: the hash of the content the file held
    /// after the write (as its freshness record has it). Merges compare
    /// these to tell whether two branches left a file the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(skip)]
    pub written_hash: Option<u64>,
    /// The team member that said it (`None`: the user, or the
    /// conversation's one model).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub author: Option<String>,
    /// How fast an answer came (absent for answers stored before this was
    /// measured, and for those that streamed nothing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub speed: Option<AnswerSpeed>,
    /// A tool's output kept from the model: the call used a secret (or
    /// one used earlier), and what it printed may carry it. The result's
    /// own output then says so; this holds what the tool printed, for
    /// the user to read and release.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub withheld: Option<WithheldOutput>,
}

/// What a tool printed, kept from the model (see [`MessageMeta::withheld`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WithheldOutput {
    pub output: String,
    #[serde(default)]
    pub error: Option<String>,
    /// The placeholders of the secrets the output may carry (or the call
    /// used).
    pub secrets: Vec<String>,
    /// The user read it and let the model have it: the result's output
    /// is what the tool printed again (the copy here is dropped).
    #[serde(default)]
    pub released: bool,
}

/// An answer's pace: the wait for its first token, then how many tokens
/// came in how long. The UI divides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct AnswerSpeed {
    /// From the request going out to the first token.
    pub first_token_ms: u64,
    /// From the first token to the last.
    pub streaming_ms: u64,
    pub output_tokens: u32,
    /// `output_tokens` is the server's figure, not Braid's count.
    pub reported: bool,
}

impl MessageMeta {
    /// Nothing measured: left out of the stored form. Compared whole, so a
    /// field added later is never dropped by a list that forgot it.
    pub fn is_empty(&self) -> bool {
        self == &MessageMeta::default()
    }
}

/// The tokenizer a count was made with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum TokenEncoding {
    #[default]
    O200k,
    Cl100k,
    /// No public tokenizer (Anthropic, Gemini, local models): o200k counts,
    /// corrected by what the provider reports.
    Estimate,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TokenCount {
    pub encoding: TokenEncoding,
    pub count: u32,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TokenUsage {
    pub prompt_tokens: u32,
    pub completion_tokens: u32,
}
