//! Calls that run with a secret: always asked, their output kept from the
//! model when it may carry the secret (and later calls' too), released
//! only by the user; a pinned tool's "Always allow" holds for its pinned
//! definition only; an attachment that does not fit stops the turn.

use crate::tool_calls::*;
use braid_core::approval::{decide, Decision, LoopState};
use braid_core::context::MessageOp;
use braid_core::machine::{Effect, Event};
use braid_core::secrets::exposure::{withheld_text, Exposure};
use braid_core::sim::{spec, Sim};
use braid_protocol::{
    Approval, ApprovalDecision, ContextStatus as S, FileRefStatus, LineRange, MessageType, Permission,
    ToolApprovalPolicy, ToolResultStatus, ToolSettings, ToolSource,
};

const KEY: &str = "sk-proj-Lw3Nq8Zr5Tb2Vm9Xc4Hk";
const PLACEHOLDER: &str = "secret-api-key-0a1b2c3d";

fn running_everything() -> Sim {
    let mut sim = Sim::new();
    sim.state.config.tools.policy = ToolApprovalPolicy::AutoAll;
    sim.state.config.tools.always_allowed.push("run_command".into());
    sim.start("use my key");
    sim
}

/// The outcome the runtime reports: what the tool printed, and what it
/// found of the secret in it.
fn printed(output: &str, used: &[(&str, &str)]) -> braid_core::machine::ToolOutcome {
    let mut o = outcome(ToolResultStatus::Success, output, None);
    o.secrets = Some(Box::new(Exposure::new(used.iter().copied()).check(&[output])));
    o
}

fn sent_texts(fx: &[Effect]) -> String {
    fx.iter()
        .filter_map(|e| match e {
            // What a provider encodes: the bodies.
            Effect::SendLlmRequest { messages, .. } => {
                Some(messages.iter().map(|m| serde_json::to_string(&m.body).unwrap()).collect::<String>())
            }
            _ => None,
        })
        .collect()
}

