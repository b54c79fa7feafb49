//! Counting with the model's own tokenizer, for the servers that offer it:
//! llama-cpp-python (`POST /extras/tokenize/count`) and llama.cpp's server
//! (`POST /tokenize`). Which one a server answers is found out once and
//! kept; a server with neither is asked no more, and Braid's estimate
//! stands.

use super::HttpProvider;
use serde_json::{json, Value};
use std::time::Duration;

/// A count that takes longer is not worth waiting for: the estimate is used.
const COUNT_TIMEOUT: Duration = Duration::from_secs(2);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Endpoint {
    Unknown,
    /// llama-cpp-python: `{"input"}` → `{"count"}`.
    ExtrasCount,
    /// llama.cpp: `{"content"}` → `{"tokens": [...]}`.
    Tokenize,
    None,
}

impl HttpProvider {
    /// The server's root: the base URL without its `/v1`.
    fn root(&self) -> &str {
        self.base_url.strip_suffix("/v1").unwrap_or(&self.base_url)
    }

    /// Tokens of each text as the model counts them (no special tokens
    /// added where the server says), or `None` when the server cannot.
    pub(super) async fn count_texts(&self, model: &str, texts: &[String]) -> Option<Vec<u32>> {
        let known = *self.count_endpoint.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let order = match known {
            Endpoint::None => return None,
            Endpoint::Unknown => vec![Endpoint::ExtrasCount, Endpoint::Tokenize],
            e => vec![e],
        };
        for endpoint in order {
            let mut counts = Vec::with_capacity(texts.len());
            for text in texts {
                match self.count_one(endpoint, model, text).await {
                    Some(n) => counts.push(n),
                    None => break,
                }
            }
            if counts.len() == texts.len() {
                *self.count_endpoint.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = endpoint;
                return Some(counts);
            }
            if known != Endpoint::Unknown {
                // It worked before: a passing failure, not a missing endpoint.
                return None;
            }
        }
        *self.count_endpoint.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Endpoint::None;
        tracing::debug!(provider = %self.name, "the server does not count tokens; Braid estimates");
        None
    }

    /// The request's prompt as llama.cpp's server builds it from this body
    /// (`/apply-template`), counted by its tokenizer with the special
    /// tokens it adds (`/tokenize`): what it reports as `prompt_tokens`.
    pub(super) async fn count_whole(&self, body: Value) -> Option<u32> {
        if !self.is_llama_cpp().await {
            return None;
        }
        let root = self.root().to_owned();
        let post = |path: &str, body: &Value| {
            let mut request = self.client.post(format!("{root}{path}")).json(body).timeout(COUNT_TIMEOUT);
            if let Some(k) = self.api_key.as_ref() {
                request = request.bearer_auth(k.expose());
            }
            request
        };
        let applied = post("/apply-template", &body).send().await.ok().filter(|r| r.status().is_success())?;
        let applied: Value = serde_json::from_str(&super::body::capped_text(applied, 16 << 20).await.ok()?).ok()?;
        let prompt = applied.get("prompt")?.as_str()?;
        let ask = json!({"content": prompt, "add_special": true, "parse_special": true});
        let counted = post("/tokenize", &ask).send().await.ok().filter(|r| r.status().is_success())?;
        let counted: Value = serde_json::from_str(&super::body::capped_text(counted, 16 << 20).await.ok()?).ok()?;
        u32::try_from(counted.get("tokens")?.as_array()?.len()).ok()
    }

    async fn count_one(&self, endpoint: Endpoint, model: &str, text: &str) -> Option<u32> {
        let (path, body) = match endpoint {
            Endpoint::ExtrasCount => ("/extras/tokenize/count", json!({"input": text, "model": model})),
            Endpoint::Tokenize => ("/tokenize", json!({"content": text, "add_special": false})),
            Endpoint::Unknown | Endpoint::None => return None,
        };
        let mut request = self.client.post(format!("{}{path}", self.root())).json(&body).timeout(COUNT_TIMEOUT);
        if let Some(k) = self.api_key.as_ref() {
            request = request.bearer_auth(k.expose());
        }
        let response = request.send().await.ok()?;
        if !response.status().is_success() {
            return None;
        }
        let v: Value = serde_json::from_str(&super::body::capped_text(response, 16 << 20).await.ok()?).ok()?;
        let n = match endpoint {
            Endpoint::ExtrasCount => v.get("count")?.as_u64()?,
            _ => v.get("tokens")?.as_array()?.len() as u64,
        };
        u32::try_from(n).ok()
    }
}
