//! Models run in-process, as the runtime manages them: a shelf of GGUF
//! files (braid-local implements it, so the runtime and its tests never
//! link llama.cpp) and the default one opened as a provider.

use braid_protocol::{DownloadsView, HubModel, HubRepo, LocalModelSettings, LocalModelsView, Recommendations};
use futures::future::BoxFuture;
use std::path::Path;
use std::sync::Arc;

/// The default model, ready to answer.
#[derive(Clone)]
pub struct OpenedModel {
    pub provider: Arc<dyn crate::LlmProvider>,
    /// The file name.
    pub model: String,
    /// "built-in SmolLM2-135M-Instruct (Q4_1), a small local model".
    pub label: String,
    pub context_window: u32,
}

/// The built-in model's shelf. Each change is on disk before it returns;
/// errors are sentences for the user.
pub trait LocalModels: Send + Sync {
    fn view(&self) -> LocalModelsView;
    /// The folder models are kept in (downloads land there).
    fn folder(&self) -> std::path::PathBuf;
    /// Copies a GGUF file onto the shelf (slow for big files: call it off
    /// the async threads).
    fn import(&self, from: &Path) -> Result<(), String>;
    /// Runs another app's GGUF file in place (a link on the shelf).
    fn link(&self, from: &Path) -> Result<(), String>;
    fn remove(&self, name: &str) -> Result<(), String>;
    fn set_default(&self, name: &str) -> Result<(), String>;
    fn set_settings(&self, settings: LocalModelSettings) -> Result<(), String>;
    /// The default model with the current settings; the same provider (its
    /// model kept loaded) while neither changes.
    fn open(&self) -> Option<OpenedModel>;
    /// Where more models come from: the hub and downloads onto the shelf.
    fn hub(&self) -> Arc<dyn ModelHub>;
}

/// The model hub (Hugging Face or a mirror) and the downloads from it.
/// Errors are sentences for the user.
pub trait ModelHub: Send + Sync {
    /// Resumes downloads a restart interrupted; `shelf_changed` is called
    /// when one lands on the shelf. Called once, inside a tokio runtime.
    fn start(&self, shelf_changed: Arc<dyn Fn() + Send + Sync>);
    fn search(&self, query: String) -> BoxFuture<'static, Result<Vec<HubModel>, String>>;
    fn repo(&self, repo: String) -> BoxFuture<'static, Result<HubRepo, String>>;
    /// Reads the machine (may run a driver tool): call it off the async
    /// threads.
    fn recommended(&self) -> Recommendations;
    fn downloads(&self) -> DownloadsView;
    fn download(
        &self,
        repo: String,
        file: String,
        use_when_done: bool,
    ) -> BoxFuture<'static, Result<DownloadsView, String>>;
    fn pause(&self, id: &str) -> Result<DownloadsView, String>;
    fn resume(&self, id: &str) -> Result<DownloadsView, String>;
    fn cancel(&self, id: &str) -> Result<DownloadsView, String>;
    fn set_endpoint(&self, endpoint: &str) -> Result<DownloadsView, String>;
}
