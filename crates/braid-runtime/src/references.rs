//! The pipeline's file-reference step (state ResolvingFileReferences): a
//! structured FileReference message is resolved in place; `@path[:a-b]`
//! mentions in a user's text become FileReference messages stored just
//! before it. Any failure stops the message with the reason. A mention of
//! an image (`@docs/arch.png`) becomes an image attached to the message,
//! stored and read like one pasted.

use braid_core::pipeline::{mention_kind, Mention};
use braid_protocol::{FileRefStatus, ImageAttachment, ImageMode, ImageSource, LineRange, Message, MessageType, Role};
use braid_tools::Confinement;
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

/// An `@image` mention: checked now (inside the workspace, a file, not too
/// large), stored and read with the message's other images.
fn image_mention(workspace: Option<&Path>, path: &str) -> Result<ImageAttachment, String> {
    let Some(root) = workspace else {
        return Err(format!("@{path}: this conversation has no workspace folder; choose one to reference files"));
    };
    let real = braid_workspace::paths::confine(root, path).map_err(|e| format!("@{path}: {e}"))?;
    let meta = std::fs::metadata(&real).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => format!("@{path}: no such file in the workspace"),
        _ => format!("@{path}: {e}"),
    })?;
    if !meta.is_file() {
        return Err(format!("@{path} is not a file"));
    }
    // The store's own limit, checked before anything is read.
    if meta.len() > braid_vision::MAX_IMAGE_BYTES {
        let mb = |b: u64| b / (1024 * 1024);
        return Err(format!(
            "@{path} is {} MB, more than the {} MB an image may have",
            mb(meta.len()),
            mb(braid_vision::MAX_IMAGE_BYTES)
        ));
    }
    // Named like an image is not enough: the header must say so, or the
    // text of a file would be stored and sent as a broken image.
    let mut head = [0u8; 64];
    let n = std::fs::File::open(&real)
        .and_then(|mut f| std::io::Read::read(&mut f, &mut head))
        .map_err(|e| format!("@{path}: {e}"))?;
    braid_vision::sniff(&head[..n])
        .map_err(|e| format!("@{path} is not an image ({e}); Braid reads PNG, JPEG, WebP and GIF"))?;
    let shown = real.strip_prefix(root).map_or_else(|_| path.to_owned(), |p| p.display().to_string());
    Ok(ImageAttachment { source: ImageSource::FilePath { path: shown }, mode: ImageMode::Auto })
}

/// Resolves the message's references: the message (possibly changed), the
/// attachments, and the images mentioned, or the first error. Reads are
/// recorded as freshness.
pub fn resolve_message(
    mut message: Message,
    workspace: Option<&Path>,
    freshness: &mut FileFreshness,
    confine: &Confinement,
) -> Result<(Message, Vec<MessageType>, Vec<ImageAttachment>), String> {
    // Credentials and Braid's data are refused as the file tools refuse
    // them, before anything is read.
    let open = |path: &str| -> Result<(), String> {
        let Some(root) = workspace else { return Ok(()) };
        let Ok(real) = braid_workspace::paths::confine(root, path) else { return Ok(()) };
        confine.refuses(root, &real).map_or(Ok(()), |why| Err(format!("@{path}: {why}")))
    };
    let mut record = |path: &str| {
        if let Some(root) = workspace {
            freshness.record_read(&root.join(path), SystemTime::now());
        }
    };
    match &message.body {
        MessageType::FileReference { path, range, .. } => {
            open(path)?;
            let r = resolve(workspace, path, range.map(|r| (r.start_line, r.end_line)))?;
            record(&r.path);
            message.body = reference(r);
            Ok((message, Vec::new(), Vec::new()))
        }
        MessageType::Text { .. } => {
            let text = message.body.plain_text().unwrap_or_default();
            let (mut attachments, mut images) = (Vec::new(), Vec::new());
            for m in mentions(&text) {
                open(&m.path)?;
                if mention_kind(&m.path, m.range.is_some()) == Mention::Image {
                    images.push(image_mention(workspace, &m.path)?);
                    continue;
                }
                let r = resolve(workspace, &m.path, m.range)?;
                record(&r.path);
                attachments.push(reference(r));
            }
            Ok((message, attachments, images))
        }
        _ => Ok((message, Vec::new(), Vec::new())),
    }
}
