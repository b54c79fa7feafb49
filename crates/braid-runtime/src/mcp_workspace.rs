//! A workspace's own `.mcp.json` (the form Claude Code shares in a
//! repository). A repository is not the user: its servers are commands
//! someone else wrote, so they start only once the user trusts the file,
//! and a file changed since then must be trusted again. What was trusted
//! (the file's path and text) is kept in `mcp-trust.json` beside the
//! database.

use crate::{Runtime, RuntimeError};
use braid_protocol::mcp::{McpOrigin, McpWorkspace};
use braid_protocol::McpSettings;
use braid_tools::mcp::{McpConfig, ServerConfig};
use std::collections::btree_map::Entry;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The workspace file as read, and whether it may start servers.
pub(crate) struct WorkspaceFile {
    pub path: PathBuf,
    pub text: String,
    pub trusted: bool,
}

/// What one server should be: its settings, where they come from, and
/// whether it may start.
#[derive(Clone, PartialEq)]
pub(crate) struct Wanted {
    pub config: ServerConfig,
    pub origin: McpOrigin,
    pub trusted: bool,
}

impl WorkspaceFile {
    /// The workspace's `.mcp.json`, when it has one.
    pub fn read(workspace: &Path, trust: &Path) -> Option<WorkspaceFile> {
        let path = workspace.join(".mcp.json");
        let text = std::fs::read_to_string(&path).ok()?;
        let trusted = trusted_texts(trust).get(&path.display().to_string()) == Some(&text);
        Some(WorkspaceFile { path, text, trusted })
    }

    pub fn view(&self, error: Option<String>) -> McpWorkspace {
        McpWorkspace { path: self.path.display().to_string(), trusted: self.trusted, error }
    }
}

/// The servers to run: the user's own, then the workspace's under names
/// the user's do not hold (the user's win). Also why the workspace file
/// cannot be used, or which of its servers were left out.
pub(crate) fn wanted(
    settings: McpConfig,
    workspace: Option<&WorkspaceFile>,
) -> (BTreeMap<String, Wanted>, Option<String>) {
    let mut all: BTreeMap<String, Wanted> = settings
        .servers
        .into_iter()
        .map(|(name, config)| (name, Wanted { config, origin: McpOrigin::Settings, trusted: true }))
        .collect();
    let Some(file) = workspace else { return (all, None) };
    let config = match McpConfig::parse(&file.text) {
        Ok(config) => config,
        Err(e) => return (all, Some(e)),
    };
    let mut shadowed = Vec::new();
    for (name, config) in config.servers {
        match all.entry(name) {
            Entry::Occupied(taken) => shadowed.push(taken.key().clone()),
            Entry::Vacant(free) => {
                free.insert(Wanted { config, origin: McpOrigin::Workspace, trusted: file.trusted });
            }
        }
    }
    let note = (!shadowed.is_empty())
        .then(|| format!("your own settings have servers named {}; theirs are used", shadowed.join(", ")));
    (all, note)
}

fn trusted_texts(trust: &Path) -> BTreeMap<String, String> {
    std::fs::read_to_string(trust).ok().and_then(|t| serde_json::from_str(&t).ok()).unwrap_or_default()
}

impl Runtime {
    fn trust_path(&self) -> PathBuf {
        self.shared.config.db_path.parent().map(PathBuf::from).unwrap_or_default().join("mcp-trust.json")
    }

    /// The workspace's `.mcp.json` read again.
    pub(crate) fn read_workspace_mcp(&self) -> Option<WorkspaceFile> {
        WorkspaceFile::read(&self.shared.config.default_working_dir, &self.trust_path())
    }

    /// Trusts the workspace's `.mcp.json` as it is now (or no longer), and
    /// starts or stops its servers.
    pub async fn trust_workspace_mcp(&self, trusted: bool) -> Result<McpSettings, RuntimeError> {
        let Some(file) = self.read_workspace_mcp() else {
            return Err(RuntimeError::InvalidInput("this workspace has no .mcp.json".into()));
        };
        let path = self.trust_path();
        let mut texts = trusted_texts(&path);
        let key = file.path.display().to_string();
        if trusted {
            texts.insert(key, file.text);
        } else {
            texts.remove(&key);
        }
        let json = serde_json::to_string_pretty(&texts).unwrap_or_default();
        let tmp = path.with_extension("json.tmp");
        std::fs::write(&tmp, json)
            .and_then(|()| std::fs::rename(&tmp, &path))
            .map_err(|e| RuntimeError::InvalidInput(format!("could not save {}: {e}", path.display())))?;
        let text = self.shared.mcp.settings_text();
        self.apply_mcp_settings(text).map_err(RuntimeError::InvalidInput)?;
        Ok(self.mcp_settings())
    }
}
