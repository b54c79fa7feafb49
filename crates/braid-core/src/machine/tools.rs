//! Tool rounds: approval, execution in request order (reads together,
//! `parallel`), the automatic loop and its depth limit. Every call gets exactly one result,
//! whatever happens (denied, invalid, cancelled, interrupted).

use super::step::Step;
use super::{Effect, Reply, ToolOutcome, ToolRound};
use crate::approval::{decide, spec_in, Decision};
use crate::llm::LlmResponse;
use braid_protocol::NoticeCode;
use braid_protocol::{
    AgentMode, Approval, CallId, ContextStatus, ControlKind, MessageId, MessageType, Notice, StatusKind, ToolCall,
    ToolResultStatus,
};

/// A call repeated this many times with the same arguments in one turn is
/// a loop: it is refused and the loop stops.
const REPEAT_LIMIT: usize = 3;

impl Step<'_> {
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
                let arguments = crate::arguments::repaired(&c.arguments).unwrap_or(c.arguments);
                let name = tool_name(&c.name, |n| self.s.catalogue.iter().any(|t| t.name == n));
                let (approval, problem) = self.judge(&name, &arguments);
                circular |= problem.as_deref().is_some_and(|p| p.starts_with("loop detected"));
                rejected.push(problem);
                ToolCall { id: id.into(), name, arguments, approval }
            })
            .collect();
        let mut calls = calls;
        self.refuse_crowded_submit(&mut calls, &mut rejected);
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
            blocked: None,
            supplied: Vec::new(),
            alongside: Vec::new(),
            early: Vec::new(),
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
        if !crate::subagents::offered_to(name, self.is_child()) {
            let why = match self.is_child() {
                true => format!("{name} is not available to a sub-agent: it cannot start sub-agents of its own"),
                false => format!("{name} is only for sub-agents"),
            };
            return (Approval::Denied, Some(why));
        }
        // Checked against the tool's schema before anyone is asked: the
        // model gets the reason and may call again.
        if let Some(spec) = self.s.catalogue.iter().find(|t| t.name == name) {
            if let Err(why) = crate::arguments::check(name, &spec.input_schema, &args) {
                return (Approval::Denied, Some(format!("invalid arguments: {why}")));
            }
        }
        // A sub-agent's submission is its answer, never a question.
        if super::subagents::is_submit(name) {
            return (Approval::Approved, None);
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
        // A call that would run with a secret is the user's to allow,
        // whatever the policy or an earlier "always allow": the model
        // chose what the command does with it.
        let decision = decide(&self.s.config.tools, name, spec_in(&self.s.catalogue, name), self.s.auto_loop.state());
        if decision == Decision::Allow && !crate::secrets::placeholders_in(arguments).is_empty() {
            return (Approval::Pending, None);
        }
        match decision {
            Decision::Allow => (Approval::Approved, None),
            Decision::Ask => (Approval::Pending, None),
            Decision::Deny(why) => (Approval::Denied, Some(why)),
        }
    }

    pub(super) fn await_approvals_or_run(&mut self) {
        let Some(round) = self.s.round.as_ref() else { return };
        let pending: Vec<&ToolCall> = round.calls().iter().filter(|c| asked(c.approval)).collect();
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
            match self.turn_of_read() {
                super::parallel::Turn::Written => continue,
                super::parallel::Turn::Wait => return,
                super::parallel::Turn::Alone => {}
            }
            let Some(round) = self.s.round.as_mut() else { return };
            let index = round.next;
            let call = round.calls()[index].clone();
            let problem = round.rejected.get(index).cloned().flatten();
            if round.interrupted {
                round.next += 1;
                self.write_result(&call.id, ToolResultStatus::Cancelled, "interrupted by the user before it ran");
                continue;
            }
            if !matches!(
                call.approval,
                Approval::Approved | Approval::ApprovedOverwrite | Approval::ApprovedUnsandboxed
            ) {
                round.next += 1;
                // Kept in the sandbox: the model gets the blocked result.
                if let Some(mut held) = round.blocked.take() {
                    if let Some(why) = problem {
                        held.error = Some(format!("{}; {why}", held.error.unwrap_or_default()));
                    }
                    self.append_result(call.id, held);
                    continue;
                }
                let why = problem.unwrap_or_else(|| "the user denied this tool call".to_owned());
                self.write_result(&call.id, ToolResultStatus::Error, &why);
                continue;
            }
            // The client gave its result: written, not run.
            if let Some(i) = round.supplied.iter().position(|(id, _)| id == &call.id) {
                let (_, outcome) = round.supplied.remove(i);
                round.next += 1;
                self.append_result(call.id, outcome);
                continue;
            }
            if super::subagents::is_submit(&call.name) {
                round.next += 1;
                self.submit(&call);
                continue;
            }
            if call.name == braid_protocol::SPAWN_AGENTS {
                if self.spawn_agents(&call) {
                    return;
                }
                if let Some(round) = self.s.round.as_mut() {
                    round.next += 1;
                }
                continue;
            }
            // Run again outside the sandbox: the blocked result is replaced.
            let attempt = if round.blocked.take().is_some() { 2 } else { 1 };
            let reads = self.reads_after(index);
            let Some(round) = self.s.round.as_mut() else { return };
            round.running = Some(call.id.clone());
            round.alongside = reads.iter().map(|c| c.id.clone()).collect();
            let (first, total) = (index as u32 + 1, total as u32);
            self.set_status(ContextStatus::ExecutingTool {
                tool_name: call.name.clone(),
                index: first,
                total,
                attempt,
            });
            self.run(Effect::RunTool { call, index: first, total });
            for (k, read) in reads.into_iter().enumerate() {
                self.run(Effect::RunTool { call: read, index: first + 1 + k as u32, total });
            }
            return;
        }
    }

    pub(super) fn tool_finished(&mut self, call_id: CallId, outcome: ToolOutcome) {
        let running = self.s.round.as_ref().and_then(|r| r.running.as_ref()) == Some(&call_id);
        if self.kind() == StatusKind::ExecutingTool && !running && self.read_finished_early(&call_id, &outcome) {
            return;
        }
        match self.kind() {
            StatusKind::ExecutingTool if running => {
                if outcome.blocked.is_some() && self.ask_to_leave_sandbox(&call_id, &outcome) {
                    if let Some(round) = self.s.round.as_mut() {
                        round.running = None;
                        round.blocked = Some(outcome);
                    }
                    self.await_approvals_or_run();
                    return;
                }
                self.running_call_done(call_id, outcome);
            }
            StatusKind::Cancelling if running => {
                // Its cancelled result was written when the cancel came.
                self.s.round = None;
                self.set_status(ContextStatus::Idle);
            }
            _ => {}
        }
    }

    /// The running call's result (a tool's, or the sub-agents' together):
    /// written in its turn, and the round goes on.
    pub(super) fn running_call_done(&mut self, call_id: CallId, outcome: ToolOutcome) {
        if let Some(round) = self.s.round.as_mut() {
            round.running = None;
            round.next += 1;
        }
        self.append_result(call_id, outcome);
        self.s.auto_loop.tools_executed += 1;
        self.run_next_tool();
    }

    /// The sandbox stopped a call: it waits for the user to let it run
    /// again outside, unless it already ran outside (then its result
    /// stands). Recorded in history like any approval change.
    fn ask_to_leave_sandbox(&mut self, call_id: &CallId, outcome: &ToolOutcome) -> bool {
        let Some(round) = self.s.round.as_mut() else { return false };
        let MessageType::ToolRequest { calls, .. } = &mut round.request.body else { return false };
        let Some(call) = calls.iter_mut().find(|c| &c.id == call_id && c.approval != Approval::ApprovedUnsandboxed)
        else {
            return false;
        };
        call.approval = Approval::AskUnsandboxed;
        let request = round.request.clone();
        let why = outcome.blocked.as_deref().map_or("", String::as_str);
        self.rewrite(request, format!("{call_id} blocked by the sandbox: {why}"));
        true
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
            self.child_failed("it was stopped by the user");
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
        if !self.child_may_go_on(false) {
            return;
        }
        let tools_executed = self.s.auto_loop.tools_executed;
        self.set_status(ContextStatus::ToolAutoLoop { depth, tools_executed });
        self.start_request(1);
    }

    /// Ends the turn with a visible notice (kept in history).
    fn stop_loop(&mut self, code: NoticeCode, text: String) {
        self.child_failed(&text);
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
}

