//! What Braid knows about models: context window, output limit, vision,
//! tools, tokenizer family. Built-in entries for well-known models, user
//! entries that override them, and listing what a server offers.

use crate::http::{ApiKey, ProviderKind};
use crate::LlmError;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tokenizer {
    O200k,
    Cl100k,
    /// No public tokenizer: estimated, then corrected by reported usage.
    Estimate,
}

impl From<Tokenizer> for braid_protocol::TokenEncoding {
    /// How a message's tokens are counted for a model with this tokenizer.
    fn from(tokenizer: Tokenizer) -> braid_protocol::TokenEncoding {
        match tokenizer {
            Tokenizer::O200k => braid_protocol::TokenEncoding::O200k,
            Tokenizer::Cl100k => braid_protocol::TokenEncoding::Cl100k,
            Tokenizer::Estimate => braid_protocol::TokenEncoding::Estimate,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelInfo {
    pub id: String,
    pub provider: ProviderKind,
    pub context_window: u32,
    pub max_output_tokens: u32,
    pub vision: bool,
    pub tools: bool,
    pub tokenizer: Tokenizer,
}

fn m(
    id: &str,
    provider: ProviderKind,
    context_window: u32,
    max_output_tokens: u32,
    vision: bool,
    tokenizer: Tokenizer,
) -> ModelInfo {
    ModelInfo { id: id.to_owned(), provider, context_window, max_output_tokens, vision, tools: true, tokenizer }
}

/// Well-known models. Ids match by prefix, so dated versions
/// (`gpt-4o-2024-08-06`) find their family.
pub fn builtin() -> Vec<ModelInfo> {
    use ProviderKind::{Anthropic as A, Gemini as G, OpenAiCompatible as O};
    use Tokenizer::{Cl100k, Estimate, O200k};
    vec![
        m("gpt-4.1", O, 1_047_576, 32_768, true, O200k),
        m("gpt-4.1-mini", O, 1_047_576, 32_768, true, O200k),
        m("gpt-4o", O, 128_000, 16_384, true, O200k),
        m("gpt-4o-mini", O, 128_000, 16_384, true, O200k),
        m("o3-mini", O, 200_000, 100_000, false, O200k),
        m("o4-mini", O, 200_000, 100_000, true, O200k),
        m("gpt-4-turbo", O, 128_000, 4_096, true, Cl100k),
        m("gpt-3.5-turbo", O, 16_385, 4_096, false, Cl100k),
        m("claude-opus-4", A, 200_000, 32_000, true, Estimate),
        m("claude-sonnet-4", A, 200_000, 64_000, true, Estimate),
        m("claude-3-7-sonnet", A, 200_000, 64_000, true, Estimate),
        m("claude-3-5-haiku", A, 200_000, 8_192, false, Estimate),
        m("gemini-2.5-pro", G, 1_048_576, 65_536, true, Estimate),
        m("gemini-2.5-flash", G, 1_048_576, 65_536, true, Estimate),
        m("gemini-2.0-flash", G, 1_048_576, 8_192, true, Estimate),
        m("deepseek-chat", O, 64_000, 8_192, false, Estimate),
        m("llama3.1", O, 128_000, 4_096, false, Estimate),
        m("qwen2.5-coder", O, 32_768, 8_192, false, Estimate),
        // It calls a tool for every question when tools are offered.
        ModelInfo { tools: false, ..m("smollm2-135m", O, 4_096, 2_048, false, Estimate) },
    ]
}

/// Built-in entries with the user's on top (same id: the user's wins).
#[derive(Debug, Clone)]
pub struct Catalogue {
    models: Vec<ModelInfo>,
}

impl Catalogue {
    pub fn new(user: &[ModelInfo]) -> Catalogue {
        let mut models = builtin();
        for u in user {
            models.retain(|b| b.id != u.id);
            models.push(u.clone());
        }
        Catalogue { models }
    }

    pub fn models(&self) -> &[ModelInfo] {
        &self.models
    }

    /// The entry for a model id: exact, else the longest known prefix
    /// (`openai/gpt-4o` and `gpt-4o-2024-08-06` both find `gpt-4o`).
    pub fn lookup(&self, id: &str) -> Option<&ModelInfo> {
        let bare = id.rsplit('/').next().unwrap_or(id);
        self.models
            .iter()
            .find(|m| m.id == id || m.id == bare)
            .or_else(|| self.models.iter().filter(|m| bare.starts_with(&m.id)).max_by_key(|m| m.id.len()))
    }

    /// Conservative limits for a model nobody described: a small window, so
    /// Braid trims early rather than overflowing.
    pub fn or_default(&self, id: &str, provider: ProviderKind) -> ModelInfo {
        self.lookup(id).cloned().unwrap_or_else(|| m(id, provider, 8_192, 2_048, false, Tokenizer::Estimate))
    }
}

/// The models a server offers: `/models` for OpenAI-compatible servers,
/// Anthropic and Gemini; Ollama's `/api/tags` when `/models` is missing.
pub async fn list_models(
    kind: ProviderKind,
    base_url: &str,
    key: Option<&ApiKey>,
    provider: &str,
) -> Result<Vec<String>, LlmError> {
    let client = reqwest::Client::new();
    let base = base_url.trim_end_matches('/');
    let get = |url: String| {
        let b = client.get(url);
        match (kind, key.map(ApiKey::expose)) {
            (ProviderKind::OpenAiCompatible, Some(k)) => b.bearer_auth(k),
            (ProviderKind::Anthropic, Some(k)) => b.header("x-api-key", k).header("anthropic-version", "2023-06-01"),
            (ProviderKind::Gemini, Some(k)) => b.header("x-goog-api-key", k),
            (_, None) => b,
        }
    };
    // In plain words, as a chat request's failure is.
    let net = |e: reqwest::Error| crate::http::network_error(provider, &e);
    // A list of thousands of models is ~1 MB.
    let read = |response: reqwest::Response| async move {
        crate::http::capped_text(response, 8 << 20)
            .await
            .map_err(|detail| LlmError::Network { provider: provider.to_owned(), detail })
    };
    let response = get(format!("{base}/models")).send().await.map_err(net)?;
    let status = response.status().as_u16();
    if status == 404 && kind == ProviderKind::OpenAiCompatible {
        let root = base.trim_end_matches("/v1");
        let tags = get(format!("{root}/api/tags")).send().await.map_err(net)?;
        let tags: Value = serde_json::from_str(&read(tags).await?).unwrap_or_default();
        return Ok(names(&tags["models"], "name"));
    }
    let body = read(response).await?;
    if !(200..300).contains(&status) {
        return Err(crate::http_error::classify(provider, status, None, &body));
    }
    let v: Value = serde_json::from_str(&body).map_err(|e| LlmError::Protocol {
        provider: provider.to_owned(),
        detail: format!("model list is not JSON: {e}"),
    })?;
    Ok(match kind {
        ProviderKind::Gemini => {
            names(&v["models"], "name").into_iter().map(|n| n.trim_start_matches("models/").to_owned()).collect()
        }
        _ => names(&v["data"], "id"),
    })
}

fn names(list: &Value, field: &str) -> Vec<String> {
    list.as_array().into_iter().flatten().filter_map(|m| m[field].as_str().map(str::to_owned)).collect()
}
