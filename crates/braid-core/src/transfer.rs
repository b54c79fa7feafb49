//! Conversations in and out of Braid, pure: a versioned JSON document with
//! every branch, merge record and stored image, checked on the way in;
//! Markdown for reading (one branch, or all); and the histories of other
//! tools people switch from (Claude Code sessions, ChatGPT's export). The
//! runtime reads and writes the files and the image bytes.

mod build;
pub mod chatgpt;
pub mod claude_code;

use crate::conversation::{Branch, Conversation};
use crate::invariants::{check_conversation, check_tool_pairing};
use braid_protocol::{
    BranchId, ControlKind, ImageSource, Message, MessageId, MessageType, ModelChoice, Role, Timestamp, ToolResultStatus,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// What the `format` field of an export says.
pub const FORMAT: &str = "braid.conversation";
/// The version this build writes and reads.
pub const VERSION: u32 = 1;

/// A conversation as a file holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Exported {
    pub format: String,
    pub version: u32,
    pub title: String,
    /// Where its tools worked; a hint, not a promise on another machine.
    pub working_dir: String,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
    #[serde(default)]
    pub model: Option<ModelChoice>,
    pub active_branch: BranchId,
    pub branches: Vec<Branch>,
    pub messages: Vec<Message>,
    /// The stored images its messages show, Base64.
    #[serde(default)]
    pub images: Vec<ExportedImage>,
}

/// A stored image's bytes; `id` is their content hash (checked on import).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExportedImage {
    pub id: String,
    pub data: String,
}

/// The document's header: everything but the conversation itself.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    pub title: String,
    pub working_dir: String,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
    pub model: Option<ModelChoice>,
}

pub fn export(header: Header, conversation: &Conversation, images: Vec<ExportedImage>) -> Exported {
    Exported {
        format: FORMAT.to_owned(),
        version: VERSION,
        title: header.title,
        working_dir: header.working_dir,
        created_at: header.created_at,
        updated_at: header.updated_at,
        model: header.model,
        active_branch: conversation.active_branch().clone(),
        branches: conversation.branches().cloned().collect(),
        messages: conversation.pool().cloned().collect(),
        images,
    }
}

/// The stored images a conversation's messages show.
pub fn image_ids(conversation: &Conversation) -> BTreeSet<String> {
    conversation
        .pool()
        .filter_map(|m| match &m.body {
            MessageType::Image { source: ImageSource::Stored(s), .. } => Some(s.id.clone()),
            _ => None,
        })
        .collect()
}

/// Reads an export: the format and version, then the conversation's own
/// rules (every branch's messages exist, each tool call has one result…).
/// Nothing of the file is trusted before this passes. Each problem is
/// said in words; images are checked against their ids by the caller.
pub fn read(text: &str) -> Result<(Header, Conversation, Vec<ExportedImage>), String> {
    let probe: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("the file is not JSON ({e})"))?;
    match probe.get("format").and_then(|f| f.as_str()) {
        Some(FORMAT) => {}
        Some(other) => return Err(format!("the file is a {other:?} export, not a Braid conversation ({FORMAT})")),
        None => return Err(format!("the file has no \"format\" field: it is not a Braid conversation ({FORMAT})")),
    }
    match probe.get("version").and_then(|v| v.as_u64()) {
        Some(v) if v == u64::from(VERSION) => {}
        Some(v) => return Err(format!("the file is version {v}; this Braid reads version {VERSION}")),
        None => return Err("the file has no \"version\" number".to_owned()),
    }
    let doc: Exported =
        serde_json::from_value(probe).map_err(|e| format!("the file is not a valid Braid conversation ({e})"))?;
    if doc.branches.is_empty() {
        return Err("the file has no branches".to_owned());
    }
    let conversation = Conversation::from_parts(doc.messages, doc.branches, doc.active_branch);
    check_conversation(&conversation).map_err(|v| format!("the conversation in the file is inconsistent: {v}"))?;
    for b in conversation.branches() {
        check_tool_pairing(&conversation, &b.id).map_err(|v| {
            format!("branch {} in the file has a tool call without its one result ({v}); export it again once the conversation is idle", b.name)
        })?;
    }
    let have: BTreeSet<&str> = doc.images.iter().map(|i| i.id.as_str()).collect();
    let missing: Vec<String> = image_ids(&conversation).into_iter().filter(|id| !have.contains(id.as_str())).collect();
    if !missing.is_empty() {
        return Err(format!(
            "the file lacks the data of {} image(s) its messages show: {}",
            missing.len(),
            missing.join(", ")
        ));
    }
    let header = Header {
        title: doc.title,
        working_dir: doc.working_dir,
        created_at: doc.created_at,
        updated_at: doc.updated_at,
        model: doc.model,
    };
    Ok((header, conversation, doc.images))
}

/// One conversation a file brings.
pub type Imported = (Header, Conversation, Vec<ExportedImage>);

/// What files can be imported, for the error that names them.
pub const SUPPORTED: &str =
    "a Braid export (.braid.json), a Claude Code session (.jsonl) or ChatGPT's conversations.json";