#[test]
fn a_call_that_would_run_with_a_secret_is_asked_whatever_the_policy() {
    let mut sim = running_everything();
    let reversed = format!(r#"{{"command":"echo {PLACEHOLDER} | rev"}}"#);
    let fx = model_calls(
        &mut sim,
        vec![call("c1", "run_command", &reversed), call("c2", "run_command", r#"{"command":"ls"}"#)],
    );
    assert!(ran(&fx).is_empty(), "nothing runs before the user answers the secret's call");
    assert_eq!(approvals(&sim), [Approval::Pending, Approval::Approved], "only the call with the placeholder is asked");
    assert_eq!(
        sim.state.status,
        S::AwaitingToolApproval { pending_requests: vec!["c1".into()], tool_names: vec!["run_command".into()] }
    );
    // "Always allow" does not make the next such call run unasked.
    sim.send(Event::ToolDecision { call_id: "c1".into(), decision: ApprovalDecision::AlwaysAllow, reason: None });
    sim.tool_done("c1", "ok");
    sim.tool_done("c2", "ok");
    sim.prepare(sim.prepared(100_000));
    let fx = model_calls(&mut sim, vec![call("c3", "run_command", &reversed)]);
    assert!(ran(&fx).is_empty(), "asked again: {:?}", approvals(&sim));
}

#[test]
fn an_output_that_carries_the_secret_is_withheld_until_the_user_releases_it() {
    let mut sim = running_everything();
    let command = format!(r#"{{"command":"echo {PLACEHOLDER} | base64"}}"#);
    model_calls(&mut sim, vec![call("c1", "run_command", &command)]);
    sim.send(Event::ToolDecision { call_id: "c1".into(), decision: ApprovalDecision::Approve, reason: None });
    let raw = "c2stcHJvai1MdzNOcThacjVUYjJWbTlYYzRIawo=\n";
    let fx = sim.send(Event::ToolFinished { call_id: "c1".into(), outcome: printed(raw, &[(PLACEHOLDER, KEY)]) });
    assert!(starts_request(&fx));
    let result =
        sim.messages().into_iter().find(|m| matches!(m.body, MessageType::ToolResult { .. })).cloned().unwrap();
    let MessageType::ToolResult { output, .. } = &result.body else { unreachable!() };
    assert_eq!(output, &withheld_text(&[PLACEHOLDER.to_owned()]), "the model is told, in words");
    let held = result.meta.withheld.clone().unwrap();
    assert_eq!((held.output.as_str(), held.released), (raw, false), "the user can read what it printed");
    let fx = sim.prepare(sim.prepared(100_000));
    let sent = sent_texts(&fx);
    assert!(sent.contains("output withheld") && !sent.contains("c2stcHJvai1"), "{sent}");

    // Released: from the next request on, the model gets it.
    model_answers(&mut sim, "done");
    let step = sim.ctx.message_op(result.id, MessageOp::Release, sim.now);
    sim.took(step);
    let now = sim.messages().into_iter().find(|m| m.id == result.id).cloned().unwrap();
    let MessageType::ToolResult { output, .. } = &now.body else { unreachable!() };
    assert_eq!(output, raw);
    assert!(now.meta.withheld.as_ref().is_some_and(|w| w.released && w.output.is_empty()));
    let again = sim.ctx.message_op(result.id, MessageOp::Release, sim.now);
    assert!(again.reply().is_some_and(|r| r.is_err()), "released once");
}

#[test]
fn later_calls_are_looked_at_for_a_secret_used_before() {
    let mut sim = running_everything();
    model_calls(&mut sim, vec![call("c1", "run_command", &format!(r#"{{"command":"echo {PLACEHOLDER} | rev > k"}}"#))]);
    sim.send(Event::ToolDecision { call_id: "c1".into(), decision: ApprovalDecision::Approve, reason: None });
    // Nothing printed: it goes to the model as it is.
    sim.send(Event::ToolFinished { call_id: "c1".into(), outcome: printed("", &[(PLACEHOLDER, KEY)]) });
    sim.prepare(sim.prepared(100_000));
    // The next call names no secret but prints one back.
    model_calls(
        &mut sim,
        vec![call("c2", "run_command", r#"{"command":"cat k"}"#), call("c3", "run_command", r#"{"command":"ls"}"#)],
    );
    let reversed: String = KEY.chars().rev().collect();
    sim.send(Event::ToolFinished { call_id: "c2".into(), outcome: printed(&reversed, &[(PLACEHOLDER, KEY)]) });
    sim.send(Event::ToolFinished { call_id: "c3".into(), outcome: printed("k\nnotes.md\n", &[(PLACEHOLDER, KEY)]) });
    let results = sim.tool_results();
    assert_eq!(results.len(), 3);
    let outputs: Vec<String> = sim
        .messages()
        .iter()
        .filter_map(|m| match &m.body {
            MessageType::ToolResult { output, .. } => Some(output.clone()),
            _ => None,
        })
        .collect();
    assert!(outputs[1].starts_with("[output withheld"), "{outputs:?}");
    assert_eq!(outputs[2], "k\nnotes.md\n", "ordinary output goes through");
}

#[test]
fn a_pinned_tool_s_always_allow_holds_for_its_pin_only() {
    let mcp = ToolSource::Mcp { server: "docs".into() };
    let tool = |pin: Option<&str>, permission| braid_protocol::ToolSpec {
        source: mcp.clone(),
        pin: pin.map(str::to_owned),
        ..spec("mcp__docs__search", permission)
    };
    let mut s = ToolSettings { policy: ToolApprovalPolicy::Manual, ..ToolSettings::default() };
    s.always_allowed.push("mcp__docs__search".into());
    s.allowed_pins.insert("mcp__docs__search".into(), "aaaa".into());
    let at = LoopState::default();
    assert_eq!(decide(&s, "mcp__docs__search", Some(&tool(Some("aaaa"), Permission::Read)), at), Decision::Allow);
    assert_eq!(
        decide(&s, "mcp__docs__search", Some(&tool(Some("bbbb"), Permission::Read)), at),
        Decision::Ask,
        "an accepted change is asked again"
    );
    // The sandboxed policy runs a server's tool unasked only when its
    // read-only hint is pinned.
    let sandboxed = ToolSettings { policy: ToolApprovalPolicy::Sandboxed, ..ToolSettings::default() };
    assert_eq!(decide(&sandboxed, "t", Some(&tool(Some("aaaa"), Permission::Read)), at), Decision::Allow);
    assert_eq!(decide(&sandboxed, "t", Some(&tool(None, Permission::Read)), at), Decision::Ask);
    assert_eq!(decide(&sandboxed, "t", Some(&tool(Some("aaaa"), Permission::Write)), at), Decision::Ask);
}

#[test]
fn always_allow_records_the_pin_it_was_given_to() {
    let mut sim = Sim::new();
    let mut docs = spec("mcp__docs__search", Permission::Read);
    docs.source = ToolSource::Mcp { server: "docs".into() };
    docs.pin = Some("p1".into());
    sim.state.catalogue = std::sync::Arc::from([sim.state.catalogue.to_vec(), vec![docs]].concat());
    sim.state.config.tools.policy = ToolApprovalPolicy::Manual;
    sim.start("search");
    model_calls(&mut sim, vec![call("c1", "mcp__docs__search", "{}")]);
    sim.send(Event::ToolDecision { call_id: "c1".into(), decision: ApprovalDecision::AlwaysAllow, reason: None });
    assert_eq!(sim.state.config.tools.allowed_pins.get("mcp__docs__search").map(String::as_str), Some("p1"));
}

#[test]
fn a_file_attached_to_the_question_that_does_not_fit_stops_the_turn_and_says_which() {
    let mut sim = Sim::new();
    let big = "fn main() { println!(\"hello\"); }\n".repeat(700);
    let reference = MessageType::FileReference {
        path: "src/big.rs".into(),
        range: Some(LineRange { start_line: 1, end_line: 700 }),
        content: Some(big),
        status: FileRefStatus::Resolved,
        error: None,
    };
    sim.start_with("what does @src/big.rs do?", vec![reference]);
    let fx = sim.prepare(sim.prepared(2_000));
    assert!(!fx.iter().any(|e| matches!(e, Effect::SendLlmRequest { .. })), "nothing is sent without the file");
    let S::Failed { message, .. } = &sim.state.status else { panic!("{:?}", sim.state.status) };
    assert!(
        message.contains("@src/big.rs (") && message.contains("did not fit") && message.contains("@src/big.rs:1-200"),
        "{message}"
    );
    // An older turn's file may still be left out to fit, as before.
    let mut older = Sim::new();
    let reference = MessageType::FileReference {
        path: "notes.md".into(),
        range: None,
        content: Some("note ".repeat(1_500)),
        status: FileRefStatus::Resolved,
        error: None,
    };
    older.start_with("read @notes.md", vec![reference]);
    older.prepare(older.prepared(100_000));
    model_answers(&mut older, "read it");
    older.start("thanks, now something else");
    let fx = older.prepare(older.prepared(2_000));
    assert!(fx.iter().any(|e| matches!(e, Effect::SendLlmRequest { .. })), "{:?}", older.state.status);
}
