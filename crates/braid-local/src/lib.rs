//! Braid's built-in model: a GGUF file run in-process by llama.cpp (the
//! `llama-cpp-2` crate, built from source), on a worker thread, streaming
//! the same provider events as a server would. It answers on first launch
//! with no server and no account (the starter model is SmolLM2-135M), and
//! runs any GGUF the user imports.

mod chat;
mod engine;
pub mod models;

use braid_llm::{LlmError, LlmProvider, LlmRequest, LlmStream};
use engine::Loaded;
use futures::StreamExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::watch;

pub use engine::failed;

/// How the model runs: its window and its threads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LocalSettings {
    /// Tokens in the window (capped by what the model was trained on).
    pub context: u32,
    pub threads: i32,
}

impl LocalSettings {
    /// Fitted to the machine: a 4,096-token window, and every core but
    /// one for the UI (at least one).
    pub fn for_this_machine() -> LocalSettings {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        LocalSettings { context: 4096, threads: cores.saturating_sub(1).clamp(1, 8) as i32 }
    }
}

/// A GGUF model, loaded on first use and kept.
pub struct LocalProvider {
    path: PathBuf,
    settings: LocalSettings,
    loaded: Arc<Mutex<Option<Arc<Loaded>>>>,
    /// Generations under way (for whoever waits for the model to be free).
    running: Arc<watch::Sender<u32>>,
}

impl LocalProvider {
    pub fn new(path: PathBuf, settings: LocalSettings) -> LocalProvider {
        LocalProvider { path, settings, loaded: Arc::default(), running: Arc::new(watch::Sender::new(0)) }
    }

    /// How many generations are under way, as it changes: a cancelled
    /// one ends at its next token.
    pub fn running(&self) -> watch::Receiver<u32> {
        self.running.subscribe()
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn settings(&self) -> LocalSettings {
        self.settings
    }
}

/// Counts a generation while it lives.
struct Running(Arc<watch::Sender<u32>>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.send_modify(|n| *n = n.saturating_sub(1));
    }
}

/// What answers when no provider is set up: the default model of the
/// models folder `dir`, if it holds one — (provider, model name, label).
pub fn built_in(dir: &Path) -> Option<(LocalProvider, String, String)> {
    let file = models::choose(dir)?;
    let small = if file.bytes < 1 << 30 { ", a small local model" } else { ", a local model" };
    let label = format!("built-in {}{small}", models::label(&file.name));
    Some((LocalProvider::new(file.path, LocalSettings::for_this_machine()), file.name, label))
}

/// The model, loaded once; a failed load is tried again next time.
fn loaded(slot: &Mutex<Option<Arc<Loaded>>>, path: &Path) -> Result<Arc<Loaded>, LlmError> {
    let mut slot = slot.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(l) = slot.as_ref() {
        return Ok(l.clone());
    }
    let l = Arc::new(Loaded::load(path)?);
    *slot = Some(l.clone());
    Ok(l)
}

impl LlmProvider for LocalProvider {
    fn name(&self) -> &str {
        "built-in model"
    }

    fn stream(&self, request: LlmRequest) -> LlmStream {
        let (tx, rx) = tokio::sync::mpsc::channel(64);
        let (slot, path, settings) = (self.loaded.clone(), self.path.clone(), self.settings);
        let running = self.running.clone();
        running.send_modify(|n| *n += 1);
        let worker = std::thread::Builder::new().name("braid-local".into()).spawn(move || {
            let _counted = Running(running);
            match loaded(&slot, &path) {
                Ok(model) => {
                    let _one_at_a_time = model.busy.lock().unwrap_or_else(PoisonError::into_inner);
                    engine::generate(&model, &request, &settings, &tx);
                }
                Err(e) => {
                    let _ = tx.blocking_send(Err(e));
                }
            }
        });
        if let Err(e) = worker {
            self.running.send_modify(|n| *n = n.saturating_sub(1));
            let err = failed(format!("no thread for the model: {e}"));
            return futures::stream::once(async move { Err(err) }).boxed();
        }
        futures::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|e| (e, rx)) }).boxed()
    }

    fn count_tokens(&self, _model: &str, texts: Vec<String>) -> futures::future::BoxFuture<'static, Option<Vec<u32>>> {
        let (slot, path) = (self.loaded.clone(), self.path.clone());
        Box::pin(async move {
            tokio::task::spawn_blocking(move || {
                let model = loaded(&slot, &path).ok()?;
                Some(texts.iter().map(|t| model.count(t)).collect())
            })
            .await
            .ok()
            .flatten()
        })
    }
}
