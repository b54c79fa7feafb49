//! What the machine remembers between requests, apart from the state it
//! is in: counts to fit the next request, what it told already, and what
//! the turn under way did.

use crate::tokens::TokenEncoding;
use braid_protocol::{ContextUsage, Message, MessageId, RequestId};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What the machine remembers between requests to fit the next one and to
/// say each thing once. Counts arrive as facts (`RequestPrepared`, usage in
/// `LlmCompleted`); the decisions made from them are the machine's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Bookkeeping {
    /// The tokenizer of the model in use: new messages are counted with it.
    pub encoding: TokenEncoding,
    /// For models whose tokenizer Braid does not have: what the provider
    /// counted over Braid's estimate for the same request (1.0 until a
    /// report comes).
    pub estimate_ratio: f64,
    /// How the last request filled the window.
    pub last_sent: Option<ContextUsage>,
    /// The request a summary was already made for (at most one each).
    pub summarized_for: Option<RequestId>,
    /// Files whose change the model was told of (the key of that change).
    pub reminded: BTreeMap<String, u64>,
    /// Files whose change the user was told of.
    pub announced: BTreeMap<String, u64>,
    /// The workflow whose turn runs: its card, written again at the end.
    pub workflow: Option<Message>,
    /// What the turn since the last user message did (a workflow's
    /// outcome is read from it, even when its card comes after the end).
    pub turn: TurnFacts,
    /// The largest message of the last request sent: what is left out
    /// when the model refuses the conversation as too long twice (its
    /// count ran short of the model's).
    pub largest_sent: Option<MessageId>,
    /// A summary the user asked for, being made.
    pub compaction: Option<super::compact::Compaction>,
    /// A summary made with a preview, waiting for approval.
    pub summary_preview: Option<braid_protocol::SummaryPreview>,
}

/// What a turn did so far: its last answer, its tool results, whether
/// the user cancelled it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TurnFacts {
    pub answer: Option<MessageId>,
    pub tool_results: u32,
    pub cancelled: bool,
}

impl Default for Bookkeeping {
    fn default() -> Bookkeeping {
        Bookkeeping {
            encoding: TokenEncoding::O200k,
            estimate_ratio: 1.0,
            last_sent: None,
            summarized_for: None,
            reminded: BTreeMap::new(),
            announced: BTreeMap::new(),
            workflow: None,
            turn: TurnFacts::default(),
            largest_sent: None,
            compaction: None,
            summary_preview: None,
        }
    }
}
