//! The folder a conversation works in: chosen when it is created (the
//! runtime's default otherwise) and changed later while it is idle. In a
//! broad folder (the home folder, `/`) the core asks before the first
//! read (`ToolSettings::confirm_reads`).

use crate::mailbox::{Input, MetaChange};
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
    /// The folder set in Settings → New conversations, else the one
    /// Braid was started in (or given).
    pub fn default_working_dir(&self) -> String {
        self.shared
            .providers
            .conversation_defaults()
            .working_dir
            .unwrap_or_else(|| self.shared.config.default_working_dir.display().to_string())
    }

    /// The tools work in `dir` from their next call. Refused while the
    /// conversation is busy, and for a folder that does not exist.
    pub async fn set_working_dir(&self, id: &ContextId, dir: &str) -> Result<ContextSummary, RuntimeError> {
        if dir.trim().is_empty() {
            return Err(RuntimeError::InvalidInput("choose a folder".to_owned()));
        }
        let dir = self.folder(Some(dir))?;
        let broad = self.shared.config.is_broad(&dir);
        let change = MetaChange { working_dir: Some((dir.display().to_string(), broad)), ..Default::default() };
        let summary = self.ask(id, |answer| Input::UpdateMeta { change, answer }).await?;
        self.open_codebase(&summary.working_dir);
        Ok(summary)
    }

    /// `dir` (the default when empty) as an existing folder's real path.
    pub(crate) fn folder(&self, dir: Option<&str>) -> Result<PathBuf, RuntimeError> {
        let dir = match dir.map(str::trim).filter(|d| !d.is_empty()) {
            Some(d) => PathBuf::from(d),
            None => PathBuf::from(self.default_working_dir()),
        };
        std::fs::canonicalize(&dir).ok().filter(|d| d.is_dir()).ok_or_else(|| {
            RuntimeError::InvalidInput(format!(
                "working directory {} does not exist or is not a directory",
                dir.display()
            ))
        })
    }
}

/// The instructions files an agent looks for at a project's root, in the
/// order taken: Braid reads the first there.
pub(crate) const INSTRUCTIONS_FILES: [&str; 3] = ["AGENTS.md", "BRAID.md", "CLAUDE.md"];

/// At most this much of it goes to the model.
const INSTRUCTIONS_MAX: usize = 32 * 1024;

/// The folder and its instructions file, read now (an edit reaches the
/// next request). A file that leads outside the folder (a symbolic link)
/// is not read.
pub(crate) fn facts(dir: &str) -> braid_core::fit::WorkspaceFacts {
    let root = Path::new(dir);
    let instructions = INSTRUCTIONS_FILES.iter().find_map(|name| {
        let path = braid_workspace::paths::confine(root, name).ok()?;
        let bytes = std::fs::read(&path).ok()?;
        let cut = bytes.len() > INSTRUCTIONS_MAX;
        let mut text = String::from_utf8_lossy(&bytes[..bytes.len().min(INSTRUCTIONS_MAX)]).into_owned();
        // A cut through a character leaves its replacement mark: drop it.
        if cut {
            text = text.trim_end_matches('\u{FFFD}').to_owned();
        }
        Some(braid_core::fit::Instructions { file: (*name).to_owned(), text, cut })
    });
    braid_core::fit::WorkspaceFacts { path: dir.to_owned(), instructions }
}
