//! Provider settings, stored as JSON with the app's settings. Keys are not
//! here: they live in [`crate::secrets`]. A settings file that cannot be
//! read is reported, never overwritten.

use crate::catalogue::ModelInfo;
use crate::http::{HttpProvider, ProviderKind, Timeouts};
use crate::secrets::{SecretError, Secrets};
use crate::LlmError;
use serde::{Deserialize, Serialize};
use std::path::Path;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProviderSettings {
    /// Stable id (`openai`, `local-llama`); names the key in the keychain.
    pub id: String,
    pub kind: ProviderKind,
    pub name: String,
    pub base_url: String,
    #[serde(default)]
    pub default_model: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    #[serde(default)]
    pub providers: Vec<ProviderSettings>,
    #[serde(default)]
    pub default_provider: Option<String>,
    /// User entries for the model catalogue.
    #[serde(default)]
    pub models: Vec<ModelInfo>,
    /// Time, turns and concurrency of sub-agents (read at start).
    #[serde(default, skip_serializing_if = "is_default")]
    pub sub_agents: braid_protocol::SubAgentLimits,
    /// What sandboxed commands may see and inherit besides the defaults
    /// (read at start).
    #[serde(default, skip_serializing_if = "braid_protocol::SandboxPaths::is_empty")]
    pub sandbox: braid_protocol::SandboxPaths,
    /// Workspaces whose secrets go to the model as they are (the secret
    /// filter is on everywhere else).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub show_secrets_in: Vec<String>,
    /// What new conversations start with.
    #[serde(default, skip_serializing_if = "braid_protocol::ConversationDefaults::is_empty")]
    pub conversations: braid_protocol::ConversationDefaults,
    /// What the user tells every conversation.
    #[serde(default, skip_serializing_if = "braid_protocol::StandingInstructions::is_empty")]
    pub instructions: braid_protocol::StandingInstructions,
}

fn is_default(limits: &braid_protocol::SubAgentLimits) -> bool {
    *limits == braid_protocol::SubAgentLimits::default()
}

#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("the settings file {path} could not be read: {reason} (it was left as it is)")]
    Read { path: String, reason: String },
    #[error("the settings could not be saved to {path}: {reason}")]
    Write { path: String, reason: String },
    #[error("{0}")]
    Invalid(String),
    #[error("no provider with id {0:?}")]
    NoSuchProvider(String),
    #[error(transparent)]
    Secret(#[from] SecretError),
    #[error(transparent)]
    Provider(#[from] LlmError),
}

impl Settings {
    pub fn load(path: &Path) -> Result<Settings, SettingsError> {
        let read = |reason: String| SettingsError::Read { path: path.display().to_string(), reason };
        match std::fs::read_to_string(path) {
            Ok(text) => serde_json::from_str(&text).map_err(|e| read(e.to_string())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Settings::default()),
            Err(e) => Err(read(e.to_string())),
        }
    }

    /// Atomic: a temporary file renamed over the old one.
    pub fn save(&self, path: &Path) -> Result<(), SettingsError> {
        let write = |reason: String| SettingsError::Write { path: path.display().to_string(), reason };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| write(e.to_string()))?;
        }
        let tmp = path.with_extension("json.tmp");
        let text = serde_json::to_string_pretty(self).map_err(|e| write(e.to_string()))?;
        std::fs::write(&tmp, text).map_err(|e| write(e.to_string()))?;
        std::fs::rename(&tmp, path).map_err(|e| write(e.to_string()))
    }

    /// Adds or replaces a provider after checking it.
    pub fn upsert_provider(&mut self, provider: ProviderSettings) -> Result<(), SettingsError> {
        validate(&provider)?;
        self.providers.retain(|p| p.id != provider.id);
        if self.default_provider.is_none() {
            self.default_provider = Some(provider.id.clone());
        }
        self.providers.push(provider);
        Ok(())
    }

    pub fn remove_provider(&mut self, id: &str, secrets: &Secrets) -> Result<(), SettingsError> {
        let before = self.providers.len();
        self.providers.retain(|p| p.id != id);
        if self.providers.len() == before {
            return Err(SettingsError::NoSuchProvider(id.to_owned()));
        }
        if self.default_provider.as_deref() == Some(id) {
            self.default_provider = self.providers.first().map(|p| p.id.clone());
        }
        secrets.delete(id)?;
        Ok(())
    }

    pub fn provider(&self, id: &str) -> Result<&ProviderSettings, SettingsError> {
        self.providers.iter().find(|p| p.id == id).ok_or_else(|| SettingsError::NoSuchProvider(id.to_owned()))
    }
}

fn validate(p: &ProviderSettings) -> Result<(), SettingsError> {
    if p.id.is_empty() || !p.id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        return Err(SettingsError::Invalid(format!("provider id {:?} must be letters, digits, '-' or '_'", p.id)));
    }
    if p.name.trim().is_empty() {
        return Err(SettingsError::Invalid("a provider needs a name".into()));
    }
    let url = p.base_url.trim();
    if !(url.starts_with("http://") || url.starts_with("https://")) || url.len() < 10 {
        return Err(SettingsError::Invalid(format!("base URL {url:?} must start with http:// or https://")));
    }
    Ok(())
}

/// A ready provider from its settings and its key (if any).
pub fn build_provider(settings: &ProviderSettings, secrets: &Secrets) -> Result<HttpProvider, SettingsError> {
    let key = secrets.get(&settings.id)?.map(|(k, _)| k);
    Ok(HttpProvider::new(settings.kind, &settings.name, &settings.base_url, key, Timeouts::default())?)
}

/// The provider id a kind's key is stored under when no settings name one
/// (so `BRAID_OPENAI_API_KEY` works for `--base-url` alone).
pub fn kind_id(kind: ProviderKind) -> &'static str {
    match kind {
        ProviderKind::OpenAiCompatible => "openai",
        ProviderKind::Anthropic => "anthropic",
        ProviderKind::Gemini => "gemini",
    }
}

/// A provider for a server given by URL alone (command-line use): the key
/// from the kind's env variable or keychain entry, the model as given or
/// else the first the server lists, with its catalogue entry.
pub async fn adhoc(
    kind: ProviderKind,
    base_url: &str,
    model: Option<&str>,
    secrets: &Secrets,
) -> Result<(HttpProvider, crate::catalogue::ModelInfo), SettingsError> {
    let key = secrets.get(kind_id(kind))?.map(|(k, _)| k);
    let model = match model {
        Some(m) => m.to_owned(),
        None => crate::catalogue::list_models(kind, base_url, key.as_ref(), base_url)
            .await?
            .into_iter()
            .next()
            .ok_or_else(|| SettingsError::Invalid(format!("{base_url} lists no models; name one")))?,
    };
    let info = crate::catalogue::Catalogue::new(&[]).or_default(&model, kind);
    let provider = HttpProvider::new(kind, base_url, base_url, key, Timeouts::default())?;
    Ok((provider, info))
}
