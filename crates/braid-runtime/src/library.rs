//! Finding conversations again (pins and full-text search), and keeping
//! a reference in what is sent. A search reads
//! the store directly (every conversation, loaded or not); a pin goes
//! through the conversation's task so its own picture stays right.

use crate::mailbox::{Input, MessageOp, MetaChange};
use crate::{Runtime, RuntimeError};
use braid_protocol::{ContextId, MessageId, SearchHit, SnippetPart};

/// Results of one search unless the caller asks for another number.
const DEFAULT_HITS: u32 = 50;

impl Runtime {
    /// A conversation's sub-agents, oldest first (the list leaves them out).
    pub async fn children(&self, id: &ContextId) -> Result<Vec<braid_protocol::ChildSummary>, RuntimeError> {
        Ok(self.shared.lock_store().children_of(id)?)
    }

    /// Keeps the conversation at the top of the list, or no longer.
    pub async fn pin_context(&self, id: &ContextId, pinned: bool) -> Result<(), RuntimeError> {
        let change = MetaChange { pinned: Some(pinned), ..Default::default() };
        self.ask(id, |answer| Input::UpdateMeta { change, answer }).await.map(drop)
    }

    /// Keeps a file reference, image or resource in what is sent, ahead of
    /// older messages, while it fits (or no longer).
    pub async fn keep_in_context(&self, id: &ContextId, message_id: MessageId, keep: bool) -> Result<(), RuntimeError> {
        self.ask(id, |answer| Input::Message { message_id, op: MessageOp::Keep(keep), answer }).await.map(drop)
    }

    /// A withheld tool output goes to the model from the next request on:
    /// the user read it and lets the model have it.
    pub async fn release_output(&self, id: &ContextId, message_id: MessageId) -> Result<(), RuntimeError> {
        self.ask(id, |answer| Input::Message { message_id, op: MessageOp::Release, answer }).await.map(drop)
    }

    /// Titles containing `query`, then messages holding all its words.
    pub async fn search_conversations(&self, query: &str, limit: Option<u32>) -> Result<Vec<SearchHit>, RuntimeError> {
        if query.chars().count() > 500 {
            return Err(RuntimeError::InvalidInput("a search is at most 500 characters".to_owned()));
        }
        let limit = limit.unwrap_or(DEFAULT_HITS) as usize;
        let rows = self.shared.lock_store().search(query, limit)?;
        Ok(rows
            .into_iter()
            .map(|r| SearchHit {
                context_id: r.context_id,
                title: r.title,
                message_id: r.message_id,
                branch_id: r.branch,
                snippet: SnippetPart::split(&r.snippet, braid_store::HIT_START, braid_store::HIT_END),
                at: r.at,
            })
            .collect())
    }
}
