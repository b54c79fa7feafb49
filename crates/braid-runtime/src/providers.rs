//! The model providers the runtime asks: those in the settings (built on
//! first use, with their keys), and an optional fallback for when none is
//! configured (the built-in echo of tests and demos). An edit is written to
//! disk before it takes effect, so what runs is always what is saved.

pub use crate::fallback::Fallback;
pub use crate::local_servers::detect_local_servers;

mod builtin;
mod preferences;
use crate::RuntimeError;
use braid_llm::catalogue::{list_models, Catalogue, ModelInfo};
use braid_llm::local::LocalModels;
use braid_llm::secrets::{KeySource, Secrets};
use braid_llm::settings::{build_provider, ProviderSettings, Settings, SettingsError};
use braid_llm::{ApiKey, LlmProvider};
use braid_protocol::{
    EffectiveModel, KeyChange, KeyLocation, ModelChoice, ModelSummary, ProviderInput, ProviderKind, ProviderView,
    SettingsView, TokenEncoding,
};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::time::Duration;

/// The provider and model one request goes to.
pub struct Resolved {
    pub provider: Arc<dyn LlmProvider>,
    pub model: String,
    pub max_output_tokens: u32,
    pub encoding: TokenEncoding,
    pub view: EffectiveModel,
    /// The provider's kind, for its image limits.
    pub kind: ProviderKind,
}

pub struct Providers {
    /// `None`: settings live in memory only (tests).
    path: Option<PathBuf>,
    secrets: Secrets,
    /// Swapped when the built-in model's default or settings change.
    fallback: RwLock<Option<Fallback>>,
    /// The built-in model's shelf, where this build runs one.
    local: Option<Arc<dyn LocalModels>>,
    inner: RwLock<Inner>,
}

#[derive(Default)]
struct Inner {
    settings: Settings,
    live: HashMap<String, Arc<dyn LlmProvider>>,
}

/// How long testing a provider may take before the user is told.
const TEST_TIMEOUT: Duration = Duration::from_secs(15);

impl Providers {
    /// The store API keys live in (the keychain, or the private file),
    /// which holds the MCP settings' secrets too.
    pub(crate) fn secrets(&self) -> &Secrets {
        &self.secrets
    }

    /// Settings from `path` (missing file: none configured). A file that
    /// cannot be read is an error and is left untouched.
    pub fn from_settings(path: PathBuf, secrets: Secrets) -> Result<Providers, SettingsError> {
        let settings = Settings::load(&path)?;
        Ok(Providers {
            path: Some(path),
            secrets,
            fallback: RwLock::default(),
            local: None,
            inner: RwLock::new(Inner { settings, live: HashMap::new() }),
        })
    }

    /// Settings kept in memory only.
    pub fn in_memory(secrets: Secrets) -> Providers {
        Providers { path: None, secrets, fallback: RwLock::default(), local: None, inner: RwLock::default() }
    }

    pub fn with_fallback(self, fallback: Fallback) -> Providers {
        *self.fallback.write().unwrap_or_else(PoisonError::into_inner) = Some(fallback);
        self
    }

