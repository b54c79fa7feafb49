//! What the approval dialog shows beside a pending call, gathered from the
//! disk: whether a write would replace what the model has not seen, and
//! what it would change (a diff). Facts for the user; the decision stays
//! the machine's and the user's.

use super::ContextActor;
use braid_protocol::{Approval, OverwriteReason, OverwriteRisk, ToolCall, WritePreview};
use braid_workspace::freshness::Freshness;
use std::path::PathBuf;
use std::sync::PoisonError;

impl ContextActor {
    fn pending_writes(&self) -> impl Iterator<Item = &ToolCall> {
        let calls = self.state.round.as_ref().map(|r| r.calls()).unwrap_or_default();
        calls
            .iter()
            .filter(|c| c.approval == Approval::Pending && matches!(c.name.as_str(), "write_file" | "edit_file"))
    }

    /// Pending writes over a file the model has not seen as it is now.
    pub(super) fn overwrites(&self) -> Vec<OverwriteRisk> {
        let root = PathBuf::from(&self.meta.working_dir);
        let freshness = self.freshness.lock().unwrap_or_else(PoisonError::into_inner);
        self.pending_writes()
            .filter_map(|c| {
                let args: serde_json::Value = serde_json::from_str(&c.arguments).ok()?;
                let path = braid_workspace::paths::confine(&root, args.get("path")?.as_str()?).ok()?;
                let reason = if !freshness.seen(&path) {
                    path.is_file().then_some(OverwriteReason::NotRead)?
                } else if matches!(freshness.check(&path), Freshness::ModifiedExternally { .. }) {
                    OverwriteReason::ChangedOutside
                } else {
                    return None;
                };
                Some(OverwriteRisk { call_id: c.id.clone(), path: self.shown(&path), reason })
            })
            .collect()
    }

    /// Pending calls that text from a tool, a file or a server asked for.
    pub(super) fn prompted(&self) -> Vec<braid_protocol::PromptedCall> {
        let calls = self.state.round.as_ref().map(|r| r.calls()).unwrap_or_default();
        let waiting: Vec<ToolCall> = calls
            .iter()
            .filter(|c| matches!(c.approval, Approval::Pending | Approval::AskUnsandboxed))
            .cloned()
            .collect();
        if waiting.is_empty() {
            return Vec::new();
        }
        braid_core::untrusted::prompted(self.conversation.active_messages(), &waiting)
    }

    /// What each pending write would change.
    pub(super) fn previews(&self) -> Vec<WritePreview> {
        let root = PathBuf::from(&self.meta.working_dir);
        self.pending_writes().filter_map(|c| braid_tools::preview::preview(c, &root)).collect()
    }
}
