//! Messages every provider sends as plain text: file references and MCP
//! resources, fenced and labelled so the model knows what it is reading.

use braid_protocol::{FileRefStatus, LineRange, MessageType};

pub fn as_text(body: &MessageType) -> Option<String> {
    match body {
        MessageType::FileReference { path, range, content, status, error } => Some(match (status, content) {
            (FileRefStatus::Resolved, Some(content)) => {
                let lines = range.map_or(String::new(), |LineRange { start_line, end_line }| {
                    format!(" (lines {start_line}-{end_line})")
                });
                format!("File {path}{lines}:\n```\n{content}\n```")
            }
            _ => format!("[file {path}: {}]", error.as_deref().unwrap_or("not resolved")),
        }),
        MessageType::McpResource { server_name, resource_uri, content, .. } => {
            Some(format!("Resource {resource_uri} from {server_name}:\n```\n{content}\n```"))
        }
        _ => None,
    }
}

/// The text of a tool result as the model should read it.
pub fn tool_result_text(output: &str, error: Option<&str>) -> String {
    match (error, output.is_empty()) {
        (Some(e), true) => format!("Error: {e}"),
        (Some(e), false) => format!("{output}\nError: {e}"),
        (None, _) => output.to_owned(),
    }
}
