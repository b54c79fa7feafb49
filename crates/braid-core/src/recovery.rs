//! Crash recovery, pure: given what was stored when the process died,
//! produce the Idle state and the messages that keep history consistent and
//! tell the user what was interrupted. Nothing that was stored is dropped.

use crate::conversation::Conversation;
use crate::machine::ContextState;
use braid_protocol::{ContextStatus, ControlKind, Message, MessageId, MessageType, Timestamp, ToolResultStatus};
use std::collections::HashSet;

/// Returns `None` when the context was Idle with nothing in flight.
pub fn recover(
    state: &ContextState,
    conversation: &Conversation,
    now: Timestamp,
) -> Option<(ContextState, Vec<Message>)> {
    let idle = state.status == ContextStatus::Idle;
    if idle && state.queue.is_empty() && state.pending.is_none() {
        return None;
    }
    let mut next = state.clone();
    let mut id = next.next_message_id.max(conversation.max_message_id().map_or(1, |m| m.0 + 1));
    let mut alloc = || {
        let m = MessageId(id);
        id += 1;
        m
    };
    let new = |id: MessageId, body: MessageType| Message::new(id, now, body);
    let mut added = Vec::new();

    // Every tool call keeps exactly one result.
    let answered: HashSet<&str> = conversation
        .active_messages()
        .filter_map(|m| match &m.body {
            MessageType::ToolResult { request_id, .. } => Some(request_id.as_str()),
            _ => None,
        })
        .collect();
    for m in conversation.active_messages() {
        if let MessageType::ToolRequest { calls, .. } = &m.body {
            for call in calls.iter().filter(|c| !answered.contains(c.id.as_str())) {
                added.push(new(
                    alloc(),
                    MessageType::ToolResult {
                        request_id: call.id.clone(),
                        status: ToolResultStatus::Cancelled,
                        output: String::new(),
                        error: Some("interrupted: Braid stopped before this tool finished".to_owned()),
                        recoverable: true,
                        duration_ms: 0,
                        finished_at: now,
                    },
                ));
            }
        }
    }

    let mut detail = Vec::new();
    if !idle {
        detail.push(format!("Braid stopped while the context was {}.", state.status.describe(now)));
    }
    if state.request.as_ref().is_some_and(|r| r.sequence > 0) {
        detail.push("The partial answer was not kept; press Retry to ask again.".to_owned());
    }
    let unsent: Vec<&crate::machine::QueuedMessage> = state.pending.iter().chain(state.queue.iter()).collect();
    if !unsent.is_empty() {
        detail.push(format!("{} message(s) were not sent yet, kept here:", unsent.len()));
        for q in unsent {
            detail.push(format!("- {}", q.body.plain_text().unwrap_or_else(|| format!("[{}]", q.body.kind().tag()))));
        }
    }
    let control =
        ControlKind::Recovery { interrupted_state: format!("{:?}", state.status.kind()), detail: detail.join("\n") };
    added.push(new(alloc(), MessageType::SystemControl { control }));

    next.status = ContextStatus::Idle;
    next.request = None;
    next.pending = None;
    next.round = None;
    next.queue.clear();
    next.auto_loop = Default::default();
    next.next_message_id = id;
    Some((next, added))
}
