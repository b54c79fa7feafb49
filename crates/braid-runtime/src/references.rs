//! The pipeline's file-reference step (state ResolvingFileReferences): a
//! structured FileReference message is resolved in place; `@path[:a-b]`
//! mentions in a user's text become FileReference messages stored just
//! before it. Any failure stops the message with the reason.

use braid_protocol::{FileRefStatus, LineRange, Message, MessageType, Role};
use braid_workspace::freshness::FileFreshness;
use braid_workspace::refs::{mentions, resolve, Resolved};
use std::path::Path;
use std::time::SystemTime;

fn reference(r: Resolved) -> MessageType {
    MessageType::FileReference {
        path: r.path,
        range: Some(LineRange { start_line: r.range.0, end_line: r.range.1 }),
        content: Some(r.content),
        status: FileRefStatus::Resolved,
        error: None,
    }
}

/// Whether the message needs this step at all.
pub fn wanted(message: &Message) -> bool {
    match &message.body {
        MessageType::FileReference { status, .. } => *status != FileRefStatus::Resolved,
        MessageType::Text { role: Role::User, .. } => {
            message.body.plain_text().is_some_and(|t| !mentions(&t).is_empty())
        }
        _ => false,
    }
}

/// Resolves the message's references: the message (possibly changed) and
/// the attachments, or the first error. Reads are recorded as freshness.
pub fn resolve_message(
    mut message: Message,
    workspace: Option<&Path>,
    freshness: &mut FileFreshness,
) -> Result<(Message, Vec<MessageType>), String> {
    let mut record = |path: &str| {
        if let Some(root) = workspace {
            freshness.record_read(&root.join(path), SystemTime::now());
        }
    };
    match &message.body {
        MessageType::FileReference { path, range, .. } => {
            let r = resolve(workspace, path, range.map(|r| (r.start_line, r.end_line)))?;
            record(&r.path);
            message.body = reference(r);
            Ok((message, Vec::new()))
        }
        MessageType::Text { .. } => {
            let text = message.body.plain_text().unwrap_or_default();
            let mut attachments = Vec::new();
            for m in mentions(&text) {
                let r = resolve(workspace, &m.path, m.range)?;
                record(&r.path);
                attachments.push(reference(r));
            }
            Ok((message, attachments))
        }
        _ => Ok((message, Vec::new())),
    }
}
