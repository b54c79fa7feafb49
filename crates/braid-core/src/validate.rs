//! Validation of what a client submits. Each rule has its own error so the
//! message can say exactly what is wrong.

use braid_protocol::{ContentPart, LineRange, MessageType, Role};

/// Longest text accepted in one message (bytes). Far above any real prompt;
/// it exists so a runaway paste is refused rather than stored.
pub const MAX_TEXT_BYTES: usize = 4 * 1024 * 1024;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ValidationError {
    #[error("the message is empty")]
    EmptyText,
    #[error("the message is {0} bytes; the limit is {MAX_TEXT_BYTES}")]
    TooLong(usize),
    #[error("role {0:?} cannot be used here (expected user)")]
    BadRole(String),
    #[error("a tool call has an empty id")]
    EmptyToolId,
    #[error("tool call {0:?} has an empty name")]
    EmptyToolName(braid_protocol::CallId),
    #[error("tool call {id:?} ({name}) has invalid JSON arguments: {reason}")]
    InvalidArguments { id: braid_protocol::CallId, name: String, reason: String },
    #[error("path {0:?} leaves the workspace (\"..\" is not allowed)")]
    PathTraversal(String),
    #[error("the path is empty")]
    EmptyPath,
    #[error("line range {start}-{end} is invalid: {why}")]
    InvalidRange { start: u32, end: u32, why: &'static str },
    #[error("a tool result must name the call it answers")]
    EmptyResultId,
    #[error("messages of type {0} cannot be sent by a client")]
    NotSendable(&'static str),
}

#[derive(Debug, Clone, Copy, Default)]
pub struct Rules {
    /// Allow a Text message with no text (e.g. an assistant turn that only
    /// called tools).
    pub allow_empty_text: bool,
}

/// Validates any message body against the structural rules.
pub fn validate(body: &MessageType, rules: Rules) -> Result<(), ValidationError> {
    match body {
        MessageType::Text { parts, .. } => {
            let len: usize = parts.iter().map(|ContentPart::Text { text }| text.len()).sum();
            if len > MAX_TEXT_BYTES {
                return Err(ValidationError::TooLong(len));
            }
            let blank = parts.iter().all(|ContentPart::Text { text }| text.trim().is_empty());
            if blank && !rules.allow_empty_text {
                return Err(ValidationError::EmptyText);
            }
            Ok(())
        }
        MessageType::FileReference { path, range, .. } => {
            validate_path(path)?;
            range.map_or(Ok(()), validate_range)
        }
        MessageType::ToolRequest { calls, .. } => {
            for call in calls {
                if call.id.trim().is_empty() {
                    return Err(ValidationError::EmptyToolId);
                }
                if call.name.trim().is_empty() {
                    return Err(ValidationError::EmptyToolName(call.id.clone()));
                }
                if let Err(e) = serde_json::from_str::<serde_json::Value>(&call.arguments) {
                    return Err(ValidationError::InvalidArguments {
                        id: call.id.clone(),
                        name: call.name.clone(),
                        reason: e.to_string(),
                    });
                }
            }
            Ok(())
        }
        MessageType::ToolResult { request_id, .. } if request_id.trim().is_empty() => {
            Err(ValidationError::EmptyResultId)
        }
        MessageType::Image { source: braid_protocol::ImageSource::FilePath { path }, .. } => validate_path(path),
        _ => Ok(()),
    }
}

/// What a user may send: user-role text, images, file references. The rest
/// is produced by the system itself.
pub fn validate_user_message(body: &MessageType) -> Result<(), ValidationError> {
    match body {
        MessageType::Text { role: Role::User, .. } | MessageType::Image { .. } | MessageType::FileReference { .. } => {
            validate(body, Rules::default())
        }
        MessageType::Text { role, .. } => Err(ValidationError::BadRole(role_name(*role).to_owned())),
        other => Err(ValidationError::NotSendable(other.kind().tag())),
    }
}

/// Parses a role from text, with the error a client sees for a bad one.
pub fn parse_role(role: &str) -> Result<Role, ValidationError> {
    match role {
        "user" => Ok(Role::User),
        "assistant" => Ok(Role::Assistant),
        "system" => Ok(Role::System),
        other => Err(ValidationError::BadRole(other.to_owned())),
    }
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::System => "system",
        Role::User => "user",
        Role::Assistant => "assistant",
    }
}

/// Rejects `..` components anywhere in the path. Whether an absolute path
/// lies inside the workspace is checked where the workspace is known.
pub fn validate_path(path: &str) -> Result<(), ValidationError> {
    if path.trim().is_empty() {
        return Err(ValidationError::EmptyPath);
    }
    if path.split(['/', '\\']).any(|c| c == "..") {
        return Err(ValidationError::PathTraversal(path.to_owned()));
    }
    Ok(())
}

pub fn validate_range(range: LineRange) -> Result<(), ValidationError> {
    let LineRange { start_line: start, end_line: end } = range;
    if start == 0 {
        return Err(ValidationError::InvalidRange { start, end, why: "lines are numbered from 1" });
    }
    if end < start {
        return Err(ValidationError::InvalidRange { start, end, why: "end_line is before start_line" });
    }
    Ok(())
}
