//! The shelf the runtime manages: the models folder, the folders a package
//! ships, and the default model opened as a provider, kept (loaded, its
//! context warm) until the default or the settings change.

use crate::discover::{self, Roots};
use crate::gguf;
use crate::models::{self, ModelFile};
use crate::LocalProvider;
use braid_llm::local::{LocalModels, OpenedModel};
use braid_protocol::{FoundModel, LocalModel, LocalModelSettings, LocalModelsView};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

pub struct Shelf {
    dir: PathBuf,
    bundled: Vec<PathBuf>,
    /// Where other apps' models are looked for.
    roots: Roots,
    /// What was opened last, and for which file and settings.
    opened: Mutex<Option<(PathBuf, LocalModelSettings, OpenedModel)>>,
}

impl Shelf {
    /// `dir`: the user's models (imports go there); `bundled`: read-only
    /// folders whose models are offered too (the package's starter).
    pub fn new(dir: PathBuf, bundled: Vec<PathBuf>) -> Shelf {
        Shelf { dir, bundled, roots: Roots::from_env(), opened: Mutex::default() }
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
    fn view(&self) -> LocalModelsView {
        let all = models::list(&self.dir, &self.bundled);
        let default = models::choose_from(&self.dir, &all).map(|m| m.name.clone());
        let settings = models::settings(&self.dir);
        let free = gguf::available_memory();
        let memory = |path: &Path| gguf::memory(path, settings.context, free);
        let shelved: Vec<PathBuf> = all.iter().filter_map(|m| std::fs::canonicalize(&m.path).ok()).collect();
        let found = discover::discover(&self.roots)
            .into_iter()
            .map(|f| FoundModel {
                on_shelf: std::fs::canonicalize(&f.path).is_ok_and(|p| shelved.contains(&p)),
                app: f.app.to_owned(),
                name: f.name,
                memory: memory(&f.path),
                path: f.path.display().to_string(),
                bytes: f.bytes,
            })
            .collect();
        LocalModelsView {
            dir: self.dir.display().to_string(),
            models: all
                .into_iter()
                .map(|m| LocalModel {
                    label: models::label(&m.name),
                    default: default.as_deref() == Some(m.name.as_str()),
                    bytes: m.bytes,
                    bundled: m.bundled,
                    linked: m.linked,
                    memory: memory(&m.path),
                    name: m.name,
                })
                .collect(),
            settings,
            defaults: models::fitted(),
            cores: models::cores(),
            found,
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

    fn open(&self) -> Option<OpenedModel> {
        let file = self.chosen()?;
        let settings = models::settings(&self.dir);
        let mut opened = self.opened.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((path, s, model)) = opened.as_ref() {
            if *path == file.path && *s == settings {
                return Some(model.clone());
            }
        }
        let small = if file.bytes < 1 << 30 { ", a small local model" } else { ", a local model" };
        let model = OpenedModel {
            provider: Arc::new(LocalProvider::new(file.path.clone(), settings)),
            label: format!("built-in {}{small}", models::label(&file.name)),
            model: file.name,
            context_window: settings.context,
        };
        *opened = Some((file.path, settings, model.clone()));
        Some(model)
    }
}
