//! Scripts for the fake provider (`braid_llm::fake`): a reply that calls
//! tools, a reply that answers, and the tool results a conversation holds.

use braid_core::llm::StopReason;
use braid_llm::fake::FakeStep;
use braid_protocol::{Message, MessageType, ToolResultStatus};

/// A reply that calls these tools (id, name, arguments) and stops for them.
pub fn calls(list: &[(&str, &str, serde_json::Value)]) -> Vec<FakeStep> {
    let mut steps = vec![FakeStep::Connect];
    for (id, name, args) in list {
        steps.push(FakeStep::ToolCall { id: (*id).into(), name: (*name).into(), arguments: args.to_string() });
    }
    steps.push(FakeStep::Finish(StopReason::ToolUse));
    steps
}

/// A reply that answers with `text` and ends the turn.
pub fn answer(text: &str) -> Vec<FakeStep> {
    vec![FakeStep::Text(text.into()), FakeStep::Finish(StopReason::EndTurn)]
}

/// Each tool result: its call's id, its status, its error (or "").
pub fn results(messages: &[Message]) -> Vec<(String, ToolResultStatus, String)> {
    messages
        .iter()
        .filter_map(|m| match &m.body {
            MessageType::ToolResult { request_id, status, error, .. } => {
                Some((request_id.to_string(), *status, error.clone().unwrap_or_default()))
            }
            _ => None,
        })
        .collect()
}
