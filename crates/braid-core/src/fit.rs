//! The decision taken when a request is ready to go: does the
//! conversation fit the model's window, must older messages be summarised
//! first, or is the newest message too long to send at all. The runtime
//! hands over facts (the model's window and output limit, whether it sees
//! images, what the tools cost); everything else — the budget, the
//! estimate correction, the summary threshold, the pinned summary and the
//! selection — is decided here, from the machine's state.

use crate::optimize::{self, Budget};
use crate::tokens::{self, TokenEncoding};
use braid_protocol::{ContextStrategy, ContextUsage, Message, MessageId};
use serde::{Deserialize, Serialize};

/// Tokens a summary may take.
pub const SUMMARY_OUTPUT: u32 = 600;

/// What a summariser with this window can read of a transcript, beside
/// its instructions and its answer.
pub fn summariser_reads(window: u32) -> u32 {
    window.saturating_sub(SUMMARY_OUTPUT + 800).max(256)
}

/// A summary brings the request this many points of the window under the
/// threshold (but not under 40 %).
pub const SUMMARY_HEADROOM: u8 = 25;

/// What the runtime found out while preparing a request: facts about the
/// model and the prompt, never a decision.
#[derive(Debug, Clone, PartialEq)]
pub struct PreparedRequest {
    /// The model's name, for messages to the user.
    pub model: String,
    pub encoding: TokenEncoding,
    pub window: u32,
    /// The answer's reserve: the smaller of the configured and the model's
    /// output limit.
    pub max_output: u32,
    /// The longest answer the model can give (a conversation's own limit
    /// is capped at it).
    pub model_max_output: u32,
    pub sees_images: bool,
    /// The model is known to call tools well (tools then go with every
    /// turn unless the conversation says otherwise).
    pub calls_tools: bool,
    /// The messages' counts are the model's own (its server counted them),
    /// not Braid's estimate.
    pub counted_by_model: bool,
    /// The base prompt set in the settings (Braid's own otherwise).
    pub configured_prompt: Option<String>,
    /// The active branch's own prompt, which takes the base's place.
    pub branch_prompt: Option<String>,
    /// What the user tells every conversation (standing instructions).
    pub personal: Option<String>,
    /// The messages of the active branch as they would be sent, in order.
    pub messages: Vec<Message>,
    /// The summary among them that stands for older messages, if any.
    pub pinned_summary: Option<MessageId>,
    /// References and images the user keeps: sent ahead of older messages
    /// while they fit.
    pub kept: Vec<MessageId>,
    /// Files the agent read that changed outside Braid since.
    pub changed_files: Vec<FileChange>,
    /// The conversation's folder and the instructions kept at its root.
    pub workspace: Option<WorkspaceFacts>,
    /// A team member's instruction file, read for its turn.
    pub member_file: Option<String>,
}

/// The folder the tools work in, and the project's instructions file
/// (`AGENTS.md`, `BRAID.md` or `CLAUDE.md` at its root), read afresh for
/// every request.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WorkspaceFacts {
    pub path: String,
    pub instructions: Option<Instructions>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instructions {
    /// Its name at the folder's root.
    pub file: String,
    pub text: String,
    /// Longer than Braid sends: cut, and said so.
    pub cut: bool,
}

/// A file in play that is no longer as the agent last saw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileChange {
    /// As shown to people and the model (relative to the workspace).
    pub path: String,
    pub kind: FileChangeKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum FileChangeKind {
    /// `content` tells one change from another (a hash of the bytes now).
    Modified {
        size_before: u64,
        size_now: u64,
        content: u64,
    },
    Deleted,
}

impl FileChangeKind {
    /// One value per distinct change, so each is reported once.
    pub fn key(self) -> u64 {
        match self {
            FileChangeKind::Modified { content, .. } => content,
            FileChangeKind::Deleted => u64::MAX,
        }
    }
}

/// What the machine knows that fitting depends on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FitSettings {
    pub strategy: ContextStrategy,
    pub summarize_at_percent: u8,
    /// The model said the last attempt was too long: send half as much.
    pub trimmed: bool,
    /// Reported prompt tokens over Braid's estimate, for models whose
    /// tokenizer Braid does not have.
    pub estimate_ratio: f64,
    /// A summary was already made for this request (at most one each).
    pub may_summarize: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Fit {
    /// Send these messages (ids, in conversation order).
    Send { keep: Vec<MessageId>, usage: ContextUsage },
    /// Past the threshold: summarise these first, then prepare again.
    Summarize(Vec<MessageId>),
    /// The newest message alone does not fit: what to tell the user.
    TooLarge(String),
}

