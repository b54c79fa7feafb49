//! "What the model sees": each request is kept, as it leaves, in the form
//! the user reads it (the system prompt part by part, every message as the
//! model got it, the tools), with what each part cost. Only the last one
//! per conversation, in memory.

use braid_core::fit;
use braid_llm::render::{as_text, tool_result_text};
use braid_llm::ToolChoice;
use braid_protocol::{ImageSource, TokenEncoding, ToolSpec};
use braid_protocol::{Message, MessageType, Role, SentMessage, SentPart, SentRequest, SentTool, Timestamp};

/// What the request carried, before it is moved into the provider's.
pub(super) struct Sending<'a> {
    pub at: Timestamp,
    pub provider: &'a str,
    pub model: &'a str,
    pub encoding: TokenEncoding,
    pub sees_images: bool,
    pub system: Vec<SentPart>,
    /// As the provider gets them (images already as pixels or as text).
    pub messages: &'a [Message],
    pub tools: &'a [ToolSpec],
    pub tool_choice: Option<&'a ToolChoice>,
    pub max_tokens: u32,
    pub temperature: Option<f64>,
    pub left_out: u32,
    pub tools_held_back: Vec<String>,
}

pub(super) fn record(s: Sending) -> SentRequest {
    let enc = s.encoding;
    SentRequest {
        sent_at: s.at,
        provider: s.provider.to_owned(),
        model: s.model.to_owned(),
        system: s.system,
        messages: s
            .messages
            .iter()
            .map(|m| {
                let (role, text) = read(&m.body);
                SentMessage {
                    id: m.id,
                    role: role.to_owned(),
                    kind: m.body.kind(),
                    text,
                    tokens: fit::cost(m, enc, s.sees_images),
                }
            })
            .collect(),
        tools: s
            .tools
            .iter()
            .map(|t| SentTool {
                name: t.name.clone(),
                description: t.description.clone(),
                tokens: braid_core::tokens::tool_tokens(enc, t),
            })
            .collect(),
        tool_choice: s.tool_choice.map(|c| match c {
            ToolChoice::Auto => "auto".to_owned(),
            ToolChoice::None => "none".to_owned(),
            ToolChoice::Required => "required".to_owned(),
            ToolChoice::Function(name) => name.clone(),
        }),
        max_tokens: s.max_tokens,
        temperature: s.temperature,
        estimated: enc == TokenEncoding::Estimate,
        left_out: s.left_out,
        tools_dropped: false,
        tools_held_back: s.tools_held_back,
    }
}

/// Who speaks a message to the provider, and its text as the model reads it.
fn read(body: &MessageType) -> (&'static str, String) {
    match body {
        MessageType::Text { role, .. } => {
            (if *role == Role::Assistant { "assistant" } else { "user" }, body.plain_text().unwrap_or_default())
        }
        MessageType::ToolRequest { text, calls } => {
            let mut out = text.clone().unwrap_or_default();
            for c in calls {
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(&format!("→ {}({})", c.name, c.arguments));
            }
            ("assistant", out)
        }
        MessageType::ToolResult { output, error, .. } => ("tool", tool_result_text(output, error.as_deref())),
        MessageType::Image { source, .. } => ("user", format!("[image, sent as pixels: {}]", image_name(source))),
        other => ("user", as_text(other).unwrap_or_default()),
    }
}

fn image_name(source: &ImageSource) -> String {
    match source {
        ImageSource::Url { url } => url.clone(),
        ImageSource::FilePath { path } => path.clone(),
        ImageSource::Base64 { media_type, data } => format!("{media_type}, {} bytes of Base64", data.len()),
        ImageSource::Stored(s) => {
            format!("{} {}×{}", s.name.as_deref().unwrap_or(&s.media_type), s.width, s.height)
        }
    }
}
