//! The three provider families' streams, built from small pieces: OpenAI's
//! `data:` lines, Anthropic's named events, Gemini's candidates.

use braid_protocol::ProviderKind;
use serde_json::{json, Value};

/// `data: {json}` events (OpenAI, Gemini).
pub fn data(events: &[Value]) -> Vec<String> {
    events.iter().map(|d| format!("data: {d}\n\n")).collect()
}

/// `event: name` + `data: {json}` events (Anthropic).
pub fn named(events: &[(&str, Value)]) -> Vec<String> {
    events.iter().map(|(e, d)| format!("event: {e}\ndata: {d}\n\n")).collect()
}

/// A whole, finished answer of `text` in the family's own format.
pub fn answer(kind: ProviderKind, text: &str) -> Vec<String> {
    match kind {
        ProviderKind::OpenAiCompatible => {
            let mut v = data(&[
                json!({"choices":[{"index":0,"delta":{"role":"assistant","content":text}}]}),
                json!({"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}),
            ]);
            v.push("data: [DONE]\n\n".to_owned());
            v
        }
        ProviderKind::Anthropic => named(&[
            ("message_start", json!({"type":"message_start","message":{"usage":{"input_tokens":10}}})),
            (
                "content_block_start",
                json!({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}),
            ),
            (
                "content_block_delta",
                json!({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":text}}),
            ),
            ("content_block_stop", json!({"type":"content_block_stop","index":0})),
            (
                "message_delta",
                json!({"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":3}}),
            ),
            ("message_stop", json!({"type":"message_stop"})),
        ]),
        ProviderKind::Gemini => {
            data(&[json!({"candidates":[{"content":{"role":"model","parts":[{"text":text}]},"finishReason":"STOP"}]})])
        }
    }
}

/// The base URL a provider of this family is configured with on `base`.
pub fn base_url(kind: ProviderKind, base: &str) -> String {
    match kind {
        ProviderKind::Gemini => format!("{base}/v1beta"),
        _ => format!("{base}/v1"),
    }
}
