//! Google Gemini `streamGenerateContent` (SSE with `alt=sse`): request
//! encoding (contents/parts, functionCall/functionResponse, inline_data)
//! and stream decoding. Gemini has no tool call ids; stable ones are made
//! up here and mapped back to function names for the responses.

use crate::render::{as_text, tool_result_text};
use crate::sse::SseEvent;
use crate::{LlmError, LlmRequest, ProviderEvent, ToolChoice};
use braid_core::llm::{StopReason, Usage};
use braid_core::vision::image_as_text;
use braid_protocol::{ContentPart, ImageSource, MessageType, Role};
use serde_json::{json, Value};
use std::collections::HashMap;

pub fn encode(request: &LlmRequest) -> Value {
    let mut contents: Vec<(String, Vec<Value>)> = Vec::new();
    let mut push = |role: &str, part: Value| match contents.last_mut() {
        Some((r, parts)) if r == role => parts.push(part),
        _ => contents.push((role.to_owned(), vec![part])),
    };
    let mut names: HashMap<&str, &str> = HashMap::new();
    for m in &request.messages {
        match &m.body {
            MessageType::Text { role, parts } => {
                let text: String = parts.iter().map(|ContentPart::Text { text }| text.as_str()).collect();
                if !text.is_empty() {
                    push(if *role == Role::Assistant { "model" } else { "user" }, json!({"text": text}));
                }
            }
            MessageType::Image { source, recognized_text, .. } => {
                match source {
                    ImageSource::Base64 { media_type, data } => {
                        push("user", json!({"inline_data": {"mime_type": media_type, "data": data}}))
                    }
                    ImageSource::Url { url } => push("user", json!({"file_data": {"file_uri": url}})),
                    // Not prepared (no pixels attached): what was read from it.
                    ImageSource::FilePath { .. } | ImageSource::Stored(_) => {
                        push("user", json!({"text": image_as_text(&m.body).unwrap_or_default()}))
                    }
                }
                // Beside pixels only: the text stand-in above already has it.
                if let (Some(t), ImageSource::Base64 { .. } | ImageSource::Url { .. }) = (recognized_text, source) {
                    push("user", json!({"text": braid_core::vision::ocr_beside_pixels(t)}));
                }
            }
            MessageType::ToolRequest { text, calls } => {
                if let Some(t) = text.as_deref().filter(|t| !t.is_empty()) {
                    push("model", json!({"text": t}));
                }
                for c in calls {
                    names.insert(&c.id, &c.name);
                    let args: Value = serde_json::from_str(&c.arguments).unwrap_or_else(|_| json!({}));
                    push("model", json!({"functionCall": {"name": c.name, "args": args}}));
                }
            }
            MessageType::ToolResult { request_id, output, error, .. } => {
                let name = names.get(request_id.as_str()).copied().unwrap_or(request_id.as_str());
                let content = tool_result_text(output, error.as_deref());
                push("user", json!({"functionResponse": {"name": name, "response": {"content": content}}}));
            }
            other => {
                if let Some(text) = as_text(other) {
                    push("user", json!({"text": text}));
                }
            }
        }
    }
    let contents: Vec<Value> =
        contents.into_iter().map(|(role, parts)| json!({"role": role, "parts": parts})).collect();
    let mut body = json!({"contents": contents});
    if let Some(system) = &request.system {
        body["systemInstruction"] = json!({"parts": [{"text": system}]});
    }
    if let Some(max) = request.max_tokens {
        body["generationConfig"] = json!({"maxOutputTokens": max});
    }
    if let Some(t) = request.temperature {
        body["generationConfig"]["temperature"] = json!(t);
    }
    if !request.tools.is_empty() {
        let decls: Vec<Value> = request
            .tools
            .iter()
            .map(|t| json!({"name": t.name, "description": t.description, "parameters": t.input_schema}))
            .collect();
        body["tools"] = json!([{"functionDeclarations": decls}]);
        if let Some(choice) = &request.tool_choice {
            body["toolConfig"] = match choice {
                ToolChoice::Auto => json!({"functionCallingConfig": {"mode": "AUTO"}}),
                ToolChoice::Required => json!({"functionCallingConfig": {"mode": "ANY"}}),
                ToolChoice::Function(name) => {
                    json!({"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": [name]}})
                }
                ToolChoice::None => json!({"functionCallingConfig": {"mode": "NONE"}}),
            };
        }
    }
    body
}

#[derive(Debug, Default)]
pub struct Decoder {
    calls: u32,
    stop: Option<StopReason>,
}

impl Decoder {
    pub fn decode(&mut self, provider: &str, event: &SseEvent, out: &mut Vec<ProviderEvent>) -> Result<(), LlmError> {
        let Ok(v) = serde_json::from_str::<Value>(&event.data) else {
            tracing::warn!(provider, "ignoring a stream event that is not JSON");
            return Ok(());
        };
        if let Some(err) = v.get("error") {
            let status = err["code"].as_u64().unwrap_or(500) as u16;
            return Err(crate::http_error::classify(provider, status, None, &json!({"error": err}).to_string()));
        }
        let candidate = &v["candidates"][0];
        for part in candidate["content"]["parts"].as_array().into_iter().flatten() {
            if let Some(t) = part["text"].as_str().filter(|t| !t.is_empty()) {
                out.push(ProviderEvent::TextDelta(t.to_owned()));
            }
            if let Some(call) = part.get("functionCall") {
                self.calls += 1;
                out.push(ProviderEvent::ToolCallDelta {
                    index: self.calls - 1,
                    id: Some(format!("gemini_call_{}", self.calls)),
                    name: call["name"].as_str().map(str::to_owned),
                    arguments: call.get("args").map_or_else(|| "{}".to_owned(), Value::to_string),
                });
            }
        }
        if let Some(reason) = candidate["finishReason"].as_str() {
            self.stop = Some(match reason {
                "STOP" if self.calls > 0 => StopReason::ToolUse,
                "STOP" => StopReason::EndTurn,
                "MAX_TOKENS" => StopReason::MaxTokens,
                other => StopReason::Other(other.to_owned()),
            });
        }
        if let Some(u) = v.get("usageMetadata") {
            let n = |k: &str| u[k].as_u64().unwrap_or(0) as u32;
            out.push(ProviderEvent::Usage(Usage {
                prompt_tokens: n("promptTokenCount"),
                completion_tokens: n("candidatesTokenCount"),
            }));
        }
        Ok(())
    }

    /// Gemini's stream simply ends; it is complete if a finish reason came.
    pub fn finish(&mut self, out: &mut Vec<ProviderEvent>) -> bool {
        match self.stop.take() {
            Some(reason) => {
                out.push(ProviderEvent::Finished(reason));
                true
            }
            None => false,
        }
    }
}
