//! Compaction under the user's hand: a summary asked for now (`/compact`,
//! "summarise up to / from here"), optionally held for approval or an
//! edit before it replaces anything; summaries edited or taken back; and
//! what the user leaves out of what is sent (a tool group, a message).
//! The originals always stay in the history: a summary only changes what
//! is sent.

use super::step::Step;
use super::{Effect, Reply};
use braid_protocol::{
    ContextStatus, ControlKind, ErrorCode, Message, MessageId, MessageType, Notice, NoticeCode, RequestId, StatusKind,
    SummaryPreview, WireError,
};
use serde::{Deserialize, Serialize};

/// A summary being made on the user's request (not for a turn).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Compaction {
    pub request_id: RequestId,
    /// Held for approval rather than applied.
    pub preview: bool,
    pub instructions: Option<String>,
    /// The state it came from, to go back to.
    pub from: ContextStatus,
}

/// What instructions a summary asked for may hold.
pub const MAX_INSTRUCTIONS: usize = 2_000;

impl Step<'_> {
    pub(super) fn compact(&mut self, batch: Vec<MessageId>, instructions: Option<String>, preview: bool) {
        if self.refuse_if_busy("summarising") {
            return;
        }
        let instructions = instructions.map(|i| i.trim().to_owned()).filter(|i| !i.is_empty());
        if instructions.as_ref().is_some_and(|i| i.chars().count() > MAX_INSTRUCTIONS) {
            let text = format!("keep the summary's instructions under {MAX_INSTRUCTIONS} characters");
            self.reply(Err(WireError::new(ErrorCode::InvalidInput, text)));
            return;
        }
        let request_id = RequestId(self.s.next_request_id);
        self.s.next_request_id += 1;
        let from = self.s.status.clone();
        self.s.book.compaction = Some(Compaction { request_id, preview, instructions: instructions.clone(), from });
        self.reply(Ok(Reply::Done));
        self.set_status(ContextStatus::Summarizing);
        self.run(Effect::Summarize { request_id, replaces: batch, instructions });
    }

    /// Whether `request_id` is the summary the user asked for.
    pub(super) fn compacting(&self, request_id: RequestId) -> bool {
        self.s.book.compaction.as_ref().is_some_and(|c| c.request_id == request_id)
            && self.kind() == StatusKind::Summarizing
    }

    pub(super) fn compacted(&mut self, text: String, replaces: Vec<MessageId>) {
        let Some(c) = self.s.book.compaction.take() else { return };
        if c.preview {
            let preview = SummaryPreview { text, replaces, instructions: c.instructions };
            let n = preview.replaces.len();
            self.s.book.summary_preview = Some(preview);
            self.notify(Notice::new(
                NoticeCode::SummaryPreview,
                format!("The summary of {n} messages is ready: approve it, edit it or throw it away."),
            ));
        } else {
            self.add_summary(text, replaces);
        }
        self.set_status(c.from);
    }

    pub(super) fn compaction_failed(&mut self, error: String) {
        let Some(c) = self.s.book.compaction.take() else { return };
        self.notify(Notice::new(
            NoticeCode::SummaryFailed,
            format!("Could not summarise ({error}); nothing was replaced."),
        ));
        self.set_status(c.from);
    }

    /// Stops a summary the user asked for (Cancel).
    pub(super) fn stop_compaction(&mut self) -> bool {
        let Some(c) = self.s.book.compaction.take() else { return false };
        self.run(Effect::AbortLlmRequest { request_id: c.request_id, keep_partial: false });
        self.set_status(c.from);
        self.notify(Notice::new(NoticeCode::Cancelled, "Summary cancelled; nothing was replaced."));
        true
    }

    fn add_summary(&mut self, text: String, replaces: Vec<MessageId>) {
        let n = replaces.len();
        let id = self.alloc_message_id();
        let message = self.message(id, MessageType::SystemControl { control: ControlKind::Summary { text, replaces } });
        self.append(message);
        self.notify(Notice::new(
            NoticeCode::Summarized,
            format!("{n} messages were summarised; they stay in the history, and Undo sends them again."),
        ));
    }

    pub(super) fn apply_summary(&mut self, edited: Option<String>) {
        // Stored now, the card would sit between a question and the answer
        // being written to it: the preview waits until the turn is over.
        if self.refuse_if_busy("applying the summary") {
            return;
        }
        let Some(preview) = self.s.book.summary_preview.take() else {
            self.reply(Err(WireError::new(ErrorCode::NotFound, "no summary is waiting for approval")));
            return;
        };
        let text = edited.unwrap_or(preview.text);
        if text.trim().is_empty() {
            self.s.book.summary_preview = Some(SummaryPreview { text, ..preview });
            self.reply(Err(WireError::new(ErrorCode::InvalidInput, "a summary cannot be empty")));
            return;
        }
        self.reply(Ok(Reply::Done));
        self.add_summary(text, preview.replaces);
    }

    pub(super) fn discard_summary(&mut self) {
        if self.s.book.summary_preview.take().is_none() {
            self.reply(Err(WireError::new(ErrorCode::NotFound, "no summary is waiting for approval")));
            return;
        }
        self.reply(Ok(Reply::Done));
        self.notify(Notice::new(NoticeCode::SummaryChanged, "The summary was thrown away; nothing was replaced."));
    }

    /// `message` is the summary with its new text (checked by the caller).
    pub(super) fn edit_summary(&mut self, message: Message) {
        self.reply(Ok(Reply::Done));
        self.rewrite(message, "edited".to_owned());
    }

    /// `summary` is a summary in force (checked by the caller).
    pub(super) fn undo_summary(&mut self, summary: MessageId) {
        if self.refuse_if_busy("taking a summary back") {
            return;
        }
        self.reply(Ok(Reply::Done));
        let id = self.alloc_message_id();
        let message = self.message(id, MessageType::SystemControl { control: ControlKind::SummaryUndone { summary } });
        self.append(message);
        self.notify(Notice::new(
            NoticeCode::SummaryChanged,
            "The summary was taken back: the messages it stood for are sent again.",
        ));
    }

    pub(super) fn set_tool_group(&mut self, group: String, offered: bool) {
        if !crate::tool_need::is_group_key(&group) {
            let text = format!("there is no tool group \"{group}\" (files, commands, codebase, agents or mcp:NAME)");
            self.reply(Err(WireError::new(ErrorCode::InvalidInput, text)));
            return;
        }
        if offered {
            self.s.config.dropped_tools.remove(&group);
        } else {
            self.s.config.dropped_tools.insert(group);
        }
        self.reply(Ok(Reply::Done));
    }

    pub(super) fn leave_out(&mut self, message: MessageId, out: bool) {
        if out {
            self.s.config.left_out.insert(message);
            self.s.config.kept.remove(&message);
        } else {
            self.s.config.left_out.remove(&message);
        }
        self.reply(Ok(Reply::Done));
    }
}