/// What a message costs in this request: an image the model looks at costs
/// its pixels; otherwise its stored count when it is in this encoding.
pub fn cost(message: &Message, encoding: TokenEncoding, sees_images: bool) -> u32 {
    if let Some(pixels) = crate::vision::pixel_tokens(&message.body, sees_images) {
        return pixels;
    }
    match message.meta.tokens {
        Some(t) if t.encoding == encoding => t.count,
        _ => tokens::message_tokens(encoding, &message.body),
    }
}

/// Whether a request for a model Braid has no tokenizer for waits for the
/// model's server to count its messages: only when they may take half the
/// room left beside the answer or more. Below that Braid's estimate (on the
/// high side, and corrected by what the provider reports) fits the request
/// safely, so a short conversation's answer never waits for a count.
pub fn needs_model_counts(estimated_messages: u64, window: u32, max_output: u32) -> bool {
    estimated_messages.saturating_mul(2) >= u64::from(window.saturating_sub(max_output))
}

/// What the user may keep in what is sent, and what is marked when it is
/// left out: what a message brought in (a file's lines, an image, a
/// resource), which the model cannot ask for again by itself.
pub fn keepable(body: &braid_protocol::MessageType) -> bool {
    use braid_protocol::MessageType;
    matches!(body, MessageType::FileReference { .. } | MessageType::Image { .. } | MessageType::McpResource { .. })
}

/// Fits `request` into its model's window.
pub fn plan(request: &PreparedRequest, system_tokens: u32, tools_tokens: u32, settings: FitSettings) -> Fit {
    let enc = request.encoding;
    let budget = Budget {
        window: request.window,
        reserved_output: request.max_output,
        system: system_tokens,
        tools: tools_tokens,
    };
    // A resource read again stands for its older copies: they are not sent.
    let superseded = crate::resources::superseded(&request.messages);
    let counted: Vec<(&Message, u32)> = request
        .messages
        .iter()
        .filter(|m| !superseded.contains(&m.id))
        .map(|m| (m, cost(m, enc, request.sees_images)))
        .collect();
    let mut available = if settings.trimmed { budget.for_messages() / 2 } else { budget.for_messages() };
    // Counts the model's server made need no correction.
    let estimated = enc == TokenEncoding::Estimate && !request.counted_by_model;
    if estimated && settings.estimate_ratio > 1.0 {
        // Our estimate runs low for this model: leave room for that.
        available = (f64::from(available) / settings.estimate_ratio) as u32;
    }
    let all: u64 = counted.iter().map(|c| u64::from(c.1)).sum();
    let all = if estimated { (all as f64 * settings.estimate_ratio) as u64 } else { all };
    let total = all + u64::from(budget.system + budget.tools + budget.reserved_output);
    let limit = u64::from(budget.window) * u64::from(settings.summarize_at_percent) / 100;
    // 0: the user summarises when they choose (`/compact`).
    if settings.summarize_at_percent > 0 && total >= limit && settings.may_summarize {
        // Summarised down to well under the threshold, so that one summary
        // lasts many turns (not one per turn, each a little over it).
        let after = u64::from(settings.summarize_at_percent.saturating_sub(SUMMARY_HEADROOM).max(40));
        let room = u64::from(budget.window) * after / 100;
        let fixed = u64::from(budget.system + budget.tools + budget.reserved_output + SUMMARY_OUTPUT);
        let keep = room.saturating_sub(fixed).min(u64::from(u32::MAX)) as u32;
        let batch = optimize::summary_batch(&counted, optimize::keep_last(settings.strategy), keep);
        if batch.len() >= 2 {
            return Fit::Summarize(batch);
        }
    }
    // A summary stands for older messages: it goes before any of them.
    let pinned: Vec<MessageId> = request.pinned_summary.into_iter().chain(request.kept.iter().copied()).collect();
    let selection = match optimize::select_pinned(&counted, settings.strategy, available, &pinned) {
        Ok(selection) => selection,
        Err(e) => {
            return Fit::TooLarge(format!(
                "The latest message is too long for {} ({} tokens; about {} fit after the system prompt, tools and \
                 the answer's reserve). Shorten it or choose a model with a larger window; it stays in the history, \
                 and what you send next goes without it.",
                request.model, e.needed, e.available
            ))
        }
    };
    // What the user attached to the question being answered is what the
    // answer is about: never left out in silence (the model would answer
    // without it, as if it had read it).
    if let Some(why) = attachment_left_out(request, &counted, &selection.dropped, available) {
        return Fit::TooLarge(why);
    }
    Fit::Send {
        usage: ContextUsage {
            window: budget.window,
            system: budget.system,
            tools: budget.tools,
            messages: selection.tokens,
            reserved_output: budget.reserved_output,
            sent_messages: selection.keep.len() as u32,
            left_out: selection.dropped.len() as u32,
            left_out_references: request
                .messages
                .iter()
                .filter(|m| keepable(&m.body) && selection.dropped.contains(&m.id))
                .map(|m| m.id)
                .collect(),
            estimated,
            tools_held_back: Vec::new(),
        },
        keep: selection.keep,
    }
}

