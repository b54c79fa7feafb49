//! Braid's built-in model: a GGUF file run in-process by llama.cpp (the
//! `llama-cpp-2` crate, built from source), on a worker thread, streaming
//! the same provider events as a server would. It answers on first launch
//! with no server and no account (the starter model is SmolLM2-135M), and
//! runs any GGUF the user imports.

mod chat;
#[cfg(any(test, feature = "test-support"))]
pub mod crafted;
pub mod discover;
mod downloads;
mod engine;
pub mod gguf;
pub mod hub;
pub mod models;
pub mod recommend;
mod shelf;
mod transfer;

use braid_llm::{LlmError, LlmProvider, LlmRequest, LlmStream};
use braid_protocol::LocalModelSettings;
use engine::Loaded;
use futures::StreamExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::sync::watch;

pub use engine::failed;
pub use models::fitted;
pub use shelf::Shelf;

/// A GGUF model, loaded on first use and kept, answering on its own
/// worker thread one request at a time (they would only share the cores).
pub struct LocalProvider {
    path: PathBuf,
    settings: LocalModelSettings,
    loaded: Arc<Mutex<Option<Arc<Loaded>>>>,
    /// Generations asked for and not ended (for whoever waits for the
    /// model to be free).
    running: Arc<watch::Sender<u32>>,
    /// The worker's queue, once it runs.
    worker: Mutex<Option<std::sync::mpsc::Sender<Job>>>,
    /// In memory or on its way there (see [`LlmProvider::warm`]): set by
    /// a warm-up and by the worker as it loads, cleared as the model
    /// leaves memory, so that the next warm-up loads it again.
    warmed: Arc<AtomicBool>,
    /// Unloaded after this long without a question.
    idle: Option<Duration>,
}

/// One answer for the worker.
struct Job {
    request: LlmRequest,
    tx: engine::Events,
    _counted: Option<Running>,
    /// A warm-up's own receiver: nobody listens, but the job is not
    /// taken for cancelled.
    _listener: Option<tokio::sync::mpsc::Receiver<Result<braid_llm::ProviderEvent, LlmError>>>,
}

impl LocalProvider {
    pub fn new(path: PathBuf, settings: LocalModelSettings) -> LocalProvider {
        LocalProvider {
            path,
            settings,
            loaded: Arc::default(),
            running: Arc::new(watch::Sender::new(0)),
            worker: Mutex::default(),
            warmed: Default::default(),
            idle: (settings.unload_after_minutes > 0)
                .then(|| Duration::from_secs(60 * u64::from(settings.unload_after_minutes))),
        }
    }

    /// Unloaded after `idle` without a question instead (tests: minutes
    /// are long). Before the first question only.
    pub fn unload_after(self, idle: Duration) -> LocalProvider {
        LocalProvider { idle: Some(idle), ..self }
    }

    /// The model is in memory now.
    pub fn is_loaded(&self) -> bool {
        self.loaded.lock().unwrap_or_else(PoisonError::into_inner).is_some()
    }

