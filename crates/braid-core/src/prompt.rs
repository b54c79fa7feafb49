//! What is sent to the model: the active branch without the messages that
//! are for people and the system only (SystemControl, Unknown); where a
//! summary replaced older messages, the summary stands in their place,
//! followed by the files the model had read, so it keeps its working set.

mod summaries;
mod system;

pub use summaries::{compact_batch, standing_summaries, CompactError};
pub use system::{parts, tool_examples, PromptFacts, BASE_PROMPT, PLANNER_INSTRUCTIONS, UNTRUSTED_RULE};

use crate::conversation::Conversation;
use braid_protocol::{ControlKind, Message, MessageId, MessageType, Role};
use std::collections::HashSet;

/// Files re-attached after a summary, at most this many tokens in all.
pub const REATTACH_TOKENS: u32 = 1_000;

/// The latest summary on the active branch: it stands for the messages it
/// replaced, and fitting keeps it before any older message.
pub fn latest_summary(conversation: &Conversation) -> Option<MessageId> {
    summaries::latest(conversation).map(|s| s.id)
}

/// The messages of the active branch that go to the model, in order.
pub fn request_messages(conversation: &Conversation) -> Vec<Message> {
    let active: Vec<&Message> = conversation.active_messages().collect();
    let standing: Vec<(summaries::Summary, HashSet<MessageId>)> =
        summaries::standing(&active).into_iter().map(|s| (s, s.replaces.iter().copied().collect())).collect();
    let replaced: HashSet<MessageId> = standing.iter().flat_map(|(_, own)| own.iter().copied()).collect();
    let undone = crate::merge::undone(conversation);
    let mut placed: HashSet<MessageId> = HashSet::new();
    let mut out = Vec::with_capacity(active.len());
    for m in &active {
        if replaced.contains(&m.id) {
            // Each summary stands where the earliest message it replaced was.
            for (s, own) in &standing {
                if own.contains(&m.id) && placed.insert(s.id) {
                    out.push(summary_message(s.message, s.text, s.replaces.len(), &active, own));
                }
            }
            continue;
        }
        match &m.body {
            MessageType::SystemControl { control: ControlKind::Merge { record } } if !undone.contains(&m.id) => {
                if let Some(text) = &record.summary {
                    out.push(merge_summary(m, &record.source_name, text));
                }
            }
            MessageType::SystemControl { .. } | MessageType::Unknown { .. } => {}
            _ => out.push((*m).clone()),
        }
    }
    out
}

/// A summary merge as the model reads it: what the other branch found.
fn merge_summary(card: &Message, branch: &str, text: &str) -> Message {
    let body = format!("[Merged from the branch \"{branch}\": a summary of what was found there]\n{text}");
    Message::new(card.id, card.created_at, MessageType::text(Role::User, body))
}

fn summary_message(
    summary: &Message,
    text: &str,
    n: usize,
    active: &[&Message],
    replaced: &HashSet<MessageId>,
) -> Message {
    let mut body = format!(
        "[Summary of {n} earlier messages, written to keep this conversation within the model's window]\n{text}"
    );
    let files = reattached_files(active, replaced);
    if !files.is_empty() {
        body.push_str("\n\nFiles read before this point, as they were last read:");
        for (path, content) in files {
            body.push_str(&format!("\n\n### {path}\n{content}"));
        }
    }
    Message::new(summary.id, summary.created_at, MessageType::text(Role::User, body))
}

/// The latest read of each file among the summarised messages, newest
/// first, within [`REATTACH_TOKENS`].
fn reattached_files(active: &[&Message], replaced: &HashSet<MessageId>) -> Vec<(String, String)> {
    let mut paths_by_call = Vec::new();
    for m in active.iter().filter(|m| replaced.contains(&m.id)) {
        if let MessageType::ToolRequest { calls, .. } = &m.body {
            for c in calls.iter().filter(|c| c.name == "read_file") {
                let path = serde_json::from_str::<serde_json::Value>(&c.arguments)
                    .ok()
                    .and_then(|v| v["path"].as_str().map(str::to_owned));
                if let Some(path) = path {
                    paths_by_call.push((c.id.clone(), path));
                }
            }
        }
    }
    let mut seen = HashSet::new();
    let mut used = 0u32;
    let mut out = Vec::new();
    for m in active.iter().rev().filter(|m| replaced.contains(&m.id)) {
        let MessageType::ToolResult { request_id, output, error: None, .. } = &m.body else { continue };
        let Some((_, path)) = paths_by_call.iter().find(|(id, _)| id == request_id) else { continue };
        if !seen.insert(path.clone()) {
            continue;
        }
        let cost = crate::tokens::count(crate::tokens::TokenEncoding::O200k, output);
        if used + cost > REATTACH_TOKENS {
            continue;
        }
        used += cost;
        out.push((path.clone(), output.clone()));
    }
    out
}

/// When the last answer was cut at the output limit or stopped by the
/// user (and the user pressed Continue), the model is told to go on from
/// where it stopped.
pub fn continuation(messages: &[Message]) -> Option<String> {
    let last = messages.last()?;
    if !matches!(last.body, MessageType::Text { role: Role::Assistant, .. }) {
        return None;
    }
    let why = match (last.meta.cut, last.meta.stopped) {
        (true, _) => "was cut off at the output limit",
        (false, true) => "was stopped by the user",
        (false, false) => return None,
    };
    Some(format!(
        "Your previous answer {why}. Continue exactly where it stopped, without repeating what you already wrote."
    ))
}

