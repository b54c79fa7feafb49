//! The pipeline's stages after a user's message is begun, in the order
//! decided here: the processors (`RunPipeline`), the `@file` mentions if
//! the role may read (`ResolveReferences`), then what the message brings
//! — MCP resources, images — (`ReadAttachments`); the message enters the
//! pool only when every stage passed. Each stage is an effect the runtime
//! carries out and answers with an event; an answer for a message no
//! longer in the pipeline (cancelled) changes nothing.

use super::step::Step;
use super::{is_pipeline_phase, Effect, PipelineStage};
use crate::pipeline::may_resolve_references;
use braid_protocol::{ContextStatus, ImageAttachment, Message, MessageId, MessageType, Notice, NoticeCode};

impl Step<'_> {
    fn in_pipeline(&self, id: MessageId) -> bool {
        self.pending_is(id) && is_pipeline_phase(self.kind())
    }

    pub(super) fn processed(&mut self, message: Message, mentions_files: bool) {
        if !self.in_pipeline(message.id) {
            return;
        }
        if !mentions_files {
            return self.references_resolved(message, Vec::new(), Vec::new());
        }
        match may_resolve_references(&self.s.config.tools) {
            Err(error) => self.pipeline_failed(message.id, error),
            Ok(()) => {
                self.set_status(PipelineStage::ResolvingFileReferences.status());
                self.run(Effect::ResolveReferences(message));
            }
        }
    }

    /// Images sent with the message are read first, then those its text
    /// names.
    pub(super) fn references_resolved(
        &mut self,
        message: Message,
        attachments: Vec<MessageType>,
        mentioned: Vec<ImageAttachment>,
    ) {
        if !self.in_pipeline(message.id) {
            return;
        }
        let mut images = self.s.pending.as_ref().map(|p| p.images.clone()).unwrap_or_default();
        images.extend(mentioned);
        self.run(Effect::ReadAttachments { message, attachments, images });
    }

    pub(super) fn pipeline_succeeded(&mut self, message: Message, attachments: Vec<MessageType>) {
        if !self.in_pipeline(message.id) {
            return;
        }
        self.s.force_tool = self.s.pending.take().and_then(|p| p.force_tool);
        for body in attachments {
            let id = self.alloc_message_id();
            let attached = self.message(id, body);
            self.append(attached);
        }
        // Only a team reads the message again (its markers).
        let said = self.team().and_then(|_| message.body.plain_text());
        self.append(message);
        self.answer_message(said);
    }

    pub(super) fn pipeline_failed(&mut self, id: MessageId, error: String) {
        if !self.in_pipeline(id) {
            return;
        }
        self.s.pending = None;
        self.set_status(ContextStatus::Idle);
        let text = format!("The message was not added: {error}");
        self.notify(Notice::new(NoticeCode::MessageNotAdded, text));
    }
}
