//! An MCP server's tool in Braid's catalogue: named `mcp__<server>__<tool>`,
//! its permission taken from the server's hints, its calls forwarded to the
//! server and their results put into the common result format.

use super::client;
use super::results::ResultStore;
use super::stdio::Oversize;
use crate::{failure, success, Tool, ToolContext};
use braid_core::machine::ToolOutcome;
use braid_protocol::{ImageMode, ImageSource, MessageType, Permission, ToolSource};
use futures::future::BoxFuture;
use rmcp::model::CallToolResult;
use rmcp::service::Peer;
use rmcp::RoleClient;
use serde_json::Value;
use std::time::Duration;

pub struct McpTool {
    /// In the catalogue.
    pub name: String,
    /// On the server.
    pub remote: String,
    pub server: String,
    pub description: String,
    pub schema: Value,
    pub permission: Permission,
    pub peer: Peer<RoleClient>,
    /// Where the connection says an answer was too large.
    pub oversize: Oversize,
    pub call_timeout: Duration,
    pub results: ResultStore,
}

impl McpTool {
    pub fn new(
        name: String,
        server: &str,
        t: &rmcp::model::Tool,
        (peer, oversize): (Peer<RoleClient>, Oversize),
        call_timeout: Duration,
        results: ResultStore,
    ) -> McpTool {
        let description = t.description.as_deref().unwrap_or_default();
        McpTool {
            name,
            remote: t.name.to_string(),
            server: server.to_owned(),
            description: format!("{description} (from the MCP server {server})").trim().to_owned(),
            schema: Value::Object((*t.input_schema).clone()),
            permission: permission_of(t.annotations.as_ref()),
            peer,
            oversize,
            call_timeout,
            results,
        }
    }
}

/// Read-only tools are reads (offered in Plan mode, safe beside other
/// calls); a tool that says it destroys nothing writes; anything else,
/// as the protocol's defaults say, may destroy.
pub fn permission_of(hints: Option<&rmcp::model::ToolAnnotations>) -> Permission {
    let Some(h) = hints else { return Permission::Execute };
    if h.read_only_hint == Some(true) {
        Permission::Read
    } else if h.destructive_hint == Some(false) {
        Permission::Write
    } else {
        Permission::Execute
    }
}

impl Tool for McpTool {
    fn name(&self) -> &str {
        &self.name
    }
    fn description(&self) -> &str {
        &self.description
    }
    fn input_schema(&self) -> Value {
        self.schema.clone()
    }
    fn permission(&self) -> Permission {
        self.permission
    }
    fn examples(&self) -> Vec<Value> {
        Vec::new()
    }
    fn source(&self) -> ToolSource {
        ToolSource::Mcp { server: self.server.clone() }
    }
    fn time_limit(&self) -> Option<Duration> {
        Some(self.call_timeout)
    }
    fn run<'a>(&'a self, args: Value, _ctx: &'a ToolContext) -> BoxFuture<'a, ToolOutcome> {
        Box::pin(async move {
            let Value::Object(args) = args else { return failure("the arguments must be a JSON object") };
            match client::call(&self.peer, &self.oversize, &self.server, &self.remote, args, self.call_timeout).await {
                Ok(result) => outcome(&result, &self.results),
                Err(e) => failure(e),
            }
        })
    }
}

/// The most images one result brings into the conversation.
pub const MAX_IMAGES: usize = 4;

/// The result's content as text for the model: text as it is, structured
/// content as JSON when there is no text, other blocks described (images
/// say that they follow, see [`result_images`]).
pub fn result_text(result: &CallToolResult) -> String {
    let mut parts = Vec::new();
    let mut images_taken = 0;
    for block in &result.content {
        let v = serde_json::to_value(block).unwrap_or_default();
        let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or_default().to_owned();
        parts.push(match s("type").as_str() {
            "text" => s("text"),
            "image" if images_taken < MAX_IMAGES => {
                images_taken += 1;
                format!("[image {}, {} bytes: follows the results]", s("mimeType"), decoded_len(&s("data")))
            }
            "image" | "audio" => {
                format!("[{} {}, {} bytes: not shown to the model]", s("type"), s("mimeType"), decoded_len(&s("data")))
            }
            "resource" => {
                let r = v.get("resource").cloned().unwrap_or_default();
                match r.get("text").and_then(Value::as_str) {
                    Some(text) => format!("[resource {}]\n{text}", r.get("uri").and_then(Value::as_str).unwrap_or("")),
                    None => format!("[binary resource {}]", r.get("uri").and_then(Value::as_str).unwrap_or("")),
                }
            }
            "resource_link" => format!("[resource link {} ({})]", s("uri"), s("name")),
            other => format!("[{other} content]"),
        });
    }
    if parts.is_empty() {
        if let Some(structured) = &result.structured_content {
            parts.push(structured.to_string());
        }
    }
    parts.join("\n")
}

/// The result's images (the first [`MAX_IMAGES`]), as Image messages to
/// read like any other: by the model's vision, or OCR.
pub fn result_images(result: &CallToolResult) -> Vec<MessageType> {
    let images = result.content.iter().filter_map(|block| {
        let v = serde_json::to_value(block).ok()?;
        (v.get("type")?.as_str()? == "image").then_some(())?;
        let media_type = v.get("mimeType")?.as_str()?.to_owned();
        let data = v.get("data")?.as_str()?.to_owned();
        Some(MessageType::image(ImageSource::Base64 { media_type, data }, ImageMode::Auto))
    });
    images.take(MAX_IMAGES).collect()
}

/// The size of Base64 `data` once decoded.
fn decoded_len(data: &str) -> usize {
    (data.len() / 4 * 3).saturating_sub(data.bytes().rev().take_while(|b| *b == b'=').count())
}

fn outcome(result: &CallToolResult, results: &ResultStore) -> ToolOutcome {
    let text = results.fit(result_text(result));
    if result.is_error == Some(true) {
        failure(if text.is_empty() { "the tool reported an error without a message".to_owned() } else { text })
    } else {
        ToolOutcome { images: result_images(result), ..success(text) }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn images_follow_the_text_up_to_a_limit() {
        let image = serde_json::json!({"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo="});
        let mut content = vec![serde_json::json!({"type": "text", "text": "a chart"})];
        content.extend(std::iter::repeat_n(image, MAX_IMAGES + 1));
        let result: CallToolResult = serde_json::from_value(serde_json::json!({"content": content})).unwrap();
        let text = result_text(&result);
        assert!(text.starts_with("a chart\n[image image/png, 8 bytes: follows the results]"), "{text}");
        assert_eq!(text.matches("follows the results").count(), MAX_IMAGES);
        assert!(text.ends_with("not shown to the model]"), "the one past the limit is only named: {text}");
        let images = result_images(&result);
        assert_eq!(images.len(), MAX_IMAGES);
        assert!(matches!(&images[0], MessageType::Image { source: ImageSource::Base64 { media_type, .. }, .. }
            if media_type == "image/png"));
    }
}