    fn fallback(&self) -> RwLockReadGuard<'_, Option<Fallback>> {
        self.fallback.read().unwrap_or_else(PoisonError::into_inner)
    }

    fn read(&self) -> RwLockReadGuard<'_, Inner> {
        self.inner.read().unwrap_or_else(PoisonError::into_inner)
    }

    fn write(&self) -> RwLockWriteGuard<'_, Inner> {
        self.inner.write().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether a provider with this id is configured (no key lookup).
    pub fn has(&self, id: &str) -> bool {
        self.read().settings.provider(id).is_ok()
    }

    pub fn view(&self) -> SettingsView {
        let inner = self.read();
        SettingsView {
            providers: inner.settings.providers.iter().map(|p| self.provider_view(p)).collect(),
            default_provider: inner.settings.default_provider.clone(),
            fallback: self.fallback().as_ref().map(|f| f.label.clone()),
            built_in_models: self.local.is_some(),
            conversations: inner.settings.conversations.clone(),
            instructions: inner.settings.instructions.clone(),
        }
    }

    fn provider_view(&self, p: &ProviderSettings) -> ProviderView {
        let key = match self.secrets.get(&p.id) {
            Ok(Some((_, source))) => Some(location(source)),
            Ok(None) => None,
            Err(e) => {
                tracing::warn!(provider = %p.id, error = %e, "cannot read the provider's key");
                None
            }
        };
        ProviderView {
            id: p.id.clone(),
            kind: p.kind,
            name: p.name.clone(),
            base_url: p.base_url.clone(),
            default_model: p.default_model.clone(),
            key,
        }
    }

    /// Adds or replaces a provider: settings are saved, then the key.
    pub fn save(&self, input: ProviderInput) -> Result<SettingsView, RuntimeError> {
        let mut inner = self.write();
        let id = match input.id.as_deref().map(str::trim).filter(|i| !i.is_empty()) {
            Some(id) => id.to_owned(),
            None => unique_id(&input.name, &inner.settings),
        };
        let default_model = input.default_model.map(|m| m.trim().to_owned()).filter(|m| !m.is_empty());
        let provider = ProviderSettings {
            id: id.clone(),
            kind: input.kind,
            name: input.name.trim().to_owned(),
            base_url: input.base_url.trim().trim_end_matches('/').to_owned(),
            default_model,
        };
        let key = key_from(&input.key)?;
        let mut settings = inner.settings.clone();
        settings.upsert_provider(provider)?;
        self.persist(&settings)?;
        match (&input.key, key) {
            (KeyChange::Set { .. }, Some(key)) => {
                self.secrets.set(&id, &key).map_err(SettingsError::from)?;
            }
            (KeyChange::Clear, _) => self.secrets.delete(&id).map_err(SettingsError::from)?,
            _ => {}
        }
        inner.settings = settings;
        inner.live.remove(&id);
        drop(inner);
        Ok(self.view())
    }

    pub fn remove(&self, id: &str) -> Result<SettingsView, RuntimeError> {
        let mut inner = self.write();
        let mut settings = inner.settings.clone();
        settings.remove_provider(id, &self.secrets)?;
        self.persist(&settings)?;
        inner.settings = settings;
        inner.live.remove(id);
        drop(inner);
        Ok(self.view())
    }

    pub fn set_default(&self, id: &str) -> Result<SettingsView, RuntimeError> {
        let mut inner = self.write();
        inner.settings.provider(id)?;
        let mut settings = inner.settings.clone();
        settings.default_provider = Some(id.to_owned());
        self.persist(&settings)?;
        inner.settings = settings;
        drop(inner);
        Ok(self.view())
    }

    fn persist(&self, settings: &Settings) -> Result<(), SettingsError> {
        match &self.path {
            Some(path) => settings.save(path),
            None => Ok(()),
        }
    }

    /// Lists the models with the form's values, without saving anything.
    pub async fn test(&self, input: &ProviderInput) -> Result<Vec<ModelSummary>, RuntimeError> {
        let key = match &input.key {
            KeyChange::Set { .. } => key_from(&input.key)?,
            KeyChange::Clear => None,
            KeyChange::Keep => match input.id.as_deref() {
                Some(id) => self.secrets.get(id).map_err(SettingsError::from)?.map(|(k, _)| k),
                None => None,
            },
        };
        let url = input.base_url.trim().trim_end_matches('/');
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(RuntimeError::InvalidInput(format!("base URL {url:?} must start with http:// or https://")));
        }
        self.models(input.kind, url, key.as_ref(), input.name.trim()).await
    }

    pub async fn list_models(&self, id: &str) -> Result<Vec<ModelSummary>, RuntimeError> {
        let p = self.read().settings.provider(id)?.clone();
        let key = self.secrets.get(&p.id).map_err(SettingsError::from)?.map(|(k, _)| k);
        self.models(p.kind, &p.base_url, key.as_ref(), &p.name).await
    }

    async fn models(
        &self,
        kind: ProviderKind,
        url: &str,
        key: Option<&ApiKey>,
        name: &str,
    ) -> Result<Vec<ModelSummary>, RuntimeError> {
        let name = if name.is_empty() { url } else { name };
        let ids = tokio::time::timeout(TEST_TIMEOUT, list_models(kind, url, key, name))
            .await
            .map_err(|_| {
                RuntimeError::Settings(SettingsError::Invalid(format!(
                    "{name} did not answer within {} s",
                    TEST_TIMEOUT.as_secs()
                )))
            })?
            .map_err(SettingsError::from)?;
        let catalogue = Catalogue::new(&self.read().settings.models);
        Ok(ids
            .into_iter()
            .map(|id| {
                let info = catalogue.or_default(&id, kind);
                ModelSummary {
                    id,
                    context_window: info.context_window,
                    max_output_tokens: info.max_output_tokens,
                    vision: info.vision,
                }
            })
            .collect())
    }

    /// Where a conversation's next request goes: its own choice, else the
    /// default provider's default model, else the fallback.
    pub fn resolve(&self, choice: Option<&ModelChoice>) -> Result<Resolved, String> {
        let Some((provider_settings, model)) = self.target(choice)? else { return self.fallback_resolved() };
        let provider = self.live(&provider_settings)?;
        let info = self.model_info(&model, provider_settings.kind);
        Ok(Resolved {
            provider,
            model: model.clone(),
            max_output_tokens: info.max_output_tokens,
            encoding: info.tokenizer.into(),
            kind: provider_settings.kind,
            view: view(provider_settings, model, &info),
        })
    }

    /// What a conversation's next request goes to, as shown: the provider
    /// is not built for it (building one reads its key and the system's
    /// certificates, ~40 ms, which reopening a conversation paid).
    pub fn effective(&self, choice: Option<&ModelChoice>) -> Option<EffectiveModel> {
        match self.target(choice).ok()? {
            Some((p, model)) => {
                let info = self.model_info(&model, p.kind);
                Some(view(p, model, &info))
            }
            None => self.fallback_resolved().ok().map(|r| r.view),
        }
    }

    /// What the settings' catalogue knows of `model` (else the defaults
    /// for its kind of provider).
    fn model_info(&self, model: &str, kind: ProviderKind) -> ModelInfo {
        Catalogue::new(&self.read().settings.models).or_default(model, kind)
    }

    /// The provider's settings and the model a choice names (`None`: the
    /// fallback answers).
    fn target(&self, choice: Option<&ModelChoice>) -> Result<Option<(ProviderSettings, String)>, String> {
        let inner = self.read();
        let settings = &inner.settings;
        Ok(Some(match choice {
            Some(c) => {
                let p = settings.provider(&c.provider_id).map_err(|_| {
                    format!(
                        "This conversation uses provider {:?}, which was removed. Choose another model.",
                        c.provider_id
                    )
                })?;
                (p.clone(), c.model.clone())
            }
            None => match settings.default_provider.as_deref().and_then(|id| settings.provider(id).ok()) {
                Some(p) => {
                    let model = p.default_model.clone().ok_or_else(|| {
                        format!("Provider {:?} has no default model. Choose one in Settings.", p.name)
                    })?;
                    (p.clone(), model)
                }
                None => return Ok(None),
            },
        }))
    }

    fn fallback_resolved(&self) -> Result<Resolved, String> {
        let fallback = self.fallback();
        let f = fallback.as_ref().ok_or_else(|| {
            "No model provider is set up. Open Settings and add one (a local llama.cpp or Ollama server works)."
                .to_owned()
        })?;
        Ok(Resolved {
            provider: f.provider.clone(),
            model: f.model.clone(),
            max_output_tokens: f.max_output_tokens,
            encoding: f.encoding,
            view: EffectiveModel {
                provider_id: None,
                provider_name: f.label.clone(),
                model: f.model.clone(),
                context_window: f.context_window,
                vision: f.vision,
                tools: f.tools,
            },
            kind: ProviderKind::OpenAiCompatible,
        })
    }

    /// The built provider, built once per settings version.
    fn live(&self, p: &ProviderSettings) -> Result<Arc<dyn LlmProvider>, String> {
        if let Some(live) = self.read().live.get(&p.id) {
            return Ok(live.clone());
        }
        let built: Arc<dyn LlmProvider> =
            Arc::new(build_provider(p, &self.secrets).map_err(|e| format!("Cannot use provider {:?}: {e}", p.name))?);
        self.write().live.insert(p.id.clone(), built.clone());
        Ok(built)
    }

    /// The sub-agents' limits in the settings file, kept sensible: a
    /// turn, a second and one child at least.
    /// Every stored key, by provider: the secret filter hides them.
    pub(crate) fn stored_keys(&self) -> Vec<(String, String)> {
        let ids: Vec<String> = self.read().settings.providers.iter().map(|p| p.id.clone()).collect();
        ids.into_iter()
            .filter_map(|id| match self.secrets.get(&id) {
                Ok(Some((key, _))) => Some((id, key.expose().to_owned())),
                _ => None,
            })
            .collect()
    }

    /// Workspaces whose secrets go to the model as they are (settings.json's `show_secrets_in`).
    pub fn show_secrets_in(&self) -> Vec<PathBuf> {
        self.read().settings.show_secrets_in.iter().map(PathBuf::from).collect()
    }

    /// The user's additions to what sandboxed commands may see (settings.json's `sandbox`).
    pub fn sandbox_paths(&self) -> braid_protocol::SandboxPaths {
        self.read().settings.sandbox.clone()
    }

    pub fn sub_agent_limits(&self) -> braid_protocol::SubAgentLimits {
        let l = self.read().settings.sub_agents;
        braid_protocol::SubAgentLimits {
            time_limit_ms: l.time_limit_ms.max(1_000),
            turn_limit: l.turn_limit.max(1),
            concurrency: l.concurrency.max(1),
        }
    }

    /// The models a sub-agent's task may name, as `provider/model`: each
    /// provider's default model (no key is read, nothing is asked).
    pub fn task_models(&self) -> Vec<String> {
        let inner = self.read();
        let named =
            inner.settings.providers.iter().filter_map(|p| Some(format!("{}/{}", p.id, p.default_model.as_ref()?)));
        named.collect()
    }
}

