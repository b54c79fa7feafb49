//! What the approval dialog shows beside a pending call, gathered from the
//! disk: whether a write would replace what the model has not seen, and
//! what it would change (a diff). Which calls write which file is the
//! core's (`approval::pending_file_writes`); the decision stays the
//! machine's and the user's.

use super::ContextActor;
use braid_protocol::{Approval, OverwriteReason, OverwriteRisk, ToolCall, WritePreview};
use braid_workspace::freshness::Freshness;
use std::path::PathBuf;
use std::sync::PoisonError;

impl ContextActor {
    /// Pending writes over a file the model has not seen as it is now.
    pub(super) fn overwrites(&self) -> Vec<OverwriteRisk> {
        let root = PathBuf::from(self.ctx.folder());
        let freshness = self.freshness.lock().unwrap_or_else(PoisonError::into_inner);
        braid_core::approval::pending_file_writes(&self.ctx.state)
            .into_iter()
            .filter_map(|(c, path)| {
                let path = braid_workspace::paths::confine(&root, &path).ok()?;
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
        let calls = self.ctx.state.round.as_ref().map(|r| r.calls()).unwrap_or_default();
        let waiting: Vec<ToolCall> = calls
            .iter()
            .filter(|c| matches!(c.approval, Approval::Pending | Approval::AskUnsandboxed))
            .cloned()
            .collect();
        if waiting.is_empty() {
            return Vec::new();
        }
        braid_core::untrusted::prompted(self.ctx.conversation.active_messages(), &waiting)
    }

    /// The secrets pending calls would run with, and whether each is one
    /// Braid knows.
    pub(super) fn secret_uses(&self) -> Vec<braid_protocol::SecretUse> {
        let calls = self.ctx.state.round.as_ref().map(|r| r.calls()).unwrap_or_default();
        let mut uses = Vec::new();
        for call in calls.iter().filter(|c| matches!(c.approval, Approval::Pending | Approval::AskUnsandboxed)) {
            let earlier = || self.ctx.conversation.active_messages().cloned().collect::<Vec<_>>();
            let revealed = self.shared.secrets.reveal(&call.arguments, earlier);
            let known = revealed.used.into_iter().map(|p| (p, true));
            for (placeholder, known) in known.chain(revealed.unknown.into_iter().map(|p| (p, false))) {
                let kind = braid_core::secrets::kind_of(&placeholder).to_owned();
                uses.push(braid_protocol::SecretUse { call_id: call.id.clone(), placeholder, kind, known });
            }
        }
        uses
    }

    /// Pending calls of tools this conversation allowed always, whose
    /// definition changed since: what changed, for the approval to show.
    pub(super) fn tool_changes(&self) -> Vec<braid_protocol::HeldTool> {
        let calls = self.ctx.state.round.as_ref().map(|r| r.calls()).unwrap_or_default();
        let tools = &self.ctx.state.config.tools;
        let mut changes: Vec<braid_protocol::HeldTool> = Vec::new();
        for call in calls.iter().filter(|c| c.approval == Approval::Pending) {
            let Some(spec) = self.ctx.state.catalogue.iter().find(|t| t.name == call.name) else { continue };
            let braid_protocol::ToolSource::Mcp { server } = &spec.source else { continue };
            let cleared =
                tools.always_allowed.contains(&call.name) && tools.allowed_pins.get(&call.name) != spec.pin.as_ref();
            if cleared && !changes.iter().any(|c| c.name == call.name) {
                changes.extend(self.shared.pins.accepted_change(server, &call.name));
            }
        }
        changes
    }

    /// What each pending write would change.
    pub(super) fn previews(&self) -> Vec<WritePreview> {
        let root = PathBuf::from(self.ctx.folder());
        let writes = braid_core::approval::pending_file_writes(&self.ctx.state);
        writes.into_iter().filter_map(|(c, _)| braid_tools::preview::preview(c, &root)).collect()
    }
}
