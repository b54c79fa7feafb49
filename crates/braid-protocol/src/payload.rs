//! Structured messages: what a client sends as one typed payload rather
//! than a composed `NewMessage`. Each variant is checked (see
//! `braid_core::payload`) before anything is stored; a type Braid does not
//! know is refused with the list of those it does. The JSON Schema of
//! [`SendMessageRequest`] is generated into `docs/send-message.schema.json`.

use crate::ids::{CallId, ContextId, MessageId};
use crate::message::{ImageMode, ImageSource, LineRange};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use ts_rs::TS;

/// One message to a conversation, as a typed payload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SendMessageRequest {
    pub context_id: ContextId,
    pub payload: Payload,
    /// The client's own data (a JSON object, at most 4 KB), given back in
    /// the receipt; Braid does not read it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "Record<string, unknown>")]
    #[schemars(with = "Option<serde_json::Map<String, serde_json::Value>>")]
    pub client_metadata: Option<serde_json::Value>,
    /// Wait in the conversation's queue when it is busy (otherwise a busy
    /// conversation refuses the message).
    #[serde(default)]
    pub queue_if_busy: bool,
}

/// The payload variants, tagged by `"type"`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Payload {
    /// What the user says.
    Text { text: String },
    /// A file of the workspace (a relative path, no `..`), whole or some
    /// lines, read and sent with the optional text after it.
    FileReference {
        path: String,
        #[serde(default)]
        range: Option<LineRange>,
        #[serde(default)]
        text: Option<String>,
    },
    /// An image (from `store_image`, or a workspace path, a URL or Base64
    /// data), read by vision or OCR, with the optional text after it.
    Image {
        source: ImageSource,
        #[serde(default)]
        mode: Option<ImageMode>,
        #[serde(default)]
        text: Option<String>,
    },
    /// A workflow (`.braid/workflows/<name>.md`) run with its parameters.
    Workflow {
        name: String,
        #[serde(default)]
        arguments: BTreeMap<String, String>,
    },
    /// The result of a tool call that awaits approval, produced by the
    /// client itself: it stands as that call's result, and the call does
    /// not run.
    ToolResult {
        call_id: CallId,
        output: String,
        #[serde(default)]
        is_error: bool,
    },
    /// A resource of a connected MCP server, read and sent with the
    /// optional text after it.
    McpResource {
        server: String,
        uri: String,
        #[serde(default)]
        text: Option<String>,
    },
}

impl Payload {
    /// The `type` tags, in order: what an unknown one is told.
    pub const TYPES: [&'static str; 6] = ["text", "file_reference", "image", "workflow", "tool_result", "mcp_resource"];
}

/// What a payload became.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct PayloadReceipt {
    /// The message stored (for a tool result: the tool call's request).
    pub message_id: MessageId,
    /// It waits in the conversation's queue.
    pub queued: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "Record<string, unknown>")]
    pub client_metadata: Option<serde_json::Value>,
}

/// The schema clients validate against (`docs/send-message.schema.json`).
pub fn schema() -> String {
    let schema = schemars::schema_for!(SendMessageRequest);
    serde_json::to_string_pretty(&schema).unwrap_or_default() + "\n"
}
