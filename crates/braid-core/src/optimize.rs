//! Fitting a conversation into the model's window, for sending only: the
//! stored messages are never changed. Messages are grouped into units (a
//! tool request with its results is one unit: a result is never sent
//! without its call), the last units are always kept, and older units are
//! added while they fit, in the order the strategy prefers.

use braid_protocol::{ContextStrategy, Message, MessageId, MessageType, Role};

/// What the window must hold besides the messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Budget {
    pub window: u32,
    pub reserved_output: u32,
    pub system: u32,
    pub tools: u32,
}

impl Budget {
    /// Tokens left for the messages.
    pub fn for_messages(&self) -> u32 {
        self.window.saturating_sub(self.reserved_output.saturating_add(self.system).saturating_add(self.tools))
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    /// The messages to send, in conversation order.
    pub keep: Vec<MessageId>,
    /// Those left out this time (still stored).
    pub dropped: Vec<MessageId>,
    pub tokens: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the latest messages need {needed} tokens but only {available} fit in the model's window")]
pub struct TooLarge {
    pub needed: u32,
    pub available: u32,
}

struct Unit {
    ids: Vec<MessageId>,
    tokens: u32,
    class: Class,
    /// Position of the unit, 0 = oldest.
    index: usize,
}

/// Lower keeps first in `Intelligent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    Reference,
    UserText,
    AssistantText,
    Tools,
}

fn class_of(body: &MessageType) -> Class {
    match body {
        MessageType::FileReference { .. } | MessageType::McpResource { .. } => Class::Reference,
        MessageType::Text { role: Role::User, .. } | MessageType::Image { .. } => Class::UserText,
        MessageType::ToolRequest { .. } | MessageType::ToolResult { .. } => Class::Tools,
        _ => Class::AssistantText,
    }
}

/// A tool request and the results of its calls that follow it form one
/// unit, and so do a user message and the answer right after it (a model
/// never sees an answer without its question); every other message is
/// its own.
fn units(messages: &[(&Message, u32)]) -> Vec<Unit> {
    let mut out: Vec<Unit> = Vec::new();
    let mut open_calls: Vec<braid_protocol::CallId> = Vec::new();
    let mut after_user = false;
    for (m, tokens) in messages {
        let belongs = match &m.body {
            MessageType::ToolResult { request_id, .. } => open_calls.iter().any(|c| c == request_id),
            MessageType::Text { role: Role::Assistant, .. } => after_user,
            _ => false,
        };
        after_user = matches!(&m.body, MessageType::Text { role: Role::User, .. });
        match out.last_mut() {
            Some(last) if belongs => {
                last.ids.push(m.id);
                last.tokens += tokens;
            }
            _ => {
                open_calls = match &m.body {
                    MessageType::ToolRequest { calls, .. } => calls.iter().map(|c| c.id.clone()).collect(),
                    _ => Vec::new(),
                };
                let index = out.len();
                out.push(Unit { ids: vec![m.id], tokens: *tokens, class: class_of(&m.body), index });
            }
        }
    }
    out
}

/// How many trailing units hold the last `n` messages.
fn tail_units(units: &[Unit], n: u32) -> usize {
    let mut messages = 0u32;
    let mut count = 0;
    for u in units.iter().rev() {
        if messages >= n {
            break;
        }
        messages += u.ids.len() as u32;
        count += 1;
    }
    count.max(1).min(units.len())
}

fn score(u: &Unit, total: usize, messages: &[(&Message, u32)]) -> f64 {
    let role = match u.class {
        Class::Reference => 3.0,
        Class::UserText => 2.5,
        Class::AssistantText => 2.0,
        Class::Tools => 1.0,
    };
    let recency = 3.0 * (u.index + 1) as f64 / total.max(1) as f64;
    let referenced = u.ids.iter().any(|id| {
        messages.iter().any(|(m, _)| {
            m.id == *id && m.body.plain_text().is_some_and(|t| t.contains('@') || t.contains("```") || t.contains('/'))
        })
    });
    let size = (f64::from(u.tokens.max(1))).log2() / 4.0;
    role + recency + if referenced { 1.0 } else { 0.0 } - size
}

/// The messages (with their token costs) to send within `available`
/// tokens. The newest unit must fit; the last messages the strategy names
/// are kept while they fit.
pub fn select(messages: &[(&Message, u32)], strategy: ContextStrategy, available: u32) -> Result<Selection, TooLarge> {
    select_pinned(messages, strategy, available, &[])
}

/// As [`select`], with pinned messages kept right after the newest unit,
/// in the order given, while they fit: a summary standing for older ones
/// (it covers more than any single message of the tail), then what the
/// user keeps.
pub fn select_pinned(
    messages: &[(&Message, u32)],
    strategy: ContextStrategy,
    available: u32,
    pinned: &[MessageId],
) -> Result<Selection, TooLarge> {
    let units = units(messages);
    let Some(newest) = units.last() else {
        return Ok(Selection { keep: Vec::new(), dropped: Vec::new(), tokens: 0 });
    };
    if newest.tokens > available {
        return Err(TooLarge { needed: newest.tokens, available });
    }
    let keep_last = match strategy {
        ContextStrategy::RecentN { n } => n,
        ContextStrategy::Intelligent { keep_last } | ContextStrategy::ImportanceScoring { keep_last } => keep_last,
    };
    let tail = tail_units(&units, keep_last);
    let mut chosen = vec![false; units.len()];
    let mut used = newest.tokens;
    chosen[newest.index] = true;
    for p in pinned {
        if let Some(u) = units.iter().find(|u| !chosen[u.index] && u.ids.contains(p)) {
            if used + u.tokens <= available {
                used += u.tokens;
                chosen[u.index] = true;
            }
        }
    }
    // The tail, newest first, until one does not fit (the newest always
    // does): what is sent stays a contiguous recent stretch.
    for u in units.iter().rev().take(tail) {
        if chosen[u.index] {
            continue;
        }
        if used + u.tokens > available {
            break;
        }
        used += u.tokens;
        chosen[u.index] = true;
    }
    let older = &units[..units.len() - tail];
    let mut order: Vec<&Unit> = older.iter().filter(|u| !chosen[u.index]).collect();
    match strategy {
        ContextStrategy::RecentN { .. } => order.clear(),
        ContextStrategy::Intelligent { .. } => order.sort_by_key(|u| (u.class, std::cmp::Reverse(u.index))),
        ContextStrategy::ImportanceScoring { .. } => {
            let total = units.len();
            order.sort_by(|a, b| score(b, total, messages).total_cmp(&score(a, total, messages)));
        }
    }
    for u in order {
        if used + u.tokens <= available {
            used += u.tokens;
            chosen[u.index] = true;
        }
    }
    // A request never starts with the assistant: answers and tool rounds
    // before the first question sent are left out too (unless nothing
    // else would be sent).
    let opens = |u: &Unit| messages.iter().find(|(m, _)| m.id == u.ids[0]).is_some_and(|(m, _)| starts_a_turn(&m.body));
    if units.iter().any(|u| chosen[u.index] && opens(u)) {
        for u in &units {
            if !chosen[u.index] {
                continue;
            }
            if opens(u) {
                break;
            }
            chosen[u.index] = false;
            used -= u.tokens;
        }
    }
    let (mut keep, mut dropped) = (Vec::new(), Vec::new());
    for u in &units {
        if chosen[u.index] {
            keep.extend(&u.ids);
        } else {
            dropped.extend(&u.ids);
        }
    }
    Ok(Selection { keep, dropped, tokens: used })
}

/// Whether a request may begin with this message: anything but the
/// assistant's own turns (its answers, its tool calls and their results).
fn starts_a_turn(body: &MessageType) -> bool {
    !matches!(
        body,
        MessageType::Text { role: Role::Assistant, .. }
            | MessageType::ToolRequest { .. }
            | MessageType::ToolResult { .. }
    )
}

/// The oldest whole units to summarise: everything older than what stays
/// as it is — the last `keep_last` messages' units, and the newer units
/// before them that fit in `keep_tokens` with them. Empty when everything
/// stays.
pub fn summary_batch(messages: &[(&Message, u32)], keep_last: u32, keep_tokens: u32) -> Vec<MessageId> {
    let units = units(messages);
    let tail = tail_units(&units, keep_last);
    let older = &units[..units.len().saturating_sub(tail)];
    let mut kept: u32 = units[older.len()..].iter().map(|u| u.tokens).sum();
    let mut cut = older.len();
    for u in older.iter().rev() {
        if kept.saturating_add(u.tokens) > keep_tokens {
            break;
        }
        kept += u.tokens;
        cut -= 1;
    }
    older[..cut].iter().flat_map(|u| u.ids.iter().copied()).collect()
}

/// How many of the last messages a strategy always keeps.
pub fn keep_last(strategy: ContextStrategy) -> u32 {
    match strategy {
        ContextStrategy::RecentN { n } => n,
        ContextStrategy::Intelligent { keep_last } | ContextStrategy::ImportanceScoring { keep_last } => keep_last,
    }
}
