//! A workflow's run as history records it: a card after the prompt it
//! sent, naming the workflow and its arguments, written again with the
//! outcome (completed, failed or cancelled; the last answer; how many tool
//! results) when the turn ends. The turn's facts are kept for every turn,
//! so a card that arrives after a fast turn ended still gets them.

use super::step::Step;
use super::{Reply, TurnFacts};
use braid_protocol::{ContextStatus, ControlKind, Message, MessageId, MessageType, Role};
use braid_protocol::{WorkflowOutcome, WorkflowStatus};
use std::collections::BTreeMap;

impl Step<'_> {
    /// The runtime sent the workflow's prompt as `message`.
    pub(super) fn workflow_started(&mut self, name: String, arguments: BTreeMap<String, String>, message: MessageId) {
        self.reply(Ok(Reply::Done));
        let id = self.alloc_message_id();
        let control = ControlKind::Workflow { name, arguments, message, outcome: None };
        let card = self.message(id, MessageType::SystemControl { control });
        self.append(card.clone());
        self.s.book.workflow = Some(card);
        // A turn that already ended is done with.
        if !self.s.status.is_busy() {
            self.workflow_ended();
        }
    }

    /// Keeps the turn's facts (called for every appended message).
    pub(super) fn turn_saw(&mut self, message: &Message) {
        let turn = &mut self.s.book.turn;
        match &message.body {
            MessageType::Text { role: Role::User, .. } => *turn = TurnFacts::default(),
            MessageType::Text { role: Role::Assistant, .. } => turn.answer = Some(message.id),
            MessageType::ToolResult { .. } => turn.tool_results += 1,
            _ => {}
        }
    }

    /// The turn came to rest (idle or failed): the card gets its outcome.
    pub(super) fn workflow_ended(&mut self) {
        if self.s.status.is_busy() {
            return;
        }
        let Some(mut card) = self.s.book.workflow.take() else { return };
        let turn = self.s.book.turn.clone();
        let (status, error) = match &self.s.status {
            ContextStatus::Failed { message, .. } => (WorkflowStatus::Failed, Some(message.clone())),
            _ if turn.cancelled => (WorkflowStatus::Cancelled, None),
            _ => (WorkflowStatus::Completed, None),
        };
        let outcome = WorkflowOutcome { status, answer: turn.answer, tool_results: turn.tool_results, error };
        if let MessageType::SystemControl { control: ControlKind::Workflow { outcome: slot, .. } } = &mut card.body {
            *slot = Some(outcome);
        }
        let verdict = format!("workflow {status:?}").to_lowercase();
        self.rewrite(card, verdict);
    }
}
