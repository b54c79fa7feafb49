//! What the user does to the window: the breakdown of the next request,
//! summaries asked for, edited and taken back, and messages left out.
//! Each is checked against the conversation here and made by the machine.

use super::{Context, Step};
use crate::fit::PreparedRequest;
use crate::machine::{self, Event};
use crate::prompt;
use braid_protocol::{
    CompactScope, ContextBreakdown, ControlKind, ErrorCode, MessageId, MessageType, Timestamp, WireError,
};

/// Something done about what is sent.
#[derive(Debug, Clone, PartialEq)]
pub enum WindowOp {
    Compact { scope: CompactScope, instructions: Option<String>, preview: bool },
    ApplySummary(Option<String>),
    DiscardSummary,
    EditSummary { summary: MessageId, text: String },
    UndoSummary(MessageId),
    LeaveOut { message: MessageId, out: bool },
    ToolGroup { group: String, offered: bool },
}

fn err(code: ErrorCode, text: impl Into<String>) -> WireError {
    WireError::new(code, text)
}

impl Context {
    /// The next request, part by part, with `draft` as its newest message
    /// (`prepared`: the runtime's facts, as for a request).
    pub fn breakdown(&self, prepared: PreparedRequest, draft: &str, now: Timestamp) -> ContextBreakdown {
        let active: Vec<_> = self.conversation.active_messages().collect();
        let summaries: Vec<MessageId> = prompt::standing_summaries(&active);
        machine::breakdown(&self.state, prepared, draft, &summaries, now)
    }

    /// The next request planned as it would go, with `drafted` (what is
    /// typed, after the files it attaches) as its newest messages.
    pub fn look(
        &self,
        prepared: PreparedRequest,
        drafted: Vec<braid_protocol::Message>,
        now: Timestamp,
    ) -> machine::Looked {
        let active: Vec<_> = self.conversation.active_messages().collect();
        let summaries: Vec<MessageId> = prompt::standing_summaries(&active);
        machine::look(&self.state, prepared, drafted, &summaries, now)
    }

    pub fn window_op(&mut self, op: WindowOp, now: Timestamp) -> Step {
        let event = self.window_event(op);
        match event {
            Ok(event) => self.handle(event, now),
            Err(e) => Step::refused("window_op", self.state.status.kind(), e),
        }
    }

    fn window_event(&self, op: WindowOp) -> Result<Event, WireError> {
        Ok(match op {
            WindowOp::Compact { scope, instructions, preview } => {
                let sent = prompt::request_messages(&self.conversation);
                let sent: Vec<_> = sent.into_iter().filter(|m| !self.state.config.left_out.contains(&m.id)).collect();
                let batch =
                    prompt::compact_batch(&sent, scope).map_err(|e| err(ErrorCode::InvalidInput, e.to_string()))?;
                Event::Compact { batch, instructions, preview }
            }
            WindowOp::ApplySummary(text) => Event::ApplySummary { text },
            WindowOp::DiscardSummary => Event::DiscardSummary,
            WindowOp::EditSummary { summary, text } => {
                if text.trim().is_empty() {
                    return Err(err(ErrorCode::InvalidInput, "a summary cannot be empty"));
                }
                let mut message = self.summary(summary)?.clone();
                if let MessageType::SystemControl { control: ControlKind::Summary { text: old, .. } } =
                    &mut message.body
                {
                    *old = text;
                }
                message.meta.tokens = None;
                Event::EditSummary { message }
            }
            WindowOp::UndoSummary(summary) => {
                self.summary(summary)?;
                let active: Vec<_> = self.conversation.active_messages().collect();
                if !prompt::standing_summaries(&active).contains(&summary) {
                    return Err(err(ErrorCode::InvalidState, "this summary is not in force (taken back or replaced)"));
                }
                Event::UndoSummary { summary }
            }
            WindowOp::LeaveOut { message, out } => {
                if out && self.conversation.message(message).is_none() {
                    return Err(err(ErrorCode::NotFound, format!("there is no message {message}")));
                }
                Event::LeaveOut { message, out }
            }
            WindowOp::ToolGroup { group, offered } => Event::SetToolGroup { group, offered },
        })
    }

    fn summary(&self, id: MessageId) -> Result<&braid_protocol::Message, WireError> {
        match self.conversation.message(id) {
            Some(m) if matches!(m.body, MessageType::SystemControl { control: ControlKind::Summary { .. } }) => Ok(m),
            Some(_) => Err(err(ErrorCode::InvalidInput, format!("message {id} is not a summary"))),
            None => Err(err(ErrorCode::NotFound, format!("there is no message {id}"))),
        }
    }
}