/// What the summariser is asked for.
pub const SUMMARY_INSTRUCTIONS: &str = "Summarise the conversation below so that you can continue the work \
without it. Keep: the user's task and goals, decisions made and why, open items and next steps, the files \
and paths in play, and facts that later steps depend on. Write plain sentences and short lists, at most \
300 words. Do not answer the conversation; only summarise it.";

/// The summariser's instructions, with what the user asked it to keep
/// (`/compact keep the numbers`).
pub fn summary_instructions(user: Option<&str>) -> String {
    match user.map(str::trim).filter(|u| !u.is_empty()) {
        None => SUMMARY_INSTRUCTIONS.to_owned(),
        Some(u) => format!("{SUMMARY_INSTRUCTIONS}\n\nThe user asks that the summary also keep this: {u}"),
    }
}

/// For the merge card: what a branch found, for the branch it merges into.
pub const MERGE_SUMMARY_INSTRUCTIONS: &str = "The conversation below is a branch of a larger conversation, explored on its own since it parted from the main line. Summarise what it found, so the main line can use it: the decisions made and why, the results (what worked, what did not, figures), and the files touched and how. Write plain sentences and short lists, at most 200 words. Do not answer the conversation; only summarise it.";

/// What a summary of `batch` (ids as sent) replaces and the text the
/// model is asked to summarise, within `max_tokens` (what the summariser
/// can read). The summaries in force in the batch are folded in (their
/// text first, their messages replaced again), so one summary covers all
/// before it. A batch longer than the summariser reads is read from its
/// newest end: the oldest part, which no request could hold either, is
/// covered by the earlier summary or dropped, and the text says so.
pub fn summary_job(conversation: &Conversation, batch: &[MessageId], max_tokens: u32) -> (Vec<MessageId>, String) {
    let wanted: HashSet<MessageId> = batch.iter().copied().collect();
    let active: Vec<&Message> = conversation.active_messages().collect();
    let mut replaces: Vec<MessageId> = Vec::new();
    let mut prior: Vec<&str> = Vec::new();
    // Oldest first, so the summariser reads them in order.
    for s in summaries::standing(&active).into_iter().rev().filter(|s| wanted.contains(&s.id)) {
        replaces.extend_from_slice(s.replaces);
        prior.push(s.text);
    }
    let prior_text = (!prior.is_empty()).then(|| prior.join("\n\n"));
    let messages: Vec<&Message> = conversation
        .active_messages()
        .filter(|m| wanted.contains(&m.id) && !matches!(m.body, MessageType::SystemControl { .. }))
        .collect();
    replaces.extend(messages.iter().map(|m| m.id));
    (replaces, summary_input(prior_text.as_deref(), &messages, max_tokens))
}

/// The batch of messages as one transcript for the summariser (tool calls
/// and results as text, so no pairing rules apply), after the previous
/// summary if there is one, within `max_tokens`: the newest lines are
/// kept, and the number left out said.
pub fn summary_input(previous: Option<&str>, messages: &[&Message], max_tokens: u32) -> String {
    use crate::tokens::{count, TokenEncoding};
    let mut head = String::new();
    if let Some(p) = previous {
        head.push_str(&format!("Earlier summary:\n{p}\n\n"));
    }
    let lines: Vec<String> = messages.iter().filter_map(|m| transcript_line(m)).collect();
    let mut budget = max_tokens.saturating_sub(count(TokenEncoding::O200k, &head) + 32);
    let mut from = lines.len();
    while from > 0 {
        let cost = count(TokenEncoding::O200k, &lines[from - 1]) + 1;
        if cost > budget {
            break;
        }
        budget -= cost;
        from -= 1;
    }
    let mut out = head;
    if from > 0 {
        out.push_str(&format!("[{from} older messages are left out here: too long to read at once]\n\n"));
    }
    for line in &lines[from..] {
        out.push_str(line);
        out.push_str("\n\n");
    }
    out
}

/// One message as a line of the summariser's transcript.
fn transcript_line(m: &Message) -> Option<String> {
    Some(match &m.body {
        MessageType::Text { role, .. } => format!("{role:?}: {}", m.body.plain_text().unwrap_or_default()),
        MessageType::ToolRequest { text, calls } => format!(
            "Assistant: {}[called {}]",
            text.as_deref().map(|t| format!("{t} ")).unwrap_or_default(),
            calls.iter().map(|c| format!("{}({})", c.name, c.arguments)).collect::<Vec<_>>().join(", ")
        ),
        MessageType::ToolResult { output, error, .. } => {
            let text = error.as_deref().unwrap_or(output);
            let short: String = text.chars().take(1_500).collect();
            format!("Tool result: {short}")
        }
        MessageType::FileReference { path, .. } => format!("User referenced file {path}"),
        MessageType::SystemControl { control: ControlKind::Summary { text, .. } } => {
            format!("Earlier summary:\n{text}")
        }
        _ => return None,
    })
}
