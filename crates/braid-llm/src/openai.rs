//! OpenAI Chat Completions (and every server that speaks it: Ollama, LM
//! Studio, llama.cpp, vLLM, OpenRouter, DeepSeek, …): request encoding and
//! stream decoding, both pure.

use crate::render::{as_text, tool_result_text};
use crate::sse::SseEvent;
use crate::{LlmError, LlmRequest, ProviderEvent, ToolChoice};
use braid_core::llm::{StopReason, Usage};
use braid_core::vision::image_as_text;
use braid_protocol::{ContentPart, ImageSource, MessageType, Role};
use serde::Deserialize;
use serde_json::{json, Value};
use std::borrow::Cow;

/// The same request asked for in one piece (no stream): for servers that
/// stream nothing when tools are offered.
pub fn encode_whole(request: &LlmRequest) -> Value {
    let mut body = encode(request);
    if let Some(obj) = body.as_object_mut() {
        obj.insert("stream".into(), Value::Bool(false));
        obj.remove("stream_options");
    }
    body
}

/// A whole (non-streamed) chat completion as the events a stream would
/// have given.
pub fn decode_whole(provider: &str, body: &Value) -> Result<Vec<ProviderEvent>, LlmError> {
    let bad = |detail: &str| LlmError::Protocol { provider: provider.to_owned(), detail: detail.to_owned() };
    let choice = body.get("choices").and_then(|c| c.get(0)).ok_or_else(|| bad("no choices in the answer"))?;
    let message = choice.get("message").ok_or_else(|| bad("no message in the answer"))?;
    let mut out = Vec::new();
    if let Some(text) = message.get("content").and_then(Value::as_str).filter(|t| !t.is_empty()) {
        out.push(ProviderEvent::TextDelta(text.to_owned()));
    }
    let mut calls = message.get("tool_calls").and_then(Value::as_array).cloned().unwrap_or_default();
    // The legacy form (`function_call`, one call without an id).
    if let Some(f) = message.get("function_call").filter(|_| calls.is_empty()) {
        calls.push(json!({"id": LEGACY_CALL_ID, "function": f}));
    }
    for (i, call) in calls.iter().enumerate() {
        let function = call.get("function");
        out.push(ProviderEvent::ToolCallDelta {
            index: i as u32,
            id: call.get("id").and_then(Value::as_str).map(str::to_owned),
            name: function.and_then(|f| f.get("name")).and_then(Value::as_str).map(tool_name),
            arguments: function.and_then(|f| f.get("arguments")).and_then(Value::as_str).unwrap_or("").to_owned(),
        });
    }
    if let Some(u) = body.get("usage") {
        let n = |k: &str| u.get(k).and_then(Value::as_u64).unwrap_or(0) as u32;
        out.push(ProviderEvent::Usage(Usage {
            prompt_tokens: n("prompt_tokens"),
            completion_tokens: n("completion_tokens"),
        }));
    }
    let stop = match choice.get("finish_reason").and_then(Value::as_str) {
        Some("tool_calls" | "function_call") => StopReason::ToolUse,
        _ if !calls.is_empty() => StopReason::ToolUse,
        Some("length") => StopReason::MaxTokens,
        Some("stop") | None => StopReason::EndTurn,
        Some(other) => StopReason::Other(other.to_owned()),
    };
    out.push(ProviderEvent::Finished(stop));
    Ok(out)
}

/// The id given to a legacy `function_call`, which has none.
const LEGACY_CALL_ID: &str = "call_legacy_0";