/// Any supported file, recognised by its content: one conversation, or
/// several (ChatGPT's export holds them all).
pub fn read_any(text: &str) -> Result<Vec<Imported>, String> {
    let trimmed = text.trim_start();
    if trimmed.is_empty() {
        return Err(format!("the file is empty; Braid imports {SUPPORTED}"));
    }
    if let Ok(v) = serde_json::from_str::<serde_json::Value>(text) {
        if chatgpt::detect(&v) {
            let all = chatgpt::read(&v)?;
            return Ok(all.into_iter().map(|(h, c)| (h, c, Vec::new())).collect());
        }
        if v.is_object() && (v.get("format").is_some() || v.get("branches").is_some()) {
            return read(text).map(|one| vec![one]);
        }
        if v.get("sessionId").is_none() {
            return Err(format!("this JSON is not a conversation Braid knows; it imports {SUPPORTED}"));
        }
    }
    if claude_code::detect(text) {
        let (h, c) = claude_code::read(text)?;
        return Ok(vec![(h, c, Vec::new())]);
    }
    match serde_json::from_str::<serde_json::Value>(text) {
        Err(e) => Err(format!("the file is not JSON ({e}); Braid imports {SUPPORTED}")),
        Ok(_) => Err(format!("this JSON is not a conversation Braid knows; it imports {SUPPORTED}")),
    }
}

/// Which branches Markdown shows.
#[derive(Debug, Clone, PartialEq)]
pub enum Branches {
    /// The active branch, from its first message.
    Active,
    /// Every branch: roots whole, the others from where they forked.
    All,
}

/// The conversation as Markdown, for reading or sharing.
pub fn markdown(title: &str, conversation: &Conversation, which: Branches) -> String {
    let mut out = format!("# {}\n", title.trim());
    let active = conversation.active_branch().clone();
    match which {
        Branches::Active => {
            let name = conversation.branch(&active).map_or_else(|| "main".to_owned(), Branch::label);
            let _ = writeln!(out, "\n_Branch {name}_\n");
            for m in conversation.messages(&active) {
                push_message(&mut out, m);
            }
        }
        Branches::All => {
            // Roots first, whole; then each branch from where it forked,
            // saying from what (so shared messages appear once).
            let mut order: Vec<&Branch> = conversation.branches().collect();
            order.sort_by_key(|b| (b.parent.is_some(), b.created_at, b.id.0.clone()));
            for b in order {
                let _ = write!(out, "\n## Branch {}", b.label());
                if let Some(parent) = &b.parent {
                    let name = conversation.branch(parent).map_or_else(|| parent.0.clone(), Branch::label);
                    let after = b.fork_point.map(|f| format!(" after message {}", f.0)).unwrap_or_default();
                    let _ = write!(out, " (from {name}{after})");
                }
                out.push_str(if b.id == active { " · active\n\n" } else { "\n\n" });
                let skip = b.parent.as_ref().and(b.fork_point).map_or(0, |f| position_after(b, f));
                for m in b.message_ids.iter().skip(skip).filter_map(|id| conversation.message(*id)) {
                    push_message(&mut out, m);
                }
            }
        }
    }
    out
}

fn position_after(branch: &Branch, fork: MessageId) -> usize {
    branch.message_ids.iter().position(|id| *id == fork).map_or(0, |i| i + 1)
}

fn push_message(out: &mut String, m: &Message) {
    match &m.body {
        MessageType::Text { role, .. } => {
            // A team member's answer says who gave it.
            let who = match (role, m.meta.author.as_deref()) {
                (_, Some(author)) => author,
                (Role::User, None) => "User",
                (Role::Assistant, None) => "Assistant",
                (Role::System, None) => "System",
            };
            let _ = writeln!(out, "**{who}:**\n\n{}\n", m.body.plain_text().unwrap_or_default().trim());
        }
        MessageType::ToolRequest { text, calls } => {
            if let Some(text) = text.as_deref().filter(|t| !t.trim().is_empty()) {
                let _ = writeln!(out, "**Assistant:**\n\n{}\n", text.trim());
            }
            for c in calls {
                let _ = writeln!(out, "**Tool call** `{}`\n\n```json\n{}\n```\n", c.name, c.arguments);
            }
        }
        MessageType::ToolResult { status, output, error, .. } => {
            let state = match status {
                ToolResultStatus::Success => "done",
                ToolResultStatus::Error => "failed",
                ToolResultStatus::Cancelled => "cancelled",
            };
            let _ = writeln!(out, "**Tool result** ({state})\n");
            if let Some(e) = error {
                let _ = writeln!(out, "> {}\n", e.trim());
            }
            if !output.trim().is_empty() {
                let _ = writeln!(out, "{}\n", fenced(output.trim_end()));
            }
        }
        MessageType::SystemControl { control: ControlKind::Merge { record } } => {
            let _ = writeln!(out, "_Merged branch {} here_\n", record.source_name);
        }
        MessageType::SystemControl { .. } => {}
        MessageType::Image { source, vision_analysis, recognized_text, .. } => {
            let name = match source {
                ImageSource::Stored(s) => s.name.clone().unwrap_or_else(|| "image".to_owned()),
                ImageSource::Url { url } => url.clone(),
                ImageSource::FilePath { path } => path.clone(),
                ImageSource::Base64 { media_type, .. } => media_type.clone(),
            };
            let _ = writeln!(out, "**Image** {name}\n");
            if let Some(text) =
                vision_analysis.as_deref().or(recognized_text.as_deref()).filter(|t| !t.trim().is_empty())
            {
                let _ = writeln!(out, "{}\n", fenced(text.trim_end()));
            }
        }
        MessageType::FileReference { path, range, content, .. } => {
            let lines = range.map(|r| format!(" (lines {}–{})", r.start_line, r.end_line)).unwrap_or_default();
            let _ = writeln!(out, "**File** `{path}`{lines}\n");
            if let Some(text) = content.as_deref().filter(|t| !t.trim().is_empty()) {
                let _ = writeln!(out, "{}\n", fenced(text.trim_end()));
            }
        }
        other => {
            let _ = writeln!(out, "_[{}]_\n", other.kind().tag());
        }
    }
}

/// A code fence longer than any run of backticks inside.
fn fenced(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    format!("{fence}\n{text}\n{fence}")
}
