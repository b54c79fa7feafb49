//! Finding conversations again: what a search answers.

use crate::{BranchId, ContextId, MessageId, Timestamp};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// One match of a search: a conversation's title, or a message in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SearchHit {
    pub context_id: ContextId,
    /// The conversation's title.
    pub title: String,
    /// The message that matched; `None` when the title did.
    pub message_id: Option<MessageId>,
    /// A branch holding the message, the one in use when it does: switch
    /// to it to open the message.
    pub branch_id: Option<BranchId>,
    /// The matching line: the words found with some around them.
    pub snippet: Vec<SnippetPart>,
    /// When the message was written (the title: last changed).
    pub at: Timestamp,
}

/// A run of a snippet's text; `hit`: these are words the search found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SnippetPart {
    pub text: String,
    pub hit: bool,
}

impl SnippetPart {
    /// Splits `text` at the marks `start` and `end` around each hit.
    pub fn split(text: &str, start: char, end: char) -> Vec<SnippetPart> {
        let mut parts = Vec::new();
        let mut rest = text;
        while let Some(at) = rest.find(start) {
            if at > 0 {
                parts.push(SnippetPart { text: rest[..at].to_owned(), hit: false });
            }
            let after = &rest[at + start.len_utf8()..];
            let stop = after.find(end).unwrap_or(after.len());
            parts.push(SnippetPart { text: after[..stop].to_owned(), hit: true });
            rest = after.get(stop + end.len_utf8()..).unwrap_or("");
        }
        if !rest.is_empty() {
            parts.push(SnippetPart { text: rest.to_owned(), hit: false });
        }
        parts
    }
}
