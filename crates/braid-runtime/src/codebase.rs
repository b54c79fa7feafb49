//! The codebase index at run time: one live index per workspace (in
//! `braid-codebase`), opened when a conversation in it is opened or moved
//! there, its four tools in the catalogue, its build's progress for the
//! UI, and a workspace file read around a line ("open at the line").

use crate::{Runtime, RuntimeError};
use braid_codebase::Codebases;
use braid_protocol::{CodebaseIndex, ContextId, FileExcerpt};
use std::path::Path;
use std::sync::Arc;

/// Lines shown around the line asked for.
const EXCERPT_BEFORE: u32 = 20;
const EXCERPT_AFTER: u32 = 60;
/// Larger files are not opened (the whole file is read to find a line).
const EXCERPT_MAX_BYTES: u64 = 16 * 1024 * 1024;

/// The built-in tools with the codebase tools, and the indexes they share.
pub(crate) fn registry(data_dir: &Path, broad: Vec<std::path::PathBuf>) -> (braid_tools::ToolRegistry, Arc<Codebases>) {
    let codebases = Arc::new(Codebases::new(
        data_dir.join("codebase"),
        broad,
        Arc::new(
            |s: &CodebaseIndex| tracing::debug!(root = %s.root, state = ?s.state, done = s.done, total = s.total, "codebase index"),
        ),
    ));
    let mut tools = braid_tools::ToolRegistry::builtin();
    for tool in braid_codebase::tools::tools(codebases.clone()) {
        if let Err(e) = tools.register(tool) {
            tracing::error!("codebase tool refused: {e}");
        }
    }
    (tools, codebases)
}

impl Runtime {
    /// Starts indexing `dir` in the background (a broad folder never is).
    pub(crate) fn open_codebase(&self, dir: &str) {
        let dir = Path::new(dir);
        if !self.shared.config.is_broad(dir) {
            let _ = self.shared.codebases.open(dir);
        }
    }

    async fn live_index(&self, id: &ContextId) -> Result<Option<Arc<braid_codebase::LiveIndex>>, RuntimeError> {
        let dir = self.peek(id).await?.summary.working_dir;
        if self.shared.config.is_broad(Path::new(&dir)) {
            return Ok(None);
        }
        Ok(self.shared.codebases.open(Path::new(&dir)).ok())
    }

    /// The index of the conversation's workspace; None for a broad folder.
    pub async fn codebase_index(&self, id: &ContextId) -> Result<Option<CodebaseIndex>, RuntimeError> {
        Ok(self.live_index(id).await?.map(|l| l.status()))
    }

    /// Stops the build under way.
    pub async fn cancel_codebase_index(&self, id: &ContextId) -> Result<Option<CodebaseIndex>, RuntimeError> {
        let live = self.live_index(id).await?;
        live.as_ref().inspect(|l| l.cancel());
        Ok(live.map(|l| l.status()))
    }

    /// Builds the index again (after a cancel; unchanged files are kept).
    pub async fn rebuild_codebase_index(&self, id: &ContextId) -> Result<Option<CodebaseIndex>, RuntimeError> {
        let live = self.live_index(id).await?;
        live.as_ref().inspect(|l| l.start_build());
        Ok(live.map(|l| l.status()))
    }

    /// Lines of a workspace file around `line`, confined to the workspace.
    pub async fn read_workspace_file(
        &self,
        id: &ContextId,
        path: &str,
        line: u32,
    ) -> Result<FileExcerpt, RuntimeError> {
        let dir = self.peek(id).await?.summary.working_dir;
        let real = braid_workspace::paths::confine(Path::new(&dir), path)
            .map_err(|e| RuntimeError::InvalidInput(format!("{path}: {e}")))?;
        let size = std::fs::metadata(&real).map_err(|e| RuntimeError::InvalidInput(format!("{path}: {e}")))?.len();
        if size > EXCERPT_MAX_BYTES {
            return Err(RuntimeError::InvalidInput(format!("{path} is {size} bytes, too large to open here")));
        }
        let bytes = std::fs::read(&real).map_err(|e| RuntimeError::InvalidInput(format!("{path}: {e}")))?;
        if bytes[..bytes.len().min(8192)].contains(&0) {
            return Err(RuntimeError::InvalidInput(format!("{path} is a binary file")));
        }
        let text = String::from_utf8_lossy(&bytes);
        let all: Vec<&str> = text.lines().collect();
        let line = line.clamp(1, all.len().max(1) as u32);
        let start = line.saturating_sub(EXCERPT_BEFORE).max(1);
        let end = (line + EXCERPT_AFTER).min(all.len() as u32);
        Ok(FileExcerpt {
            path: path.to_owned(),
            line,
            start_line: start,
            lines: all
                .get(start as usize - 1..end as usize)
                .unwrap_or_default()
                .iter()
                .map(|l| (*l).to_owned())
                .collect(),
            total_lines: all.len() as u32,
        })
    }
}
