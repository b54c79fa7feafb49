//! Sub-agents in the machine. A parent's approved `spawn_agents` call
//! waits in `AwaitingSubAgents{done, total}` while the runtime runs the
//! children, and the children's reports become the call's one result. A
//! child ends with a submit call (alone in its response); ending a turn
//! without one, or reaching its turn limit, earns one grace turn that
//! tells it to submit now; after that it has failed.

use super::step::Step;
use super::{Effect, ToolOutcome};
use crate::subagents;
use braid_protocol::{
    CallId, ChildOutcome, ChildReport, ContextId, ContextStatus, ControlKind, Message, MessageType, Notice, NoticeCode,
    StatusKind, SubAgentView, SubAgentsView, ToolCall, ToolResultStatus, SUBMIT_ERROR, SUBMIT_RESULT,
};

impl Step<'_> {
    pub(super) fn is_child(&self) -> bool {
        self.s.config.child.is_some()
    }

    /// An approved `spawn_agents` call: its tasks go to the runtime, or
    /// the reason they cannot back to the model. `false`: it did not start.
    pub(super) fn spawn_agents(&mut self, call: &ToolCall) -> bool {
        let tasks = match subagents::tasks(&call.arguments) {
            Ok(tasks) => tasks,
            Err(why) => {
                self.write_result(&call.id, ToolResultStatus::Error, &format!("no sub-agent started: {why}"));
                return false;
            }
        };
        let agents = tasks.iter().map(|t| SubAgentView {
            name: t.name.clone(),
            context_id: None,
            report: None,
            isolated: t.isolated,
        });
        self.s.agents = Some(SubAgentsView { call_id: call.id.clone(), agents: agents.collect() });
        if let Some(round) = self.s.round.as_mut() {
            round.running = Some(call.id.clone());
        }
        self.set_status(ContextStatus::AwaitingSubAgents { done: 0, total: tasks.len() as u32 });
        self.run(Effect::SpawnAgents { call_id: call.id.clone(), tasks });
        true
    }

    fn agent_of(&mut self, call_id: &CallId, index: u32) -> Option<&mut SubAgentView> {
        let waiting = self.kind() == StatusKind::AwaitingSubAgents;
        let agents = self.s.agents.as_mut().filter(|a| waiting && &a.call_id == call_id)?;
        agents.agents.get_mut(index as usize)
    }

    pub(super) fn sub_agent_started(&mut self, call_id: CallId, index: u32, context_id: ContextId) {
        if let Some(agent) = self.agent_of(&call_id, index) {
            agent.context_id = Some(context_id);
            let effect = self.update_effect();
            self.run(effect);
        }
    }

    pub(super) fn sub_agent_finished(&mut self, call_id: CallId, index: u32, report: ChildReport) {
        let Some(agent) = self.agent_of(&call_id, index).filter(|a| a.report.is_none()) else { return };
        agent.report = Some(report);
        let Some(agents) = self.s.agents.as_ref() else { return };
        let total = agents.agents.len() as u32;
        let done = agents.agents.iter().filter(|a| a.report.is_some()).count() as u32;
        if done < total {
            self.set_status(ContextStatus::AwaitingSubAgents { done, total });
            return;
        }
        let outcome = self.agents_outcome();
        self.running_call_done(call_id, outcome);
    }

    /// Cancel while children run: they are stopped, and the call's result
    /// keeps what finished and says why the rest did not.
    pub(super) fn stop_sub_agents(&mut self, why: &str) {
        let Some(agents) = self.s.agents.as_mut() else { return };
        let call_id = agents.call_id.clone();
        for a in agents.agents.iter_mut().filter(|a| a.report.is_none()) {
            let outcome = ChildOutcome::Failed { reason: why.to_owned() };
            a.report = Some(ChildReport { outcome, duration_ms: 0, tokens: 0, note: None, workspace: None });
        }
        self.run(Effect::StopSubAgents { call_id: call_id.clone() });
        let outcome = self.agents_outcome();
        if let Some(round) = self.s.round.as_mut() {
            round.running = None;
            round.next += 1;
        }
        self.append_result(call_id, outcome);
    }

    /// The children's reports as the call's result; the run is over.
    fn agents_outcome(&mut self) -> ToolOutcome {
        let agents = self.s.agents.take().map(|a| a.agents).unwrap_or_default();
        let (status, output) = subagents::aggregate(&agents);
        let error = (status == ToolResultStatus::Error).then(|| "no sub-agent submitted a result".to_owned());
        let duration_ms = agents.iter().filter_map(|a| a.report.as_ref()).map(|r| r.duration_ms).max();
        ToolOutcome {
            status,
            output,
            error,
            recoverable: true,
            duration_ms: duration_ms.unwrap_or(0),
            written: None,
            blocked: None,
            images: Vec::new(),
            secrets: None,
        }
    }

    /// A child's response with a submit call among others: none of them
    /// runs, and each says why.
    pub(super) fn refuse_crowded_submit(&mut self, calls: &mut [ToolCall], rejected: &mut [Option<String>]) {
        if !self.is_child() || calls.len() < 2 {
            return;
        }
        let Some(submit) = calls.iter().find(|c| is_submit(&c.name)).map(|c| c.name.clone()) else { return };
        for (call, why) in calls.iter_mut().zip(rejected.iter_mut()) {
            call.approval = braid_protocol::Approval::Denied;
            *why = Some(subagents::not_alone(&submit));
        }
    }

    /// A child's submit call: its result is recorded, the parent told, and
    /// the child stops.
    pub(super) fn submit(&mut self, call: &ToolCall) {
        let outcome = subagents::submitted(&call.name, &call.arguments);
        let said = match &outcome {
            ChildOutcome::Submitted { .. } => "Submitted; the agent that gave the task has the result.",
            ChildOutcome::Failed { .. } => "Submitted; the agent that gave the task was told why.",
        };
        self.append_result(call.id.clone(), ToolOutcome::success(said.to_owned()));
        self.end_child(outcome);
    }

    /// Kept with the child, for its parent's card after the call.
    pub(super) fn copy_returned(&mut self, returned: braid_protocol::ChildWorkspace) {
        if self.is_child() {
            self.s.child.returned = Some(returned);
            let effect = self.update_effect();
            self.run(effect);
        }
    }

    fn end_child(&mut self, outcome: ChildOutcome) {
        if self.s.child.ended {
            return;
        }
        self.s.child.ended = true;
        self.s.child.outcome = Some(outcome.clone());
        let tokens = self.s.child.tokens;
        self.run(Effect::ChildEnded { outcome, tokens });
    }

    /// A child whose context fails has failed its task.
    pub(super) fn child_failed(&mut self, message: &str) {
        if self.is_child() {
            self.end_child(ChildOutcome::Failed { reason: message.to_owned() });
        }
    }

    /// A child's answer arrived: one more turn, and its tokens.
    pub(super) fn child_answered(&mut self, usage: Option<crate::llm::Usage>) {
        if self.is_child() {
            self.s.child.turns += 1;
            let used = usage.map_or(0, |u| u64::from(u.prompt_tokens) + u64::from(u.completion_tokens));
            self.s.child.tokens += used;
        }
    }

    /// Before a child's next turn (after a tool round, or when it ended a
    /// turn without submitting): whether it may go on. `false` when it
    /// ended, used its grace turn, or just got it (the request is
    /// started here).
    pub(super) fn child_may_go_on(&mut self, ended_turn: bool) -> bool {
        let Some(child) = self.s.config.child.clone() else { return true };
        if self.s.child.ended {
            self.set_status(ContextStatus::Idle);
            return false;
        }
        let at_limit = self.s.child.turns >= child.turn_limit;
        if !ended_turn && !at_limit {
            return true;
        }
        if self.s.child.grace {
            let reason = if ended_turn && !at_limit {
                "it ended its turn without submitting a result, twice".to_owned()
            } else {
                format!("it passed its turn limit of {} turns without submitting a result", child.turn_limit)
            };
            self.end_child(ChildOutcome::Failed { reason });
            self.set_status(ContextStatus::Idle);
            return false;
        }
        self.s.child.grace = true;
        let why = if ended_turn && !at_limit { "ended its turn without submitting" } else { "reached its turn limit" };
        let text = format!("The sub-agent {why}: one more turn, in which it must call {SUBMIT_RESULT}.");
        let id = self.alloc_message_id();
        let control = ControlKind::Notice { code: NoticeCode::SubAgentGrace, text: text.clone() };
        let message: Message = self.message(id, MessageType::SystemControl { control });
        self.append(message);
        self.notify(Notice::new(NoticeCode::SubAgentGrace, text));
        self.start_request(1);
        false
    }

    /// The child's part of the system prompt, if it is one.
    pub(super) fn child_prompt(&self) -> Option<String> {
        let child = self.s.config.child.as_ref()?;
        Some(subagents::child_prompt(child, self.s.child.grace))
    }

    /// On its grace turn a child must call a submit tool.
    pub(super) fn child_grace_turn(&self) -> bool {
        self.is_child() && self.s.child.grace
    }
}

pub(super) fn is_submit(name: &str) -> bool {
    name == SUBMIT_RESULT || name == SUBMIT_ERROR
}
