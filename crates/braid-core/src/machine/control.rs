//! What the user does to a running context: cancel (at once, nothing
//! partial kept), interrupt (after the running step, everything kept),
//! retry or continue, and forking and switching branches.

use super::step::Step;
use super::{is_pipeline_phase, is_request_phase, ContextStatus, Effect, LoopProgress, Reply};
use braid_protocol::{BranchId, ControlKind, ErrorCode, MessageType, Notice, NoticeCode, StatusKind, WireError};

impl Step<'_> {
    pub(super) fn retry(&mut self) {
        match self.kind() {
            StatusKind::Failed | StatusKind::Idle => {
                self.reply(Ok(Reply::Done));
                self.s.auto_loop = LoopProgress::default();
                self.start_request(1);
            }
            _ => {
                let what = self.s.status.describe(self.now);
                self.reply(Err(WireError::new(
                    ErrorCode::AgentBusy,
                    format!("Braid is busy ({what}); nothing to retry."),
                )));
            }
        }
    }

    pub(super) fn create_branch(&mut self, mut branch: crate::conversation::Branch, switch: bool) {
        if switch && self.s.status.is_busy() {
            let what = self.s.status.describe(self.now);
            let text = format!("Braid is busy ({what}). Cancel or wait before switching to a new branch.");
            self.reply(Err(WireError::new(ErrorCode::AgentBusy, text)));
            return;
        }
        let id = BranchId(format!("b{}", self.s.next_branch_id));
        self.s.next_branch_id += 1;
        branch.id = id.clone();
        let from = branch.parent.clone().unwrap_or_else(BranchId::main);
        self.durable.push(Effect::CreateBranch(Box::new(branch)));
        self.reply(Ok(Reply::Branch(id.clone())));
        if switch {
            self.switch_to(from, id);
        }
    }

    pub(super) fn switch_branch(&mut self, from: BranchId, to: BranchId) {
        if self.s.status.is_busy() {
            let what = self.s.status.describe(self.now);
            let text = format!("Braid is busy ({what}). Cancel or wait before switching branch.");
            self.reply(Err(WireError::new(ErrorCode::AgentBusy, text)));
            return;
        }
        self.reply(Ok(Reply::Done));
        self.switch_to(from, to);
    }

    pub(super) fn switch_to(&mut self, from: BranchId, to: BranchId) {
        if from == to {
            return;
        }
        self.durable.push(Effect::SetActiveBranch(to.clone()));
        let id = self.alloc_message_id();
        let message = self.message(id, MessageType::SystemControl { control: ControlKind::BranchSwitch { from, to } });
        self.append(message);
    }

    /// Cancel: processed first, stops at once, keeps no partial answer.
    /// The queue is left alone: queued messages were sent on purpose and
    /// start when the context is Idle (the user removes one with Unqueue).
    pub(super) fn cancel(&mut self) {
        self.reply(Ok(Reply::Done));
        if self.s.status.is_busy() {
            self.s.book.turn.cancelled = true;
            self.child_failed("it was cancelled");
        }
        if self.stop_compaction() {
            return;
        }
        match self.kind() {
            StatusKind::Idle => return,
            StatusKind::Failed => {}
            k if is_pipeline_phase(k) => {
                if let Some(p) = self.s.pending.take() {
                    self.run(Effect::AbortPipeline(p.id));
                }
                if let Some(id) = self.s.rereading.take() {
                    self.run(Effect::AbortPipeline(id));
                }
            }
            StatusKind::RetryingLlmRequest => {
                if let Some(r) = self.s.request.take() {
                    self.run(Effect::CancelRetry { request_id: r.id });
                }
            }
            k if is_request_phase(k) => {
                if let Some(r) = self.s.request.take() {
                    self.run(Effect::AbortLlmRequest { request_id: r.id, keep_partial: false });
                    if r.sequence > 0 {
                        self.discard(r.response_id);
                    }
                }
            }
            StatusKind::ExecutingTool => {
                if self.kill_running_tool("cancelled by the user") {
                    self.notify(Notice::new(NoticeCode::Cancelled, "Cancelled."));
                    return;
                }
            }
            StatusKind::AwaitingSubAgents => {
                self.stop_sub_agents("cancelled by the user");
                self.close_round("cancelled by the user");
            }
            StatusKind::Cancelling => self.s.round = None,
            _ => self.close_round("cancelled by the user"),
        }
        self.s.request = None;
        self.s.pending = None;
        self.s.round = None;
        self.s.route = braid_protocol::TeamRoute::default();
        self.set_status(ContextStatus::Idle);
        self.notify(Notice::new(NoticeCode::Cancelled, "Cancelled."));
    }

    /// Interrupt: softer than cancel. A streamed answer is kept as far as it
    /// got; a running tool finishes; no further round starts.
    pub(super) fn interrupt(&mut self) {
        let kind = self.kind();
        let streaming = self.s.request.as_ref().is_some_and(|r| r.sequence > 0);
        if is_request_phase(kind) && streaming {
            if let Some(r) = self.s.request.as_mut() {
                r.interrupted = true;
                let request_id = r.id;
                self.run(Effect::AbortLlmRequest { request_id, keep_partial: true });
            }
            self.reply(Ok(Reply::Done));
        } else if kind == StatusKind::ExecutingTool {
            if let Some(round) = self.s.round.as_mut() {
                round.interrupted = true;
            }
            self.reply(Ok(Reply::Done));
            self.notify(Notice::new(NoticeCode::Interrupting, "Stopping after the running tool."));
        } else if kind == StatusKind::AwaitingSubAgents {
            // Children are never dropped by an interrupt: they finish, their
            // results are kept, and nothing further starts. Cancel stops
            // them now.
            if let Some(round) = self.s.round.as_mut() {
                round.interrupted = true;
            }
            self.reply(Ok(Reply::Done));
            let text = "Stopping once the sub-agents finish; their results are kept. Cancel stops them now.";
            self.notify(Notice::new(NoticeCode::Interrupting, text));
        } else {
            // Nothing partial to keep: the same as cancel.
            self.cancel();
        }
    }
}
