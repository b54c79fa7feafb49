//! Tool rounds: approval, one-at-a-time execution in request order, the
//! automatic loop and its depth limit. Every call gets exactly one result,
//! whatever happens (denied, invalid, cancelled, interrupted).

use super::step::Step;
use super::{Effect, Reply, ToolOutcome, ToolRound};
use crate::approval::{decide, permission_in, Decision};
use crate::llm::LlmResponse;
use braid_protocol::NoticeCode;
use braid_protocol::{
    AgentMode, Approval, ApprovalDecision, CallId, ContextStatus, ControlKind, ErrorCode, MessageId, MessageType,
    Notice, Permission, StatusKind, ToolCall, ToolResultStatus, WireError,
};

/// A call repeated this many times with the same arguments in one turn is
/// a loop: it is refused and the loop stops.
const REPEAT_LIMIT: usize = 3;

impl Step {
    /// The model asked for tools: record the request, then ask for approval
    /// or start running.
    pub(super) fn open_tool_round(&mut self, response_id: MessageId, response: LlmResponse) {
        self.set_status(ContextStatus::ParsingToolCalls);
        let mut rejected = Vec::with_capacity(response.tool_calls.len());
        let mut circular = false;
        let calls: Vec<ToolCall> = response
            .tool_calls
            .into_iter()
            .enumerate()
            .map(|(i, c)| {
                // Some servers omit ids; a stable one keeps results paired.
                let id = if c.id.trim().is_empty() { format!("call_{}_{}", response_id.0, i + 1) } else { c.id };
                let (approval, problem) = self.judge(&c.name, &c.arguments);
                circular |= problem.as_deref().is_some_and(|p| p.starts_with("loop detected"));
                rejected.push(problem);
                ToolCall { id: id.into(), name: c.name, arguments: c.arguments, approval }
            })
            .collect();
        let text = (!response.text.is_empty()).then_some(response.text);
        let mut request = self.message(response_id, MessageType::ToolRequest { text, calls });
        request.meta.usage = response.usage.map(Into::into);
        self.append(request.clone());
        self.s.round = Some(ToolRound {
            request,
            next: 0,
            running: None,
            rejected,
            interrupted: false,
            circular,
            images: Vec::new(),
        });
        self.await_approvals_or_run();
    }

    /// One call's approval, and why it must not run if so. Malformed calls,
    /// unknown tools, tools the mode or role does not offer, and a call the
    /// model keeps repeating are refused; the policy decides the rest.
    fn judge(&mut self, name: &str, arguments: &str) -> (Approval, Option<String>) {
        if name.trim().is_empty() {
            return (Approval::Denied, Some("the tool call has no name".to_owned()));
        }
        let args = match serde_json::from_str::<serde_json::Value>(arguments) {
            Ok(v) => v,
            Err(e) => {
                let why = format!("the arguments are not valid JSON ({e}); send them again as a JSON object");
                return (Approval::Denied, Some(why));
            }
        };
        // Checked against the tool's schema before anyone is asked: the
        // model gets the reason and may call again.
        if let Some(spec) = self.s.catalogue.iter().find(|t| t.name == name) {
            if let Err(why) = crate::arguments::check(name, &spec.input_schema, &args) {
                return (Approval::Denied, Some(format!("invalid arguments: {why}")));
            }
        }
        // Normalised, so key order or spacing does not hide a repeat.
        let signature = format!("{name}({args})");
        let seen = self.s.auto_loop.calls.iter().filter(|c| **c == signature).count();
        self.s.auto_loop.calls.push(signature);
        if seen + 1 >= REPEAT_LIMIT {
            let why = format!(
                "loop detected: {name} was called {} times with the same arguments in this turn; the loop was stopped",
                seen + 1
            );
            return (Approval::Denied, Some(why));
        }
        match decide(&self.s.config.tools, name, permission_in(&self.s.catalogue, name), self.s.auto_loop.state()) {
            Decision::Allow => (Approval::Approved, None),
            Decision::Ask => (Approval::Pending, None),
            Decision::Deny(why) => (Approval::Denied, Some(why)),
        }
    }

    fn await_approvals_or_run(&mut self) {
        let Some(round) = self.s.round.as_ref() else { return };
        let pending: Vec<&ToolCall> = round.calls().iter().filter(|c| c.approval == Approval::Pending).collect();
        if pending.is_empty() {
            self.run_next_tool();
            return;
        }
        let status = ContextStatus::AwaitingToolApproval {
            pending_requests: pending.iter().map(|c| c.id.clone()).collect(),
            tool_names: pending.iter().map(|c| c.name.clone()).collect(),
        };
        // The state carries the calls: every client shows the dialog from it.
        self.set_status(status);
    }

