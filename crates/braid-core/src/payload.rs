//! A typed payload checked and turned into what the conversation takes:
//! a message (file references and MCP resources become the `@` mentions
//! the pipeline reads, images attachments), a tool call's result supplied
//! by the client, or a workflow to run. Every refusal says what is wrong
//! and nothing is stored.

use crate::machine::ToolOutcome;
use crate::validate::{validate_path, validate_range, validate_user_message};
use braid_protocol::{
    CallId, ErrorCode, ImageAttachment, MessageType, NewMessage, Payload, Role, SendMessageRequest, ToolResultStatus,
    WireError,
};
use std::collections::BTreeMap;

/// The longest `client_metadata`, as JSON.
pub const MAX_METADATA_BYTES: usize = 4 * 1024;

/// What a payload asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Checked {
    Message(NewMessage),
    /// The result of a call that awaits approval, from the client.
    ToolResult {
        call_id: CallId,
        outcome: ToolOutcome,
    },
    Workflow {
        name: String,
        arguments: BTreeMap<String, String>,
    },
}

fn bad(why: impl Into<String>) -> WireError {
    WireError::new(ErrorCode::InvalidInput, why.into())
}

/// Checks `request` (its metadata, then its payload).
pub fn check(request: &SendMessageRequest) -> Result<Checked, WireError> {
    if let Some(meta) = &request.client_metadata {
        if !meta.is_object() {
            return Err(bad("client_metadata must be a JSON object"));
        }
        let size = meta.to_string().len();
        if size > MAX_METADATA_BYTES {
            return Err(bad(format!("client_metadata is {size} bytes; the limit is {MAX_METADATA_BYTES}")));
        }
    }
    let with_text = |mention: String, text: &Option<String>| {
        let text = text.as_deref().map(str::trim).filter(|t| !t.is_empty());
        text.map_or(mention.clone(), |t| format!("{mention} {t}"))
    };
    let message = match &request.payload {
        Payload::Text { text } => {
            if text.trim().is_empty() {
                return Err(bad("text: the message is empty"));
            }
            NewMessage::user_text(text)
        }
        Payload::FileReference { path, range, text } => {
            validate_path(path).map_err(|e| bad(format!("file_reference: {e}")))?;
            if !mentionable(path) || path.contains("://") {
                return Err(bad(format!(
                    "file_reference: {path:?} cannot be referenced (no spaces, commas, parentheses or URLs in a path)"
                )));
            }
            if let Some(r) = range {
                validate_range(*r).map_err(|e| bad(format!("file_reference: {e}")))?;
            }
            let lines = range.map_or(String::new(), |r| format!(":{}-{}", r.start_line, r.end_line));
            NewMessage::user_text(&with_text(format!("@{path}{lines}"), text))
        }
        Payload::McpResource { server, uri, text } => {
            if server.is_empty() || !mentionable(server) || server.contains(':') {
                return Err(bad(format!("mcp_resource: {server:?} is not a server name")));
            }
            if !uri.contains("://") || !mentionable(uri) {
                return Err(bad(format!("mcp_resource: {uri:?} is not a resource URI (scheme://…, no spaces)")));
            }
            NewMessage::user_text(&with_text(format!("@{server}:{uri}"), text))
        }
        Payload::Image { source, mode, text } => {
            let attachment = ImageAttachment { source: source.clone(), mode: mode.unwrap_or_default() };
            NewMessage {
                body: MessageType::text(Role::User, text.clone().unwrap_or_default()),
                force_tool: None,
                images: vec![attachment],
            }
        }
        Payload::ToolResult { call_id, output, is_error } => {
            if call_id.0.is_empty() {
                return Err(bad("tool_result: call_id is empty"));
            }
            let (status, error) = match is_error {
                true => (ToolResultStatus::Error, Some("reported as an error by the client".to_owned())),
                false => (ToolResultStatus::Success, None),
            };
            let outcome = ToolOutcome {
                status,
                output: output.clone(),
                error,
                recoverable: false,
                duration_ms: 0,
                written: None,
                blocked: None,
                images: Vec::new(),
                secrets: None,
            };
            return Ok(Checked::ToolResult { call_id: call_id.clone(), outcome });
        }
        Payload::Workflow { name, arguments } => {
            crate::workflow::check_name(name).map_err(|e| bad(format!("workflow: {e}")))?;
            return Ok(Checked::Workflow { name: name.clone(), arguments: arguments.clone() });
        }
    };
    // Images are checked by the machine (a path inside the workspace, a
    // known stored image); the text as any user message is.
    if message.images.is_empty() {
        validate_user_message(&message.body).map_err(|e| bad(e.to_string()))?;
    }
    Ok(Checked::Message(message))
}

/// Reads back as one `@` token (see `braid_workspace::refs::tokens`).
fn mentionable(s: &str) -> bool {
    !s.contains(|c: char| c.is_whitespace() || c == ')' || c == ',' || c == '@') && !s.ends_with(['.', ';', '!', '?'])
}
