//! The shelf the runtime manages: the models folder, the folders a package
//! ships, and the default model opened as a provider, kept (loaded, its
//! context warm) until the default or the settings change.

use crate::discover::{self, Roots};
use crate::downloads::Downloads;
use crate::gguf;
use crate::models::{self, ModelFile};
use crate::LocalProvider;
use braid_llm::local::{LocalModels, ModelHub, OpenedModel};
use braid_protocol::{DownloadsView, HubModel, HubRepo, Recommendations};
use braid_protocol::{FoundModel, LocalModel, LocalModelSettings, LocalModelsView};
use futures::future::BoxFuture;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

pub struct Shelf {
    dir: PathBuf,
    bundled: Vec<PathBuf>,
    /// Where other apps' models are looked for.
    roots: Roots,
    /// What was opened last, and for which file and settings.
    opened: Mutex<Option<(PathBuf, LocalModelSettings, OpenedModel)>>,
    hub: Arc<ShelfHub>,
}

/// The hub and the downloads onto this shelf.
struct ShelfHub {
    dir: PathBuf,
    bundled: Vec<PathBuf>,
    downloads: Downloads,
}

impl Shelf {
    /// `dir`: the user's models (imports go there); `bundled`: read-only
    /// folders whose models are offered too (the package's starter).
    pub fn new(dir: PathBuf, bundled: Vec<PathBuf>) -> Shelf {
        let hub =
            Arc::new(ShelfHub { downloads: Downloads::open(dir.clone()), dir: dir.clone(), bundled: bundled.clone() });
        Shelf { dir, bundled, roots: Roots::from_env(), opened: Mutex::default(), hub }
    }

    /// Other apps' models looked for under `roots` instead of this user's
    /// folders (tests).
    pub fn with_roots(self, roots: Roots) -> Shelf {
        Shelf { roots, ..self }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn chosen(&self) -> Option<ModelFile> {
        models::choose(&self.dir, &self.bundled)
    }
}

impl LocalModels for Shelf {
    fn folder(&self) -> PathBuf {
        self.dir.clone()
    }

    fn view(&self) -> LocalModelsView {
        let all = models::list(&self.dir, &self.bundled);
        let default = models::choose_from(&self.dir, &all).map(|m| m.name.clone());
        let settings = models::settings(&self.dir);
        let free = gguf::available_memory();
        // One read of each header: its memory, or why it cannot be read.
        let header = |path: &Path| match gguf::Shape::read(path) {
            Ok(shape) => (Some(gguf::memory_of(&shape, settings.context, free)), None),
            Err(e) => (None, Some(e)),
        };
        let shelved: Vec<PathBuf> = all.iter().filter_map(|m| std::fs::canonicalize(&m.path).ok()).collect();
        let found = discover::discover(&self.roots)
            .into_iter()
            .map(|f| {
                let (memory, unreadable) = header(&f.path);
                FoundModel {
                    on_shelf: std::fs::canonicalize(&f.path).is_ok_and(|p| shelved.contains(&p)),
                    app: f.app.to_owned(),
                    name: f.name,
                    memory,
                    unreadable,
                    path: f.path.display().to_string(),
                    bytes: f.bytes,
                }
            })
            .collect();
        LocalModelsView {
            dir: self.dir.display().to_string(),
            models: all
                .into_iter()
                .map(|m| {
                    let (memory, unreadable) = header(&m.path);
                    LocalModel {
                        label: models::label(&m.name),
                        default: default.as_deref() == Some(m.name.as_str()),
                        bytes: m.bytes,
                        bundled: m.bundled,
                        linked: m.linked,
                        memory,
                        unreadable,
                        name: m.name,
                    }
                })
                .collect(),
            settings,
            defaults: models::fitted(),
            cores: models::cores(),
            found,
            gpu: crate::engine::gpu_offload(),
        }
    }

    fn import(&self, from: &Path) -> Result<(), String> {
        models::import(&self.dir, &self.bundled, from).map(drop)
    }

    fn link(&self, from: &Path) -> Result<(), String> {
        // Named as its app names it (an Ollama blob has no name of its own).
        let found = discover::discover(&self.roots);
        let name = match found.iter().find(|f| f.path == from) {
            Some(f) => f.name.clone(),
            None => from.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
        };
        models::link(&self.dir, &self.bundled, from, &name).map(drop)
    }

