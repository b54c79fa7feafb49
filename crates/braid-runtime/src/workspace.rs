//! The folder a conversation works in: chosen when it is created (the
//! runtime's default otherwise) and changed later while it is idle. In a
//! broad folder (the home folder, `/`) the core asks before the first
//! read (`ToolSettings::confirm_reads`).

use crate::actor::{Input, MetaChange};
use crate::shared::RuntimeConfig;
use crate::{Runtime, RuntimeError};
use braid_protocol::{ContextId, ContextSummary};
use std::path::{Path, PathBuf};

impl RuntimeConfig {
    /// Whether `dir` (canonical) is one of the broad folders or holds one
    /// (`/home` holds the home folder's keys as much as the home folder).
    pub fn is_broad(&self, dir: &Path) -> bool {
        self.broad_dirs.iter().any(|b| b.starts_with(dir))
    }
}

impl Runtime {
    /// The folder a conversation created without one works in.
    pub fn default_working_dir(&self) -> String {
        self.shared.config.default_working_dir.display().to_string()
    }

    /// The tools work in `dir` from their next call. Refused while the
    /// conversation is busy, and for a folder that does not exist.
    pub async fn set_working_dir(&self, id: &ContextId, dir: &str) -> Result<ContextSummary, RuntimeError> {
        if dir.trim().is_empty() {
            return Err(RuntimeError::InvalidInput("choose a folder".to_owned()));
        }
        let dir = self.folder(Some(dir))?;
        let broad = self.shared.config.is_broad(&dir);
        let change = MetaChange { working_dir: Some((dir, broad)), ..Default::default() };
        self.ask(id, |answer| Input::UpdateMeta { change, answer }).await
    }

    /// `dir` (the default when empty) as an existing folder's real path.
    pub(crate) fn folder(&self, dir: Option<&str>) -> Result<PathBuf, RuntimeError> {
        let dir = match dir.map(str::trim).filter(|d| !d.is_empty()) {
            Some(d) => PathBuf::from(d),
            None => self.shared.config.default_working_dir.clone(),
        };
        std::fs::canonicalize(&dir).ok().filter(|d| d.is_dir()).ok_or_else(|| {
            RuntimeError::InvalidInput(format!(
                "working directory {} does not exist or is not a directory",
                dir.display()
            ))
        })
    }
}