/// Why the request cannot go, when a file, image or resource attached to
/// the latest question does not fit beside what must go with it.
fn attachment_left_out(
    request: &PreparedRequest,
    counted: &[(&Message, u32)],
    dropped: &[MessageId],
    available: u32,
) -> Option<String> {
    let latest = latest_attachments(&request.messages);
    let out: Vec<(&Message, u32)> =
        counted.iter().filter(|(m, _)| latest.contains(&m.id) && dropped.contains(&m.id)).copied().collect();
    if out.is_empty() {
        return None;
    }
    let names: Vec<String> = out.iter().map(|(m, t)| format!("{} ({t} tokens)", attachment_name(m))).collect();
    let first = out.first().map(|(m, _)| attachment_name(m)).unwrap_or_default();
    Some(format!(
        "{} did not fit in {}'s window beside the conversation (about {available} tokens are left for messages after \
         the system prompt, tools and the answer's reserve), so nothing was sent. Reference a line range ({first}:1-200), \
         summarise the conversation (/compact), or choose a model with a larger window.",
        names.join(", "),
        request.model
    ))
}

/// The files, images and resources stored with the newest question: the
/// run of them just before it.
fn latest_attachments(messages: &[Message]) -> Vec<MessageId> {
    use braid_protocol::{MessageType, Role};
    let Some(question) = messages.iter().rposition(|m| matches!(&m.body, MessageType::Text { role: Role::User, .. }))
    else {
        return Vec::new();
    };
    messages[..question].iter().rev().take_while(|m| keepable(&m.body)).map(|m| m.id).collect()
}

fn attachment_name(m: &Message) -> String {
    use braid_protocol::MessageType;
    match &m.body {
        MessageType::FileReference { path, .. } => format!("@{path}"),
        MessageType::McpResource { server_name, resource_uri, .. } => format!("@{server_name}:{resource_uri}"),
        _ => "the attached image".to_owned(),
    }
}

/// Prompt tokens the provider reported over what Braid counted for the
/// same request, kept within bounds a bad report cannot push past.
pub fn estimate_ratio(reported_prompt_tokens: u32, sent: &ContextUsage) -> f64 {
    let ours = f64::from(sent.system + sent.tools + sent.messages).max(1.0);
    (f64::from(reported_prompt_tokens) / ours).clamp(0.5, 3.0)
}

/// The note for the model about files that changed since it read them.
pub fn reminder(changes: &[FileChange]) -> Option<String> {
    let lines: Vec<String> = changes
        .iter()
        .map(|c| match c.kind {
            FileChangeKind::Modified { size_before, size_now, .. } => {
                format!("- {}: changed ({size_before} → {size_now} bytes)", c.path)
            }
            FileChangeKind::Deleted => format!("- {}: deleted", c.path),
        })
        .collect();
    (!lines.is_empty()).then(|| {
        format!(
            "Files you read earlier changed outside Braid since; read them again before relying on them or editing \
             them:\n{}",
            lines.join("\n")
        )
    })
}
