//! The sandbox in the approval rules: the "sandboxed" policy, a machine
//! without a sandbox (every command asked), and a command the sandbox
//! stopped (the user may let it run again outside, once).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use crate::tool_calls::*;
use braid_core::approval::{decide, Decision, LoopState};
use braid_core::machine::{Effect, Event};
use braid_core::recovery::recover;
use braid_core::sim::{reply_of, spec, Sim};
use braid_protocol::{
    Approval, ApprovalDecision, ContextStatus as S, Permission, Sandbox, SandboxLevel, Timestamp, ToolApprovalPolicy,
    ToolResultStatus, ToolSandbox, ToolSettings, ToolSource,
};

const OUTSIDE: &str = "the sandbox refused a write: it may write only inside the workspace (not its .git) and /tmp";

fn settings(policy: ToolApprovalPolicy, level: SandboxLevel) -> ToolSettings {
    ToolSettings { policy, sandbox: Sandbox { level, ..Sandbox::default() }, ..ToolSettings::default() }
}

fn verdict(
    settings: &ToolSettings,
    name: &str,
    permission: Permission,
    sandbox: ToolSandbox,
    source: ToolSource,
) -> Decision {
    let spec = braid_protocol::ToolSpec { sandbox, source, ..spec(name, permission) };
    decide(settings, name, Some(&spec), LoopState::default())
}

#[test]
fn the_sandboxed_policy_runs_what_stays_inside_and_asks_for_the_rest() {
    use Decision::{Allow, Ask};
    let ws = settings(ToolApprovalPolicy::Sandboxed, SandboxLevel::WorkspaceWrite);
    let builtin = ToolSource::Builtin;
    let mcp = ToolSource::Mcp { server: "files".into() };
    let cases = [
        ("read_file", Permission::Read, ToolSandbox::NotUsed, builtin.clone(), Allow),
        ("write_file", Permission::Write, ToolSandbox::NotUsed, builtin.clone(), Allow),
        ("run_command", Permission::Execute, ToolSandbox::Applied, builtin.clone(), Allow),
        ("fetch_url", Permission::Network, ToolSandbox::NotUsed, builtin.clone(), Ask),
        ("mcp_write", Permission::Write, ToolSandbox::NotUsed, mcp.clone(), Ask),
        ("mcp_run", Permission::Execute, ToolSandbox::NotUsed, mcp, Ask),
    ];
    for (name, permission, sandbox, source, expected) in cases {
        assert_eq!(verdict(&ws, name, permission, sandbox, source), expected, "{name} in workspace-write");
    }
    // Read-only: the file tools would write, so they are asked.
    let ro = settings(ToolApprovalPolicy::Sandboxed, SandboxLevel::ReadOnly);
    assert_eq!(verdict(&ro, "write_file", Permission::Write, ToolSandbox::NotUsed, builtin.clone()), Ask);
    assert_eq!(verdict(&ro, "run_command", Permission::Execute, ToolSandbox::Applied, builtin.clone()), Allow);
    // Full access is leaving the sandbox: asked.
    let full = settings(ToolApprovalPolicy::Sandboxed, SandboxLevel::FullAccess);
    assert_eq!(verdict(&full, "run_command", Permission::Execute, ToolSandbox::Applied, builtin), Ask);
}

#[test]
fn without_a_sandbox_every_command_is_asked_whatever_the_policy() {
    let missing = || ToolSandbox::Missing { why: "bubblewrap (/usr/bin/bwrap) is not installed".into() };
    for policy in [
        ToolApprovalPolicy::AutoAll,
        ToolApprovalPolicy::Sandboxed,
        ToolApprovalPolicy::LimitedAuto { max_depth: 9, max_tools: 9 },
        ToolApprovalPolicy::WhiteList { tools: vec!["run_command".into()] },
    ] {
        let mut s = settings(policy.clone(), SandboxLevel::WorkspaceWrite);
        s.always_allowed.push("run_command".into());
        let got = verdict(&s, "run_command", Permission::Execute, missing(), ToolSource::Builtin);
        assert_eq!(got, Decision::Ask, "{policy:?}");
    }
    // Asking for full access is the user's explicit choice: the policy decides.
    let full = settings(ToolApprovalPolicy::AutoAll, SandboxLevel::FullAccess);
    assert_eq!(verdict(&full, "run_command", Permission::Execute, missing(), ToolSource::Builtin), Decision::Allow);
}

