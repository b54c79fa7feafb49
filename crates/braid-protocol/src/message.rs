//! Typed messages (DESIGN.md §4). The derived serde form is the wire form and,
//! wrapped with a schema version, the stored form. `braid-core` adds what
//! needs behaviour: validation, unknown-tag preservation and migration.

use crate::codes::NoticeCode;
use crate::ids::{BranchId, CallId, MessageId, Timestamp};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

pub use crate::meta::{AnswerSpeed, MessageMeta, TokenCount, TokenEncoding, TokenUsage, WithheldOutput};

/// Version of the stored message format. 0 is the legacy shape
/// (`role`/`content`/optional `tool_calls`), migrated on load.
pub const SCHEMA_VERSION: u32 = 1;

/// A message in a context's pool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct Message {
    pub id: MessageId,
    pub created_at: Timestamp,
    #[serde(default = "current_schema")]
    pub schema_version: u32,
    pub body: MessageType,
    #[serde(default, skip_serializing_if = "MessageMeta::is_empty")]
    pub meta: MessageMeta,
}

impl Message {
    /// A message in the current schema with no measured facts yet.
    pub fn new(id: MessageId, created_at: Timestamp, body: MessageType) -> Message {
        Message { id, created_at, schema_version: SCHEMA_VERSION, body, meta: MessageMeta::default() }
    }
}

fn current_schema() -> u32 {
    SCHEMA_VERSION
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    System,
    User,
    Assistant,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ContentPart {
    Text { text: String },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ImageSource {
    Url {
        url: String,
    },
    Base64 {
        media_type: String,
        data: String,
    },
    FilePath {
        path: String,
    },
    /// Kept once, by content hash (`id` is its SHA-256), in the app's data
    /// directory: messages hold this reference, never the bytes.
    Stored(StoredImage),
}

/// An image in Braid's image store, as decoded when it was stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, schemars::JsonSchema)]
pub struct StoredImage {
    pub id: String,
    pub media_type: String,
    pub width: u32,
    pub height: u32,
    pub bytes: u64,
    /// The file name it came with, if any (shown on its card).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub name: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ImageMode {
    Vision,
    Ocr,
    #[default]
    Auto,
}

/// Inclusive, 1-based line range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, schemars::JsonSchema)]
pub struct LineRange {
    pub start_line: u32,
    pub end_line: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum FileRefStatus {
    #[default]
    Unresolved,
    Resolved,
    Failed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Approval {
    /// Until the user or the policy says otherwise, a call is not approved.
    #[default]
    Pending,
    Approved,
    /// Approved, including writing over a file that changed outside Braid
    /// since the agent read it.
    ApprovedOverwrite,
    Denied,
    /// The sandbox blocked the command; the user is asked whether it may
    /// run again outside the sandbox.
    AskUnsandboxed,
    /// Approved to run again outside the sandbox (this call only).
    ApprovedUnsandboxed,
}

/// One tool call in a ToolRequest. `arguments` is the JSON text exactly as
/// the model produced it, so nothing is lost by re-encoding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ToolCall {
    pub id: CallId,
    pub name: String,
    #[serde(default = "empty_object")]
    pub arguments: String,
    #[serde(default)]
    pub approval: Approval,
}

fn empty_object() -> String {
    "{}".to_owned()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ToolResultStatus {
    Success,
    Error,
    Cancelled,
}

/// What a SystemControl message records. Never sent to the model as-is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ControlKind {
    ModeChange {
        mode: String,
    },
    BranchSwitch {
        from: BranchId,
        to: BranchId,
    },
    Summary {
        text: String,
        replaces: Vec<MessageId>,
    },
    /// Written on start-up for an operation a crash or kill interrupted.
    Recovery {
        interrupted_state: String,
        detail: String,
    },
    /// Something the user must know, e.g. the auto-loop stopped at its limit.
    Notice {
        code: NoticeCode,
        text: String,
    },
    /// The merge card: a branch merged into this one.
    Merge {
        record: Box<crate::merge::MergeRecord>,
    },
    /// Files were put back as they were when message `to` was sent (a
    /// rewind), or as they were before the restore `undoes` (its undo).
    /// `kept`: files the user had changed, left as they are.
    /// `changes_of`: an undo of changes the turn asked by this question
    /// made (from its review), or the undo of such an undo.
    FilesRestored {
        to: MessageId,
        files: u32,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        kept: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        undoes: Option<MessageId>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        changes_of: Option<MessageId>,
    },
    /// The merge card `merge` was undone: what it brought is off the branch.
    MergeUndone {
        merge: MessageId,
    },
    /// The summary `summary` was taken back: the messages it stood for
    /// are sent again.
    SummaryUndone {
        summary: MessageId,
    },
    /// A workflow ran: `message` is the prompt it filled in and sent; the
    /// outcome is written when the turn ends.
    Workflow {
        name: String,
        arguments: std::collections::BTreeMap<String, String>,
        message: MessageId,
        outcome: Option<crate::workflow::WorkflowOutcome>,
    },
}

/// The message variants of DESIGN.md §4, tagged by `"type"`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum MessageType {
    Text {
        role: Role,
        #[serde(default)]
        parts: Vec<ContentPart>,
    },
    Image {
        source: ImageSource,
        #[serde(default)]
        mode: ImageMode,
        #[serde(default)]
        vision_analysis: Option<String>,
        #[serde(default)]
        recognized_text: Option<String>,
        #[serde(default)]
        ocr_confidence: Option<f32>,
        #[serde(default)]
        language: Option<String>,
        #[serde(default)]
        error: Option<String>,
        /// How the image was actually read: `Vision` or `Ocr`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        used: Option<ImageMode>,
        /// Why it was read another way than asked or hoped (the model
        /// cannot see images; vision failed and OCR was used instead).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        fallback: Option<String>,
    },
    FileReference {
        path: String,
        #[serde(default)]
        range: Option<LineRange>,
        #[serde(default)]
        content: Option<String>,
        #[serde(default)]
        status: FileRefStatus,
        #[serde(default)]
        error: Option<String>,
    },
    ToolRequest {
        /// Text the assistant said before calling tools, if any.
        #[serde(default)]
        text: Option<String>,
        calls: Vec<ToolCall>,
    },
    ToolResult {
        /// The id of the tool call this answers.
        request_id: CallId,
        status: ToolResultStatus,
        #[serde(default)]
        output: String,
        #[serde(default)]
        error: Option<String>,
        #[serde(default)]
        recoverable: bool,
        #[serde(default)]
        duration_ms: u64,
        #[serde(default)]
        finished_at: Timestamp,
    },
    SystemControl {
        control: ControlKind,
    },
    McpResource {
        server_name: String,
        resource_uri: String,
        #[serde(default)]
        content: String,
        #[serde(default)]
        mime_type: Option<String>,
        #[serde(default)]
        retrieved_at: Timestamp,
    },
    /// A tag this version does not know, kept verbatim so a newer version's
    /// data survives a round trip through an older one.
    Unknown {
        #[ts(type = "unknown")]
        raw: serde_json::Value,
    },
}

/// The variant of a message without its data: for indexing and filtering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum MessageKind {
    Text,
    Image,
    FileReference,
    ToolRequest,
    ToolResult,
    SystemControl,
    McpResource,
    Unknown,
}

impl MessageKind {
    pub const ALL: [MessageKind; 8] = [
        MessageKind::Text,
        MessageKind::Image,
        MessageKind::FileReference,
        MessageKind::ToolRequest,
        MessageKind::ToolResult,
        MessageKind::SystemControl,
        MessageKind::McpResource,
        MessageKind::Unknown,
    ];

    /// The `"type"` tag of this kind.
    pub fn tag(self) -> &'static str {
        match self {
            MessageKind::Text => "text",
            MessageKind::Image => "image",
            MessageKind::FileReference => "file_reference",
            MessageKind::ToolRequest => "tool_request",
            MessageKind::ToolResult => "tool_result",
            MessageKind::SystemControl => "system_control",
            MessageKind::McpResource => "mcp_resource",
            MessageKind::Unknown => "unknown",
        }
    }
}

