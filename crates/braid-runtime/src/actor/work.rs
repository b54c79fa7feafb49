//! The work a message sets off besides the model: the pipeline's stages
//! as the core orders them (processors, file references, MCP resources,
//! images read by vision or OCR) and the tools the machine approved. Each runs as a task whose result comes back
//! through the mailbox as a core event.

use super::{ContextActor, Input};
use crate::{clock, image_task, references, tool_task};
use braid_core::machine::{Effect, Event};
use braid_protocol::{
    Approval, CallId, ImageAttachment, Message, MessageId, MessageType, Sandbox, SandboxLevel, ToolCall,
};
use braid_tools::ToolContext;
use std::path::PathBuf;
use std::sync::PoisonError;
use std::time::Duration;

impl ContextActor {
    /// `RunPipeline`: the processors run inline (they are fast and pure so
    /// far); their stages and result go through the mailbox, so a Cancel
    /// that is already waiting there is processed first.
    pub(super) fn run_pipeline(&mut self, message: Message) {
        let id = message.id;
        let disabled = self
            .ctx
            .conversation
            .branch(self.ctx.conversation.active_branch())
            .and_then(|b| b.pipeline.as_ref())
            .map(|p| p.disabled_processors.clone())
            .unwrap_or_default();
        let mailbox = self.mailbox.clone();
        let mut on_stage = |stage| {
            let _ = mailbox.send(Input::Event(Event::PipelineStage { message_id: id, stage }));
        };
        let outcome =
            self.shared.pipeline.run(message, &self.ctx.conversation, &disabled, &mut clock::micros, &mut on_stage);
        let event = match outcome {
            Ok((message, report)) => {
                tracing::debug!(context = %self.ctx.meta.id, micros = report.total_micros, "pipeline done");
                let mentions_files = references::wanted(&message);
                Event::PipelineProcessed { message, mentions_files }
            }
            Err((error, _)) => Event::PipelineFailed { message_id: id, error: error.to_string() },
        };
        let _ = self.mailbox.send(Input::Event(event));
    }

    /// `ResolveReferences`, inline: the files are read and their freshness
    /// recorded.
    pub(super) fn resolve_references(&mut self, message: Message) {
        let id = message.id;
        let workspace = PathBuf::from(self.ctx.folder());
        let resolved = {
            let mut freshness = self.freshness.lock().unwrap_or_else(PoisonError::into_inner);
            references::resolve_message(message, Some(&workspace), &mut freshness, &self.shared.confine)
        };
        let event = match resolved {
            Ok((message, attachments, images)) => Event::ReferencesResolved { message, attachments, images },
            Err(error) => Event::PipelineFailed { message_id: id, error },
        };
        let _ = self.mailbox.send(Input::Event(event));
    }

    /// `ReadAttachments`: the `@server:uri` resources the text names or
    /// that are in play and stale (which ones is the core's call, given
    /// the servers), then the images, in one task that Cancel stops.
    pub(super) fn read_attachments(
        &mut self,
        message: Message,
        mut attachments: Vec<MessageType>,
        images: Vec<ImageAttachment>,
    ) {
        let id = message.id;
        let reader = crate::mcp_context::ResourceReader::new(&self.shared);
        let reads = message
            .body
            .plain_text()
            .map(|t| reader.plan(&t, self.ctx.conversation.active_messages(), clock::now()))
            .filter(|reads| !reads.all.is_empty());
        let waits = reads.is_some() || !images.is_empty() || matches!(message.body, MessageType::Image { .. });
        if !waits {
            let _ = self.mailbox.send(Input::Event(Event::PipelineSucceeded { message, attachments }));
            return;
        }
        if !self.store_begun() {
            return;
        }
        let handle = if let Some(reads) = reads {
            let (job, mailbox) = (self.reading_job(), self.mailbox.clone());
            tokio::spawn(async move {
                match reader.read(&reads, clock::now()).await {
                    Err(error) => {
                        let _ = mailbox.send(Input::Event(Event::PipelineFailed { message_id: id, error }));
                    }
                    Ok(resources) => {
                        attachments.extend(resources);
                        image_task::read_images(job, message, attachments, images).await;
                    }
                }
            })
        } else {
            image_task::spawn_pipeline(self.reading_job(), message, attachments, images)
        };
        self.reading = Some((id, handle));
    }