/// A command the sandbox stopped, with the machine now asking.
fn blocked_command() -> Sim {
    let mut sim = Sim::new();
    sim.state.config.tools.policy = ToolApprovalPolicy::Sandboxed;
    sim.start("make a file in my home folder");
    let fx = model_calls(&mut sim, vec![call("c1", "run_command", r#"{"command":"touch ~/x"}"#)]);
    assert_eq!(ran(&fx), ["c1"], "a sandboxed command runs without asking");
    let fx = sim.tool_blocked("c1", OUTSIDE);
    assert!(ran(&fx).is_empty() && !starts_request(&fx), "nothing goes on while the user decides");
    sim
}

#[test]
fn a_blocked_command_waits_for_the_user_with_its_result_held() {
    let sim = blocked_command();
    assert_eq!(
        sim.state.status,
        S::AwaitingToolApproval { pending_requests: vec!["c1".into()], tool_names: vec!["run_command".into()] }
    );
    assert_eq!(approvals(&sim), [Approval::AskUnsandboxed], "history says the sandbox stopped it");
    assert!(sim.tool_results().is_empty(), "the blocked result is held, not yet told to the model");
    let held = sim.state.round.as_ref().and_then(|r| r.blocked.as_ref()).expect("held");
    assert_eq!(held.blocked.as_deref().map(String::as_str), Some(OUTSIDE));
}

#[test]
fn approving_runs_the_command_again_outside_the_sandbox_and_only_its_new_result_counts() {
    let mut sim = blocked_command();
    let fx = sim.send(Event::ToolDecision { call_id: "c1".into(), decision: ApprovalDecision::Approve, reason: None });
    let again = fx.iter().find_map(|e| match e {
        Effect::RunTool { call, .. } => Some(call.clone()),
        _ => None,
    });
    assert_eq!(again.map(|c| c.approval), Some(Approval::ApprovedUnsandboxed), "the runtime drops the sandbox for it");
    assert_eq!(sim.state.status, S::ExecutingTool { tool_name: "run_command".into(), index: 1, total: 1, attempt: 2 });
    // Outside, a second "block" cannot happen; if one is reported, it stands.
    let fx = sim.tool_blocked("c1", OUTSIDE);
    assert!(starts_request(&fx), "the result goes to the model");
    assert_eq!(sim.tool_results().len(), 1, "one result per call");
}

#[test]
fn approving_outside_the_sandbox_then_success_replaces_the_blocked_result() {
    let mut sim = blocked_command();
    sim.send(Event::ToolDecision { call_id: "c1".into(), decision: ApprovalDecision::Approve, reason: None });
    let fx = done(&mut sim, "c1");
    assert!(starts_request(&fx));
    assert_eq!(sim.tool_results(), [("c1".to_owned(), ToolResultStatus::Success, String::new())]);
    assert_eq!(approvals(&sim), [Approval::ApprovedUnsandboxed]);
}

#[test]
fn denying_gives_the_model_the_blocked_result_with_the_users_reason() {
    let mut sim = blocked_command();
    let reason = Some("write it in the workspace instead".to_owned());
    let fx = sim.send(Event::ToolDecision { call_id: "c1".into(), decision: ApprovalDecision::Deny, reason });
    assert!(ran(&fx).is_empty());
    assert!(starts_request(&fx), "the loop goes on with the blocked result");
    let results = sim.tool_results();
    assert_eq!(results.len(), 1);
    assert_eq!(results[0].1, ToolResultStatus::Error);
    assert!(results[0].2.contains("blocked by the sandbox"), "{}", results[0].2);
    assert!(results[0].2.ends_with("write it in the workspace instead"), "{}", results[0].2);
    assert_eq!(approvals(&sim), [Approval::Denied]);
}

#[test]
fn always_allow_cannot_open_the_sandbox_for_good() {
    let mut sim = blocked_command();
    let fx =
        sim.send(Event::ToolDecision { call_id: "c1".into(), decision: ApprovalDecision::AlwaysAllow, reason: None });
    let err = reply_of(&fx).and_then(|r| r.clone().err()).expect("refused");
    assert!(err.message.contains("one command at a time"), "{}", err.message);
    assert!(sim.state.config.tools.always_allowed.is_empty());
    assert_eq!(approvals(&sim), [Approval::AskUnsandboxed], "still asking");
}

#[test]
fn cancelling_while_asking_keeps_the_blocked_result() {
    let mut sim = blocked_command();
    sim.send(Event::Cancel);
    assert_eq!(sim.state.status, S::Idle);
    let results = sim.tool_results();
    assert_eq!(results.len(), 1);
    assert!(results[0].2.contains("blocked by the sandbox"), "{}", results[0].2);
    assert_eq!(approvals(&sim), [Approval::Denied]);
}

#[test]
fn a_restart_while_asking_keeps_the_blocked_result() {
    let sim = blocked_command();
    let (idle, added) = recover(&sim.state, &sim.conversation, Timestamp(99)).expect("something to recover");
    assert_eq!(idle.status, S::Idle);
    match &added[0].body {
        braid_protocol::MessageType::ToolResult { request_id, error, .. } => {
            assert_eq!(request_id, "c1");
            assert!(error.as_deref().unwrap_or_default().contains("blocked by the sandbox"), "{error:?}");
        }
        other => panic!("expected the held result, got {other:?}"),
    }
}