impl MessageType {
    pub fn kind(&self) -> MessageKind {
        match self {
            MessageType::Text { .. } => MessageKind::Text,
            MessageType::Image { .. } => MessageKind::Image,
            MessageType::FileReference { .. } => MessageKind::FileReference,
            MessageType::ToolRequest { .. } => MessageKind::ToolRequest,
            MessageType::ToolResult { .. } => MessageKind::ToolResult,
            MessageType::SystemControl { .. } => MessageKind::SystemControl,
            MessageType::McpResource { .. } => MessageKind::McpResource,
            MessageType::Unknown { .. } => MessageKind::Unknown,
        }
    }

    /// A plain text message with one part.
    pub fn text(role: Role, text: impl Into<String>) -> MessageType {
        MessageType::Text { role, parts: vec![ContentPart::Text { text: text.into() }] }
    }

    /// An image not read yet (no analysis, text or error).
    pub fn image(source: ImageSource, mode: ImageMode) -> MessageType {
        MessageType::Image {
            source,
            mode,
            vision_analysis: None,
            recognized_text: None,
            ocr_confidence: None,
            language: None,
            error: None,
            used: None,
            fallback: None,
        }
    }

    /// The role this message speaks with, where it has one.
    pub fn role(&self) -> Option<Role> {
        match self {
            MessageType::Text { role, .. } => Some(*role),
            MessageType::ToolRequest { .. } => Some(Role::Assistant),
            MessageType::Image { .. } | MessageType::FileReference { .. } => Some(Role::User),
            _ => None,
        }
    }

    /// The concatenated text parts of a Text message, else `None`.
    pub fn plain_text(&self) -> Option<String> {
        match self {
            MessageType::Text { parts, .. } => Some(
                parts
                    .iter()
                    .map(|p| match p {
                        ContentPart::Text { text } => text.as_str(),
                    })
                    .collect::<Vec<_>>()
                    .join(""),
            ),
            _ => None,
        }
    }
}
