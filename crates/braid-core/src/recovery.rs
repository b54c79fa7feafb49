//! Crash recovery, pure: given what was stored when the process died,
//! produce the Idle state and the messages that keep history consistent and
//! tell the user what was interrupted. Nothing that was stored is dropped.

use crate::conversation::Conversation;
use crate::machine::ContextState;
use braid_protocol::{ContextStatus, ControlKind, Message, MessageId, MessageType, Timestamp, ToolResultStatus};
use std::collections::HashSet;

/// Returns `None` when the context was Idle with nothing in flight.
pub fn recover(
    state: &ContextState,
    conversation: &Conversation,
    now: Timestamp,
) -> Option<(ContextState, Vec<Message>)> {
    let idle = state.status == ContextStatus::Idle;
    if idle && state.queue.is_empty() && state.pending.is_none() {
        return None;
    }
    let mut next = state.clone();
    let mut id = next.next_message_id.max(conversation.max_message_id().map_or(1, |m| m.0 + 1));
    let mut alloc = || {
        let m = MessageId(id);
        id += 1;
        m
    };
    let new = |id: MessageId, body: MessageType| Message::new(id, now, body);
    let mut added = Vec::new();

    // Every tool call keeps exactly one result.
    let answered: HashSet<&str> = conversation
        .active_messages()
        .filter_map(|m| match &m.body {
            MessageType::ToolResult { request_id, .. } => Some(request_id.as_str()),
            _ => None,
        })
        .collect();
    // A command the sandbox stopped keeps its blocked result.
    let held = state.round.as_ref().and_then(|r| Some((r.calls().get(r.next)?.id.clone(), r.blocked.clone()?)));
    for m in conversation.active_messages() {
        if let MessageType::ToolRequest { calls, .. } = &m.body {
            for call in calls.iter().filter(|c| !answered.contains(c.id.as_str())) {
                if let Some((_, outcome)) = held.as_ref().filter(|(id, _)| *id == call.id) {
                    added.push(new(alloc(), outcome.result_body(call.id.clone(), now)));
                    continue;
                }
                // Children still running stopped with Braid: each says so.
                if let Some(agents) = state.agents.as_ref().filter(|a| a.call_id == call.id) {
                    added.push(new(alloc(), children_interrupted(agents, &call.id, now)));
                    continue;
                }
                added.push(new(
                    alloc(),
                    MessageType::ToolResult {
                        request_id: call.id.clone(),
                        status: ToolResultStatus::Cancelled,
                        output: String::new(),
                        error: Some("interrupted: Braid stopped before this tool finished".to_owned()),
                        recoverable: true,
                        duration_ms: 0,
                        finished_at: now,
                    },
                ));
            }
        }
    }

    let mut detail = Vec::new();
    if !idle {
        // Streaming progress is not written per chunk, so the stored counts
        // are those of the first chunk: name the step, not stale numbers.
        let what = match state.status.kind() {
            braid_protocol::StatusKind::StreamingLlmResponse => "streaming an answer".to_owned(),
            _ => state.status.describe(now),
        };
        // "Connecting…" reads as "connecting." inside the sentence.
        let what = what.trim_end_matches(['…', '.']);
        let mut chars = what.chars();
        let what: String = chars.next().map(|c| c.to_lowercase().chain(chars).collect()).unwrap_or_default();
        detail.push(format!("Braid stopped while the context was {what}."));
    }
    if state.request.as_ref().is_some_and(|r| r.sequence > 0) {
        detail.push("The partial answer was not kept; press Retry to ask again.".to_owned());
    }
    let unsent: Vec<&crate::machine::QueuedMessage> = state.pending.iter().chain(state.queue.iter()).collect();
    if !unsent.is_empty() {
        detail.push(format!("{} message(s) were not sent yet, kept here:", unsent.len()));
        for q in unsent {
            let text = q.body.plain_text().unwrap_or_else(|| format!("[{}]", q.body.kind().tag()));
            // Attached images stay in the image store; their names say which.
            let names: Vec<String> = q
                .images
                .iter()
                .map(|i| match &i.source {
                    braid_protocol::ImageSource::Stored(s) => {
                        s.name.clone().unwrap_or_else(|| s.id[..12.min(s.id.len())].to_owned())
                    }
                    braid_protocol::ImageSource::Url { url } => url.clone(),
                    braid_protocol::ImageSource::FilePath { path } => path.clone(),
                    braid_protocol::ImageSource::Base64 { media_type, .. } => media_type.clone(),
                })
                .collect();
            match names.len() {
                0 => detail.push(format!("- {text}")),
                n => detail.push(format!(
                    "- {text} (with {n} image{}: {})",
                    if n == 1 { "" } else { "s" },
                    names.join(", ")
                )),
            }
        }
    }
    // A team chain stops: the user starts it again.
    if !state.route.is_empty() {
        let running = state.route.running.iter().map(|n| format!("{n} was answering"));
        let queued = (!state.route.queue.is_empty()).then(|| format!("{} waited", state.route.queue.join(", ")));
        let said: Vec<String> = running.chain(queued).collect();
        detail.push(format!("The team's turns stopped ({}); send a message to start again.", said.join("; ")));
    }
    // A sub-agent that was working cannot go on: its parent is told.
    if state.config.child.is_some() && !idle {
        detail.push("This sub-agent was interrupted by the restart; its parent gets that as its result.".to_owned());
    }
    // A summary the user asked for is asked again by the user.
    if state.book.compaction.is_some() {
        detail.push("The summary you asked for was not finished; nothing was replaced.".to_owned());
    }
    let control =
        ControlKind::Recovery { interrupted_state: format!("{:?}", state.status.kind()), detail: detail.join("\n") };
    added.push(new(alloc(), MessageType::SystemControl { control }));

    next.status = ContextStatus::Idle;
    next.request = None;
    next.pending = None;
    next.round = None;
    next.rereading = None;
    next.book.compaction = None;
    next.queue.clear();
    next.route = Default::default();
    next.agents = None;
    if next.config.child.is_some() && !idle {
        next.child.ended = true;
        // Its parent's list says how it ended, as its parent's result does.
        let reason = "interrupted by restart".to_owned();
        next.child.outcome.get_or_insert(braid_protocol::ChildOutcome::Failed { reason });
    }
    next.auto_loop = Default::default();
    next.next_message_id = id;
    Some((next, added))
}

/// The result of a `spawn_agents` call whose children a restart stopped:
/// what finished stays, the others were interrupted.
fn children_interrupted(
    agents: &braid_protocol::SubAgentsView,
    call_id: &braid_protocol::CallId,
    now: Timestamp,
) -> MessageType {
    let mut agents = agents.agents.clone();
    for a in agents.iter_mut().filter(|a| a.report.is_none()) {
        let outcome = braid_protocol::ChildOutcome::Failed { reason: "interrupted by restart".to_owned() };
        a.report =
            Some(braid_protocol::ChildReport { outcome, duration_ms: 0, tokens: 0, note: None, workspace: None });
    }
    let (status, output) = crate::subagents::aggregate(&agents);
    MessageType::ToolResult {
        request_id: call_id.clone(),
        status,
        output,
        error: (status == ToolResultStatus::Error).then(|| "no sub-agent submitted a result".to_owned()),
        recoverable: true,
        duration_ms: 0,
        finished_at: now,
    }
}
