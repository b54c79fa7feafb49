//! What two branches disagree on since their common ancestor: files both
//! wrote with different content, system prompts, modes, and summaries on
//! the source covering messages the target still has.

use crate::conversation::Branch;
use braid_protocol::{
    ConflictKind, ControlKind, MergeConflict, Message, MessageId, MessageStamp, MessageType, ModelChoice, Resolution,
};
use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, HashSet};
use std::hash::{Hash, Hasher};

/// Tools that write a file named by their `path` argument.
const WRITERS: [&str; 2] = ["write_file", "edit_file"];

/// A file written on one side: the hash of what was written last, and
/// every round (call and results) that wrote it.
#[derive(Debug, Default)]
struct Writes {
    hash: u64,
    rounds: Vec<Vec<MessageId>>,
    stamps: Vec<MessageStamp>,
}

/// The files `messages` wrote (successfully), by path, with the hash of
/// what each write left in the file (its result says; a result stored
/// before Braid recorded that falls back to the write's arguments).
fn writes(messages: &[&Message]) -> BTreeMap<String, Writes> {
    let mut out: BTreeMap<String, Writes> = BTreeMap::new();
    for (i, m) in messages.iter().enumerate() {
        let MessageType::ToolRequest { calls, .. } = &m.body else { continue };
        let results: Vec<&Message> = messages[i + 1..]
            .iter()
            .take_while(|r| matches!(r.body, MessageType::ToolResult { .. }))
            .copied()
            .collect();
        let round: Vec<MessageId> = std::iter::once(m.id).chain(results.iter().map(|r| r.id)).collect();
        for c in calls.iter().filter(|c| WRITERS.contains(&c.name.as_str())) {
            let result = results.iter().find(|r| {
                matches!(&r.body, MessageType::ToolResult { request_id, error: None, status, .. }
                    if *request_id == c.id && *status == braid_protocol::ToolResultStatus::Success)
            });
            let path = serde_json::from_str::<serde_json::Value>(&c.arguments)
                .ok()
                .and_then(|v| v["path"].as_str().map(|p| p.trim_start_matches("./").to_owned()));
            let (Some(result), Some(path)) = (result, path) else { continue };
            let hash = result.meta.written_hash.unwrap_or_else(|| {
                let mut h = DefaultHasher::new();
                (c.name.as_str(), c.arguments.as_str()).hash(&mut h);
                h.finish()
            });
            let entry = out.entry(path).or_default();
            entry.hash = hash;
            if entry.rounds.last() != Some(&round) {
                entry.rounds.push(round.clone());
            }
            entry.stamps.push(MessageStamp { id: m.id, created_at: m.created_at });
        }
    }
    out
}

/// A conflict and what each of its resolutions takes out: the source's
/// messages not to bring, the target's messages to take off.
#[derive(Debug)]
pub struct Found {
    pub conflict: MergeConflict,
    pub source_out: Vec<MessageId>,
    pub target_out: Vec<MessageId>,
    /// The source's mode or prompt, for the resolutions that take it.
    pub source_value: Option<String>,
    pub target_value: Option<String>,
    /// The source's model, for a model conflict kept from the source.
    pub source_model: Option<Option<ModelChoice>>,
}

fn stamp(m: &Message) -> MessageStamp {
    MessageStamp { id: m.id, created_at: m.created_at }
}

fn last_mode(messages: &[&Message]) -> Option<(String, MessageStamp)> {
    messages.iter().rev().find_map(|m| match &m.body {
        MessageType::SystemControl { control: ControlKind::ModeChange { mode } } => Some((mode.clone(), stamp(m))),
        _ => None,
    })
}

pub struct Sides<'a> {
    pub source: &'a Branch,
    pub target: &'a Branch,
    /// Each side's messages after the common ancestor.
    pub source_new: &'a [&'a Message],
    /// The source's messages after the ancestor, bookkeeping included
    /// (mode changes are recorded as such).
    pub source_after: &'a [&'a Message],
    pub target_new: &'a [&'a Message],
    /// Every message of the target.
    pub target_all: &'a [&'a Message],
    /// The strategy copies the source's messages (so files and summaries
    /// can clash); a summary or a fast-forward does not.
    pub copies: bool,
}

