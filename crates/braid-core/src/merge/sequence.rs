//! The check every merge passes before it is applied: the target's
//! messages after it form a sequence every provider family accepts.

use braid_protocol::{CallId, MessageType};
use std::collections::{HashMap, HashSet};

/// Why a sequence of bodies would be refused, if it would: a call id used
/// twice, a result before (or without) its call, a call left unanswered,
/// or something other than results between a call and its last result
/// (OpenAI and Anthropic want the results right after the call).
pub fn check<'a>(bodies: impl Iterator<Item = &'a MessageType>) -> Result<(), String> {
    let mut seen: HashSet<&CallId> = HashSet::new();
    let mut open: HashMap<&CallId, ()> = HashMap::new();
    for body in bodies {
        match body {
            MessageType::ToolRequest { calls, .. } => {
                if let Some(c) = open.keys().next() {
                    return Err(format!("tool call {c:?} is not answered before the next call"));
                }
                for c in calls {
                    if !seen.insert(&c.id) {
                        return Err(format!("tool call id {:?} is used twice", c.id));
                    }
                    open.insert(&c.id, ());
                }
            }
            MessageType::ToolResult { request_id, .. } => {
                if open.remove(request_id).is_none() {
                    return Err(format!("a result answers {request_id:?}, which is not an open call before it"));
                }
            }
            MessageType::SystemControl { .. } | MessageType::Unknown { .. } => {}
            _ => {
                if let Some(c) = open.keys().next() {
                    return Err(format!("tool call {c:?} is not answered before the next message"));
                }
            }
        }
    }
    match open.keys().next() {
        Some(c) => Err(format!("tool call {c:?} is never answered")),
        None => Ok(()),
    }
}
