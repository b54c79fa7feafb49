//! A Claude Code session (`~/.claude/projects/…/<session>.jsonl`): one JSON
//! object a line; user and assistant lines carry a `message` in the
//! Anthropic shape (text, `tool_use`, `tool_result` blocks) and name their
//! parent (`parentUuid`). The chain that ends at the last message is the
//! conversation; an assistant message streamed over several lines (one
//! block each, the same `message.id`) becomes one message. Thinking, meta
//! lines and sub-agent side chains are left out.

use super::build::{iso_millis, pair_tools, title_from, Builder, Entry};
use super::Header;
use crate::conversation::Conversation;
use braid_protocol::{Approval, MessageType, Role, Timestamp, ToolCall, ToolResultStatus};
use serde_json::Value;
use std::collections::HashMap;

/// Whether the text looks like a Claude Code session.
pub fn detect(text: &str) -> bool {
    text.lines().filter(|l| !l.trim().is_empty()).take(20).any(|l| {
        serde_json::from_str::<Value>(l).is_ok_and(|v| v.get("sessionId").is_some() && v.get("type").is_some())
    })
}

pub fn read(text: &str) -> Result<(Header, Conversation), String> {
    let mut lines: Vec<Value> = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(line).map_err(|e| format!("line {} is not JSON ({e})", i + 1))?;
        let kind = v.get("type").and_then(Value::as_str).unwrap_or_default();
        let side = v.get("isSidechain").and_then(Value::as_bool) == Some(true);
        let meta = v.get("isMeta").and_then(Value::as_bool) == Some(true);
        if matches!(kind, "user" | "assistant") && v.get("message").is_some() && !side && !meta {
            lines.push(v);
        }
    }
    let last = lines.last().ok_or("the session has no user or assistant messages")?;
    // The chain from the last message back to the first, by parentUuid.
    let by_id: HashMap<&str, &Value> = lines.iter().filter_map(|v| Some((v.get("uuid")?.as_str()?, v))).collect();
    let mut chain = vec![last];
    while let Some(parent) = chain.last().and_then(|v| v.get("parentUuid")).and_then(Value::as_str) {
        match by_id.get(parent) {
            Some(p) if chain.len() <= lines.len() => chain.push(p),
            _ => break,
        }
    }
    chain.reverse();

    let at = |v: &Value| v.get("timestamp").and_then(Value::as_str).and_then(iso_millis).map(Timestamp);
    let created = chain.iter().find_map(|v| at(v)).unwrap_or_default();
    let mut entries: Vec<Entry> = Vec::new();
    // The streamed assistant message whose entry is the last one.
    let mut open: Option<String> = None;
    for v in &chain {
        let when = at(v).unwrap_or(created);
        let Some(message) = v.get("message") else { continue };
        let blocks = blocks(message.get("content"));
        if v.get("type").and_then(Value::as_str) == Some("assistant") {
            let id = message.get("id").and_then(Value::as_str).map(str::to_owned);
            let (text, calls) = assistant(&blocks);
            if let (Some(_), true, Some(last)) = (&id, id == open, entries.last_mut()) {
                merge(&mut last.body, text, calls);
                continue;
            }
            open = None;
            if let Some(body) = assistant_body(text, calls) {
                entries.push(Entry { body, at: when });
                open = id;
            }
        } else {
            open = None;
            for body in user(&blocks) {
                entries.push(Entry { body, at: when });
            }
        }
    }
    let first_question = entries.iter().find_map(|e| match &e.body {
        MessageType::Text { role: Role::User, .. } => e.body.plain_text(),
        _ => None,
    });
    let mut b = Builder::new(created);
    for e in pair_tools(entries) {
        b.push(None, e);
    }
    let updated = chain.iter().rev().find_map(|v| at(v)).unwrap_or(created);
    let cwd = chain.iter().find_map(|v| v.get("cwd")?.as_str()).unwrap_or_default().to_owned();
    let header = Header {
        title: title_from(first_question.as_deref().unwrap_or("Claude Code session")),
        working_dir: cwd,
        created_at: created,
        updated_at: updated,
        model: None,
    };
    Ok((header, b.conversation))
}

/// The content's blocks; a plain string is one text block.
fn blocks(content: Option<&Value>) -> Vec<Value> {
    match content {
        Some(Value::String(s)) => vec![serde_json::json!({"type": "text", "text": s})],
        Some(Value::Array(a)) => a.clone(),
        _ => Vec::new(),
    }
}

fn text_of(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(a)) => {
            a.iter().filter_map(|b| b.get("text").and_then(Value::as_str)).collect::<Vec<_>>().join("\n")
        }
        _ => String::new(),
    }
}

fn assistant(blocks: &[Value]) -> (String, Vec<ToolCall>) {
    let mut text = String::new();
    let mut calls = Vec::new();
    for b in blocks {
        match b.get("type").and_then(Value::as_str) {
            Some("text") => text.push_str(b.get("text").and_then(Value::as_str).unwrap_or_default()),
            Some("tool_use") => calls.push(ToolCall {
                id: b.get("id").and_then(Value::as_str).unwrap_or_default().into(),
                name: b.get("name").and_then(Value::as_str).unwrap_or("tool").to_owned(),
                arguments: b.get("input").map_or_else(|| "{}".to_owned(), Value::to_string),
                approval: Approval::Approved,
            }),
            _ => {} // thinking: not part of the conversation
        }
    }
    (text, calls)
}

fn assistant_body(text: String, calls: Vec<ToolCall>) -> Option<MessageType> {
    if !calls.is_empty() {
        return Some(MessageType::ToolRequest { text: (!text.trim().is_empty()).then_some(text), calls });
    }
    (!text.trim().is_empty()).then(|| MessageType::text(Role::Assistant, text))
}

/// A later line of the same streamed answer joins the message before.
fn merge(body: &mut MessageType, text: String, calls: Vec<ToolCall>) {
    let (before, mut all) = match std::mem::replace(body, MessageType::text(Role::Assistant, "")) {
        MessageType::ToolRequest { text, calls } => (text.unwrap_or_default(), calls),
        other => (other.plain_text().unwrap_or_default(), Vec::new()),
    };
    all.extend(calls);
    *body = assistant_body(before + &text, all).unwrap_or_else(|| MessageType::text(Role::Assistant, ""));
}

fn user(blocks: &[Value]) -> Vec<MessageType> {
    let mut out = Vec::new();
    let mut text = String::new();
    for b in blocks {
        match b.get("type").and_then(Value::as_str) {
            Some("text") => text.push_str(b.get("text").and_then(Value::as_str).unwrap_or_default()),
            Some("tool_result") => {
                let error = b.get("is_error").and_then(Value::as_bool) == Some(true);
                let output = text_of(b.get("content"));
                out.push(MessageType::ToolResult {
                    request_id: b.get("tool_use_id").and_then(Value::as_str).unwrap_or_default().into(),
                    status: if error { ToolResultStatus::Error } else { ToolResultStatus::Success },
                    error: error.then(|| output.lines().next().unwrap_or("the tool failed").to_owned()),
                    output,
                    recoverable: true,
                    duration_ms: 0,
                    finished_at: Timestamp::default(),
                });
            }
            Some("image") => text.push_str("[an image, not imported]"),
            _ => {}
        }
    }
    if !text.trim().is_empty() {
        out.push(MessageType::text(Role::User, text));
    }
    out
}
