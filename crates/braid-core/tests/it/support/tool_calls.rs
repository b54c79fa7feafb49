//! Scripting a tool round with the simulator: the model's calls, their
//! outcomes, and what the machine did with them.

#![allow(dead_code)] // each test file uses some of these

use braid_core::llm::{LlmResponse, StopReason, ToolCallSpec};
use braid_core::machine::{Effect, Event, ToolOutcome};
use braid_core::sim::Sim;
use braid_protocol::{Approval, MessageType, ToolResultStatus};

pub fn call(id: &str, name: &str, args: &str) -> ToolCallSpec {
    ToolCallSpec { id: id.into(), name: name.into(), arguments: args.into() }
}

pub fn model_calls(sim: &mut Sim, calls: Vec<ToolCallSpec>) -> Vec<Effect> {
    let rid = sim.request_id();
    let response =
        LlmResponse { text: String::new(), tool_calls: calls, usage: None, stop_reason: StopReason::ToolUse };
    sim.send(Event::LlmCompleted { request_id: rid, response })
}

pub fn model_answers(sim: &mut Sim, text: &str) -> Vec<Effect> {
    let rid = sim.request_id();
    sim.send(Event::LlmCompleted { request_id: rid, response: LlmResponse::text(text) })
}

pub fn outcome(status: ToolResultStatus, output: &str, error: Option<&str>) -> ToolOutcome {
    ToolOutcome {
        status,
        output: output.into(),
        error: error.map(str::to_owned),
        recoverable: true,
        duration_ms: 3,
        written: None,
        blocked: None,
        images: Vec::new(),
        secrets: None,
    }
}

pub fn done(sim: &mut Sim, id: &str) -> Vec<Effect> {
    sim.send(Event::ToolFinished { call_id: id.into(), outcome: outcome(ToolResultStatus::Success, "ok", None) })
}

pub fn ran(effects: &[Effect]) -> Vec<String> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::RunTool { call, .. } => Some(call.id.to_string()),
            _ => None,
        })
        .collect()
}

pub fn starts_request(fx: &[Effect]) -> bool {
    fx.iter().any(|e| matches!(e, Effect::StartLlmRequest { .. }))
}

pub fn approvals(sim: &Sim) -> Vec<Approval> {
    sim.messages()
        .iter()
        .filter_map(|m| match &m.body {
            MessageType::ToolRequest { calls, .. } => Some(calls.iter().map(|c| c.approval).collect::<Vec<_>>()),
            _ => None,
        })
        .next_back()
        .unwrap_or_default()
}
