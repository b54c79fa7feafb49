//! What is sent to the model: the active branch without the messages that
//! are for people and the system only (SystemControl, Unknown).

use crate::conversation::Conversation;
use braid_protocol::{Message, MessageType};

/// The messages of the active branch that go to the model, in order.
pub fn request_messages(conversation: &Conversation) -> Vec<Message> {
    conversation
        .active_messages()
        .filter(|m| !matches!(m.body, MessageType::SystemControl { .. } | MessageType::Unknown { .. }))
        .cloned()
        .collect()
}

/// The system prompt for the active branch: its override, else `base`.
pub fn system_prompt(conversation: &Conversation, base: Option<&str>) -> Option<String> {
    conversation.system_prompt(conversation.active_branch(), base).map(str::to_owned)
}

/// The system prompt as sent: the branch override or `base`, then the
/// mode's instructions (Plan mode: plan with read tools only).
pub fn system_prompt_for(
    conversation: &Conversation,
    base: Option<&str>,
    tools: &braid_protocol::ToolSettings,
) -> Option<String> {
    let prompt = system_prompt(conversation, base);
    if tools.mode != braid_protocol::AgentMode::Plan {
        return prompt;
    }
    let plan = crate::approval::PLAN_INSTRUCTIONS;
    Some(match prompt {
        Some(p) => format!("{p}\n\n{plan}"),
        None => plan.to_owned(),
    })
}
