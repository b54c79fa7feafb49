//! Approval policies and modes, event by event with the simulator: what
//! runs by itself, what is asked, what is refused (Plan mode, the planner
//! role, unknown tools), and an approved overwrite.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::machine::{Effect, Event, Reply};
use braid_core::sim::{reply_of, Sim};
use braid_protocol::{
    AgentMode, AgentRole, Approval, ApprovalDecision, ContextStatus as S, ControlKind, MessageType, StatusKind,
    ToolApprovalPolicy, ToolResultStatus,
};

use crate::tool_calls::*;

#[test]
fn whitelisted_tools_run_and_others_are_asked() {
    let mut sim = Sim::new();
    sim.start("read then write");
    let fx = model_calls(
        &mut sim,
        vec![call("r", "read_file", r#"{"path":"a"}"#), call("w", "write_file", r#"{"path":"a","content":"x"}"#)],
    );
    assert!(ran(&fx).is_empty(), "nothing runs while a call of the round waits");
    assert_eq!(approvals(&sim), [Approval::Approved, Approval::Pending]);
    assert_eq!(
        sim.state.status,
        S::AwaitingToolApproval { pending_requests: vec!["w".into()], tool_names: vec!["write_file".into()] }
    );
    let fx = sim.send(Event::ToolDecision { call_id: "w".into(), decision: ApprovalDecision::Approve, reason: None });
    assert_eq!(ran(&fx), ["r"]);
    assert_eq!(ran(&done(&mut sim, "r")), ["w"]);
}

#[test]
fn a_denied_call_tells_the_model_the_user_denied_it() {
    let mut sim = Sim::new();
    sim.start("delete things");
    model_calls(&mut sim, vec![call("x", "run_command", r#"{"command":"rm -rf build"}"#)]);
    let fx = sim.send(Event::ToolDecision { call_id: "x".into(), decision: ApprovalDecision::Deny, reason: None });
    assert!(ran(&fx).is_empty());
    assert!(starts_request(&fx), "the denial goes back to the model");
    assert_eq!(sim.tool_results(), [("x".into(), ToolResultStatus::Error, "the user denied this tool call".into())]);
    assert_eq!(approvals(&sim), [Approval::Denied]);
}

#[test]
fn approve_all_and_always_allow_settle_several_calls() {
    let mut sim = Sim::new();
    sim.state.config.tools.policy = ToolApprovalPolicy::Manual;
    sim.start("go");
    model_calls(
        &mut sim,
        vec![call("1", "write_file", r#"{"path":"a"}"#), call("2", "run_command", r#"{"command":"ls"}"#)],
    );
    let fx =
        sim.send(Event::ToolDecision { call_id: "1".into(), decision: ApprovalDecision::ApproveAll, reason: None });
    assert_eq!(ran(&fx), ["1"]);
    assert_eq!(approvals(&sim), [Approval::Approved, Approval::Approved]);
    done(&mut sim, "1");
    done(&mut sim, "2");

    // "Always allow" approves this call and later ones of the same tool.
    model_calls(
        &mut sim,
        vec![call("3", "edit_file", r#"{"path":"a","n":1}"#), call("4", "edit_file", r#"{"path":"b"}"#)],
    );
    sim.send(Event::ToolDecision { call_id: "3".into(), decision: ApprovalDecision::AlwaysAllow, reason: None });
    assert_eq!(approvals(&sim), [Approval::Approved, Approval::Approved]);
    assert_eq!(sim.state.config.tools.always_allowed, ["edit_file"]);
    done(&mut sim, "3");
    done(&mut sim, "4");
    let fx = model_calls(&mut sim, vec![call("5", "edit_file", r#"{"path":"c"}"#)]);
    assert_eq!(ran(&fx), ["5"], "remembered for this conversation");
}

#[test]
fn the_always_ask_list_overrides_every_policy_and_always_allow() {
    let mut sim = Sim::new();
    sim.state.config.tools.policy = ToolApprovalPolicy::AutoAll;
    sim.state.config.tools.always_ask = vec!["run_command".into()];
    sim.start("run");
    let fx = model_calls(&mut sim, vec![call("1", "run_command", r#"{"command":"make"}"#)]);
    assert!(ran(&fx).is_empty());
    assert_eq!(sim.state.status.kind(), StatusKind::AwaitingToolApproval);
    let fx =
        sim.send(Event::ToolDecision { call_id: "1".into(), decision: ApprovalDecision::AlwaysAllow, reason: None });
    assert!(matches!(reply_of(&fx), Some(Err(e)) if e.message.contains("always-ask")), "{fx:?}");
    assert!(sim.state.config.tools.always_allowed.is_empty());
    let fx = sim.send(Event::ToolDecision { call_id: "1".into(), decision: ApprovalDecision::Approve, reason: None });
    assert_eq!(ran(&fx), ["1"]);
}

#[test]
fn limited_auto_asks_once_its_budget_is_spent() {
    let mut sim = Sim::new();
    sim.state.config.tools.policy = ToolApprovalPolicy::LimitedAuto { max_depth: 5, max_tools: 2 };
    sim.start("go");
    let fx = model_calls(&mut sim, vec![call("1", "write_file", r#"{"n":1}"#), call("2", "write_file", r#"{"n":2}"#)]);
    assert_eq!(ran(&fx), ["1"]);
    done(&mut sim, "1");
    done(&mut sim, "2");
    model_calls(&mut sim, vec![call("3", "write_file", r#"{"n":3}"#)]);
    assert_eq!(sim.state.status.kind(), StatusKind::AwaitingToolApproval, "two tools ran: the third is asked");
}

#[test]
fn plan_mode_refuses_write_tools_and_records_the_mode_change() {
    let mut sim = Sim::new();
    sim.state.config.tools.policy = ToolApprovalPolicy::AutoAll;
    let fx = sim.send(Event::SetMode { mode: AgentMode::Plan });
    assert_eq!(reply_of(&fx), Some(&Ok(Reply::Done)));
    let changed = sim.messages().iter().any(
        |m| matches!(&m.body, MessageType::SystemControl { control: ControlKind::ModeChange { mode } } if mode == "plan"),
    );
    assert!(changed, "the switch is in history");
    sim.start("plan a refactor");
    let fx = model_calls(
        &mut sim,
        vec![call("w", "write_file", r#"{"path":"a","content":""}"#), call("r", "read_file", r#"{"path":"a"}"#)],
    );
    assert_eq!(approvals(&sim), [Approval::Denied, Approval::Approved], "refused without asking");
    assert!(sim.tool_results()[0].2.contains("Plan mode allows read tools only"), "{:?}", sim.tool_results());
    assert_eq!(ran(&fx), ["r"]);
    // Busy: the mode cannot change now.
    let fx = sim.send(Event::SetMode { mode: AgentMode::Act });
    assert!(matches!(reply_of(&fx), Some(Err(e)) if e.message.contains("busy")));
}

#[test]
fn the_planner_role_and_unknown_tools_are_refused_even_if_named() {
    let mut sim = Sim::new();
    sim.state.config.tools.policy = ToolApprovalPolicy::AutoAll;
    sim.state.config.tools.role = AgentRole::Planner;
    sim.start("go");
    model_calls(&mut sim, vec![call("1", "run_command", r#"{"command":"ls"}"#), call("2", "launch_missiles", "{}")]);
    let r = sim.tool_results();
    assert!(r[0].2.contains("the Planner role may only use read tools"), "{r:?}");
    assert_eq!(r[1].2, "there is no tool named \"launch_missiles\"");
    assert_eq!(sim.state.status.kind(), StatusKind::ToolAutoLoop, "both answered, back to the model");
}

#[test]
fn approving_an_overwrite_is_stored_on_the_call_and_runs_it() {
    let mut sim = Sim::new();
    sim.start("write");
    model_calls(&mut sim, vec![call("w", "write_file", r#"{"path":"a","content":"x"}"#)]);
    let fx = sim.send(Event::ToolDecision {
        call_id: "w".into(),
        decision: ApprovalDecision::ApproveOverwrite,
        reason: None,
    });
    assert!(fx
        .iter()
        .any(|e| matches!(e, Effect::RunTool { call, .. } if call.approval == Approval::ApprovedOverwrite)));
    assert_eq!(approvals(&sim), [Approval::ApprovedOverwrite]);
}
