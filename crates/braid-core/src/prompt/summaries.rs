//! Which summaries stand for which messages, and which messages a
//! summary asked for (`/compact`, "summarise up to / from here") covers.
//!
//! A summary replaces the messages it names. The newest one usually
//! covers all before it (its batch folded the previous summary in); one
//! made "from here" covers only the later part, and the older summary
//! still stands for the earlier part. A summary taken back
//! (`SummaryUndone`) stands for nothing: its messages are sent again.

use crate::conversation::Conversation;
use braid_protocol::{CompactScope, ControlKind, Message, MessageId, MessageType, Role};
use std::collections::HashSet;

/// A summary message on the active branch.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Summary<'a> {
    pub id: MessageId,
    pub message: &'a Message,
    pub text: &'a str,
    pub replaces: &'a [MessageId],
}

fn summary_of(m: &Message) -> Option<Summary<'_>> {
    match &m.body {
        MessageType::SystemControl { control: ControlKind::Summary { text, replaces } } => {
            Some(Summary { id: m.id, message: m, text, replaces })
        }
        _ => None,
    }
}

/// Summaries taken back on these messages.
fn undone<'a>(active: impl Iterator<Item = &'a Message>) -> HashSet<MessageId> {
    active
        .filter_map(|m| match &m.body {
            MessageType::SystemControl { control: ControlKind::SummaryUndone { summary } } => Some(*summary),
            _ => None,
        })
        .collect()
}

/// The newest summary in force on the active branch.
pub(crate) fn latest(conversation: &Conversation) -> Option<Summary<'_>> {
    let active: Vec<&Message> = conversation.active_messages().collect();
    let undone = undone(active.iter().copied());
    active.into_iter().rev().filter_map(summary_of).find(|s| !undone.contains(&s.id))
}

/// The summaries in force, newest first: each not taken back and not
/// wholly covered by a newer one.
pub(crate) fn standing<'a>(active: &[&'a Message]) -> Vec<Summary<'a>> {
    let undone = undone(active.iter().copied());
    let mut covered: HashSet<MessageId> = HashSet::new();
    let mut out = Vec::new();
    for s in active.iter().rev().filter_map(|m| summary_of(m)) {
        if undone.contains(&s.id) || s.replaces.iter().all(|id| covered.contains(id)) {
            continue;
        }
        covered.extend(s.replaces.iter().copied());
        out.push(s);
    }
    out
}

/// The ids of the summaries in force on these (active) messages.
pub fn standing_summaries(active: &[&Message]) -> Vec<MessageId> {
    standing(active).iter().map(|s| s.id).collect()
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CompactError {
    #[error("there is nothing to summarise yet: at least two messages must come before the last exchange")]
    TooFew,
    #[error("message {0} is not among what is sent (it was summarised or left out already)")]
    NotSent(MessageId),
}

/// The messages (ids as sent: a summary by its own id) that a summary of
/// `scope` covers. A tool call is never parted from its results: the cut
/// moves to include them.
pub fn compact_batch(sent: &[Message], scope: CompactScope) -> Result<Vec<MessageId>, CompactError> {
    let position = |id: MessageId| sent.iter().position(|m| m.id == id).ok_or(CompactError::NotSent(id));
    let is_result = |i: usize| sent.get(i).is_some_and(|m| matches!(m.body, MessageType::ToolResult { .. }));
    let range = match scope {
        CompactScope::All => {
            // Everything before the last question stays summarised; the
            // last exchange is kept as it is.
            let last_question = sent
                .iter()
                .rposition(|m| matches!(m.body, MessageType::Text { role: Role::User, .. }))
                .unwrap_or(sent.len());
            0..last_question
        }
        CompactScope::UpTo { message } => {
            let mut end = position(message)? + 1;
            while is_result(end) {
                end += 1;
            }
            0..end
        }
        CompactScope::From { message } => {
            let mut start = position(message)?;
            while start > 0 && is_result(start) {
                start -= 1;
            }
            start..sent.len()
        }
    };
    let batch: Vec<MessageId> = sent[range].iter().map(|m| m.id).collect();
    if batch.len() < 2 {
        return Err(CompactError::TooFew);
    }
    Ok(batch)
}

#[cfg(test)]
mod tests {
    use super::*;
    use braid_protocol::{CallId, Timestamp, ToolCall, ToolResultStatus};

    fn text(id: u64, role: Role) -> Message {
        Message::new(MessageId(id), Timestamp(0), MessageType::text(role, format!("m{id}")))
    }

    fn call(id: u64) -> Message {
        let calls = vec![ToolCall {
            id: CallId("c".into()),
            name: "read_file".into(),
            arguments: "{}".into(),
            approval: Default::default(),
        }];
        Message::new(MessageId(id), Timestamp(0), MessageType::ToolRequest { text: None, calls })
    }

    fn result(id: u64) -> Message {
        Message::new(
            MessageId(id),
            Timestamp(0),
            MessageType::ToolResult {
                request_id: CallId("c".into()),
                status: ToolResultStatus::Success,
                output: "x".into(),
                error: None,
                recoverable: false,
                duration_ms: 0,
                finished_at: Timestamp(0),
            },
        )
    }

    fn ids(v: &[u64]) -> Vec<MessageId> {
        v.iter().map(|&i| MessageId(i)).collect()
    }

    #[test]
    fn all_keeps_the_last_exchange() {
        let sent = [text(1, Role::User), text(2, Role::Assistant), text(3, Role::User), text(4, Role::Assistant)];
        assert_eq!(compact_batch(&sent, CompactScope::All), Ok(ids(&[1, 2])));
        assert_eq!(compact_batch(&sent[..2], CompactScope::All), Err(CompactError::TooFew));
    }

    #[test]
    fn a_cut_never_parts_a_call_from_its_result() {
        let sent = [text(1, Role::User), call(2), result(3), text(4, Role::Assistant), text(5, Role::User)];
        let up_to = CompactScope::UpTo { message: MessageId(2) };
        assert_eq!(compact_batch(&sent, up_to), Ok(ids(&[1, 2, 3])));
        let from = CompactScope::From { message: MessageId(3) };
        assert_eq!(compact_batch(&sent, from), Ok(ids(&[2, 3, 4, 5])));
        let gone = CompactScope::UpTo { message: MessageId(9) };
        assert_eq!(compact_batch(&sent, gone), Err(CompactError::NotSent(MessageId(9))));
    }
}
