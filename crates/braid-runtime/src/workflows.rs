//! Workflows on disk: `.braid/workflows/*.md` in the conversation's folder
//! and `workflows/*.md` in the app's folder (beside `mcp.json`); the
//! folder's own win over the app's of the same name. Read afresh each
//! time, so an edit counts at once. Running one sends its filled-in prompt
//! as the user's message, then tells the core, which records the run.

use crate::{Runtime, RuntimeError};
use braid_core::machine::Event;
use braid_core::workflow;
use braid_protocol::{ContextId, NewMessage, SendReceipt, WorkflowList};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

impl Runtime {
    /// The workflows `id` can run, by name.
    pub async fn list_workflows(&self, id: &ContextId) -> Result<WorkflowList, RuntimeError> {
        let folder = PathBuf::from(self.peek(id).await?.summary.working_dir);
        let app = self.shared.config.db_path.parent().map(|p| p.join("workflows"));
        let mut list = WorkflowList::default();
        let project = folder.join(".braid").join("workflows");
        // Inside the folder only: a symlinked `.braid` leading out is not read.
        let confined = project.canonicalize().is_ok_and(|p| folder.canonicalize().is_ok_and(|f| p.starts_with(f)));
        if confined {
            read_dir(&project, "workspace", &mut list);
        }
        if let Some(app) = app {
            read_dir(&app, "config", &mut list);
        }
        list.workflows.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(list)
    }

    /// Runs workflow `name` in `id`: its prompt, filled in, is sent as the
    /// user's message (never queued: a workflow starts on an idle
    /// conversation), and the run is recorded.
    pub async fn run_workflow(
        &self,
        id: &ContextId,
        name: &str,
        arguments: BTreeMap<String, String>,
    ) -> Result<SendReceipt, RuntimeError> {
        workflow::check_name(name).map_err(RuntimeError::InvalidInput)?;
        let list = self.list_workflows(id).await?;
        let Some(found) = list.workflows.iter().find(|w| w.name == name) else {
            let problem = list.problems.iter().find(|p| p.contains(&format!("{name}.md")));
            let names: Vec<&str> = list.workflows.iter().map(|w| w.name.as_str()).collect();
            let known = if names.is_empty() { "none".to_owned() } else { names.join(", ") };
            return Err(RuntimeError::InvalidInput(match problem {
                Some(p) => p.clone(),
                None => format!("there is no workflow {name:?} (workflows here: {known})"),
            }));
        };
        let prompt = workflow::fill(found, &arguments).map_err(RuntimeError::InvalidInput)?;
        let receipt = self.send_message(id, NewMessage::user_text(&prompt), false).await?;
        let event = Event::WorkflowStarted { name: name.to_owned(), arguments, message: receipt.message_id };
        self.command(id, event).await?;
        Ok(receipt)
    }
}

/// Every `*.md` of `dir` not already listed (an earlier folder wins).
fn read_dir(dir: &Path, origin: &str, list: &mut WorkflowList) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut files: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    files.sort();
    for path in files {
        let Some(name) = path.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_suffix(".md")) else {
            continue;
        };
        if list.workflows.iter().any(|w| w.name == name) {
            continue;
        }
        let read = match std::fs::metadata(&path) {
            Ok(m) if m.len() as usize > workflow::MAX_FILE_BYTES => {
                Err(format!("{name}.md is {} bytes; a workflow may have {}", m.len(), workflow::MAX_FILE_BYTES))
            }
            _ => std::fs::read_to_string(&path).map_err(|e| format!("{name}.md could not be read: {e}")),
        };
        match read.and_then(|text| workflow::parse(name, origin, &text)) {
            Ok(w) => list.workflows.push(w),
            Err(e) => list.problems.push(format!("{} ({origin}): {e}", path.display())),
        }
    }
}
