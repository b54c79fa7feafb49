//! OpenAI Chat Completions (and every server that speaks it: Ollama, LM
//! Studio, llama.cpp, vLLM, OpenRouter, DeepSeek, …): request encoding and
//! stream decoding, both pure.

use crate::render::{as_text, tool_result_text};
use crate::sse::SseEvent;
use crate::{LlmError, LlmRequest, ProviderEvent, ToolChoice};
use braid_core::llm::{StopReason, Usage};
use braid_protocol::{ContentPart, ImageSource, MessageType, Role};
use serde_json::{json, Value};

pub fn encode(request: &LlmRequest) -> Value {
    let mut messages = Vec::with_capacity(request.messages.len() + 1);
    if let Some(system) = &request.system {
        messages.push(json!({"role": "system", "content": system}));
    }
    for m in &request.messages {
        match &m.body {
            MessageType::Text { role, parts } => {
                let text: String = parts.iter().map(|ContentPart::Text { text }| text.as_str()).collect();
                messages.push(json!({"role": role_name(*role), "content": text}));
            }
            MessageType::Image { source, recognized_text, .. } => {
                let mut content = Vec::new();
                match source {
                    ImageSource::Base64 { media_type, data } => content.push(
                        json!({"type": "image_url", "image_url": {"url": format!("data:{media_type};base64,{data}")}}),
                    ),
                    ImageSource::Url { url } => content.push(json!({"type": "image_url", "image_url": {"url": url}})),
                    ImageSource::FilePath { path } => {
                        content.push(json!({"type": "text", "text": format!("[image {path}]")}))
                    }
                }
                if let Some(t) = recognized_text {
                    content.push(json!({"type": "text", "text": format!("Text recognised in the image (OCR):\n{t}")}));
                }
                messages.push(json!({"role": "user", "content": content}));
            }
            MessageType::ToolRequest { text, calls } => {
                let calls: Vec<Value> = calls
                    .iter()
                    .map(|c| json!({"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}))
                    .collect();
                messages.push(json!({"role": "assistant", "content": text, "tool_calls": calls}));
            }
            MessageType::ToolResult { request_id, output, error, .. } => {
                messages.push(json!({"role": "tool", "tool_call_id": request_id, "content": tool_result_text(output, error.as_deref())}));
            }
            other => {
                if let Some(text) = as_text(other) {
                    messages.push(json!({"role": "user", "content": text}));
                }
            }
        }
    }
    let mut body = json!({
        "model": request.model,
        "messages": messages,
        "stream": true,
        "stream_options": {"include_usage": true},
    });
    if let Some(max) = request.max_tokens {
        // `max_tokens`, not `max_completion_tokens`: every compatible
        // server understands the older name.
        body["max_tokens"] = json!(max);
    }
    if !request.tools.is_empty() {
        body["tools"] = request
            .tools
            .iter()
            .map(|t| json!({"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.input_schema}}))
            .collect();
        if let Some(choice) = &request.tool_choice {
            body["tool_choice"] = match choice {
                ToolChoice::Auto => json!("auto"),
                ToolChoice::Required => json!("required"),
                ToolChoice::Function(name) => json!({"type": "function", "function": {"name": name}}),
            };
        }
    }
    body
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::System => "system",
        Role::User => "user",
        Role::Assistant => "assistant",
    }
}

/// Decodes `chat.completion.chunk` events; `[DONE]` ends the stream.
#[derive(Debug, Default)]
pub struct Decoder {
    stop: Option<StopReason>,
    done: bool,
}

impl Decoder {
    pub fn decode(&mut self, provider: &str, event: &SseEvent, out: &mut Vec<ProviderEvent>) -> Result<(), LlmError> {
        let data = event.data.trim();
        if data == "[DONE]" {
            self.done = true;
            out.push(ProviderEvent::Finished(self.stop.take().unwrap_or_default()));
            return Ok(());
        }
        let Ok(v) = serde_json::from_str::<Value>(data) else {
            tracing::warn!(provider, "ignoring a stream event that is not JSON");
            return Ok(());
        };
        if let Some(err) = v.get("error") {
            return Err(stream_error(provider, err));
        }
        if let Some(choice) = v.get("choices").and_then(|c| c.get(0)) {
            let delta = &choice["delta"];
            if let Some(text) = delta.get("content").and_then(Value::as_str).filter(|t| !t.is_empty()) {
                out.push(ProviderEvent::TextDelta(text.to_owned()));
            }
            for (i, call) in delta.get("tool_calls").and_then(Value::as_array).into_iter().flatten().enumerate() {
                let index = call.get("index").and_then(Value::as_u64).unwrap_or(i as u64) as u32;
                let function = &call["function"];
                out.push(ProviderEvent::ToolCallDelta {
                    index,
                    id: call.get("id").and_then(Value::as_str).map(str::to_owned),
                    name: function.get("name").and_then(Value::as_str).map(str::to_owned),
                    arguments: function.get("arguments").and_then(Value::as_str).unwrap_or_default().to_owned(),
                });
            }
            if let Some(reason) = choice.get("finish_reason").and_then(Value::as_str) {
                self.stop = Some(match reason {
                    "stop" => StopReason::EndTurn,
                    "tool_calls" | "function_call" => StopReason::ToolUse,
                    "length" => StopReason::MaxTokens,
                    other => StopReason::Other(other.to_owned()),
                });
            }
        }
        if let Some(u) = v.get("usage").filter(|u| u.is_object()) {
            let n = |k: &str| u.get(k).and_then(Value::as_u64).unwrap_or(0) as u32;
            out.push(ProviderEvent::Usage(Usage {
                prompt_tokens: n("prompt_tokens"),
                completion_tokens: n("completion_tokens"),
            }));
        }
        Ok(())
    }

    /// At the end of the body: fine only after `[DONE]`.
    pub fn finish(&mut self, _out: &mut Vec<ProviderEvent>) -> bool {
        self.done
    }
}

/// An error sent inside the stream.
pub fn stream_error(provider: &str, err: &Value) -> LlmError {
    let message = err.get("message").and_then(Value::as_str).unwrap_or("unknown error").to_owned();
    let code = err.get("code").map(|c| c.to_string()).unwrap_or_default();
    if crate::http_error::mentions_context_length(&format!("{code} {message}")) {
        return LlmError::ContextLengthExceeded { message };
    }
    LlmError::Server { provider: provider.to_owned(), status: 500, message }
}
