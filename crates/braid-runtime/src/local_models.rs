//! The built-in model's shelf, as the settings commands change it: each
//! change is saved by the shelf, then the fallback follows its default.
//! File work (an import copies gigabytes) runs off the async threads.

use crate::{Providers, RuntimeError};
use braid_llm::local::LocalModels;
use braid_llm::local::ModelHub;
use braid_protocol::{DownloadsView, HubModel, HubRepo, LocalModelSettings, LocalModelsView, Recommendations};
use std::sync::Arc;

impl Providers {
    fn shelf(&self) -> Result<Arc<dyn LocalModels>, RuntimeError> {
        self.local().cloned().ok_or_else(|| {
            RuntimeError::InvalidInput(
                "this Braid runs no built-in model (it was started with a model server or the echo)".to_owned(),
            )
        })
    }

    pub async fn local_models(&self) -> Result<LocalModelsView, RuntimeError> {
        let shelf = self.shelf()?;
        blocking(move || Ok(shelf.view())).await
    }

    pub async fn import_local_model(&self, path: String) -> Result<LocalModelsView, RuntimeError> {
        let path = path.trim().to_owned();
        if path.is_empty() {
            return Err(RuntimeError::InvalidInput("give the path of a .gguf file to import".to_owned()));
        }
        self.change(move |shelf| shelf.import(std::path::Path::new(&path))).await
    }

    pub async fn link_local_model(&self, path: String) -> Result<LocalModelsView, RuntimeError> {
        let path = path.trim().to_owned();
        if path.is_empty() {
            return Err(RuntimeError::InvalidInput("give the path of the .gguf file to run in place".to_owned()));
        }
        self.change(move |shelf| shelf.link(std::path::Path::new(&path))).await
    }

    pub async fn remove_local_model(&self, name: String) -> Result<LocalModelsView, RuntimeError> {
        self.change(move |shelf| shelf.remove(&name)).await
    }

    pub async fn set_default_local_model(&self, name: String) -> Result<LocalModelsView, RuntimeError> {
        self.change(move |shelf| shelf.set_default(&name)).await
    }

    pub async fn set_local_model_settings(&self, s: LocalModelSettings) -> Result<LocalModelsView, RuntimeError> {
        self.change(move |shelf| shelf.set_settings(s)).await
    }

    fn model_hub(&self) -> Result<Arc<dyn ModelHub>, RuntimeError> {
        Ok(self.shelf()?.hub())
    }

    pub async fn search_hub(&self, query: String) -> Result<Vec<HubModel>, RuntimeError> {
        self.model_hub()?.search(query).await.map_err(RuntimeError::InvalidInput)
    }

    pub async fn hub_repo(&self, repo: String) -> Result<HubRepo, RuntimeError> {
        self.model_hub()?.repo(repo).await.map_err(RuntimeError::InvalidInput)
    }

    pub async fn recommended_models(&self) -> Result<Recommendations, RuntimeError> {
        let hub = self.model_hub()?;
        blocking(move || Ok(hub.recommended())).await
    }

    pub fn list_downloads(&self) -> Result<DownloadsView, RuntimeError> {
        Ok(self.model_hub()?.downloads())
    }

    pub async fn download_model(
        &self,
        repo: String,
        file: String,
        use_when_done: bool,
    ) -> Result<DownloadsView, RuntimeError> {
        self.model_hub()?.download(repo, file, use_when_done).await.map_err(RuntimeError::InvalidInput)
    }

    /// Pause, resume, cancel, or a new endpoint.
    pub fn change_downloads(
        &self,
        edit: impl FnOnce(&dyn ModelHub) -> Result<DownloadsView, String>,
    ) -> Result<DownloadsView, RuntimeError> {
        edit(self.model_hub()?.as_ref()).map_err(RuntimeError::InvalidInput)
    }

    /// Runs `edit` on the shelf, then points the fallback at its default
    /// (the same loaded model if that did not change).
    async fn change(
        &self,
        edit: impl FnOnce(&dyn LocalModels) -> Result<(), String> + Send + 'static,
    ) -> Result<LocalModelsView, RuntimeError> {
        let shelf = self.shelf()?;
        let view = blocking(move || {
            edit(shelf.as_ref()).map_err(RuntimeError::InvalidInput)?;
            Ok(shelf.view())
        })
        .await?;
        self.reopen_local();
        Ok(view)
    }
}

async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, RuntimeError> + Send + 'static,
) -> Result<T, RuntimeError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| RuntimeError::InvalidInput(format!("the shelf's task failed: {e}")))?
}