    pub(super) fn tool_decision(&mut self, call_id: CallId, decision: ApprovalDecision, reason: Option<String>) {
        let waiting = self.kind() == StatusKind::AwaitingToolApproval;
        let name = self
            .s
            .round
            .as_ref()
            .filter(|_| waiting)
            .and_then(|r| r.calls().iter().find(|c| c.id == call_id && c.approval == Approval::Pending))
            .map(|c| c.name.clone());
        let Some(name) = name else {
            let text = format!("no tool call {call_id:?} is awaiting approval");
            self.reply(Err(WireError::new(ErrorCode::InvalidState, text)));
            return;
        };
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
            for c in calls.iter_mut().filter(|c| c.approval == Approval::Pending && settles(c)) {
                c.approval = match decision {
                    ApprovalDecision::Deny => Approval::Denied,
                    ApprovalDecision::ApproveOverwrite => Approval::ApprovedOverwrite,
                    _ => Approval::Approved,
                };
            }
        }
        let verdict = match decision {
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

    /// Runs the next approved call; writes results for denied or invalid
    /// ones in order; closes the round when none are left.
    fn run_next_tool(&mut self) {
        loop {
            let Some(round) = self.s.round.as_mut() else { return };
            let total = round.calls().len();
            if round.next >= total {
                self.finish_round();
                return;
            }
            let index = round.next;
            let call = round.calls()[index].clone();
            let problem = round.rejected.get(index).cloned().flatten();
            if round.interrupted {
                round.next += 1;
                self.write_result(&call.id, ToolResultStatus::Cancelled, "interrupted by the user before it ran");
                continue;
            }
            if !matches!(call.approval, Approval::Approved | Approval::ApprovedOverwrite) {
                round.next += 1;
                let why = problem.unwrap_or_else(|| "the user denied this tool call".to_owned());
                self.write_result(&call.id, ToolResultStatus::Error, &why);
                continue;
            }
            round.running = Some(call.id.clone());
            let (index, total) = (index as u32 + 1, total as u32);
            self.set_status(ContextStatus::ExecutingTool { tool_name: call.name.clone(), index, total, attempt: 1 });
            self.run(Effect::RunTool { call, index, total });
            return;
        }
    }

    pub(super) fn tool_finished(&mut self, call_id: CallId, outcome: ToolOutcome) {
        let running = self.s.round.as_ref().and_then(|r| r.running.as_ref()) == Some(&call_id);
        match self.kind() {
            StatusKind::ExecutingTool if running => {
                let result = MessageType::ToolResult {
                    request_id: call_id,
                    status: outcome.status,
                    output: outcome.output,
                    error: outcome.error,
                    recoverable: outcome.recoverable,
                    duration_ms: outcome.duration_ms,
                    finished_at: self.now,
                };
                let id = self.alloc_message_id();
                let mut message = self.message(id, result);
                message.meta.written_hash = outcome.written;
                self.append(message);
                if let Some(round) = self.s.round.as_mut() {
                    round.running = None;
                    round.next += 1;
                    round.images.extend(outcome.images);
                }
                self.s.auto_loop.tools_executed += 1;
                self.run_next_tool();
            }
            StatusKind::Cancelling if running => {
                // Its cancelled result was written when the cancel came.
                self.s.round = None;
                self.set_status(ContextStatus::Idle);
            }
            _ => {}
        }
    }

    fn finish_round(&mut self) {
        self.set_status(ContextStatus::CollectingToolResults);
        self.set_status(ContextStatus::ProcessingToolResults);
        let (interrupted, circular) = match self.s.round.take() {
            Some(round) => {
                self.add_result_images(round.images);
                (round.interrupted, round.circular)
            }
            None => (false, false),
        };
        self.s.auto_loop.depth += 1;
        let depth = self.s.auto_loop.depth;
        if circular {
            let text = "The model kept repeating the same tool call, so the loop was stopped. Send a message to \
                        steer it, or Continue to let it try again."
                .to_owned();
            self.stop_loop(NoticeCode::LoopDetected, text);
            return;
        }
        if interrupted {
            self.set_status(ContextStatus::Idle);
            self.notify(Notice::new(
                NoticeCode::Interrupted,
                "Stopped after the running tool; its result is kept. Send a message to continue.",
            ));
            return;
        }
        if depth >= self.s.config.max_loop_depth {
            let text = format!(
                "The tool loop stopped after {depth} rounds ({} tools). Press Continue to let the model go on.",
                self.s.auto_loop.tools_executed
            );
            self.stop_loop(NoticeCode::LoopLimit, text);
            return;
        }
        let tools_executed = self.s.auto_loop.tools_executed;
        self.set_status(ContextStatus::ToolAutoLoop { depth, tools_executed });
        self.start_request(1);
    }

    /// Ends the turn with a visible notice (kept in history).
    fn stop_loop(&mut self, code: NoticeCode, text: String) {
        let id = self.alloc_message_id();
        let control = ControlKind::Notice { code, text: text.clone() };
        let message = self.message(id, MessageType::SystemControl { control });
        self.append(message);
        self.set_status(ContextStatus::Idle);
        self.notify(Notice::new(code, text));
    }

    /// Plan or Act from the next request on; recorded in history.
    pub(super) fn set_mode(&mut self, mode: AgentMode) {
        if self.refuse_if_busy("switching mode") {
            return;
        }
        self.reply(Ok(Reply::Done));
        if self.s.config.tools.mode == mode {
            return;
        }
        self.s.config.tools.mode = mode;
        let id = self.alloc_message_id();
        let control = ControlKind::ModeChange { mode: mode.as_str().to_owned() };
        let message = self.message(id, MessageType::SystemControl { control });
        self.append(message);
    }

    fn write_result(&mut self, call_id: &CallId, status: ToolResultStatus, error: &str) {
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
            for call in calls.iter_mut().filter(|c| c.approval == Approval::Pending) {
                call.approval = Approval::Denied;
                rewritten = true;
            }
        }
        if rewritten {
            self.rewrite(round.request.clone(), "closed".to_owned());
        }
        let open: Vec<CallId> =
            round.calls()[round.next.min(round.calls().len())..].iter().map(|c| c.id.clone()).collect();
        for id in open {
            self.write_result(&id, ToolResultStatus::Cancelled, why);
        }
        self.add_result_images(round.images);
    }

    /// The images the round's results came with, as messages after the
    /// last result, so the model sees (or reads) them like any others.
    fn add_result_images(&mut self, images: Vec<MessageType>) {
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
            });
        }
        self.set_status(ContextStatus::Cancelling);
        true
    }
}
