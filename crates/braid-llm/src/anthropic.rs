//! Anthropic Messages API: request encoding (content blocks, tool_use and
//! tool_result, strict user/assistant alternation) and stream decoding.

use crate::render::{as_text, tool_result_text};
use crate::sse::SseEvent;
use crate::{LlmError, LlmRequest, ProviderEvent, ToolChoice};
use braid_core::llm::{StopReason, Usage};
use braid_core::vision::image_as_text;
use braid_protocol::{ContentPart, ImageSource, MessageType, Role};
use serde_json::{json, Value};

/// Anthropic requires max_tokens; this is used when the caller sets none.
pub const DEFAULT_MAX_TOKENS: u32 = 4096;

pub fn encode(request: &LlmRequest) -> Value {
    // Messages must alternate; consecutive blocks of one role merge.
    let mut messages: Vec<(String, Vec<Value>)> = Vec::new();
    let mut push = |role: &str, block: Value| match messages.last_mut() {
        Some((r, blocks)) if r == role => blocks.push(block),
        _ => messages.push((role.to_owned(), vec![block])),
    };
    for m in &request.messages {
        match &m.body {
            MessageType::Text { role, parts } => {
                let text: String = parts.iter().map(|ContentPart::Text { text }| text.as_str()).collect();
                let role = if *role == Role::Assistant { "assistant" } else { "user" };
                if !text.is_empty() {
                    push(role, json!({"type": "text", "text": text}));
                }
            }
            MessageType::Image { source, recognized_text, .. } => {
                match source {
                    ImageSource::Base64 { media_type, data } => push(
                        "user",
                        json!({"type": "image", "source": {"type": "base64", "media_type": media_type, "data": data}}),
                    ),
                    ImageSource::Url { url } => {
                        push("user", json!({"type": "image", "source": {"type": "url", "url": url}}))
                    }
                    // Not prepared (no pixels attached): what was read from it.
                    ImageSource::FilePath { .. } | ImageSource::Stored(_) => {
                        push("user", json!({"type": "text", "text": image_as_text(&m.body).unwrap_or_default()}))
                    }
                }
                // Beside pixels only: the text stand-in above already has it.
                if let (Some(t), ImageSource::Base64 { .. } | ImageSource::Url { .. }) = (recognized_text, source) {
                    push("user", json!({"type": "text", "text": braid_core::vision::ocr_beside_pixels(t)}));
                }
            }
            MessageType::ToolRequest { text, calls } => {
                if let Some(t) = text.as_deref().filter(|t| !t.is_empty()) {
                    push("assistant", json!({"type": "text", "text": t}));
                }
                for c in calls {
                    let input: Value = serde_json::from_str(&c.arguments).unwrap_or_else(|_| json!({}));
                    push("assistant", json!({"type": "tool_use", "id": c.id, "name": c.name, "input": input}));
                }
            }
            MessageType::ToolResult { request_id, output, error, .. } => push(
                "user",
                json!({"type": "tool_result", "tool_use_id": request_id, "content": tool_result_text(output, error.as_deref()), "is_error": error.is_some()}),
            ),
            other => {
                if let Some(text) = as_text(other) {
                    push("user", json!({"type": "text", "text": text}));
                }
            }
        }
    }
    let messages: Vec<Value> =
        messages.into_iter().map(|(role, content)| json!({"role": role, "content": content})).collect();
    let mut body = json!({
        "model": request.model,
        "messages": messages,
        "max_tokens": request.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS),
        "stream": true,
    });
    if let Some(system) = &request.system {
        body["system"] = json!(system);
    }
    if let Some(t) = request.temperature {
        // Anthropic's range is 0 to 1; Braid's goes to 2 like the others.
        body["temperature"] = json!(t.clamp(0.0, 1.0));
    }
    if !request.tools.is_empty() {
        body["tools"] = request
            .tools
            .iter()
            .map(|t| json!({"name": t.name, "description": t.description, "input_schema": t.input_schema}))
            .collect();
        if let Some(choice) = &request.tool_choice {
            body["tool_choice"] = match choice {
                ToolChoice::Auto => json!({"type": "auto"}),
                ToolChoice::Required => json!({"type": "any"}),
                ToolChoice::Function(name) => json!({"type": "tool", "name": name}),
                ToolChoice::None => json!({"type": "none"}),
            };
        }
    }
    body
}

