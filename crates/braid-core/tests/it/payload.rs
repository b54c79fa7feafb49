//! Typed payloads: every variant checked and turned into what the
//! conversation takes; each malformed one refused with its reason. And, in
//! the machine, a client's own tool result and a workflow's card.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::machine::{Effect, Event, Reply};
use braid_core::payload::{check, Checked};
use braid_core::sim::{reply_of, Sim};
use braid_protocol::{
    Approval, ContextId, ControlKind, ImageSource, LineRange, MessageType, Payload, SendMessageRequest,
    ToolResultStatus, WorkflowStatus,
};
use std::collections::BTreeMap;

fn request(payload: Payload) -> SendMessageRequest {
    SendMessageRequest { context_id: ContextId("c".into()), payload, client_metadata: None, queue_if_busy: false }
}

fn text_of(checked: Checked) -> String {
    match checked {
        Checked::Message(m) => m.body.plain_text().unwrap_or_default(),
        other => panic!("not a message: {other:?}"),
    }
}

fn refusal(payload: Payload) -> String {
    check(&request(payload)).unwrap_err().message
}

#[test]
fn every_variant_becomes_what_the_conversation_takes() {
    assert_eq!(text_of(check(&request(Payload::Text { text: "hi".into() })).unwrap()), "hi");
    let file = Payload::FileReference {
        path: "src/a.rs".into(),
        range: Some(LineRange { start_line: 3, end_line: 9 }),
        text: Some(" why? ".into()),
    };
    assert_eq!(text_of(check(&request(file)).unwrap()), "@src/a.rs:3-9 why?", "the mention the pipeline reads");
    let resource = Payload::McpResource { server: "docs".into(), uri: "docs://readme".into(), text: None };
    assert_eq!(text_of(check(&request(resource)).unwrap()), "@docs:docs://readme");
    let image = Payload::Image { source: ImageSource::FilePath { path: "shot.png".into() }, mode: None, text: None };
    match check(&request(image)).unwrap() {
        Checked::Message(m) => assert_eq!(m.images.len(), 1, "the image goes as an attachment"),
        other => panic!("{other:?}"),
    }
    let workflow =
        Payload::Workflow { name: "review".into(), arguments: BTreeMap::from([("file".into(), "a.rs".into())]) };
    assert!(matches!(check(&request(workflow)).unwrap(), Checked::Workflow { name, .. } if name == "review"));
    let result = Payload::ToolResult { call_id: "call_1".into(), output: "42".into(), is_error: true };
    match check(&request(result)).unwrap() {
        Checked::ToolResult { call_id, outcome } => {
            assert_eq!(
                (call_id.0.as_str(), outcome.status, outcome.output.as_str()),
                ("call_1", ToolResultStatus::Error, "42")
            );
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn each_malformed_payload_is_refused_with_its_reason() {
    assert!(refusal(Payload::Text { text: "  \n".into() }).contains("empty"));
    let up = Payload::FileReference { path: "../secret".into(), range: None, text: None };
    assert!(refusal(up).contains(".."));
    let spaced = Payload::FileReference { path: "my notes.md".into(), range: None, text: None };
    assert!(refusal(spaced).contains("no spaces"));
    let backwards = Payload::FileReference {
        path: "a.rs".into(),
        range: Some(LineRange { start_line: 9, end_line: 3 }),
        text: None,
    };
    assert!(refusal(backwards).contains("end_line is before start_line"));
    let zero = Payload::FileReference {
        path: "a.rs".into(),
        range: Some(LineRange { start_line: 0, end_line: 3 }),
        text: None,
    };
    assert!(refusal(zero).contains("numbered from 1"));
    let no_scheme = Payload::McpResource { server: "docs".into(), uri: "readme".into(), text: None };
    assert!(refusal(no_scheme).contains("not a resource URI"));
    let bad_server = Payload::McpResource { server: "a b".into(), uri: "x://y".into(), text: None };
    assert!(refusal(bad_server).contains("not a server name"));
    let bad_name = Payload::Workflow { name: "../x".into(), arguments: BTreeMap::new() };
    assert!(refusal(bad_name).contains("not a workflow name"));
    let no_call = Payload::ToolResult { call_id: "".into(), output: String::new(), is_error: false };
    assert!(refusal(no_call).contains("call_id is empty"));
    let mut with_meta = request(Payload::Text { text: "hi".into() });
    with_meta.client_metadata = Some(serde_json::json!([1, 2]));
    assert!(check(&with_meta).unwrap_err().message.contains("JSON object"));
    with_meta.client_metadata = Some(serde_json::json!({ "blob": "x".repeat(5000) }));
    assert!(check(&with_meta).unwrap_err().message.contains("the limit is 4096"));
}

fn approval_of(sim: &Sim, call: &str) -> Approval {
    sim.messages()
        .iter()
        .find_map(|m| match &m.body {
            MessageType::ToolRequest { calls, .. } => calls.iter().find(|c| c.id.0 == call).map(|c| c.approval),
            _ => None,
        })
        .unwrap()
}

#[test]
fn a_clients_tool_result_stands_for_the_call_which_does_not_run() {
    let mut sim = Sim::new();
    sim.start("write it");
    sim.prepare(sim.prepared(8_000));
    sim.model_calls(&[("w1", "write_file", r#"{"path":"a.txt","content":"x"}"#)]);
    assert_eq!(approval_of(&sim, "w1"), Approval::Pending, "a write is asked");
    let Checked::ToolResult { call_id, outcome } = check(&request(Payload::ToolResult {
        call_id: "w1".into(),
        output: "written by the client".into(),
        is_error: false,
    }))
    .unwrap() else {
        panic!()
    };
    // Not a call that waits: refused, nothing changes.
    let fx = sim.send(Event::ToolResultSupplied { call_id: "nope".into(), outcome: outcome.clone() });
    assert!(reply_of(&fx).unwrap().as_ref().unwrap_err().message.contains("awaiting approval"));
    let fx = sim.send(Event::ToolResultSupplied { call_id, outcome });
    assert!(matches!(reply_of(&fx), Some(Ok(Reply::Message(_)))), "the receipt names the request");
    assert!(!fx.iter().any(|e| matches!(e, Effect::RunTool { .. })), "the call does not run");
    assert_eq!(sim.tool_results(), [("w1".to_owned(), ToolResultStatus::Success, String::new())]);
    let output = sim.messages().iter().find_map(|m| match &m.body {
        MessageType::ToolResult { output, .. } => Some(output.clone()),
        _ => None,
    });
    assert_eq!(output.as_deref(), Some("written by the client"));
    assert!(fx.iter().any(|e| matches!(e, Effect::StartLlmRequest { .. })), "the loop goes on with the result");
}

fn workflow_card(sim: &Sim) -> (String, Option<braid_protocol::WorkflowOutcome>) {
    sim.messages()
        .iter()
        .find_map(|m| match &m.body {
            MessageType::SystemControl { control: ControlKind::Workflow { name, outcome, .. } } => {
                Some((name.clone(), outcome.clone()))
            }
            _ => None,
        })
        .expect("a workflow card")
}

#[test]
fn a_workflows_card_gets_its_outcome_when_the_turn_ends() {
    let mut sim = Sim::new();
    sim.start("Review a.rs for bugs.");
    let prompt = sim.messages().last().unwrap().id;
    let args = BTreeMap::from([("file".to_owned(), "a.rs".to_owned())]);
    sim.send(Event::WorkflowStarted { name: "review".into(), arguments: args, message: prompt });
    assert_eq!(workflow_card(&sim), ("review".to_owned(), None), "running: no outcome yet");
    sim.prepare(sim.prepared(8_000));
    sim.model_calls(&[("r1", "read_file", r#"{"path":"a.rs"}"#)]);
    sim.tool_done("r1", "fn main() {}");
    sim.prepare(sim.prepared(8_000));
    let rid = sim.request_id();
    let response = braid_core::llm::LlmResponse {
        text: "No bugs.".into(),
        tool_calls: Vec::new(),
        usage: None,
        stop_reason: braid_core::llm::StopReason::EndTurn,
    };
    sim.send(Event::LlmCompleted { request_id: rid, response });
    let (_, outcome) = workflow_card(&sim);
    let outcome = outcome.expect("the outcome is written when the turn ends");
    let answer = sim.messages().iter().rev().find(|m| m.body.plain_text().as_deref() == Some("No bugs.")).unwrap().id;
    assert_eq!((outcome.status, outcome.answer, outcome.tool_results), (WorkflowStatus::Completed, Some(answer), 1));

    // Cancelled: said so.
    sim.start("Review b.rs.");
    let prompt = sim.messages().last().unwrap().id;
    sim.send(Event::WorkflowStarted { name: "again".into(), arguments: BTreeMap::new(), message: prompt });
    sim.send(Event::Cancel);
    let last = sim
        .messages()
        .iter()
        .rev()
        .find_map(|m| match &m.body {
            MessageType::SystemControl { control: ControlKind::Workflow { outcome, .. } } => Some(outcome.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(last.map(|o| o.status), Some(WorkflowStatus::Cancelled));
}

#[test]
fn a_card_that_comes_after_a_fast_turn_still_gets_its_outcome() {
    let mut sim = Sim::new();
    sim.start("Say hello.");
    let prompt = sim.messages().last().unwrap().id;
    sim.prepare(sim.prepared(8_000));
    let rid = sim.request_id();
    let response = braid_core::llm::LlmResponse {
        text: "Hello.".into(),
        tool_calls: Vec::new(),
        usage: None,
        stop_reason: braid_core::llm::StopReason::EndTurn,
    };
    sim.send(Event::LlmCompleted { request_id: rid, response });
    let answer = sim.messages().last().unwrap().id;
    sim.send(Event::WorkflowStarted { name: "hello".into(), arguments: BTreeMap::new(), message: prompt });
    let outcome = workflow_card(&sim).1.expect("written at once: the turn had ended");
    assert_eq!((outcome.status, outcome.answer), (WorkflowStatus::Completed, Some(answer)));
}
