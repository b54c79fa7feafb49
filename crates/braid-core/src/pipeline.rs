//! The message-processing pipeline: processors run in order on a message
//! before it enters the pool. `Complete` skips the rest; a failure stops the
//! pipeline and nothing is added (the context rolls back to where it was,
//! because processors only see the conversation, never change it).
//! Processing time is measured with a clock the caller passes in.

use crate::conversation::Conversation;
use crate::machine::PipelineStage;
use crate::validate::validate_user_message;
use braid_protocol::Message;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Continue,
    /// The message is ready: skip the remaining processors.
    Complete,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{processor}: {reason}")]
pub struct ProcessorError {
    pub processor: String,
    pub reason: String,
}

pub trait Processor: Send + Sync {
    fn name(&self) -> &str;
    /// The state shown while this processor runs.
    fn stage(&self) -> PipelineStage {
        PipelineStage::ProcessingUserMessage
    }
    fn process(&self, message: &mut Message, conversation: &Conversation) -> Result<Flow, String>;
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepReport {
    pub processor: String,
    pub micros: u64,
    pub flow: Option<Flow>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PipelineReport {
    pub steps: Vec<StepReport>,
    pub total_micros: u64,
}

#[derive(Default)]
pub struct Pipeline {
    processors: Vec<Box<dyn Processor>>,
}

impl Pipeline {
    pub fn new() -> Pipeline {
        Pipeline::default()
    }

    /// The default pipeline: validation first.
    pub fn standard() -> Pipeline {
        Pipeline::new().with(Validate)
    }

    pub fn with(mut self, processor: impl Processor + 'static) -> Pipeline {
        self.processors.push(Box::new(processor));
        self
    }

    pub fn names(&self) -> Vec<&str> {
        self.processors.iter().map(|p| p.name()).collect()
    }

    /// Runs the processors in order. `clock` returns microseconds from any
    /// fixed origin; `on_stage` is told before each processor runs, so the
    /// state can show it. `disabled` names processors to skip (a branch's
    /// pipeline config).
    pub fn run(
        &self,
        mut message: Message,
        conversation: &Conversation,
        disabled: &[String],
        clock: &mut dyn FnMut() -> u64,
        on_stage: &mut dyn FnMut(PipelineStage),
    ) -> Result<(Message, PipelineReport), (ProcessorError, PipelineReport)> {
        let start = clock();
        let mut steps = Vec::with_capacity(self.processors.len());
        for p in self.processors.iter().filter(|p| !disabled.iter().any(|d| d == p.name())) {
            on_stage(p.stage());
            let t0 = clock();
            let outcome = p.process(&mut message, conversation);
            let micros = clock().saturating_sub(t0);
            match outcome {
                Ok(flow) => {
                    steps.push(StepReport { processor: p.name().to_owned(), micros, flow: Some(flow) });
                    if flow == Flow::Complete {
                        break;
                    }
                }
                Err(reason) => {
                    steps.push(StepReport { processor: p.name().to_owned(), micros, flow: None });
                    let total_micros = clock().saturating_sub(start);
                    let error = ProcessorError { processor: p.name().to_owned(), reason };
                    return Err((error, PipelineReport { steps, total_micros }));
                }
            }
        }
        let total_micros = clock().saturating_sub(start);
        message.meta.processing_us = Some(total_micros);
        Ok((message, PipelineReport { steps, total_micros }))
    }
}

/// Structural validation of a user message (DESIGN.md §4).
pub struct Validate;

impl Processor for Validate {
    fn name(&self) -> &str {
        "validate"
    }
    fn process(&self, message: &mut Message, _: &Conversation) -> Result<Flow, String> {
        validate_user_message(&message.body).map(|_| Flow::Continue).map_err(|e| e.to_string())
    }
}

/// What a mention `@path` in a user's text becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mention {
    /// Attached to the message and read like an image pasted in (vision
    /// or OCR).
    Image,
    /// A file reference message stored just before it.
    File,
}

/// The names Braid reads as images when mentioned (their headers are still
/// checked when read: a name alone is not enough).
pub const IMAGE_EXTENSIONS: [&str; 5] = ["png", "jpg", "jpeg", "webp", "gif"];

/// A whole file named like an image is an image; with a line range, or
/// named otherwise, it is a file reference.
pub fn mention_kind(path: &str, ranged: bool) -> Mention {
    let image = !ranged
        && path.rsplit_once('.').is_some_and(|(stem, ext)| {
            !stem.is_empty() && IMAGE_EXTENSIONS.iter().any(|e| ext.eq_ignore_ascii_case(e))
        });
    if image {
        Mention::Image
    } else {
        Mention::File
    }
}

/// Whether a message's file references may be resolved: they read files,
/// so the mode and role must offer reading; otherwise the reason the
/// message is not added.
pub fn may_resolve_references(settings: &braid_protocol::ToolSettings) -> Result<(), String> {
    if crate::approval::offered(settings, braid_protocol::Permission::Read) {
        Ok(())
    } else {
        Err("the agent's role may not read files, so file references cannot be resolved".to_owned())
    }
}
