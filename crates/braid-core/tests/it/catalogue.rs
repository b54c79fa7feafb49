//! The tool catalogue is data: a tool registered at run time, whose name
//! the code has never seen, is judged by its permission like a built-in
//! one — asked, approved, run, and its result sent to the model — and a
//! Plan-mode conversation never runs it when it writes.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::llm::{LlmResponse, StopReason, ToolCallSpec};
use braid_core::machine::{Effect, Event, ToolOutcome};
use braid_core::sim::{catalogue, spec, Sim};
use braid_protocol::{
    AgentMode, Approval, ApprovalDecision, MessageType, Permission, StatusKind, ToolResultStatus, ToolSpec,
};
use serde_json::json;

fn with_tool(tool: ToolSpec) -> Sim {
    let mut sim = Sim::new();
    let mut tools = catalogue();
    tools.push(tool);
    sim.send(Event::CatalogueChanged { tools });
    sim
}

fn calls(sim: &mut Sim, name: &str) -> Vec<Effect> {
    let rid = sim.request_id();
    let call = ToolCallSpec { id: "c1".into(), name: name.into(), arguments: r#"{"text":"a b c"}"#.into() };
    let response =
        LlmResponse { text: String::new(), tool_calls: vec![call], usage: None, stop_reason: StopReason::ToolUse };
    sim.send(Event::LlmCompleted { request_id: rid, response })
}

fn sent(effects: &[Effect]) -> (Option<String>, Vec<String>, Vec<MessageType>) {
    effects
        .iter()
        .find_map(|e| match e {
            Effect::SendLlmRequest { system, tools, messages, .. } => Some((
                braid_protocol::sent::join_parts(system.iter().map(|p| p.text.as_str())),
                tools.iter().map(|t| t.name.clone()).collect(),
                messages.iter().map(|m| m.body.clone()).collect(),
            )),
            _ => None,
        })
        .expect("a request was sent")
}

fn approval(sim: &Sim) -> Approval {
    sim.messages()
        .iter()
        .find_map(|m| match &m.body {
            MessageType::ToolRequest { calls, .. } => Some(calls[0].approval),
            _ => None,
        })
        .unwrap()
}

#[test]
fn a_tool_registered_at_run_time_is_asked_run_and_reported_to_the_model() {
    let mut tool = spec("count_words", Permission::Read);
    tool.examples = vec![json!({"text": "one two"})];
    let mut sim = with_tool(tool);
    sim.start("count the words");
    let (system, tools, _) = sent(&sim.prepare(sim.prepared(8_000)));
    assert!(tools.contains(&"count_words".to_owned()), "offered: {tools:?}");
    let system = system.unwrap();
    assert!(system.contains(r#"- count_words {"text":"one two"}"#), "its example reaches the model: {system}");

    // Not on the default allow-list: the user is asked.
    calls(&mut sim, "count_words");
    assert_eq!(sim.state.status.kind(), StatusKind::AwaitingToolApproval);
    assert_eq!(approval(&sim), Approval::Pending);
    let fx = sim.send(Event::ToolDecision { call_id: "c1".into(), decision: ApprovalDecision::Approve, reason: None });
    assert!(fx.iter().any(|e| matches!(e, Effect::RunTool { call, .. } if call.name == "count_words")));
    let outcome = ToolOutcome {
        status: ToolResultStatus::Success,
        output: "3 words".into(),
        error: None,
        recoverable: false,
        duration_ms: 1,
        written: None,
        blocked: None,
        images: Vec::new(),
        secrets: None,
    };
    let fx = sim.send(Event::ToolFinished { call_id: "c1".into(), outcome });
    assert!(fx.iter().any(|e| matches!(e, Effect::StartLlmRequest { .. })), "the loop goes on");
    let (_, _, messages) = sent(&sim.prepare(sim.prepared(8_000)));
    assert!(
        messages.iter().any(|m| matches!(m, MessageType::ToolResult { output, .. } if output == "3 words")),
        "the result reaches the model"
    );
}

#[test]
fn plan_mode_never_runs_a_registered_tool_that_writes() {
    let mut sim = with_tool(spec("deploy_site", Permission::Write));
    sim.send(Event::SetMode { mode: AgentMode::Plan });
    sim.start("ship it");
    let (_, tools, _) = sent(&sim.prepare(sim.prepared(8_000)));
    assert!(!tools.contains(&"deploy_site".to_owned()), "not even offered: {tools:?}");
    let fx = calls(&mut sim, "deploy_site");
    assert!(!fx.iter().any(|e| matches!(e, Effect::RunTool { .. })));
    assert_eq!(approval(&sim), Approval::Denied);
    assert!(sim.effects.iter().all(|e| !matches!(e, Effect::RunTool { .. })));
}

#[test]
fn a_name_outside_the_catalogue_is_refused_and_removal_takes_effect() {
    let mut sim = with_tool(spec("count_words", Permission::Read));
    sim.send(Event::CatalogueChanged { tools: catalogue() });
    sim.start("count");
    calls(&mut sim, "count_words");
    assert_eq!(approval(&sim), Approval::Denied);
    let denied = sim.messages().iter().any(|m| {
        matches!(&m.body, MessageType::ToolResult { error: Some(e), .. } if e.contains("no tool named \"count_words\""))
    });
    assert!(denied, "the model is told why");
}

#[test]
fn a_new_catalogue_is_taken_but_not_stored_and_the_stored_state_leaves_it_out() {
    let mut sim = Sim::new();
    let mut tools = catalogue();
    tools.push(spec("count_words", Permission::Read));
    let fx = sim.send(Event::CatalogueChanged { tools });
    assert!(fx.iter().all(|e| !e.is_persistence()), "nothing to write for the catalogue: {fx:?}");
    assert!(sim.state.catalogue.iter().any(|t| t.name == "count_words"));
    // The runtime hands the catalogue over whenever a context loads.
    let stored = serde_json::to_value(&sim.state).unwrap();
    assert!(stored.get("catalogue").is_none(), "{stored}");
    let loaded: braid_core::ContextState = serde_json::from_value(stored).unwrap();
    assert!(loaded.catalogue.is_empty());
}