#[derive(Debug, Default)]
pub struct Decoder {
    input_tokens: u32,
    stop: Option<StopReason>,
    done: bool,
}

impl Decoder {
    pub fn decode(&mut self, provider: &str, event: &SseEvent, out: &mut Vec<ProviderEvent>) -> Result<(), LlmError> {
        let Ok(v) = serde_json::from_str::<Value>(&event.data) else {
            tracing::warn!(provider, "ignoring a stream event that is not JSON");
            return Ok(());
        };
        let kind = event.event.as_deref().or_else(|| v.get("type").and_then(Value::as_str)).unwrap_or("");
        match kind {
            "message_start" => {
                self.input_tokens = v["message"]["usage"]["input_tokens"].as_u64().unwrap_or(0) as u32;
            }
            "content_block_start" => {
                let block = &v["content_block"];
                let index = v["index"].as_u64().unwrap_or(0) as u32;
                match block["type"].as_str() {
                    Some("tool_use") => out.push(ProviderEvent::ToolCallDelta {
                        index,
                        id: block["id"].as_str().map(str::to_owned),
                        name: block["name"].as_str().map(str::to_owned),
                        arguments: String::new(),
                    }),
                    Some("text") => {
                        if let Some(t) = block["text"].as_str().filter(|t| !t.is_empty()) {
                            out.push(ProviderEvent::TextDelta(t.to_owned()));
                        }
                    }
                    _ => {}
                }
            }
            "content_block_delta" => {
                let delta = &v["delta"];
                let index = v["index"].as_u64().unwrap_or(0) as u32;
                match delta["type"].as_str() {
                    Some("text_delta") => {
                        if let Some(t) = delta["text"].as_str().filter(|t| !t.is_empty()) {
                            out.push(ProviderEvent::TextDelta(t.to_owned()));
                        }
                    }
                    Some("input_json_delta") => out.push(ProviderEvent::ToolCallDelta {
                        index,
                        id: None,
                        name: None,
                        arguments: delta["partial_json"].as_str().unwrap_or_default().to_owned(),
                    }),
                    _ => {}
                }
            }
            "message_delta" => {
                if let Some(reason) = v["delta"]["stop_reason"].as_str() {
                    self.stop = Some(match reason {
                        "end_turn" | "stop_sequence" => StopReason::EndTurn,
                        "tool_use" => StopReason::ToolUse,
                        "max_tokens" => StopReason::MaxTokens,
                        other => StopReason::Other(other.to_owned()),
                    });
                }
                if let Some(output) = v["usage"]["output_tokens"].as_u64() {
                    out.push(ProviderEvent::Usage(Usage {
                        prompt_tokens: self.input_tokens,
                        completion_tokens: output as u32,
                    }));
                }
            }
            "message_stop" => {
                self.done = true;
                out.push(ProviderEvent::Finished(self.stop.take().unwrap_or_default()));
            }
            "error" => return Err(stream_error(provider, &v["error"])),
            _ => {} // ping, content_block_stop
        }
        Ok(())
    }

    pub fn finish(&mut self, _out: &mut Vec<ProviderEvent>) -> bool {
        self.done
    }
}

fn stream_error(provider: &str, err: &Value) -> LlmError {
    let message = err["message"].as_str().unwrap_or("unknown error").to_owned();
    let provider = provider.to_owned();
    match err["type"].as_str() {
        Some("overloaded_error") => LlmError::Server { provider, status: 529, message },
        Some("rate_limit_error") => LlmError::RateLimited { provider, message, retry_after_ms: None },
        Some("api_error") => LlmError::Server { provider, status: 500, message },
        Some("authentication_error" | "permission_error") => LlmError::Auth { provider, message },
        _ if crate::http_error::mentions_context_length(&message) => LlmError::ContextLengthExceeded { message },
        _ => LlmError::BadRequest { provider, status: 400, message },
    }
}
