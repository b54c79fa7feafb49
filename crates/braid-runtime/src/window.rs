//! What the user sees of and does to a conversation's window: the
//! breakdown of the next request, summaries asked for, approved, edited
//! and taken back, and what is left out of what is sent.

use crate::mailbox::Input;
use crate::{Runtime, RuntimeError};
use braid_core::context::WindowOp;
use braid_protocol::{CompactScope, ContextBreakdown, ContextId, MessageId};

/// The longest draft the breakdown counts (a pasted book is counted by
/// the request itself).
const MAX_DRAFT: usize = 1_000_000;

impl Runtime {
    /// The user started writing in `id`: its model and token tables get
    /// ready (see `ContextActor::warm_up`).
    pub async fn warm_up(&self, id: &ContextId) -> Result<(), RuntimeError> {
        let mailbox = self.mailbox(id).await?;
        mailbox.send(Input::WarmUp).map_err(|_| RuntimeError::Closed(id.clone()))
    }

    /// The next request part by part, with `draft` as its newest message.
    pub async fn context_breakdown(&self, id: &ContextId, draft: String) -> Result<ContextBreakdown, RuntimeError> {
        if draft.len() > MAX_DRAFT {
            return Err(RuntimeError::InvalidInput("the draft is too long to count here (over 1 MB)".to_owned()));
        }
        self.ask(id, |answer| Input::Breakdown { draft, answer }).await
    }

    /// Summarises now: everything but the last exchange, or up to / from
    /// a message; with `preview` the summary waits for approval.
    pub async fn compact_context(
        &self,
        id: &ContextId,
        instructions: Option<String>,
        scope: CompactScope,
        preview: bool,
    ) -> Result<(), RuntimeError> {
        self.window(id, WindowOp::Compact { scope, instructions, preview }).await
    }

    pub async fn apply_summary(&self, id: &ContextId, text: Option<String>) -> Result<(), RuntimeError> {
        self.window(id, WindowOp::ApplySummary(text)).await
    }

    pub async fn discard_summary(&self, id: &ContextId) -> Result<(), RuntimeError> {
        self.window(id, WindowOp::DiscardSummary).await
    }

    pub async fn edit_summary(&self, id: &ContextId, summary: MessageId, text: String) -> Result<(), RuntimeError> {
        self.window(id, WindowOp::EditSummary { summary, text }).await
    }

    pub async fn undo_summary(&self, id: &ContextId, summary: MessageId) -> Result<(), RuntimeError> {
        self.window(id, WindowOp::UndoSummary(summary)).await
    }

    pub async fn set_tool_group(&self, id: &ContextId, group: String, offered: bool) -> Result<(), RuntimeError> {
        self.window(id, WindowOp::ToolGroup { group, offered }).await
    }

    pub async fn leave_out_of_context(
        &self,
        id: &ContextId,
        message: MessageId,
        out: bool,
    ) -> Result<(), RuntimeError> {
        self.window(id, WindowOp::LeaveOut { message, out }).await
    }

    async fn window(&self, id: &ContextId, op: WindowOp) -> Result<(), RuntimeError> {
        self.ask(id, |answer| Input::Window { op, answer }).await.map(drop)
    }
}