pub fn find(sides: &Sides) -> Vec<Found> {
    let mut out = Vec::new();
    if sides.copies {
        let theirs = writes(sides.source_new);
        let ours = writes(sides.target_new);
        for (path, s) in &theirs {
            let Some(t) = ours.get(path).filter(|t| t.hash != s.hash) else { continue };
            out.push(Found {
                conflict: conflict(
                    format!("file:{path}"),
                    ConflictKind::File,
                    format!("Both branches wrote {path}"),
                    "Each branch changed the file differently since the fork. Keep one account, both, or neither."
                        .to_owned(),
                    (s.stamps.clone(), t.stamps.clone()),
                    vec![Resolution::KeepBoth, Resolution::KeepSource, Resolution::KeepTarget, Resolution::Drop],
                ),
                source_out: s.rounds.iter().flatten().copied().collect(),
                target_out: t.rounds.iter().flatten().copied().collect(),
                source_value: None,
                target_value: None,
                source_model: None,
            });
        }
        let in_target: HashSet<MessageId> = sides.target_all.iter().map(|m| m.id).collect();
        for m in sides.source_new {
            let MessageType::SystemControl { control: ControlKind::Summary { replaces, .. } } = &m.body else {
                continue;
            };
            let covered = replaces.iter().filter(|id| in_target.contains(id)).count();
            if covered == 0 {
                continue;
            }
            out.push(Found {
                conflict: conflict(
                    format!("summary:{}", m.id),
                    ConflictKind::Summary,
                    format!("A summary on the source covers {covered} messages the target still has"),
                    "Bringing it makes the target send the summary instead of those messages.".to_owned(),
                    (vec![stamp(m)], Vec::new()),
                    vec![Resolution::KeepTarget, Resolution::KeepSource],
                ),
                source_out: vec![m.id],
                target_out: Vec::new(),
                source_value: None,
                target_value: None,
                source_model: None,
            });
        }
    }
    if sides.source.system_prompt != sides.target.system_prompt {
        let shown = |p: &Option<String>| p.clone().unwrap_or_else(|| "(the conversation's)".to_owned());
        out.push(Found {
            conflict: conflict(
                "system_prompt".to_owned(),
                ConflictKind::SystemPrompt,
                "The branches have different system prompts".to_owned(),
                format!(
                    "Source: {}\nTarget: {}",
                    shown(&sides.source.system_prompt),
                    shown(&sides.target.system_prompt)
                ),
                (Vec::new(), Vec::new()),
                vec![Resolution::KeepTarget, Resolution::KeepSource, Resolution::KeepBoth],
            ),
            source_out: Vec::new(),
            target_out: Vec::new(),
            source_value: sides.source.system_prompt.clone(),
            target_value: sides.target.system_prompt.clone(),
            source_model: None,
        });
    }
    if sides.source.model != sides.target.model {
        let shown = |m: &Option<ModelChoice>| {
            m.as_ref().map_or_else(|| "(the conversation's)".to_owned(), |m| format!("{} · {}", m.provider_id, m.model))
        };
        out.push(Found {
            conflict: conflict(
                "model".to_owned(),
                ConflictKind::Model,
                "The branches answer with different models".to_owned(),
                format!("Source: {}\nTarget: {}", shown(&sides.source.model), shown(&sides.target.model)),
                (Vec::new(), Vec::new()),
                vec![Resolution::KeepTarget, Resolution::KeepSource],
            ),
            source_out: Vec::new(),
            target_out: Vec::new(),
            source_value: None,
            target_value: None,
            source_model: Some(sides.source.model.clone()),
        });
    }
    if let Some((mode, s)) = last_mode(sides.source_after) {
        let target = last_mode(sides.target_all);
        if target.as_ref().map(|t| &t.0) != Some(&mode) && !(target.is_none() && mode == "act") {
            let target_mode = target.as_ref().map_or("act".to_owned(), |t| t.0.clone());
            out.push(Found {
                conflict: conflict(
                    "mode".to_owned(),
                    ConflictKind::Mode,
                    format!("The source went to {mode} mode; the target is in {target_mode} mode"),
                    "Keep the mode the target is in, or take the source's.".to_owned(),
                    (vec![s], target.iter().map(|t| t.1.clone()).collect()),
                    vec![Resolution::KeepTarget, Resolution::KeepSource],
                ),
                source_out: Vec::new(),
                target_out: Vec::new(),
                source_value: Some(mode),
                target_value: Some(target_mode),
                source_model: None,
            });
        }
    }
    out
}

fn conflict(
    id: String,
    kind: ConflictKind,
    title: String,
    detail: String,
    (source_messages, target_messages): (Vec<MessageStamp>, Vec<MessageStamp>),
    options: Vec<Resolution>,
) -> MergeConflict {
    let suggested = options[0];
    MergeConflict { id, kind, title, detail, source_messages, target_messages, options, suggested, chosen: None }
}
