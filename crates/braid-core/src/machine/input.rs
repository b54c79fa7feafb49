//! A user's message: checked, queued while the context is busy or begun
//! at once, and the queue taken up when the context comes to rest; an
//! Image message read again.

use super::step::Step;
use super::{Effect, LoopProgress, QueuedMessage, Reply};
use crate::approval::{offered, permission_in};
use crate::validate::validate_user_message;
use braid_protocol::{
    ContextStatus, ErrorCode, ImageAttachment, Message, MessageId, MessageType, SendReceipt, ToolUse, WireError,
};

impl Step<'_> {
    pub(super) fn user_message(
        &mut self,
        body: MessageType,
        queue_if_busy: bool,
        force_tool: Option<String>,
        mut images: Vec<ImageAttachment>,
    ) {
        // Images alone: the last image is the message, the others go just
        // before it, so they keep the order they were attached in.
        let body = match body {
            b if is_blank_text(&b) && !images.is_empty() => {
                let Some(last) = images.pop() else { return };
                MessageType::image(last.source, last.mode)
            }
            b => b,
        };
        if let Some(bad) = images.iter().find_map(|i| attachment_problem(&i.source)) {
            self.reply(Err(WireError::new(ErrorCode::InvalidInput, bad)));
            return;
        }
        if let Err(e) = validate_user_message(&body) {
            self.reply(Err(WireError::new(ErrorCode::InvalidInput, e.to_string())));
            return;
        }
        if let Err(e) = self.check_route(&body) {
            self.reply(Err(e));
            return;
        }
        if let Some(name) = &force_tool {
            let offered = permission_in(&self.s.catalogue, name).map(|p| offered(&self.s.config.tools, p));
            let problem = match offered {
                None => Some(format!("there is no tool named {name:?}")),
                Some(false) => Some(format!("{name} is not available in this mode")),
                Some(true) if self.s.config.generation.tool_use == Some(ToolUse::Off) => {
                    Some("tools are off in this conversation; set them to Auto or On request to use /tool".to_owned())
                }
                Some(true) => None,
            };
            if let Some(text) = problem {
                self.reply(Err(WireError::new(ErrorCode::InvalidInput, text)));
                return;
            }
        }
        if self.s.status.is_busy() {
            if !queue_if_busy {
                let what = self.s.status.describe(self.now);
                let text = format!("Braid is busy ({what}). Cancel or wait, or queue the message.");
                self.reply(Err(WireError::new(ErrorCode::AgentBusy, text)));
                return;
            }
            let id = self.alloc_message_id();
            self.s.queue.push_back(QueuedMessage { id, body, force_tool, images });
            self.reply(Ok(Reply::Accepted(SendReceipt { message_id: id, queued: true })));
            let effect = self.update_effect();
            self.run(effect);
            return;
        }
        let id = self.alloc_message_id();
        self.reply(Ok(Reply::Accepted(SendReceipt { message_id: id, queued: false })));
        if self.s.queue.is_empty() {
            self.begin(QueuedMessage { id, body, force_tool, images });
        } else {
            // Only possible from Failed: earlier queued messages go first.
            self.s.queue.push_back(QueuedMessage { id, body, force_tool, images });
            if let Some(first) = self.s.queue.pop_front() {
                self.begin(first);
            }
        }
    }

    /// Reads an Image message again (after a failure, or with another
    /// model): only while idle or failed, and only for images.
    pub(super) fn reread_image(&mut self, message: Message) {
        if self.s.status.is_busy() {
            let what = self.s.status.describe(self.now);
            let text = format!("Braid is busy ({what}). Try again when it is idle.");
            self.reply(Err(WireError::new(ErrorCode::AgentBusy, text)));
            return;
        }
        let id = message.id;
        if !matches!(message.body, MessageType::Image { .. }) {
            self.reply(Err(WireError::new(ErrorCode::InvalidInput, format!("message {id} is not an image"))));
            return;
        }
        self.reply(Ok(Reply::Done));
        self.s.rereading = Some(id);
        self.set_status(ContextStatus::ReadingImages { done: 0, total: 1 });
        self.run(Effect::RereadImage(message));
    }

    pub(super) fn unqueue(&mut self, id: MessageId) {
        match self.s.queue.iter().position(|q| q.id == id) {
            Some(pos) => {
                self.s.queue.remove(pos);
                self.reply(Ok(Reply::Done));
                let effect = self.update_effect();
                self.run(effect);
            }
            None => self.reply(Err(WireError::new(ErrorCode::NotFound, format!("message {id} is not queued")))),
        }
    }

    /// A queued message changed before it is sent: its text, its place,
    /// or it goes now (interrupting what runs; it starts at rest, first).
    pub(super) fn edit_queued(&mut self, id: MessageId, change: braid_protocol::QueueChange) {
        use braid_protocol::QueueChange;
        let Some(pos) = self.s.queue.iter().position(|q| q.id == id) else {
            self.reply(Err(WireError::new(ErrorCode::NotFound, format!("message {id} is not queued"))));
            return;
        };
        match change {
            QueueChange::Edit { text } => {
                let body = MessageType::text(braid_protocol::Role::User, text);
                if is_blank_text(&body) {
                    let text = "a queued message cannot be made empty: remove it instead";
                    self.reply(Err(WireError::new(ErrorCode::InvalidInput, text)));
                    return;
                }
                self.s.queue[pos].body = body;
                self.reply(Ok(Reply::Done));
            }
            QueueChange::Move { to } => {
                if let Some(queued) = self.s.queue.remove(pos) {
                    let to = (to as usize).min(self.s.queue.len());
                    self.s.queue.insert(to, queued);
                }
                self.reply(Ok(Reply::Done));
            }
            QueueChange::SendNow => {
                if let Some(queued) = self.s.queue.remove(pos) {
                    self.s.queue.push_front(queued);
                }
                let effect = self.update_effect();
                self.run(effect);
                // At rest it starts with this step; busy, what runs stops
                // (what was written is kept) and it starts then.
                if self.s.status.is_busy() {
                    self.interrupt();
                } else {
                    self.reply(Ok(Reply::Done));
                }
                return;
            }
        }
        let effect = self.update_effect();
        self.run(effect);
    }

    /// Starts processing a user message: it enters the pool only if the
    /// pipeline succeeds.
    pub(super) fn begin(&mut self, queued: QueuedMessage) {
        let message = self.message(queued.id, queued.body.clone());
        self.s.pending = Some(queued);
        self.s.auto_loop = LoopProgress::default();
        self.set_status(ContextStatus::ProcessingUserMessage);
        self.run(Effect::RunPipeline(message));
    }

    pub(super) fn start_queued_if_idle(&mut self) {
        if self.s.status == ContextStatus::Idle {
            if let Some(next) = self.s.queue.pop_front() {
                self.begin(next);
            }
        }
    }
}

fn is_blank_text(body: &MessageType) -> bool {
    match body {
        MessageType::Text { parts, .. } => parts.iter().all(|p| match p {
            braid_protocol::ContentPart::Text { text } => text.trim().is_empty(),
        }),
        _ => false,
    }
}

/// Only images checked into the store (or URLs) may come with a message:
/// inline Base64 would put the bytes into every stored copy.
fn attachment_problem(source: &braid_protocol::ImageSource) -> Option<String> {
    match source {
        braid_protocol::ImageSource::Stored(s) if s.id.len() == 64 && s.id.bytes().all(|b| b.is_ascii_hexdigit()) => {
            None
        }
        braid_protocol::ImageSource::Stored(_) => Some("an attached image has an invalid id".to_owned()),
        braid_protocol::ImageSource::Url { url } if url.starts_with("https://") || url.starts_with("http://") => None,
        braid_protocol::ImageSource::Url { .. } => Some("an image URL must start with http:// or https://".to_owned()),
        _ => Some("attach images with store_image first".to_owned()),
    }
}
