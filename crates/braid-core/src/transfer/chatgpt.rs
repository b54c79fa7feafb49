//! ChatGPT's data export (`conversations.json`): a list of conversations,
//! each a tree of messages (`mapping`, every node naming its parent and
//! children). The path to `current_node` becomes `main`; every other leaf
//! (an edited question, an answer generated again) a branch from where it
//! parted. Text is kept; images and tool traffic are named, not imported.

use super::build::{title_from, Builder, Entry};
use super::Header;
use crate::conversation::Conversation;
use braid_protocol::{BranchId, MessageType, Role, Timestamp};
use serde_json::Value;

/// Whether the JSON looks like a ChatGPT export.
pub fn detect(v: &Value) -> bool {
    v.as_array().is_some_and(|a| a.first().is_some_and(|c| c.get("mapping").is_some()))
}

pub fn read(v: &Value) -> Result<Vec<(Header, Conversation)>, String> {
    let list = v.as_array().ok_or("a ChatGPT export is a list of conversations")?;
    list.iter().enumerate().map(|(i, c)| one(c).map_err(|e| format!("conversation {}: {e}", i + 1))).collect()
}

fn seconds(v: Option<&Value>) -> Option<Timestamp> {
    v.and_then(Value::as_f64).filter(|s| *s >= 0.0).map(|s| Timestamp((s * 1000.0) as u64))
}

fn one(c: &Value) -> Result<(Header, Conversation), String> {
    let mapping = c.get("mapping").and_then(Value::as_object).ok_or("it has no \"mapping\" of messages")?;
    let created = seconds(c.get("create_time")).unwrap_or_default();
    let updated = seconds(c.get("update_time")).unwrap_or(created);
    let parent_of = |id: &str| mapping.get(id).and_then(|n| n.get("parent")).and_then(Value::as_str).map(str::to_owned);
    let path_to = |leaf: &str| {
        let mut path = vec![leaf.to_owned()];
        while let Some(p) = parent_of(path.last().map(String::as_str).unwrap_or_default()) {
            if path.contains(&p) || path.len() > mapping.len() {
                break; // a cycle: not a tree
            }
            path.push(p);
        }
        path.reverse();
        path
    };
    let leaves: Vec<&String> = mapping
        .iter()
        .filter(|(_, n)| n.get("children").and_then(Value::as_array).is_none_or(|c| c.is_empty()))
        .map(|(id, _)| id)
        .collect();
    let current = c
        .get("current_node")
        .and_then(Value::as_str)
        .filter(|id| mapping.contains_key(*id))
        .map(str::to_owned)
        .or_else(|| leaves.first().map(|s| (*s).clone()))
        .ok_or("it has no messages")?;

    let mut b = Builder::new(created);
    let mut first_text = None;
    let mut place = |b: &mut Builder, path: &[String]| {
        for id in path {
            if b.placed(id) {
                continue;
            }
            let Some((body, at)) = mapping.get(id).and_then(|n| message(n.get("message")?)) else {
                // Nothing to show (the root, system or tool nodes): later
                // nodes hang on the last one shown.
                continue;
            };
            if first_text.is_none() && body.role() == Some(Role::User) {
                first_text = body.plain_text();
            }
            b.push(Some(id), Entry { body, at: at.unwrap_or(created) });
        }
    };
    place(&mut b, &path_to(&current));
    let mut n = 1;
    for leaf in leaves.into_iter().filter(|l| **l != current) {
        let path = path_to(leaf);
        // The deepest message already placed is where this branch parts.
        let Some(split) = path.iter().rev().find(|id| b.placed(id)).cloned() else { continue };
        if path
            .iter()
            .skip_while(|id| **id != split)
            .skip(1)
            .all(|id| mapping.get(id).and_then(|n| message(n.get("message")?)).is_none())
        {
            continue; // nothing of its own to show
        }
        n += 1;
        if b.fork_after(&split, &format!("ChatGPT {n}"), created) {
            place(&mut b, &path);
            b.activate(&BranchId::main());
        }
    }
    let title = c
        .get("title")
        .and_then(Value::as_str)
        .filter(|t| !t.trim().is_empty())
        .map(str::to_owned)
        .unwrap_or_else(|| title_from(first_text.as_deref().unwrap_or_default()));
    let header = Header { title, working_dir: String::new(), created_at: created, updated_at: updated, model: None };
    Ok((header, b.conversation))
}

/// A user's or the assistant's words, with when; `None` for what is not
/// shown (system, tool, hidden, empty).
fn message(m: &Value) -> Option<(MessageType, Option<Timestamp>)> {
    let role = match m.pointer("/author/role")?.as_str()? {
        "user" => Role::User,
        "assistant" => Role::Assistant,
        _ => return None,
    };
    if m.pointer("/metadata/is_visually_hidden_from_conversation").and_then(Value::as_bool) == Some(true) {
        return None;
    }
    let content = m.get("content")?;
    let text = match content.get("content_type").and_then(Value::as_str)? {
        "text" | "multimodal_text" => content
            .get("parts")?
            .as_array()?
            .iter()
            .map(|p| match p {
                Value::String(s) => s.clone(),
                Value::Object(o) if o.get("content_type").and_then(Value::as_str) == Some("image_asset_pointer") => {
                    "[an image, not imported]".to_owned()
                }
                _ => String::new(),
            })
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join("\n\n"),
        "code" => format!("```\n{}\n```", content.get("text")?.as_str()?),
        _ => return None,
    };
    if text.trim().is_empty() {
        return None;
    }
    Some((MessageType::text(role, text), seconds(m.get("create_time"))))
}
