//! The user's answers to a round's pending calls: approve, deny (with a
//! reason the model hears), approve all, always allow, approve an
//! overwrite or leaving the sandbox; or a client's own result in place of
//! running the call. Then the round goes on (`tools`).

use super::step::Step;
use super::tools::asked;
use super::{Reply, ToolOutcome};
use crate::approval::permission_in;
use braid_protocol::{
    Approval, ApprovalDecision, CallId, ErrorCode, MessageType, Permission, StatusKind, ToolCall, WireError,
};

impl Step<'_> {
    pub(super) fn tool_decision(&mut self, call_id: CallId, decision: ApprovalDecision, reason: Option<String>) {
        let waiting = self.kind() == StatusKind::AwaitingToolApproval;
        let name = self
            .s
            .round
            .as_ref()
            .filter(|_| waiting)
            .and_then(|r| r.calls().iter().find(|c| c.id == call_id && asked(c.approval)))
            .map(|c| (c.name.clone(), c.approval == Approval::AskUnsandboxed));
        let Some((name, leaving)) = name else {
            let text = format!("no tool call {call_id:?} is awaiting approval");
            self.reply(Err(WireError::new(ErrorCode::InvalidState, text)));
            return;
        };
        if leaving && decision == ApprovalDecision::AlwaysAllow {
            let text = "leaving the sandbox is approved one command at a time: Approve this one, or set the \
                        conversation's sandbox to full access"
                .to_owned();
            self.reply(Err(WireError::new(ErrorCode::InvalidInput, text)));
            return;
        }
        let reads = permission_in(&self.s.catalogue, &name) == Some(Permission::Read);
        let tools = &mut self.s.config.tools;
        // One approved read in a broad folder answers for the rest.
        if reads && decision != ApprovalDecision::Deny {
            tools.confirm_reads = false;
        }
        if decision == ApprovalDecision::AlwaysAllow {
            if tools.always_ask.contains(&name) {
                let text = format!("{name} is on the always-ask list: approve each call, or take it off the list");
                self.reply(Err(WireError::new(ErrorCode::InvalidInput, text)));
                return;
            }
            if !tools.always_allowed.contains(&name) {
                tools.always_allowed.push(name.clone());
            }
            match self.s.catalogue.iter().find(|t| t.name == name).and_then(|t| t.pin.clone()) {
                Some(pin) => self.s.config.tools.allowed_pins.insert(name.clone(), pin),
                None => self.s.config.tools.allowed_pins.remove(&name),
            };
        }
        // Which pending calls this answer settles, and how.
        let settles = |c: &ToolCall| match decision {
            ApprovalDecision::Approve | ApprovalDecision::Deny | ApprovalDecision::ApproveOverwrite => c.id == call_id,
            ApprovalDecision::ApproveAll => true,
            ApprovalDecision::AlwaysAllow => c.name == name,
        };
        // The user's reason goes to the model with the denial.
        let why = reason.map(|r| r.trim().to_owned()).filter(|r| !r.is_empty());
        if let (ApprovalDecision::Deny, Some(why), Some(round)) = (decision, why, self.s.round.as_mut()) {
            if let Some(i) = round.calls().iter().position(|c| c.id == call_id) {
                round.rejected[i] = Some(format!("the user denied this tool call: {why}"));
            }
        }
        if let Some(MessageType::ToolRequest { calls, .. }) = self.s.round.as_mut().map(|r| &mut r.request.body) {
            for c in calls.iter_mut().filter(|c| asked(c.approval) && settles(c)) {
                c.approval = match (decision, c.approval) {
                    (ApprovalDecision::Deny, _) => Approval::Denied,
                    (_, Approval::AskUnsandboxed) => Approval::ApprovedUnsandboxed,
                    (ApprovalDecision::ApproveOverwrite, _) => Approval::ApprovedOverwrite,
                    _ => Approval::Approved,
                };
            }
        }
        let verdict = match decision {
            _ if leaving && decision != ApprovalDecision::Deny => "approved outside the sandbox",
            ApprovalDecision::Deny if leaving => "kept in the sandbox",
            ApprovalDecision::Approve => "approved",
            ApprovalDecision::Deny => "denied",
            ApprovalDecision::ApproveAll => "all approved",
            ApprovalDecision::AlwaysAllow => "always allowed",
            ApprovalDecision::ApproveOverwrite => "approved to overwrite",
        };
        self.reply(Ok(Reply::Done));
        if let Some(request) = self.s.round.as_ref().map(|r| r.request.clone()) {
            self.rewrite(request, format!("{call_id} {verdict}"));
        }
        self.await_approvals_or_run();
    }

    /// A client's own result for a call awaiting approval: the call counts
    /// as approved and, when its turn comes, that result is written
    /// instead of running it.
    pub(super) fn supply_result(&mut self, call_id: CallId, outcome: ToolOutcome) {
        let waiting = self.kind() == StatusKind::AwaitingToolApproval;
        let Some(round) = self.s.round.as_mut().filter(|_| waiting) else {
            let text = format!("no tool call {call_id:?} is awaiting approval (a result can be given only then)");
            self.reply(Err(WireError::new(ErrorCode::InvalidState, text)));
            return;
        };
        let MessageType::ToolRequest { calls, .. } = &mut round.request.body else { return };
        let Some(call) = calls.iter_mut().find(|c| c.id == call_id && c.approval == Approval::Pending) else {
            let text = format!("no tool call {call_id:?} is awaiting approval (a result can be given only then)");
            self.reply(Err(WireError::new(ErrorCode::InvalidState, text)));
            return;
        };
        call.approval = Approval::Approved;
        round.supplied.push((call_id.clone(), outcome));
        let request_id = round.request.id;
        self.reply(Ok(Reply::Message(request_id)));
        if let Some(request) = self.s.round.as_ref().map(|r| r.request.clone()) {
            self.rewrite(request, format!("{call_id} answered by the client"));
        }
        self.await_approvals_or_run();
    }
}
