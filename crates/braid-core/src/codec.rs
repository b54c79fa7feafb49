//! The stored form of a message: its JSON with a schema version. Loading is
//! forgiving in the ways that keep data: an unknown `"type"`, or a message
//! written by a newer Braid (a higher schema version), becomes
//! [`MessageType::Unknown`] with the original JSON and version kept (and
//! written back verbatim), so one such message never locks the user out of
//! the rest of the conversation; a legacy message (`role`/`content`/optional `tool_calls`, no
//! schema version) migrates with nothing dropped, missing optional fields get
//! defaults. Malformed JSON is an error, never a guess.

use braid_protocol::{
    ContentPart, Message, MessageId, MessageKind, MessageMeta, MessageType, Role, Timestamp, ToolCall,
    ToolResultStatus, SCHEMA_VERSION,
};
use serde_json::{Map, Value};

#[derive(Debug, thiserror::Error)]
pub enum CodecError {
    #[error("invalid JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("not a JSON object")]
    NotAnObject,
    #[error("legacy message: {0}")]
    Legacy(String),
}

/// Serialises a message for storage. An Unknown body is written as the raw
/// JSON it was read from, so it survives unchanged.
pub fn encode(message: &Message) -> Result<String, CodecError> {
    match &message.body {
        MessageType::Unknown { raw } => {
            let mut obj = Map::new();
            obj.insert("id".into(), Value::from(message.id.0));
            obj.insert("created_at".into(), Value::from(message.created_at.0));
            obj.insert("schema_version".into(), Value::from(message.schema_version));
            obj.insert("body".into(), raw.clone());
            if !message.meta.is_empty() {
                obj.insert("meta".into(), serde_json::to_value(&message.meta)?);
            }
            Ok(Value::Object(obj).to_string())
        }
        _ => Ok(serde_json::to_string(message)?),
    }
}

/// Reads a stored message. `id` and `created_at` come from the row's indexed
/// columns, which win over the JSON (a legacy row has them only there).
pub fn decode(json: &str, id: MessageId, created_at: Timestamp) -> Result<Message, CodecError> {
    // Fast path: a current message with a known tag parses straight into
    // its type. Anything else (unknown tag, legacy shape, damage) takes the
    // forgiving path below, which also produces the precise error.
    if let Ok(fast) = serde_json::from_str::<Current>(json) {
        if fast.schema_version == SCHEMA_VERSION && fast.body.kind() != MessageKind::Unknown {
            return Ok(Message { id, created_at, schema_version: SCHEMA_VERSION, body: fast.body, meta: fast.meta });
        }
    }
    let value: Value = serde_json::from_str(json)?;
    let Value::Object(mut obj) = value else { return Err(CodecError::NotAnObject) };
    let version = obj.get("schema_version").and_then(Value::as_u64).unwrap_or(0);
    if version > u64::from(SCHEMA_VERSION) {
        tracing::warn!(version, "message from a newer Braid loaded as Unknown; its JSON is kept as is");
        let meta = obj.remove("meta").and_then(|m| serde_json::from_value(m).ok()).unwrap_or_default();
        let raw = obj.remove("body").unwrap_or(Value::Null);
        let schema_version = u32::try_from(version).unwrap_or(u32::MAX);
        return Ok(Message { id, created_at, schema_version, body: MessageType::Unknown { raw }, meta });
    }
    if version == 0 && !obj.contains_key("body") {
        let body = migrate_legacy(obj)?;
        return Ok(Message::new(id, created_at, body));
    }
    let meta = match obj.remove("meta") {
        Some(m) => serde_json::from_value(m)?,
        None => MessageMeta::default(),
    };
    let body = decode_body(obj.remove("body").unwrap_or(Value::Null))?;
    Ok(Message { id, created_at, schema_version: SCHEMA_VERSION, body, meta })
}

/// The stored shape of a current message (id and time come from columns).
#[derive(serde::Deserialize)]
struct Current {
    schema_version: u32,
    body: MessageType,
    #[serde(default)]
    meta: MessageMeta,
}

/// Reads a message body; a tag this build does not know is kept as Unknown.
pub fn decode_body(body: Value) -> Result<MessageType, CodecError> {
    let tag = body.get("type").and_then(Value::as_str).unwrap_or("");
    let known = MessageKind::ALL.iter().any(|k| *k != MessageKind::Unknown && k.tag() == tag);
    if !known {
        tracing::warn!(tag, "message with an unknown type loaded as Unknown; its JSON is kept as is");
        return Ok(MessageType::Unknown { raw: body });
    }
    Ok(serde_json::from_value(body)?)
}

/// The legacy shape: `{"role", "content", "tool_calls"?: [{id, function:
/// {name, arguments}}], "tool_call_id"?}`. Assistant text next to tool calls
/// is kept on the ToolRequest, so nothing is lost.
fn migrate_legacy(obj: Map<String, Value>) -> Result<MessageType, CodecError> {
    let role = obj.get("role").and_then(Value::as_str).unwrap_or("");
    let content = match obj.get("content") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    };
    if role == "tool" {
        let request_id = obj
            .get("tool_call_id")
            .and_then(Value::as_str)
            .ok_or_else(|| CodecError::Legacy("tool message without tool_call_id".into()))?;
        return Ok(MessageType::ToolResult {
            request_id: request_id.into(),
            status: ToolResultStatus::Success,
            output: content,
            error: None,
            recoverable: false,
            duration_ms: 0,
            finished_at: Timestamp::default(),
        });
    }
    let role = match role {
        "user" => Role::User,
        "assistant" => Role::Assistant,
        "system" => Role::System,
        other => return Err(CodecError::Legacy(format!("unknown role {other:?}"))),
    };
    match obj.get("tool_calls") {
        Some(Value::Array(calls)) if !calls.is_empty() => {
            let calls = calls.iter().map(legacy_call).collect::<Result<Vec<_>, _>>()?;
            Ok(MessageType::ToolRequest { text: (!content.is_empty()).then_some(content), calls })
        }
        _ => Ok(MessageType::Text { role, parts: vec![ContentPart::Text { text: content }] }),
    }
}

fn legacy_call(call: &Value) -> Result<ToolCall, CodecError> {
    let id = call.get("id").and_then(Value::as_str).unwrap_or_default();
    let function = call.get("function").unwrap_or(call);
    let name = function.get("name").and_then(Value::as_str).unwrap_or_default();
    if id.is_empty() || name.is_empty() {
        return Err(CodecError::Legacy(format!("tool call without id or name: {call}")));
    }
    let arguments = match function.get("arguments") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => "{}".to_owned(),
        Some(other) => other.to_string(),
    };
    Ok(ToolCall { id: id.into(), name: name.to_owned(), arguments, approval: Default::default() })
}