    pub(super) fn reading_job(&self) -> image_task::Reading {
        image_task::Reading {
            images: self.shared.images.clone(),
            model: self.shared.providers.resolve(self.ctx.model_choice()).ok(),
            workspace: PathBuf::from(self.ctx.folder()),
            reports: self.reports(),
        }
    }

    /// Only approved calls reach here: the core decided (policy or user).
    pub(super) fn run_tool(&mut self, call: ToolCall) {
        // Several run at once only where the core started reads together;
        // finished ones are dropped here.
        self.tools.retain(|t| !t.handle.is_finished() && t.call_id != call.id);
        let ctx = ToolContext {
            workspace: PathBuf::from(self.ctx.folder()),
            freshness: Some(self.freshness.clone()),
            allow_overwrite: call.approval == Approval::ApprovedOverwrite,
            ledger: Some(self.shared.ledger.clone()),
            sandbox: match call.approval {
                // The user let this one call leave the sandbox.
                Approval::ApprovedUnsandboxed => Sandbox { level: SandboxLevel::FullAccess, ..Sandbox::default() },
                _ => self.ctx.state.config.tools.sandbox,
            },
            confine: self.shared.confine.clone(),
        };
        let timeout = Duration::from_millis(self.ctx.state.config.tools.timeout_ms.max(1));
        let (call, exposure) = match self.with_secrets(call.clone()) {
            Ok(ready) => ready,
            Err(why) => {
                let mut outcome = braid_tools::failure(why);
                // It never ran: nothing of a secret in it.
                let none = braid_core::secrets::Exposure::new(std::iter::empty());
                outcome.secrets = Some(Box::new(none.check(&[])));
                let _ = self.mailbox.send(Input::Event(Event::ToolFinished { call_id: call.id, outcome }));
                return;
            }
        };
        let watch = self.turn_of(&call.id).and_then(|turn| self.watch(turn));
        let job = tool_task::Job { tools: self.shared.tools(), call, ctx, timeout, exposure };
        self.tools.push(tool_task::spawn(job, self.reading_job(), watch));
    }

    /// Cancel: the task is aborted (its process group killed) and the core
    /// hears at once that the call ended.
    pub(super) fn kill_tool(&mut self, call_id: &CallId) {
        if let Some(i) = self.tools.iter().position(|t| &t.call_id == call_id) {
            let task = self.tools.remove(i);
            task.handle.abort();
            if let Some(watch) = task.watch {
                let reports = self.reports();
                tokio::spawn(async move { watch.after(&reports).await });
            }
        }
        let event = Event::ToolFinished { call_id: call_id.clone(), outcome: tool_task::killed() };
        let _ = self.mailbox.send(Input::Event(event));
    }

    /// Stops the pipeline's image reading (or an image read again) for
    /// this message.
    pub(super) fn abort_reading(&mut self, id: MessageId) {
        if let Some((_, handle)) = self.reading.take_if(|(reading, _)| *reading == id) {
            handle.abort();
        }
    }

    pub(super) fn reread_image(&mut self, message: Message) {
        let id = message.id;
        let handle = image_task::spawn_reread(self.reading_job(), message);
        self.reading = Some((id, handle));
    }

    /// Effects of other kinds a tool result or reference sets off.
    pub(super) fn after_append(&mut self, effect: &Effect) {
        if let Effect::AppendMessage(m) = effect {
            if matches!(m.body, MessageType::ToolResult { .. } | MessageType::FileReference { .. }) {
                self.cover_files();
            }
        }
    }
}
