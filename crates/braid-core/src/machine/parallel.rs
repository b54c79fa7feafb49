//! Reads run together. Where the model asks for several calls at once and
//! a run of them only read (their tool's permission is Read: files,
//! searches, MCP tools marked read-only) and are approved, they start
//! together; each result is still written in the model's order, when its
//! turn comes (waiting for it if it is still running). Anything else runs
//! alone, as before.

use super::step::Step;
use super::subagents::is_submit;
use super::ToolOutcome;
use crate::approval::permission_in;
use braid_protocol::{Approval, CallId, ContextStatus, Permission, ToolCall};

/// What the call whose turn it is needs.
pub(super) enum Turn {
    /// Its early result was written: go on to the next.
    Written,
    /// It is still running beside an earlier one: wait for it.
    Wait,
    /// It was not started with others.
    Alone,
}

impl Step<'_> {
    /// The reads after `index` (itself a read) to start with it.
    pub(super) fn reads_after(&self, index: usize) -> Vec<ToolCall> {
        let Some(round) = self.s.round.as_ref() else { return Vec::new() };
        let calls = round.calls();
        let read = |i: usize| {
            let c = &calls[i];
            c.approval == Approval::Approved
                && round.rejected.get(i).is_none_or(Option::is_none)
                && !round.supplied.iter().any(|(id, _)| *id == c.id)
                && !is_submit(&c.name)
                && c.name != braid_protocol::SPAWN_AGENTS
                && permission_in(&self.s.catalogue, &c.name) == Some(Permission::Read)
        };
        if round.interrupted || round.blocked.is_some() || !read(index) {
            return Vec::new();
        }
        (index + 1..calls.len()).take_while(|&i| read(i)).map(|i| calls[i].clone()).collect()
    }

    /// The call whose turn it is, if it was started beside an earlier one:
    /// its result written now, or the wait for it.
    pub(super) fn turn_of_read(&mut self) -> Turn {
        let Some(round) = self.s.round.as_mut() else { return Turn::Alone };
        let Some(call) = round.calls().get(round.next).cloned() else { return Turn::Alone };
        if let Some(i) = round.early.iter().position(|(id, _)| *id == call.id) {
            let (_, outcome) = round.early.remove(i);
            round.next += 1;
            self.append_result(call.id, outcome);
            self.s.auto_loop.tools_executed += 1;
            return Turn::Written;
        }
        let Some(i) = round.alongside.iter().position(|id| *id == call.id) else { return Turn::Alone };
        round.alongside.remove(i);
        round.running = Some(call.id);
        let (index, total) = (round.next as u32 + 1, round.calls().len() as u32);
        self.set_status(ContextStatus::ExecutingTool { tool_name: call.name, index, total, attempt: 1 });
        Turn::Wait
    }

    /// A read started beside the running call finished before its turn:
    /// kept until then. False when `call_id` is no such read.
    pub(super) fn read_finished_early(&mut self, call_id: &CallId, outcome: &ToolOutcome) -> bool {
        let Some(round) = self.s.round.as_mut() else { return false };
        let Some(i) = round.alongside.iter().position(|id| id == call_id) else { return false };
        round.alongside.remove(i);
        round.early.push((call_id.clone(), outcome.clone()));
        true
    }
}