    fn remove(&self, name: &str) -> Result<(), String> {
        models::remove(&self.dir, &self.bundled, name)
    }

    fn set_default(&self, name: &str) -> Result<(), String> {
        models::set_default(&self.dir, &self.bundled, name)
    }

    fn set_settings(&self, settings: LocalModelSettings) -> Result<(), String> {
        models::save_settings(&self.dir, settings)
    }

    fn hub(&self) -> Arc<dyn ModelHub> {
        self.hub.clone()
    }

    fn open(&self) -> Option<OpenedModel> {
        let file = self.chosen()?;
        let settings = models::settings(&self.dir);
        let mut opened = self.opened.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((path, s, model)) = opened.as_ref() {
            if *path == file.path && *s == settings {
                return Some(model.clone());
            }
        }
        // A default whose header cannot be read (crafted, cut short since)
        // is not loaded: Braid starts without it, and the shelf's view
        // says why beside it.
        let shape = match gguf::Shape::read(&file.path) {
            Ok(shape) => shape,
            Err(e) => {
                tracing::warn!("the built-in model is not loaded: {e}");
                return None;
            }
        };
        let small = if file.bytes < 1 << 30 { ", a small local model" } else { ", a local model" };
        // The window it can hold: what it was trained for at most, and
        // what the free memory allows (llama.cpp would fail to allocate).
        let window = gguf::fitted_window(&shape, settings.context, gguf::available_memory());
        let cut = if window < settings.context { format!(", its window {window} tokens") } else { String::new() };
        let model = OpenedModel {
            provider: Arc::new(LocalProvider::new(
                file.path.clone(),
                LocalModelSettings { context: window, ..settings },
            )),
            label: format!("built-in {}{small}{cut}", models::label(&file.name)),
            model: file.name,
            context_window: window,
        };
        *opened = Some((file.path, settings, model.clone()));
        Some(model)
    }
}

impl ShelfHub {
    fn on_shelf(&self) -> impl Fn(&str) -> bool {
        let names: Vec<String> = models::list(&self.dir, &self.bundled).into_iter().map(|m| m.name).collect();
        move |file: &str| names.iter().any(|n| n == file.rsplit('/').next().unwrap_or(file))
    }
}

impl ModelHub for ShelfHub {
    fn start(&self, shelf_changed: Arc<dyn Fn() + Send + Sync>) {
        self.downloads.start(shelf_changed);
    }

    fn search(&self, query: String) -> BoxFuture<'static, Result<Vec<HubModel>, String>> {
        let hub = self.downloads.hub();
        Box::pin(async move { hub.search(&query).await })
    }

    fn repo(&self, repo: String) -> BoxFuture<'static, Result<HubRepo, String>> {
        let hub = self.downloads.hub();
        let context = models::settings(&self.dir).context;
        let on_shelf = self.on_shelf();
        Box::pin(async move {
            let mut found = hub.repo(repo.trim(), context, gguf::available_memory()).await?;
            for f in &mut found.files {
                f.on_shelf = on_shelf(&f.file);
            }
            Ok(found)
        })
    }

    fn recommended(&self) -> Recommendations {
        let machine = crate::recommend::this_machine();
        Recommendations { models: crate::recommend::recommend(&machine, self.on_shelf()), machine }
    }

    fn downloads(&self) -> DownloadsView {
        self.downloads.view()
    }

    fn download(
        &self,
        repo: String,
        file: String,
        use_when_done: bool,
    ) -> BoxFuture<'static, Result<DownloadsView, String>> {
        let downloads = self.downloads.clone();
        Box::pin(async move { downloads.add(repo.trim().to_owned(), file.trim().to_owned(), use_when_done).await })
    }

    fn pause(&self, id: &str) -> Result<DownloadsView, String> {
        self.downloads.pause(id)
    }

    fn resume(&self, id: &str) -> Result<DownloadsView, String> {
        self.downloads.resume(id)
    }

    fn cancel(&self, id: &str) -> Result<DownloadsView, String> {
        self.downloads.cancel(id)
    }

    fn set_endpoint(&self, endpoint: &str) -> Result<DownloadsView, String> {
        self.downloads.set_endpoint(endpoint)
    }
}