/// A tool's name as the model gave it, without the `functions.` some
/// servers put before it.
fn tool_name(name: &str) -> String {
    name.trim().strip_prefix("functions.").unwrap_or(name.trim()).to_owned()
}

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
                    // Not prepared (no pixels attached): what was read from it.
                    ImageSource::FilePath { .. } | ImageSource::Stored(_) => {
                        content.push(json!({"type": "text", "text": image_as_text(&m.body).unwrap_or_default()}))
                    }
                }
                // Beside pixels only: the text stand-in above already has it.
                if let (Some(t), ImageSource::Base64 { .. } | ImageSource::Url { .. }) = (recognized_text, source) {
                    content.push(json!({"type": "text", "text": braid_core::vision::ocr_beside_pixels(t)}));
                }
                messages.push(json!({"role": "user", "content": content}));
            }
            MessageType::ToolRequest { text, calls } => {
                let calls: Vec<Value> = calls
                    .iter()
                    .map(|c| json!({"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}))
                    .collect();
                // A string, never null: llama.cpp's server rejects a null
                // content (OpenAI takes both).
                let content = text.as_deref().unwrap_or("");
                messages.push(json!({"role": "assistant", "content": content, "tool_calls": calls}));
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
    if let Some(t) = request.temperature {
        body["temperature"] = json!(t);
    }
    if !request.tools.is_empty() {
        body["tools"] = Value::Array(encode_tools(&request.tools));
        if let Some(choice) = &request.tool_choice {
            body["tool_choice"] = match choice {
                ToolChoice::Auto => json!("auto"),
                ToolChoice::Required => json!("required"),
                ToolChoice::Function(name) => json!({"type": "function", "function": {"name": name}}),
                ToolChoice::None => json!("none"),
            };
        }
    }
    body
}

/// The tools as the request carries them.
pub fn encode_tools(tools: &[crate::ToolDefinition]) -> Vec<Value> {
    tools
        .iter()
        .map(|t| json!({"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.input_schema}}))
        .collect()
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
    /// Tool calls came in the current form: a legacy `function_call`
    /// beside them (llama-cpp-python sends both) is the same call.
    tool_calls: bool,
}

impl Decoder {
    pub fn decode(&mut self, provider: &str, event: &SseEvent, out: &mut Vec<ProviderEvent>) -> Result<(), LlmError> {
        let data = event.data.trim();
        if data == "[DONE]" {
            self.done = true;
            // No finish reason: the server stopped the answer before it
            // was done (llama-cpp-python cuts a stream when another
            // request comes), so it is not stored as whole.
            let Some(stop) = self.stop.take() else {
                return Err(LlmError::StreamCut { provider: provider.to_owned() });
            };
            out.push(ProviderEvent::Finished(stop));
            return Ok(());
        }
        // Typed and borrowing: unknown fields (ids, logprobs, …) are
        // skipped without allocating. Anything else falls back to a look
        // for an error object.
        let chunk = match serde_json::from_str::<Chunk<'_>>(data) {
            Ok(c) => c,
            Err(_) => {
                if let Some(err) = serde_json::from_str::<Value>(data).ok().as_ref().and_then(|v| v.get("error")) {
                    return Err(stream_error(provider, err));
                }
                tracing::warn!(provider, "ignoring a stream event that is not a completion chunk");
                return Ok(());
            }
        };
        if let Some(err) = &chunk.error {
            return Err(stream_error(provider, err));
        }
        // Servers send `null` for absent fields as often as they omit them.
        if let Some(choice) = chunk.choices.and_then(|c| c.into_iter().next()) {
            let delta = choice.delta.unwrap_or_default();
            if let Some(text) = delta.content.filter(|t| !t.is_empty()) {
                out.push(ProviderEvent::TextDelta(text.into_owned()));
            }
            let calls = delta.tool_calls.unwrap_or_default();
            self.tool_calls |= !calls.is_empty();
            for (i, call) in calls.into_iter().enumerate() {
                let function = call.function.unwrap_or_default();
                out.push(ProviderEvent::ToolCallDelta {
                    index: call.index.unwrap_or(i as u32),
                    id: call.id.map(Cow::into_owned),
                    name: function.name.as_deref().map(tool_name),
                    arguments: function.arguments.map(Cow::into_owned).unwrap_or_default(),
                });
            }
            // The legacy form alone: one call, its name in the first piece.
            if let Some(f) = delta.function_call.filter(|_| !self.tool_calls) {
                let first = f.name.is_some();
                out.push(ProviderEvent::ToolCallDelta {
                    index: 0,
                    id: first.then(|| LEGACY_CALL_ID.to_owned()),
                    name: f.name.as_deref().map(tool_name),
                    arguments: f.arguments.map(Cow::into_owned).unwrap_or_default(),
                });
            }
            if let Some(reason) = choice.finish_reason {
                self.stop = Some(match reason.as_ref() {
                    "stop" => StopReason::EndTurn,
                    "tool_calls" | "function_call" => StopReason::ToolUse,
                    "length" => StopReason::MaxTokens,
                    other => StopReason::Other(other.to_owned()),
                });
            }
        }
        if let Some(u) = chunk.usage {
            out.push(ProviderEvent::Usage(Usage {
                prompt_tokens: u.prompt_tokens,
                completion_tokens: u.completion_tokens,
            }));
        }
        Ok(())
    }

    /// At the end of the body: fine only after `[DONE]`.
    pub fn finish(&mut self, _out: &mut Vec<ProviderEvent>) -> bool {
        self.done
    }
}

#[derive(Deserialize)]
struct Chunk<'a> {
    #[serde(default, borrow)]
    choices: Option<Vec<Choice<'a>>>,
    #[serde(default)]
    usage: Option<RawUsage>,
    #[serde(default)]
    error: Option<Value>,
}

#[derive(Deserialize)]
struct Choice<'a> {
    #[serde(default, borrow)]
    delta: Option<Delta<'a>>,
    #[serde(default, borrow)]
    finish_reason: Option<Cow<'a, str>>,
}

#[derive(Deserialize, Default)]
struct Delta<'a> {
    #[serde(default, borrow)]
    content: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    tool_calls: Option<Vec<RawToolCall<'a>>>,
    #[serde(default, borrow)]
    function_call: Option<RawFunction<'a>>,
}

#[derive(Deserialize)]
struct RawToolCall<'a> {
    #[serde(default)]
    index: Option<u32>,
    #[serde(default, borrow)]
    id: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    function: Option<RawFunction<'a>>,
}

#[derive(Deserialize, Default)]
struct RawFunction<'a> {
    #[serde(default, borrow)]
    name: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    arguments: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct RawUsage {
    #[serde(default)]
    prompt_tokens: u32,
    #[serde(default)]
    completion_tokens: u32,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(data: &str) -> Vec<ProviderEvent> {
        let mut out = Vec::new();
        Decoder::default().decode("t", &SseEvent { event: None, data: data.into() }, &mut out).unwrap();
        out
    }

    #[test]
    fn nulls_are_as_good_as_absent_fields() {
        let e = decode(
            r#"{"choices":[{"index":0,"delta":{"content":"hi","tool_calls":null,"role":null},"finish_reason":null,"logprobs":null}],"usage":null}"#,
        );
        assert_eq!(e, [ProviderEvent::TextDelta("hi".into())]);
        assert!(decode(r#"{"choices":null}"#).is_empty());
        let e = decode(
            r#"{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":null}}]}}]}"#,
        );
        assert_eq!(
            e,
            [ProviderEvent::ToolCallDelta {
                index: 0,
                id: Some("c".into()),
                name: Some("f".into()),
                arguments: String::new()
            }]
        );
        assert_eq!(decode(r#"{"choices":[{"delta":"#), [], "garbage is ignored");
    }

    #[test]
    fn done_without_a_finish_reason_is_a_cut_stream_not_a_whole_answer() {
        let mut d = Decoder::default();
        let mut out = Vec::new();
        let event = |data: &str| SseEvent { event: None, data: data.into() };
        d.decode("t", &event(r#"{"choices":[{"delta":{"content":"The capital of"}}]}"#), &mut out).unwrap();
        let e = d.decode("t", &event("[DONE]"), &mut out).unwrap_err();
        assert_eq!(e, LlmError::StreamCut { provider: "t".into() });
        assert!(!out.iter().any(|e| matches!(e, ProviderEvent::Finished(_))));
    }

    #[test]
    fn a_legacy_function_call_is_a_tool_call_streamed_or_whole() {
        let mut d = Decoder::default();
        let mut out = Vec::new();
        let event = |data: &str| SseEvent { event: None, data: data.into() };
        d.decode(
            "t",
            &event(r#"{"choices":[{"delta":{"function_call":{"name":"functions.read_file","arguments":"{\"pa"}}}]}"#),
            &mut out,
        )
        .unwrap();
        d.decode("t", &event(r#"{"choices":[{"delta":{"function_call":{"arguments":"th\":\"a\"}"}},"finish_reason":"function_call"}]}"#), &mut out).unwrap();
        d.decode("t", &event("[DONE]"), &mut out).unwrap();
        let mut a = crate::assemble::ResponseAssembler::default();
        for e in &out {
            a.push(e);
        }
        let response = a.finish("t").unwrap();
        assert_eq!(response.stop_reason, StopReason::ToolUse);
        assert_eq!(response.tool_calls.len(), 1);
        assert_eq!(
            (response.tool_calls[0].name.as_str(), response.tool_calls[0].arguments.as_str()),
            ("read_file", r#"{"path":"a"}"#)
        );

        // Both forms in one delta (llama-cpp-python): the call once.
        let mut d = Decoder::default();
        let mut out = Vec::new();
        let both = r#"{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"f","arguments":"{}"}}],"function_call":{"name":"f","arguments":"{}"}}}]}"#;
        d.decode("t", &event(both), &mut out).unwrap();
        d.decode(
            "t",
            &event(r#"{"choices":[{"delta":{"function_call":{"arguments":""}},"finish_reason":"tool_calls"}]}"#),
            &mut out,
        )
        .unwrap();
        let calls = out.iter().filter(|e| matches!(e, ProviderEvent::ToolCallDelta { .. })).count();
        assert_eq!(calls, 1, "{out:?}");

        let body = json!({"choices":[{"message":{"content":null,"function_call":{"name":"read_file","arguments":"{}"}},"finish_reason":"function_call"}]});
        let events = decode_whole("t", &body).unwrap();
        assert!(events
            .iter()
            .any(|e| matches!(e, ProviderEvent::ToolCallDelta { name: Some(n), id: Some(_), .. } if n == "read_file")));
        assert_eq!(events.last(), Some(&ProviderEvent::Finished(StopReason::ToolUse)));
    }
}
