//! Property: a tool never runs unless the policy allowed it when the model
//! asked, or the user approved that very call; and never when the mode or
//! role does not offer it or the tool does not exist. Random settings,
//! random calls over several rounds, random answers.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::approval::{decide, offered, permission_in, spec_in, Decision};
use braid_core::llm::{LlmResponse, StopReason, ToolCallSpec};
use braid_core::machine::{Effect, Event, ToolOutcome};
use braid_core::sim::Sim;
use braid_protocol::{
    AgentMode, AgentRole, Approval, ApprovalDecision, CallId, MessageType, Permission, Role, StatusKind,
    ToolApprovalPolicy, ToolResultStatus, ToolSettings,
};
use proptest::prelude::*;
use std::collections::HashSet;

const NAMES: [&str; 8] =
    ["read_file", "list_directory", "glob_files", "write_file", "edit_file", "run_command", "nope", ""];

fn names() -> impl Strategy<Value = Vec<String>> {
    proptest::sample::subsequence(NAMES[..6].to_vec(), 0..=6).prop_map(|v| v.into_iter().map(str::to_owned).collect())
}

fn settings() -> impl Strategy<Value = ToolSettings> {
    let policy = prop_oneof![
        names().prop_map(|tools| ToolApprovalPolicy::WhiteList { tools }),
        (0u32..4, 0u32..5).prop_map(|(max_depth, max_tools)| ToolApprovalPolicy::LimitedAuto { max_depth, max_tools }),
        Just(ToolApprovalPolicy::Manual),
        Just(ToolApprovalPolicy::AutoAll),
    ];
    (policy, names(), names(), any::<bool>(), any::<bool>(), any::<bool>()).prop_map(
        |(policy, always_ask, always_allowed, plan, planner, confirm_reads)| ToolSettings {
            policy,
            always_ask,
            always_allowed,
            allowed_pins: Default::default(),
            mode: if plan { AgentMode::Plan } else { AgentMode::Act },
            role: if planner { AgentRole::Planner } else { AgentRole::Assistant },
            timeout_ms: 30_000,
            confirm_reads,
            sandbox: Default::default(),
        },
    )
}

#[derive(Debug, Clone)]
enum Step {
    /// The model calls these tools (name index, argument seed).
    Calls(Vec<(usize, u8)>),
    Answer {
        index: u8,
        how: u8,
    },
    Finish {
        index: u8,
    },
    Cancel,
    Interrupt,
    Continue,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => proptest::collection::vec((0..NAMES.len(), 0u8..3), 1..4).prop_map(Step::Calls),
        3 => (any::<u8>(), 0u8..5).prop_map(|(index, how)| Step::Answer { index, how }),
        3 => any::<u8>().prop_map(|index| Step::Finish { index }),
        1 => Just(Step::Cancel),
        1 => Just(Step::Interrupt),
        1 => Just(Step::Continue),
    ]
}

fn pending(sim: &Sim) -> Vec<(CallId, String)> {
    sim.state
        .round
        .as_ref()
        .map(|r| {
            r.calls()
                .iter()
                .filter(|c| c.approval == Approval::Pending)
                .map(|c| (c.id.clone(), c.name.clone()))
                .collect()
        })
        .unwrap_or_default()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn no_tool_runs_without_the_policy_or_the_user(tools in settings(), steps in proptest::collection::vec(step(), 1..30)) {
        let mut sim = Sim::new();
        sim.state.config.tools = tools;
        let fx = sim.send(Event::UserMessage { body: MessageType::text(Role::User, "go"), queue_if_busy: false, force_tool: None, images: Vec::new() });
        sim.pipeline_ok(&fx);
        let mut allowed: HashSet<CallId> = HashSet::new();
        let mut next_id = 0u32;
        for s in steps {
            let before = pending(&sim);
            let event = match s {
                Step::Calls(calls) => {
                    if !braid_core::machine::is_request_phase(sim.state.status.kind()) { continue; }
                    let mut specs = Vec::new();
                    for (n, seed) in calls {
                        next_id += 1;
                        let name = NAMES[n];
                        let id = CallId(format!("t{next_id}"));
                        // What the policy says when the model asks (the
                        // repeat check may still refuse it: never allow more).
                        let verdict = decide(&sim.state.config.tools, name, spec_in(&sim.state.catalogue, name), sim.state.auto_loop.state());
                        if verdict == Decision::Allow {
                            allowed.insert(id.clone());
                        }
                        specs.push(ToolCallSpec { id: id.to_string(), name: name.to_owned(), arguments: format!(r#"{{"n":{seed}}}"#) });
                    }
                    let rid = sim.request_id();
                    Event::LlmCompleted { request_id: rid, response: LlmResponse { text: String::new(), tool_calls: specs, usage: None, stop_reason: StopReason::ToolUse } }
                }
                Step::Answer { index, how } => {
                    let Some((id, name)) = before.get(index as usize % before.len().max(1)).cloned() else { continue };
                    let decision = [ApprovalDecision::Approve, ApprovalDecision::Deny, ApprovalDecision::ApproveAll, ApprovalDecision::AlwaysAllow, ApprovalDecision::ApproveOverwrite][how as usize];
                    match decision {
                        ApprovalDecision::Approve | ApprovalDecision::ApproveOverwrite => { allowed.insert(id.clone()); }
                        ApprovalDecision::ApproveAll => allowed.extend(before.iter().map(|p| p.0.clone())),
                        ApprovalDecision::AlwaysAllow if !sim.state.config.tools.always_ask.contains(&name) => {
                            allowed.extend(before.iter().filter(|p| p.1 == name).map(|p| p.0.clone()));
                        }
                        _ => {}
                    }
                    Event::ToolDecision { call_id: id, decision, reason: None }
                }
                Step::Finish { index } => {
                    let Some(round) = sim.state.round.as_ref() else { continue };
                    let Some(id) = round.running.clone().or_else(|| round.calls().get(index as usize % round.calls().len().max(1)).map(|c| c.id.clone())) else { continue };
                    Event::ToolFinished { call_id: id, outcome: ToolOutcome { status: ToolResultStatus::Success, output: "ok".into(), error: None, recoverable: true, duration_ms: 1, written: None, blocked: None, images: Vec::new(), secrets: None } }
                }
                Step::Cancel => Event::Cancel,
                Step::Interrupt => Event::Interrupt,
                Step::Continue => Event::Retry,
            };
            let fx = sim.step(event).map_err(|v| TestCaseError::fail(v.0))?;
            for e in &fx {
                if let Effect::RunTool { call, .. } = e {
                    prop_assert!(allowed.contains(&call.id), "{} ({}) ran without the policy or the user", call.id, call.name);
                    let permission = permission_in(&sim.state.catalogue, &call.name);
                    prop_assert!(permission.is_some(), "unknown tool {:?} ran", call.name);
                    // Written out here rather than calling `offered`, so the
                    // check does not share the code it checks.
                    let t = &sim.state.config.tools;
                    let read_only = t.mode == AgentMode::Plan || t.role == AgentRole::Planner;
                    prop_assert!(!read_only || permission == Some(Permission::Read), "{} ran though the mode/role does not offer it", call.name);
                    prop_assert!(offered(t, permission.unwrap()));
                }
            }
            prop_assert!(sim.state.status.kind() != StatusKind::ExecutingTool || sim.state.round.as_ref().is_some_and(|r| r.running.is_some()));
        }
    }
}
