//! Invariants of a context that must hold after every transition. The
//! property tests check them after each random step; the runtime can check
//! them in debug builds.

use crate::conversation::Conversation;
use crate::machine::{is_pipeline_phase, is_request_phase, ContextState};
use braid_protocol::{BranchId, MessageType, StatusKind};
use std::collections::{HashMap, HashSet};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invariant broken: {0}")]
pub struct Violation(pub String);

fn fail<T>(text: String) -> Result<T, Violation> {
    Err(Violation(text))
}

/// The machine's own data agrees with its state.
pub fn check_state(s: &ContextState) -> Result<(), Violation> {
    let kind = s.status.kind();
    // A summary the user asked for is made outside any turn.
    let compacting = s.book.compaction.is_some();
    if compacting && kind != StatusKind::Summarizing {
        return fail(format!("{kind:?} while a summary the user asked for is being made"));
    }
    let wants_request = (is_request_phase(kind) && !compacting) || kind == StatusKind::RetryingLlmRequest;
    if wants_request != s.request.is_some() {
        return fail(format!("{kind:?} with request {:?}", s.request));
    }
    if is_pipeline_phase(kind) != s.pending.is_some() {
        return fail(format!("{kind:?} with pending message {:?}", s.pending.as_ref().map(|p| p.id)));
    }
    let wants_round = matches!(
        kind,
        StatusKind::AwaitingToolApproval
            | StatusKind::ExecutingTool
            | StatusKind::AwaitingSubAgents
            | StatusKind::Cancelling
    );
    if wants_round != s.round.is_some() {
        return fail(format!("{kind:?} with tool round {}", s.round.is_some()));
    }
    if (kind == StatusKind::AwaitingSubAgents) != s.agents.is_some() {
        return fail(format!("{kind:?} with sub-agents {}", s.agents.is_some()));
    }
    if kind == StatusKind::Idle && !s.queue.is_empty() {
        return fail(format!("Idle with {} queued messages (they must have been started)", s.queue.len()));
    }
    if let (braid_protocol::ContextStatus::StreamingLlmResponse { chunks, .. }, Some(r)) = (&s.status, &s.request) {
        if u64::from(*chunks) != r.sequence {
            return fail(format!("{chunks} chunks but {} deltas sent", r.sequence));
        }
    }
    if let Some(q) = s.queue.iter().find(|q| q.id.0 >= s.next_message_id) {
        return fail(format!("queued message {} not below the id counter {}", q.id, s.next_message_id));
    }
    Ok(())
}

/// Branches name only pooled messages, once each; the active branch exists.
pub fn check_conversation(c: &Conversation) -> Result<(), Violation> {
    if c.branch(c.active_branch()).is_none() {
        return fail(format!("active branch {} does not exist", c.active_branch()));
    }
    for b in c.branches() {
        let mut seen = HashSet::with_capacity(b.message_ids.len());
        for id in &b.message_ids {
            if c.message(*id).is_none() {
                return fail(format!("branch {} names message {id}, which is not in the pool", b.id));
            }
            if !seen.insert(*id) {
                return fail(format!("branch {} names message {id} twice", b.id));
            }
        }
    }
    Ok(())
}

/// Every tool call on the branch has exactly one result after it, and every
/// result answers an earlier call. Holds whenever no tool round is open,
/// in particular before every LLM request.
pub fn check_tool_pairing(c: &Conversation, branch: &BranchId) -> Result<(), Violation> {
    let mut answers: HashMap<&str, u32> = HashMap::new();
    for m in c.messages(branch) {
        match &m.body {
            MessageType::ToolRequest { calls, .. } => {
                for call in calls {
                    if answers.insert(call.id.as_str(), 0).is_some() {
                        return fail(format!("tool call id {:?} used twice", call.id));
                    }
                }
            }
            MessageType::ToolResult { request_id, .. } => match answers.get_mut(request_id.as_str()) {
                Some(n) => *n += 1,
                None => return fail(format!("result {} answers unknown call {request_id:?}", m.id)),
            },
            _ => {}
        }
    }
    match answers.iter().find(|(_, n)| **n != 1) {
        Some((id, n)) => fail(format!("tool call {id:?} has {n} results")),
        None => Ok(()),
    }
}
