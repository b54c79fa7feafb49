//! What a client sees of a context: summary, branches, queue, messages.

use braid_core::{ContextState, Conversation};
use braid_protocol::command::BranchSummary;
use braid_protocol::{
    BlockedCommand, BranchLabel, ContextSnapshot, ContextSummary, ContextUsage, EffectiveModel, FileInPlay, Message,
};
use braid_store::ContextMeta;

pub fn summary(meta: &ContextMeta, state: &ContextState, conversation: &Conversation) -> ContextSummary {
    ContextSummary {
        id: meta.id.clone(),
        title: meta.title.clone(),
        // Where the tools work: the branch in use's own copy, if any.
        working_dir: conversation.active_folder().unwrap_or(&meta.working_dir).to_owned(),
        created_at: meta.created_at,
        updated_at: meta.updated_at,
        status: state.status.clone(),
        message_count: conversation.len() as u64,
        model: meta.model.clone(),
        pinned: meta.pinned,
        branches: conversation.branches().map(|b| BranchLabel { id: b.id.clone(), name: b.name.clone() }).collect(),
        active_branch: conversation.active_branch().clone(),
    }
}

/// `tail` limits the active branch's messages to the most recent ones.
pub fn build(
    meta: &ContextMeta,
    state: &ContextState,
    conversation: &Conversation,
    tail: usize,
    effective_model: Option<EffectiveModel>,
    context: Option<ContextUsage>,
    files: Vec<FileInPlay>,
) -> ContextSnapshot {
    let active = conversation.active_branch().clone();
    let all: Vec<&Message> = conversation.active_messages().collect();
    let skip = all.len().saturating_sub(tail);
    ContextSnapshot {
        summary: summary(meta, state, conversation),
        branches: conversation
            .branches()
            .map(|b| BranchSummary {
                id: b.id.clone(),
                name: b.name.clone(),
                parent: b.parent.clone(),
                fork_point: b.fork_point,
                message_count: b.message_ids.len() as u64,
                system_prompt: b.system_prompt.clone(),
                model: b.model.clone(),
                folder: b.folder.clone(),
            })
            .collect(),
        queued: state.queue.iter().map(|q| Message::new(q.id, meta.updated_at, q.body.clone())).collect(),
        messages: all[skip..].iter().map(|m| (*m).clone()).collect(),
        truncated: skip > 0,
        active_branch: active,
        generation: state.config.generation,
        // No model set up: what a capable model would do.
        tool_use: braid_core::machine::tool_use(
            &state.config.generation,
            effective_model.as_ref().is_none_or(|m| m.tools),
        ),
        effective_model,
        tools: state.config.tools.clone(),
        strategy: state.config.context,
        summarize_at_percent: state.config.summarize_at_percent,
        context,
        kept: state.config.kept.iter().copied().collect(),
        dropped_tools: state.config.dropped_tools.iter().cloned().collect(),
        left_out: state.config.left_out.iter().copied().collect(),
        summary_preview: state.book.summary_preview.clone(),
        versions: braid_core::versions::of(conversation),
        team: state.config.team.clone(),
        route: state.route.visible(),
        sub_agents: state.agents.clone(),
        child: state.config.child.clone(),
        files,
        overwrites: Vec::new(),
        draft: None,
        prompted: Vec::new(),
        secret_uses: Vec::new(),
        tool_changes: Vec::new(),
        previews: Vec::new(),
        blocked: state.round.as_ref().and_then(|r| {
            let held = r.blocked.as_ref()?;
            Some(BlockedCommand {
                call_id: r.calls().get(r.next)?.id.clone(),
                reason: held.blocked.as_deref().cloned().unwrap_or_default(),
                output: held.output.clone(),
            })
        }),
    }
}
