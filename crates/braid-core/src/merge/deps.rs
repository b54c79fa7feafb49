//! What a message needs to make sense on its own: a tool result its call,
//! a call all its results, a user turn the files and images it attached.
//! And, when the user goes on without them, the plain-text form a message
//! takes so the sequence stays valid for every provider.

use braid_protocol::{CallId, Message, MessageId, MessageType, Role};
use std::collections::HashMap;

/// The messages `m` cannot go without, among `messages` (one branch's
/// messages after the common ancestor, in order), with the reason.
pub fn needs(messages: &[&Message], at: usize) -> Vec<(MessageId, &'static str)> {
    let m = messages[at];
    match &m.body {
        MessageType::ToolResult { request_id, .. } => messages[..at]
            .iter()
            .rev()
            .find(|p| calls_of(p).any(|c| c == request_id))
            .map(|p| (p.id, "a tool result needs its call"))
            .into_iter()
            .collect(),
        MessageType::ToolRequest { calls, .. } => messages[at + 1..]
            .iter()
            .filter(|r| matches!(&r.body, MessageType::ToolResult { request_id, .. } if calls.iter().any(|c| c.id == *request_id)))
            .map(|r| (r.id, "a tool call needs all its results"))
            .collect(),
        MessageType::Text { role: Role::User, .. } => messages[..at]
            .iter()
            .rev()
            .take_while(|p| matches!(p.body, MessageType::FileReference { .. } | MessageType::Image { .. }))
            .map(|p| (p.id, "the files and images this turn attached"))
            .collect(),
        _ => Vec::new(),
    }
}

fn calls_of(m: &Message) -> impl Iterator<Item = &CallId> {
    let calls = match &m.body {
        MessageType::ToolRequest { calls, .. } => calls.as_slice(),
        _ => &[],
    };
    calls.iter().map(|c| &c.id)
}

/// The plain-text form of a tool call or result whose partner stays
/// behind: the model reads what happened, no provider sees a broken pair.
pub fn as_text(body: &MessageType, names: &HashMap<CallId, String>) -> MessageType {
    match body {
        MessageType::ToolRequest { text, calls } => {
            let called: Vec<String> = calls.iter().map(|c| format!("{}({})", c.name, c.arguments)).collect();
            let said = text.as_deref().map(|t| format!("{t}\n")).unwrap_or_default();
            MessageType::text(
                Role::Assistant,
                format!("{said}[called {}; the results were not merged]", called.join(", ")),
            )
        }
        MessageType::ToolResult { request_id, output, error, .. } => {
            let name = names.get(request_id).map_or("a tool", String::as_str);
            let what = error.as_deref().unwrap_or(output);
            MessageType::text(Role::User, format!("[result of {name}, merged without its call]\n{what}"))
        }
        other => other.clone(),
    }
}

/// The tool names of every call among `messages`, for [`as_text`].
pub fn call_names<'a>(messages: impl Iterator<Item = &'a Message>) -> HashMap<CallId, String> {
    let mut names = HashMap::new();
    for m in messages {
        if let MessageType::ToolRequest { calls, .. } = &m.body {
            for c in calls {
                names.insert(c.id.clone(), c.name.clone());
            }
        }
    }
    names
}
