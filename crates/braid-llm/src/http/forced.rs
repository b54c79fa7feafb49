//! A call the user forced (`/tool read_file …`), on llama.cpp's own
//! server. Its grammar for a required tool lets the model write text
//! first and call the tool after it — which a small model never gets to:
//! it writes on until its limit. So there the call is asked for as what
//! it is, the tool's arguments under the tool's JSON Schema
//! (`response_format`), and what streams back is the call's arguments:
//! the model cannot write anything else. Other servers get the tool
//! choice as the API defines it.

use super::HttpProvider;
use crate::{LlmRequest, LlmStream, ProviderEvent, ToolChoice, ToolDefinition};
use braid_core::llm::StopReason;
use futures::StreamExt;
use serde_json::{json, Map, Value};
use std::time::Duration;

/// A look at the server's `/props` that takes longer is taken as "not
/// llama.cpp" (the request then goes as the API defines it).
const PROBE_TIMEOUT: Duration = Duration::from_secs(2);

/// The tool the request forces, when it forces one it offers.
pub(super) fn tool(request: &LlmRequest) -> Option<ToolDefinition> {
    let Some(ToolChoice::Function(name)) = &request.tool_choice else { return None };
    request.tools.iter().find(|t| &t.name == name).cloned()
}

impl HttpProvider {
    /// Whether the server is llama.cpp's own (it answers `GET /props` with
    /// its build), found out once.
    pub(super) async fn is_llama_cpp(&self) -> bool {
        let probe = async {
            let root = self.base_url.strip_suffix("/v1").unwrap_or(&self.base_url);
            let mut request = self.client.get(format!("{root}/props")).timeout(PROBE_TIMEOUT);
            if let Some(k) = self.api_key.as_ref() {
                request = request.bearer_auth(k.expose());
            }
            let Ok(response) = request.send().await else { return false };
            if !response.status().is_success() {
                return false;
            }
            // Only a small object is read: a server that answers with
            // something else is not llama.cpp's.
            let body = super::body::capped_text(response, 1 << 20).await.unwrap_or_default();
            serde_json::from_str::<Value>(&body).is_ok_and(|v| v.get("default_generation_settings").is_some())
        };
        *self.llama_cpp.get_or_init(|| probe).await
    }
}

/// The forced call's stream: on llama.cpp, the arguments under the tool's
/// schema, streamed as the call; elsewhere the request as it is.
pub(super) fn stream(this: HttpProvider, request: LlmRequest, tool: ToolDefinition) -> LlmStream {
    futures::stream::once(async move {
        if !this.is_llama_cpp().await {
            return this.stream_http(request, None);
        }
        let mut extra = Map::new();
        let name = tool.name.clone();
        extra.insert(
            "response_format".into(),
            json!({"type": "json_schema", "json_schema": {"name": name, "schema": tool.input_schema, "strict": true}}),
        );
        let mut asked = LlmRequest { tools: Vec::new(), tool_choice: None, ..request };
        // A request that ends with the model's own words is, to llama.cpp's
        // server, one to continue them (a prefill), which the schema cannot
        // follow: the call is asked for after them.
        if asked.messages.last().and_then(|m| m.body.role()) == Some(braid_protocol::Role::Assistant) {
            let ask = braid_protocol::MessageType::text(braid_protocol::Role::User, format!("Call {name} now."));
            let at = asked.messages.last().map_or(braid_protocol::Timestamp(0), |m| m.created_at);
            asked.messages.push(braid_protocol::Message::new(braid_protocol::MessageId(u64::MAX), at, ask));
        }
        let id = format!("call_{}", short_id());
        let mut named = false;
        this.stream_http(asked, Some(extra))
            .map(move |item| {
                item.map(|event| match event {
                    ProviderEvent::TextDelta(arguments) => {
                        let first = !std::mem::replace(&mut named, true);
                        ProviderEvent::ToolCallDelta {
                            index: 0,
                            id: first.then(|| id.clone()),
                            name: first.then(|| name.clone()),
                            arguments,
                        }
                    }
                    // The arguments are whole: the call is made.
                    ProviderEvent::Finished(StopReason::EndTurn) => ProviderEvent::Finished(StopReason::ToolUse),
                    other => other,
                })
            })
            .boxed()
    })
    .flatten()
    .boxed()
}

/// An id for the call (the server gives none for an answer).
fn short_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(std::process::id().into());
    format!("{:016x}", h.finish())
}
