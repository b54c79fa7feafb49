//! A fake model for sub-agent tests: several conversations ask it at once,
//! so it answers from the request itself rather than from a queue. A
//! parent asked `SPAWN <tasks as JSON>` calls `spawn_agents` with them
//! (asked `READ path`, `read_file`), then answers once the result is back. A child (its system prompt names
//! it) does what its task's first word says:
//! - `SUBMIT text`: `submit_result` with `text` (and reports 100 + 20 tokens);
//! - `GIVEUP why`: `submit_error`;
//! - `CHAT`: answers in words, never submitting (its grace turn too);
//! - `STALL`: connects and never answers;
//! - `CROWD`: `read_file` and `submit_result` in one response, then alone;
//! - `NEST`: tries `spawn_agents`, then submits what it was told;
//! - `READ path`: `read_file` of `path`, then submits its content;
//! - `RUN command`: `run_command`, then submits its output.

use crate::script::{answer, calls};
use braid_core::llm::{StopReason, Usage};
use braid_llm::fake::FakeStep;
use braid_llm::LlmRequest;
use braid_protocol::{MessageType, Role, SUBMIT_RESULT};
use serde_json::json;

/// The fake's answer to one request (`FakeProvider::answering`).
pub fn respond(request: &LlmRequest) -> Option<Vec<FakeStep>> {
    let system = request.system.as_deref().unwrap_or_default();
    let last = request.messages.last()?;
    let result = match &last.body {
        MessageType::ToolResult { output, error, .. } => Some(error.clone().unwrap_or_else(|| output.clone())),
        _ => None,
    };
    let task = request.messages.iter().find_map(|m| match &m.body {
        MessageType::Text { role: Role::User, .. } => m.body.plain_text(),
        _ => None,
    })?;
    if !system.contains("You are a sub-agent named") {
        return Some(match (result, task.strip_prefix("READ ")) {
            (Some(_), _) => answer("All the sub-agents reported."),
            // A plain tool turn, the yardstick of the benchmark.
            (None, Some(path)) => calls(&[("read", "read_file", json!({ "path": path }))]),
            (None, None) => {
                calls(&[("spawn", "spawn_agents", serde_json::from_str(task.strip_prefix("SPAWN ")?).ok()?)])
            }
        });
    }
    let (verb, rest) = task.split_once(' ').unwrap_or((task.as_str(), ""));
    let submit = |text: &str| {
        let mut steps = calls(&[("submit", SUBMIT_RESULT, json!({ "result": text }))]);
        steps.insert(1, FakeStep::Usage(Usage { prompt_tokens: 100, completion_tokens: 20 }));
        steps
    };
    Some(match (verb, result) {
        ("SUBMIT", _) => submit(rest),
        ("GIVEUP", _) => calls(&[("giveup", "submit_error", json!({ "error": rest }))]),
        ("CHAT", _) => answer("I would rather talk about it."),
        ("STALL", _) => vec![FakeStep::Connect, FakeStep::Stall],
        ("CROWD", None) => calls(&[
            ("peek", "read_file", json!({ "path": "a.txt" })),
            ("early", SUBMIT_RESULT, json!({ "result": "too early" })),
        ]),
        ("NEST", None) => {
            calls(&[("inner", "spawn_agents", json!({ "tasks": [{ "instructions": "SUBMIT deeper" }] }))])
        }
        ("READ", None) => calls(&[("read", "read_file", json!({ "path": rest }))]),
        ("RUN", None) => calls(&[("run", "run_command", json!({ "command": rest }))]),
        (_, Some(said)) => submit(&format!("after the tool: {said}")),
        _ => vec![FakeStep::Text("?".into()), FakeStep::Finish(StopReason::EndTurn)],
    })
}
