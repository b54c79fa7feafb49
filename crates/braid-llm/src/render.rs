//! Messages every provider sends as plain text: file references and MCP
//! resources, fenced and labelled so the model knows what it is reading,
//! and, with tool results, inside blocks that mark them as data
//! ([`braid_core::untrusted`]).

use braid_core::untrusted;
use braid_protocol::{FileRefStatus, LineRange, MessageType};

pub fn as_text(body: &MessageType) -> Option<String> {
    match body {
        MessageType::FileReference { path, range, content, status, error } => Some(match (status, content) {
            (FileRefStatus::Resolved, Some(content)) => {
                let lines = range.map_or(String::new(), |LineRange { start_line, end_line }| {
                    format!(" (lines {start_line}-{end_line})")
                });
                let fenced = format!("```\n{content}\n```");
                format!("File {path}{lines}:\n{}", untrusted::block(&format!("file {path}"), &fenced))
            }
            _ => format!("[file {path}: {}]", error.as_deref().unwrap_or("not resolved")),
        }),
        MessageType::McpResource { server_name, resource_uri, content, .. } => {
            let source = format!("MCP resource {resource_uri} from the server {server_name}");
            Some(format!(
                "Resource {resource_uri} from {server_name}:\n{}",
                untrusted::block(&source, &format!("```\n{content}\n```"))
            ))
        }
        _ => None,
    }
}

/// The text of a tool result as the model should read it: in a block
/// that marks it as data (a tool's output, even its error, may carry
/// text someone else wrote).
pub fn tool_result_text(output: &str, error: Option<&str>) -> String {
    let text = match (error, output.is_empty()) {
        (Some(e), true) => format!("Error: {e}"),
        (Some(e), false) => format!("{output}\nError: {e}"),
        (None, _) => output.to_owned(),
    };
    untrusted::block("tool result", &text)
}
