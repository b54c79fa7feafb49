//! How every call of a round gets exactly one result: the tool's own,
//! a synthetic one (denied, invalid, cancelled, interrupted), or the one a
//! blocked command kept; and the round's images after the last result.

use super::step::Step;
use super::tools::asked;
use super::{Effect, ToolOutcome, ToolRound};
use braid_protocol::{Approval, CallId, ContextStatus, MessageType, ToolResultStatus};

impl Step<'_> {
    /// A call's result, in history, with the images it came with held for
    /// the end of the round.
    pub(super) fn append_result(&mut self, call_id: CallId, mut outcome: ToolOutcome) {
        let withheld = self.withheld(&call_id, &mut outcome);
        let result = outcome.result_body(call_id, self.now);
        let id = self.alloc_message_id();
        let mut message = self.message(id, result);
        message.meta.written_hash = outcome.written;
        message.meta.withheld = withheld;
        self.append(message);
        if let Some(round) = self.s.round.as_mut() {
            round.images.extend(outcome.images);
        }
    }

    /// A call that ran with a secret, or whose output carries one used
    /// before, has its output kept from the model
    /// ([`crate::secrets::exposure::withhold`]): the result says so, and
    /// what the tool printed waits for the user to read and release. Its
    /// images are dropped (they cannot be read for the secret).
    fn withheld(&self, call_id: &CallId, outcome: &mut ToolOutcome) -> Option<braid_protocol::WithheldOutput> {
        let arguments = self.s.round.as_ref()?.calls().iter().find(|c| &c.id == call_id)?.arguments.as_str();
        let used_here = crate::secrets::placeholders_in(arguments);
        let secrets =
            crate::secrets::exposure::withhold(&used_here, outcome.secrets.as_deref(), !outcome.images.is_empty())?;
        let held = braid_protocol::WithheldOutput {
            output: std::mem::replace(&mut outcome.output, crate::secrets::exposure::withheld_text(&secrets)),
            error: outcome.error.take(),
            secrets,
            released: false,
        };
        outcome.images.clear();
        outcome.blocked = None;
        Some(held)
    }

    pub(super) fn write_result(&mut self, call_id: &CallId, status: ToolResultStatus, error: &str) {
        let id = self.alloc_message_id();
        let body = MessageType::ToolResult {
            request_id: call_id.to_owned(),
            status,
            output: String::new(),
            error: Some(error.to_owned()),
            recoverable: true,
            duration_ms: 0,
            finished_at: self.now,
        };
        let message = self.message(id, body);
        self.append(message);
    }

    /// Writes a synthetic result for every call of the round that has none,
    /// marks pending approvals denied, and drops the round.
    pub(super) fn close_round(&mut self, why: &str) {
        let Some(mut round) = self.s.round.take() else { return };
        let mut rewritten = false;
        if let MessageType::ToolRequest { calls, .. } = &mut round.request.body {
            for call in calls.iter_mut().filter(|c| asked(c.approval)) {
                call.approval = Approval::Denied;
                rewritten = true;
            }
        }
        if rewritten {
            self.rewrite(round.request.clone(), "closed".to_owned());
        }
        let mut open: Vec<CallId> =
            round.calls()[round.next.min(round.calls().len())..].iter().map(|c| c.id.clone()).collect();
        // A blocked call keeps the result it had.
        if let Some(held) = round.blocked.take().filter(|_| !open.is_empty()) {
            self.append_result(open.remove(0), held);
        }
        // A read that ran beside another and had finished keeps what it
        // returned: it was not cancelled, only its turn had not come.
        let mut early = round.early;
        for id in open {
            match early.iter().position(|(done, _)| *done == id) {
                Some(i) => self.append_result(id, early.swap_remove(i).1),
                None => self.write_result(&id, ToolResultStatus::Cancelled, why),
            }
        }
        self.add_result_images(round.images);
    }

    /// The images the round's results came with, as messages after the
    /// last result, so the model sees (or reads) them like any others.
    pub(super) fn add_result_images(&mut self, images: Vec<MessageType>) {
        for body in images.into_iter().filter(|b| matches!(b, MessageType::Image { .. })) {
            let id = self.alloc_message_id();
            let message = self.message(id, body);
            self.append(message);
        }
    }

    /// Cancel during a tool: kill it, write cancelled results for it and for
    /// every queued call, and wait in Cancelling for the kill to land.
    pub(super) fn kill_running_tool(&mut self, why: &str) -> bool {
        let Some(running) = self.s.round.as_ref().and_then(|r| r.running.clone()) else { return false };
        // Reads running beside it go too (their acknowledgements, coming
        // after the round closed, change nothing).
        let alongside = self.s.round.as_ref().map(|r| r.alongside.clone()).unwrap_or_default();
        for call_id in alongside {
            self.run(Effect::KillTool { call_id });
        }
        self.run(Effect::KillTool { call_id: running.clone() });
        let request = self.s.round.as_ref().map(|r| r.request.clone());
        self.close_round(why);
        // Keep the round (only to recognise the kill's acknowledgement).
        if let Some(request) = request {
            let n = match &request.body {
                MessageType::ToolRequest { calls, .. } => calls.len(),
                _ => 0,
            };
            self.s.round = Some(ToolRound {
                request,
                next: n,
                running: Some(running),
                rejected: vec![None; n],
                interrupted: true,
                circular: false,
                images: Vec::new(),
                blocked: None,
                supplied: Vec::new(),
                alongside: Vec::new(),
                early: Vec::new(),
            });
        }
        self.set_status(ContextStatus::Cancelling);
        true
    }
}
