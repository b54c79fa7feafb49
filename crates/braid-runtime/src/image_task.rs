//! Reading the images of a message (pipeline state ReadingImages) or one
//! Image message again (Retry on its card), off the actor: vision requests
//! and OCR take seconds. Progress and the result come back as core events;
//! aborting the task is the cancel (a Tesseract page already started
//! finishes on its thread, unheard).

use crate::images::Images;
use crate::providers::Resolved;
use crate::report::Reports;
use braid_core::machine::{Event, PipelineStage};
use braid_protocol::{ImageAttachment, ImageMode, ImageSource, Message, MessageType, Notice};
use std::path::PathBuf;
use std::sync::Arc;
use tokio::task::JoinHandle;

pub struct Reading {
    pub images: Arc<Images>,
    pub model: Option<Resolved>,
    pub workspace: PathBuf,
    pub reports: Reports,
}

/// An attachment as a message body, not yet read.
pub fn unread(attachment: ImageAttachment) -> MessageType {
    MessageType::image(attachment.source, attachment.mode)
}

/// Reads the attached images (and the message itself when it is an
/// image), then hands the message on: images first, then `attachments`.
pub fn spawn_pipeline(
    r: Reading,
    message: Message,
    attachments: Vec<MessageType>,
    images: Vec<ImageAttachment>,
) -> JoinHandle<()> {
    tokio::spawn(read_images(r, message, attachments, images))
}

/// The images' step of the pipeline, run by [`spawn_pipeline`] or after an
/// earlier step of the same task (MCP resources).
pub async fn read_images(
    r: Reading,
    mut message: Message,
    attachments: Vec<MessageType>,
    images: Vec<ImageAttachment>,
) {
    {
        let mut bodies: Vec<MessageType> = images.into_iter().map(unread).collect();
        let itself = matches!(message.body, MessageType::Image { .. });
        let total = (bodies.len() + usize::from(itself)) as u32;
        let stage = |done: u32| {
            let stage = PipelineStage::ReadingImages { done, total };
            r.reports.event(Event::PipelineStage { message_id: message.id, stage });
        };
        let mut done = 0;
        for body in &mut bodies {
            stage(done);
            keep_workspace_image(&r, body).await;
            *body = r.images.read(body.clone(), r.model.as_ref(), &r.workspace).await;
            done += 1;
        }
        if itself {
            stage(done);
            message.body = r.images.read(message.body.clone(), r.model.as_ref(), &r.workspace).await;
        }
        let read: Vec<&MessageType> = bodies.iter().chain(itself.then_some(&message.body)).collect();
        tell(&r, &read);
        bodies.extend(attachments);
        r.reports.event(Event::PipelineSucceeded { message, attachments: bodies });
    }
}

/// A workspace image (from an `@image` mention) is stored first, so the
/// message keeps what was sent; if it cannot be, the reason is its error.
async fn keep_workspace_image(r: &Reading, body: &mut MessageType) {
    let MessageType::Image { source, error, .. } = body else { return };
    let ImageSource::FilePath { path } = source else { return };
    match r.images.store_file(path, &r.workspace).await {
        Ok(stored) => *source = ImageSource::Stored(stored),
        Err(e) => *error = Some(e),
    }
}

/// The images a tool result came with: kept in the store (the
/// conversation holds what the model was shown), then read like any
/// other image. One that is not an image keeps its error on its card.
pub async fn read_result_images(r: &Reading, images: Vec<MessageType>) -> Vec<MessageType> {
    let mut out = Vec::with_capacity(images.len());
    for mut body in images {
        if let MessageType::Image { source, error, .. } = &mut body {
            if let ImageSource::Base64 { data, .. } = source {
                match r.images.put(std::mem::take(data), None).await {
                    Ok(stored) => *source = ImageSource::Stored(stored),
                    Err(e) => *error = Some(e),
                }
            }
        }
        if matches!(&body, MessageType::Image { error: None, .. }) {
            body = r.images.read(body, r.model.as_ref(), &r.workspace).await;
        }
        out.push(body);
    }
    tell(r, &out.iter().collect::<Vec<_>>());
    out
}

/// Reads one stored Image message again.
pub fn spawn_reread(r: Reading, mut message: Message) -> JoinHandle<()> {
    tokio::spawn(async move {
        message.body = r.images.read(message.body.clone(), r.model.as_ref(), &r.workspace).await;
        // Its text changed: counted again when it is stored.
        message.meta.tokens = None;
        tell(&r, &[&message.body]);
        if matches!(&message.body, MessageType::Image { error: None, .. }) {
            // Replaces an earlier "could not be read" in the state line.
            r.reports.notice(Notice::new(braid_protocol::NoticeCode::ImageRead, "The image was read again."));
        }
        r.reports.event(Event::ImageReread { message });
    })
}

/// The user is told when OCR stood in for vision, and when an image
/// could not be read (the card says more, with Retry).
fn tell(r: &Reading, read: &[&MessageType]) {
    let mut fallback = None;
    let mut failed = 0;
    for body in read {
        if let MessageType::Image { used, fallback: why, error, .. } = body {
            if *used == Some(ImageMode::Ocr) && why.is_some() {
                fallback = why.clone();
            }
            failed += usize::from(error.is_some());
        }
    }
    if let Some(why) = fallback {
        r.reports.notice(Notice::new(braid_protocol::NoticeCode::OcrUsed, format!("Read with OCR: {why}.")));
    }
    if failed > 0 {
        let text = format!(
            "{failed} image{} could not be read; see the card for why, and Retry there.",
            if failed == 1 { "" } else { "s" }
        );
        r.reports.notice(Notice::new(braid_protocol::NoticeCode::ImageFailed, text));
    }
}