fn view(p: ProviderSettings, model: String, info: &ModelInfo) -> EffectiveModel {
    EffectiveModel {
        provider_id: Some(p.id),
        provider_name: p.name,
        model,
        context_window: info.context_window,
        vision: info.vision,
        tools: info.tools,
    }
}

fn key_from(change: &KeyChange) -> Result<Option<ApiKey>, RuntimeError> {
    match change {
        KeyChange::Set { key } => ApiKey::new(key.trim())
            .map(Some)
            .ok_or_else(|| RuntimeError::InvalidInput("the API key is empty".to_owned())),
        _ => Ok(None),
    }
}

fn location(source: KeySource) -> KeyLocation {
    match source {
        KeySource::Env => KeyLocation::Env,
        KeySource::Keychain => KeyLocation::Keychain,
        KeySource::File => KeyLocation::File,
    }
}

/// `My Local Llama!` → `my-local-llama`, made unique among the providers.
fn unique_id(name: &str, settings: &Settings) -> String {
    let mut base: String =
        name.trim().chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
    while base.contains("--") {
        base = base.replace("--", "-");
    }
    let base = base.trim_matches('-');
    let base = if base.is_empty() { "provider" } else { base };
    let taken = |id: &str| settings.providers.iter().any(|p| p.id == id);
    if !taken(base) {
        return base.to_owned();
    }
    (2..).map(|n| format!("{base}-{n}")).find(|id| !taken(id)).unwrap_or_else(|| base.to_owned())
}
