//! For servers that cannot stream a turn with tools (llama-cpp-python when
//! the model calls one): the same turn asked for whole, then without the
//! tools, and the user told once per model.

use super::{network, Timeouts};
use crate::{http_error, openai, LlmError, ProviderEvent};
use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};

/// The other ways to ask, for a server that streams nothing when tools are
/// offered: the same request whole, then the turn without the tools.
pub(super) struct Fallbacks {
    pub(super) whole: Option<reqwest::RequestBuilder>,
    pub(super) plain: Option<reqwest::RequestBuilder>,
    /// Text or a tool call has come in this stream.
    pub(super) said: bool,
}

/// What the user is told the first time a turn of this model goes whole.
pub(super) fn first_time((told, model): &(Arc<Mutex<HashSet<String>>>, String), provider: &str) -> Option<String> {
    told.lock().unwrap_or_else(PoisonError::into_inner).insert(model.clone()).then(|| {
        format!(
            "{provider} cannot stream {model}'s answer when it calls a tool; such answers are asked for in one piece."
        )
    })
}

/// An answer with neither text nor a tool call.
pub(super) fn says_nothing(events: &[ProviderEvent]) -> bool {
    !events.iter().any(|e| match e {
        ProviderEvent::TextDelta(t) => !t.trim().is_empty(),
        ProviderEvent::ToolCallDelta { .. } => true,
        _ => false,
    })
}

/// Sends a request asked for whole and turns the answer into events.
pub(super) async fn whole(
    name: &str,
    builder: reqwest::RequestBuilder,
    timeouts: Timeouts,
) -> Result<Vec<ProviderEvent>, LlmError> {
    let response = match tokio::time::timeout(timeouts.first_byte, builder.send()).await {
        Err(_) => {
            return Err(LlmError::Network {
                provider: name.to_owned(),
                detail: "no response within the time limit".into(),
            })
        }
        Ok(Err(e)) => return Err(network(name, &e)),
        Ok(Ok(r)) => r,
    };
    let status = response.status().as_u16();
    // A whole answer read at once: a long one is a few hundred KB.
    let body = super::body::capped_text(response, 16 << 20)
        .await
        .map_err(|detail| LlmError::Network { provider: name.to_owned(), detail })?;
    if !(200..300).contains(&status) {
        return Err(http_error::classify(name, status, None, &body));
    }
    if body.trim().is_empty() {
        return Err(LlmError::EmptyResponse { provider: name.to_owned() });
    }
    let value: serde_json::Value = serde_json::from_str(&body).map_err(|e| LlmError::Protocol {
        provider: name.to_owned(),
        detail: format!("the answer is not JSON: {e}"),
    })?;
    openai::decode_whole(name, &value)
}
