//! Models run in-process, as the runtime manages them: a shelf of GGUF
//! files (braid-local implements it, so the runtime and its tests never
//! link llama.cpp) and the default one opened as a provider.

use braid_protocol::{LocalModelSettings, LocalModelsView};
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
}