    /// How many generations are under way or waiting, as it changes: a
    /// cancelled one ends at its next token.
    pub fn running(&self) -> watch::Receiver<u32> {
        self.running.subscribe()
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn settings(&self) -> LocalModelSettings {
        self.settings
    }

    /// The worker's queue, started on first use. The thread ends when the
    /// provider goes (its queue closes).
    fn queue(&self) -> Result<std::sync::mpsc::Sender<Job>, LlmError> {
        let mut worker = self.worker.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(q) = worker.as_ref() {
            return Ok(q.clone());
        }
        let (q, jobs) = std::sync::mpsc::channel::<Job>();
        let (slot, path, settings, idle) = (self.loaded.clone(), self.path.clone(), self.settings, self.idle);
        let warmed = self.warmed.clone();
        std::thread::Builder::new()
            .name("braid-local".into())
            .spawn(move || serve(&slot, &path, &settings, idle, &warmed, &jobs))
            .map_err(|e| failed(format!("no thread for the model: {e}")))?;
        *worker = Some(q.clone());
        Ok(q)
    }
}

/// The worker: loads the model for a job (again at the next job if that
/// failed), then answers jobs in order with one context kept between
/// them; after `idle` without one it lets the model go, to load it again
/// when the next comes.
fn serve(
    slot: &Mutex<Option<Arc<Loaded>>>,
    path: &Path,
    settings: &LocalModelSettings,
    idle: Option<Duration>,
    warmed: &AtomicBool,
    jobs: &std::sync::mpsc::Receiver<Job>,
) {
    let Ok(mut first) = jobs.recv() else { return };
    loop {
        warmed.store(true, Ordering::Relaxed);
        let model = match loaded(slot, path, settings.gpu_layers) {
            Ok(model) => model,
            Err(e) => {
                warmed.store(false, Ordering::Relaxed);
                let _ = first.tx.blocking_send(Err(e));
                let Ok(next) = jobs.recv() else { return };
                first = next;
                continue;
            }
        };
        let mut session = None;
        let mut next = Some(first);
        loop {
            let job = match next.take() {
                Some(job) => job,
                None => match idle.map_or_else(|| jobs.recv().map_err(|_| Wait::Closed), |d| waited(jobs, d)) {
                    Ok(job) => job,
                    Err(Wait::Idle) => break,
                    Err(Wait::Closed) => return,
                },
            };
            // Cancelled while waiting: nothing to do.
            if !job.tx.is_closed() {
                engine::generate(&model, &mut session, &job.request, settings, &job.tx);
            }
        }
        drop(session);
        drop(model);
        // Cleared first: a warm-up from now on queues a job, which loads
        // the model again.
        warmed.store(false, Ordering::Relaxed);
        *slot.lock().unwrap_or_else(PoisonError::into_inner) = None;
        tracing::info!("the built-in model left memory after {idle:?} without a question");
        let Ok(next) = jobs.recv() else { return };
        first = next;
    }
}

enum Wait {
    Idle,
    Closed,
}

fn waited(jobs: &std::sync::mpsc::Receiver<Job>, idle: Duration) -> Result<Job, Wait> {
    jobs.recv_timeout(idle).map_err(|e| match e {
        std::sync::mpsc::RecvTimeoutError::Timeout => Wait::Idle,
        std::sync::mpsc::RecvTimeoutError::Disconnected => Wait::Closed,
    })
}

/// Counts a generation while it lives.
struct Running(Arc<watch::Sender<u32>>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.send_modify(|n| *n = n.saturating_sub(1));
    }
}

/// The model, loaded once; a failed load is tried again next time.
fn loaded(slot: &Mutex<Option<Arc<Loaded>>>, path: &Path, gpu_layers: u32) -> Result<Arc<Loaded>, LlmError> {
    let mut slot = slot.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(l) = slot.as_ref() {
        return Ok(l.clone());
    }
    let l = Arc::new(Loaded::load(path, gpu_layers)?);
    *slot = Some(l.clone());
    Ok(l)
}

impl LlmProvider for LocalProvider {
    fn name(&self) -> &str {
        "built-in model"
    }

    fn stream(&self, request: LlmRequest) -> LlmStream {
        let (tx, rx) = tokio::sync::mpsc::channel(64);
        self.running.send_modify(|n| *n += 1);
        let job = Job { request, tx, _counted: Some(Running(self.running.clone())), _listener: None };
        if let Err(e) = self.queue().and_then(|q| q.send(job).map_err(|_| failed("the model's worker stopped".into())))
        {
            return futures::stream::once(async move { Err(e) }).boxed();
        }
        futures::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|e| (e, rx)) }).boxed()
    }

    /// Loads the model and reads `system` as the first turn (no answer):
    /// the next request shares that prefix and decodes only its question.
    /// Nothing to do while the model is in memory (or loading): a warm-up
    /// after a question would only push its conversation out of the cache.
    fn warm(&self, system: &str) {
        if self.warmed.swap(true, Ordering::Relaxed) {
            return;
        }
        let request = LlmRequest {
            model: String::new(),
            system: Some(system.to_owned()),
            messages: Vec::new(),
            tools: Vec::new(),
            tool_choice: None,
            max_tokens: Some(0),
            temperature: None,
        };
        // Room for every event of an answer of no tokens.
        let (tx, rx) = tokio::sync::mpsc::channel(8);
        let job = Job { request, tx, _counted: None, _listener: Some(rx) };
        if let Err(e) = self.queue().and_then(|q| q.send(job).map_err(|_| failed("the model's worker stopped".into())))
        {
            tracing::warn!("the built-in model could not get ready: {e}");
        }
    }

    fn count_tokens(&self, _model: &str, texts: Vec<String>) -> futures::future::BoxFuture<'static, Option<Vec<u32>>> {
        let (slot, path, gpu) = (self.loaded.clone(), self.path.clone(), self.settings.gpu_layers);
        Box::pin(async move {
            tokio::task::spawn_blocking(move || {
                let model = loaded(&slot, &path, gpu).ok()?;
                Some(texts.iter().map(|t| model.count(t)).collect())
            })
            .await
            .ok()
            .flatten()
        })
    }
}