/// Calls waiting for the user: to run, or to run again outside the sandbox.
pub(super) fn asked(approval: Approval) -> bool {
    matches!(approval, Approval::Pending | Approval::AskUnsandboxed)
}

/// The tool a model's name for it means: `read_file:`, `"read_file"`,
/// `functions.read_file` and `read_file()` all name read_file. A name that
/// names no tool is kept only in a form the providers' rule
/// (`^[a-zA-Z0-9_-]{1,64}$`) allows — it is stored and sent back, and a
/// strict API rejects the whole request over a name it forbids — and the
/// call is refused as unknown.
pub fn tool_name(raw: &str, offered: impl Fn(&str) -> bool) -> String {
    let trimmed = raw.trim().trim_matches(['"', '\'', '`']);
    let trimmed = trimmed.strip_prefix("functions.").unwrap_or(trimmed);
    let trimmed = trimmed.strip_suffix("()").unwrap_or(trimmed);
    let trimmed = trimmed.trim_end_matches([':', '.', ',', ';', ' ']);
    if offered(raw) || !offered(trimmed) && braid_protocol::check_tool_name(raw).is_ok() {
        return raw.to_owned();
    }
    if offered(trimmed) {
        return trimmed.to_owned();
    }
    trimmed
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' })
        .take(braid_protocol::MAX_TOOL_NAME)
        .collect()
}
