//! Building a conversation from another tool's history: messages in order
//! on a branch, tool calls paired with exactly one result each (the rule
//! every request to a model relies on), and ISO 8601 times.

use crate::conversation::Conversation;
use braid_protocol::{BranchId, Message, MessageId, MessageType, Timestamp, ToolResultStatus};
use std::collections::{HashMap, HashSet};

/// One message to place: its body and when it was written.
pub struct Entry {
    pub body: MessageType,
    pub at: Timestamp,
}

/// Every call answered once, right after its request when the history has
/// no answer (the tool was interrupted there); results that answer no
/// call, or answer one twice, are dropped.
pub fn pair_tools(entries: Vec<Entry>) -> Vec<Entry> {
    let answered: HashSet<String> = entries
        .iter()
        .filter_map(|e| match &e.body {
            MessageType::ToolResult { request_id, .. } => Some(request_id.to_string()),
            _ => None,
        })
        .collect();
    let mut asked: HashSet<String> = HashSet::new();
    let mut done: HashSet<String> = HashSet::new();
    let mut out = Vec::with_capacity(entries.len());
    for e in entries {
        match &e.body {
            MessageType::ToolRequest { calls, .. } => {
                let missing: Vec<String> = calls
                    .iter()
                    .map(|c| c.id.to_string())
                    .filter(|id| !answered.contains(id) || asked.contains(id))
                    .collect();
                asked.extend(calls.iter().map(|c| c.id.to_string()));
                let at = e.at;
                out.push(e);
                for id in missing {
                    done.insert(id.clone());
                    out.push(Entry { body: interrupted(id, at), at });
                }
            }
            MessageType::ToolResult { request_id, .. } => {
                let id = request_id.to_string();
                if asked.contains(&id) && done.insert(id) {
                    out.push(e);
                }
            }
            _ => out.push(e),
        }
    }
    out
}

fn interrupted(call: String, at: Timestamp) -> MessageType {
    MessageType::ToolResult {
        request_id: call.into(),
        status: ToolResultStatus::Cancelled,
        output: String::new(),
        error: Some("the imported history has no result for this call".to_owned()),
        recoverable: true,
        duration_ms: 0,
        finished_at: at,
    }
}

/// Places messages on branches: `main` first, then forks of whatever
/// branch already holds the message they part from.
pub struct Builder {
    pub conversation: Conversation,
    next: u64,
    /// Where each source message (by the source's own id) was placed.
    placed: HashMap<String, (MessageId, BranchId)>,
}

impl Builder {
    pub fn new(at: Timestamp) -> Builder {
        Builder { conversation: Conversation::new(at), next: 1, placed: HashMap::new() }
    }

    /// Appends on the active branch, remembering the source id if given.
    pub fn push(&mut self, key: Option<&str>, entry: Entry) {
        let id = MessageId(self.next);
        self.next += 1;
        // Ids are fresh and the active branch exists: this cannot fail.
        if self.conversation.append(Message::new(id, entry.at, entry.body)).is_ok() {
            if let Some(key) = key {
                self.placed.insert(key.to_owned(), (id, self.conversation.active_branch().clone()));
            }
        }
    }

    pub fn placed(&self, key: &str) -> bool {
        self.placed.contains_key(key)
    }

    /// A new active branch sharing everything up to the message `key`
    /// names (on the branch that holds it); `false` when it cannot be.
    pub fn fork_after(&mut self, key: &str, name: &str, at: Timestamp) -> bool {
        let Some((message, branch)) = self.placed.get(key).cloned() else { return false };
        let Ok(fork) = self.conversation.fork(&branch, message, name, None, at) else { return false };
        let id = fork.id.clone();
        self.conversation.add_branch(fork).is_ok() && self.conversation.set_active(&id).is_ok()
    }

    pub fn activate(&mut self, branch: &BranchId) {
        let _ = self.conversation.set_active(branch);
    }
}

/// Milliseconds since the epoch of an ISO 8601 UTC time
/// (`2025-06-02T18:46:59.937Z`); `None` for anything else.
pub fn iso_millis(text: &str) -> Option<u64> {
    let (date, time) = text.trim().trim_end_matches('Z').split_once('T')?;
    let mut d = date.splitn(3, '-').map(|p| p.parse::<i64>().ok());
    let (y, m, day) = (d.next()??, d.next()??, d.next()??);
    let (hms, frac) = time.split_once('.').unwrap_or((time, "0"));
    let mut t = hms.splitn(3, ':').map(|p| p.parse::<i64>().ok());
    let (h, min, s) = (t.next()??, t.next()??, t.next()??);
    let ms: i64 = format!("{:0<3}", &frac[..frac.len().min(3)]).parse().ok()?;
    // Days from the civil date (Howard Hinnant's algorithm).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    u64::try_from(((days * 24 + h) * 60 + min) * 60_000 + s * 1000 + ms).ok()
}

/// A title from the first words of a text.
pub fn title_from(text: &str) -> String {
    let line = text.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("Imported conversation");
    let mut title: String = line.chars().take(60).collect();
    if line.chars().count() > 60 {
        title.push('…');
    }
    title
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_times_are_read_to_the_millisecond() {
        assert_eq!(iso_millis("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(iso_millis("2025-06-02T18:46:59.937Z"), Some(1_748_890_019_937));
        assert_eq!(iso_millis("2024-02-29T12:00:00.5Z"), Some(1_709_208_000_500));
        assert_eq!(iso_millis("yesterday"), None);
    }
}
