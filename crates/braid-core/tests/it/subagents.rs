//! Sub-agents in the machine, event by event with the simulator: the
//! parent's `spawn_agents` call waiting for its children and their one
//! aggregated result; a child's rules (submit alone, one grace turn, its
//! turn limit, no children of its own); cancel and restart.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use crate::tool_calls::*;
use braid_core::llm::{LlmFailure, LlmResponse, StopReason, ToolChoice, Usage};
use braid_core::machine::{Effect, Event};
use braid_core::sim::Sim;
use braid_protocol::{
    ChildOf, ChildOutcome, ChildReport, ContextId, ContextStatus as S, FailureCode, MessageType, PromptPart,
    ToolApprovalPolicy, ToolResultStatus, SPAWN_AGENTS, SUBMIT_RESULT,
};

fn parent() -> Sim {
    let mut sim = Sim::new();
    sim.state.catalogue = sim.state.catalogue.iter().cloned().chain(braid_core::subagents::tool_specs(&[])).collect();
    sim.state.config.tools.policy = ToolApprovalPolicy::AutoAll;
    sim
}

fn child(turn_limit: u32) -> Sim {
    let mut sim = parent();
    sim.state.config.child = Some(ChildOf {
        parent: ContextId("parent".into()),
        call_id: "spawn".into(),
        index: 0,
        name: "scout".into(),
        turn_limit,
        workspace: None,
    });
    sim
}

const THREE: &str = r#"{"tasks":[{"name":"a","instructions":"do a"},{"name":"b","instructions":"do b"},{"instructions":"do c","model":"tiny"}]}"#;

fn spawned(fx: &[Effect]) -> Option<Vec<braid_protocol::SubTask>> {
    fx.iter().find_map(|e| match e {
        Effect::SpawnAgents { tasks, .. } => Some(tasks.clone()),
        _ => None,
    })
}

fn report(outcome: ChildOutcome) -> ChildReport {
    ChildReport { outcome, duration_ms: 1_500, tokens: 42, note: None, workspace: None }
}

fn submitted(text: &str) -> ChildReport {
    report(ChildOutcome::Submitted { result: text.into() })
}

fn finish(sim: &mut Sim, index: u32, report: ChildReport) -> Vec<Effect> {
    sim.send(Event::SubAgentFinished { call_id: "spawn".into(), index, report })
}

fn result_of(sim: &Sim, call: &str) -> (ToolResultStatus, String) {
    sim.messages()
        .iter()
        .find_map(|m| match &m.body {
            MessageType::ToolResult { request_id, status, output, .. } if request_id.as_str() == call => {
                Some((*status, output.clone()))
            }
            _ => None,
        })
        .expect("the call has a result")
}

fn ended(fx: &[Effect]) -> Option<ChildOutcome> {
    fx.iter().find_map(|e| match e {
        Effect::ChildEnded { outcome, .. } => Some(outcome.clone()),
        _ => None,
    })
}

#[test]
fn all_children_submit_and_the_parent_reads_one_result_then_goes_on() {
    let mut sim = parent();
    sim.start("split the work");
    let fx = model_calls(&mut sim, vec![call("spawn", SPAWN_AGENTS, THREE)]);
    let tasks = spawned(&fx).expect("the runtime is asked to run them");
    assert_eq!(tasks.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["a", "b", "agent 3"]);
    assert_eq!(tasks[2].model.as_deref(), Some("tiny"));
    assert_eq!(sim.state.status, S::AwaitingSubAgents { done: 0, total: 3 });
    sim.send(Event::SubAgentStarted { call_id: "spawn".into(), index: 1, context_id: ContextId("kid-b".into()) });
    assert_eq!(sim.state.agents.as_ref().unwrap().agents[1].context_id, Some(ContextId("kid-b".into())));
    let fx = finish(&mut sim, 1, submitted("b is done"));
    assert_eq!(sim.state.status, S::AwaitingSubAgents { done: 1, total: 3 });
    // The progress is a change of state: the conversation list's feed has it.
    let listed = fx.iter().any(|e| {
        matches!(e, Effect::Emit(braid_protocol::BraidEvent::ContextUpdate(u))
        if u.previous_state == Some(S::AwaitingSubAgents { done: 0, total: 3 }))
    });
    assert!(listed, "{fx:?}");
    finish(&mut sim, 1, submitted("b again")); // a second report for one task changes nothing
    assert_eq!(sim.state.status, S::AwaitingSubAgents { done: 1, total: 3 });
    finish(&mut sim, 0, submitted("a is done"));
    let fx = finish(&mut sim, 2, submitted("c is done"));
    assert!(starts_request(&fx), "the loop goes on with the result");
    assert_eq!(sim.state.status, S::ToolAutoLoop { depth: 1, tools_executed: 1 });
    assert!(sim.state.agents.is_none());
    let (status, output) = result_of(&sim, "spawn");
    assert_eq!(status, ToolResultStatus::Success);
    assert!(output.starts_with("## a (1 of 3)\nSubmitted (1.5 s, 42 tokens):\na is done"), "{output}");
    assert!(output.contains("## b (2 of 3)\nSubmitted (1.5 s, 42 tokens):\nb is done"), "{output}");
    assert!(output.contains("## agent 3 (3 of 3)"), "{output}");
}

#[test]
fn a_failed_child_is_reported_with_its_reason_and_all_failing_is_an_error() {
    let mut sim = parent();
    sim.start("two");
    let two = r#"{"tasks":[{"name":"a","instructions":"x"},{"name":"b","instructions":"y"}]}"#;
    model_calls(&mut sim, vec![call("spawn", SPAWN_AGENTS, two)]);
    finish(&mut sim, 0, report(ChildOutcome::Failed { reason: "it passed its time limit of 10 min".into() }));
    finish(&mut sim, 1, submitted("fine"));
    let (status, output) = result_of(&sim, "spawn");
    assert_eq!(status, ToolResultStatus::Success);
    assert!(
        output.contains("## a (1 of 2)\nFailed (1.5 s, 42 tokens): it passed its time limit of 10 min"),
        "{output}"
    );

    let mut sim = parent();
    sim.start("one");
    model_calls(&mut sim, vec![call("spawn", SPAWN_AGENTS, r#"{"tasks":[{"instructions":"x"}]}"#)]);
    finish(&mut sim, 0, report(ChildOutcome::Failed { reason: "it gave up: no access".into() }));
    assert_eq!(result_of(&sim, "spawn").0, ToolResultStatus::Error);
}

#[test]
fn bad_task_lists_are_refused_with_the_reason_and_nothing_starts() {
    let eleven: Vec<String> = (0..11).map(|i| format!(r#"{{"instructions":"t{i}"}}"#)).collect();
    let cases = [
        (r#"{"tasks":[]}"#.to_owned(), "give 1 to 10 tasks (0 given)"),
        (format!(r#"{{"tasks":[{}]}}"#, eleven.join(",")), "give 1 to 10 tasks (11 given)"),
        (r#"{"tasks":[{"name":"a","instructions":" "}]}"#.to_owned(), "task 1 has no instructions"),
    ];
    for (args, why) in cases {
        let mut sim = parent();
        sim.start("go");
        let fx = model_calls(&mut sim, vec![call("spawn", SPAWN_AGENTS, &args)]);
        assert!(spawned(&fx).is_none(), "{args}");
        let error = sim.tool_results().pop().unwrap().2;
        assert!(error.contains(why), "{args}: {error}");
        assert!(starts_request(&fx), "the model gets the reason and may call again");
    }
}

#[test]
fn tasks_named_alike_are_told_apart() {
    let tasks = braid_core::subagents::tasks(
        r#"{"tasks":[{"name":"fixer","instructions":"x"},{"name":"Fixer","instructions":"y"},{"name":"fixer","instructions":"z"}]}"#,
    )
    .unwrap();
    assert_eq!(tasks.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["fixer", "Fixer 2", "fixer 3"]);
}

#[test]
fn spawn_agents_is_asked_like_any_tool_under_the_default_policy() {
    let mut sim = parent();
    sim.state.config.tools.policy = braid_protocol::ToolSettings::default().policy;
    sim.start("go");
    let fx = model_calls(&mut sim, vec![call("spawn", SPAWN_AGENTS, THREE)]);
    assert!(spawned(&fx).is_none());
    assert!(matches!(sim.state.status, S::AwaitingToolApproval { .. }), "{:?}", sim.state.status);
    let fx = sim.send(Event::ToolDecision {
        call_id: "spawn".into(),
        decision: braid_protocol::ApprovalDecision::Approve,
        reason: None,
    });
    assert_eq!(spawned(&fx).map(|t| t.len()), Some(3));
}

#[test]
fn an_interrupt_lets_the_children_finish_keeps_their_results_and_starts_nothing() {
    let mut sim = parent();
    sim.start("go");
    model_calls(&mut sim, vec![call("spawn", SPAWN_AGENTS, THREE)]);
    finish(&mut sim, 0, submitted("a is done"));
    let fx = sim.send(Event::Interrupt);
    assert_eq!(braid_core::sim::reply_of(&fx), Some(&Ok(braid_core::machine::Reply::Done)));
    assert!(!fx.iter().any(|e| matches!(e, Effect::StopSubAgents { .. })), "no child is dropped: {fx:?}");
    assert_eq!(sim.state.status, S::AwaitingSubAgents { done: 1, total: 3 });
    finish(&mut sim, 1, submitted("b is done"));
    let fx = finish(&mut sim, 2, submitted("c is done"));
    assert!(!starts_request(&fx), "nothing further starts");
    assert_eq!(sim.state.status, S::Idle);
    let (status, output) = result_of(&sim, "spawn");
    assert!(
        status == ToolResultStatus::Success
            && ["a is done", "b is done", "c is done"].iter().all(|t| output.contains(t)),
        "{output}"
    );
}

#[test]
fn cancel_stops_every_child_and_keeps_what_finished() {
    let mut sim = parent();
    sim.start("go");
    model_calls(&mut sim, vec![call("spawn", SPAWN_AGENTS, THREE)]);
    finish(&mut sim, 0, submitted("a is done"));
    let fx = sim.send(Event::Cancel);
    assert!(fx.iter().any(|e| matches!(e, Effect::StopSubAgents { call_id } if call_id.as_str() == "spawn")));
    assert_eq!(sim.state.status, S::Idle);
    let (_, output) = result_of(&sim, "spawn");
    assert!(
        output.contains("a is done") && output.contains("## b (2 of 3)\nFailed: cancelled by the user"),
        "{output}"
    );
    // A child's report after the cancel changes nothing.
    let fx = finish(&mut sim, 1, submitted("late"));
    assert!(!starts_request(&fx));
    assert_eq!(sim.tool_results().len(), 1);
}

#[test]
fn after_a_restart_the_children_still_running_are_interrupted_by_restart() {
    let mut sim = parent();
    sim.start("go");
    model_calls(&mut sim, vec![call("spawn", SPAWN_AGENTS, THREE)]);
    finish(&mut sim, 2, submitted("c is done"));
    let (state, added) = braid_core::recovery::recover(&sim.state, &sim.conversation, sim.now).unwrap();
    assert_eq!(state.status, S::Idle);
    assert!(state.agents.is_none());
    let output = added
        .iter()
        .find_map(|m| match &m.body {
            MessageType::ToolResult { request_id, output, .. } if request_id.as_str() == "spawn" => {
                Some(output.clone())
            }
            _ => None,
        })
        .expect("the call got its result");
    assert!(output.contains("## a (1 of 3)\nFailed: interrupted by restart"), "{output}");
    assert!(output.contains("c is done"), "{output}");
}

#[test]
fn a_child_is_offered_the_submit_tools_and_never_spawn_agents() {
    let mut sim = child(20);
    sim.start("task");
    let prepared = sim.prepared(8_000);
    let fx = sim.prepare(prepared);
    let (system, tools) = fx
        .iter()
        .find_map(|e| match e {
            Effect::SendLlmRequest { system, tools, .. } => Some((system.clone(), tools.clone())),
            _ => None,
        })
        .unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    assert!(names.contains(&SUBMIT_RESULT) && names.contains(&"submit_error") && !names.contains(&SPAWN_AGENTS));
    let rules = system.iter().find(|p| p.part == PromptPart::SubAgent).expect("the child is told its rules");
    assert!(rules.text.contains("sub-agent named scout") && rules.text.contains("20 turns"));
    assert!(!rules.text.contains("last turn"));

    let mut sim = parent();
    sim.start("task");
    let prepared = sim.prepared(8_000);
    let fx = sim.prepare(prepared);
    let offered = fx
        .iter()
        .any(|e| matches!(e, Effect::SendLlmRequest { tools, .. } if tools.iter().any(|t| t.name == SUBMIT_RESULT)));
    assert!(!offered, "a parent is not offered the submit tools");
}

#[test]
fn nesting_is_refused() {
    let mut sim = child(20);
    sim.start("task");
    let fx = model_calls(&mut sim, vec![call("inner", SPAWN_AGENTS, THREE)]);
    assert!(spawned(&fx).is_none());
    let error = sim.tool_results().pop().unwrap().2;
    assert!(error.contains("cannot start sub-agents of its own"), "{error}");
}

#[test]
fn submit_result_alone_ends_the_child_with_its_result() {
    let mut sim = child(20);
    sim.start("task");
    let fx = model_calls(&mut sim, vec![call("s", SUBMIT_RESULT, r#"{"result":"found 3 bugs"}"#)]);
    assert_eq!(ended(&fx), Some(ChildOutcome::Submitted { result: "found 3 bugs".into() }));
    assert!(!starts_request(&fx), "nothing more is asked of the model");
    assert_eq!(sim.state.status, S::Idle);
    assert_eq!(sim.tool_results()[0].1, ToolResultStatus::Success);

    let mut sim = child(20);
    sim.start("task");
    let fx = model_calls(&mut sim, vec![call("e", "submit_error", r#"{"error":"no such file"}"#)]);
    assert_eq!(ended(&fx), Some(ChildOutcome::Failed { reason: "it gave up: no such file".into() }));
}

#[test]
fn submit_result_beside_another_tool_is_refused_and_nothing_runs() {
    let mut sim = child(20);
    sim.start("task");
    let fx = model_calls(
        &mut sim,
        vec![call("r", "read_file", r#"{"path":"a"}"#), call("s", SUBMIT_RESULT, r#"{"result":"done"}"#)],
    );
    assert!(ran(&fx).is_empty(), "the read did not run");
    assert!(ended(&fx).is_none());
    let results = sim.tool_results();
    assert_eq!(results.len(), 2);
    assert!(results.iter().all(|r| r.2.contains("submit_result must be the only tool call")), "{results:?}");
    assert!(starts_request(&fx), "the child may submit again, alone");
    let fx = model_calls(&mut sim, vec![call("s2", SUBMIT_RESULT, r#"{"result":"done"}"#)]);
    assert_eq!(ended(&fx), Some(ChildOutcome::Submitted { result: "done".into() }));
}

#[test]
fn a_child_that_never_submits_gets_one_grace_turn_then_fails() {
    let mut sim = child(20);
    sim.start("task");
    let fx = model_answers(&mut sim, "I think it is fine.");
    assert!(ended(&fx).is_none());
    assert!(starts_request(&fx), "the grace turn starts");
    assert!(sim.state.child.grace);
    let prepared = sim.prepared(8_000);
    let fx = sim.prepare(prepared);
    let (system, tools, choice) = fx
        .iter()
        .find_map(|e| match e {
            Effect::SendLlmRequest { system, tools, tool_choice, .. } => {
                Some((system.clone(), tools.clone(), tool_choice.clone()))
            }
            _ => None,
        })
        .unwrap();
    assert_eq!(tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), [SUBMIT_RESULT]);
    assert_eq!(choice, Some(ToolChoice::Function(SUBMIT_RESULT.into())), "it must submit what it has");
    assert!(system.iter().any(|p| p.part == PromptPart::SubAgent && p.text.contains("This is your last turn")));
    let fx = model_answers(&mut sim, "Still fine.");
    assert_eq!(
        ended(&fx),
        Some(ChildOutcome::Failed { reason: "it ended its turn without submitting a result, twice".into() })
    );
    assert!(!starts_request(&fx));
    assert_eq!(sim.state.status, S::Idle);
}

#[test]
fn a_child_at_its_turn_limit_gets_its_grace_turn_then_fails() {
    let mut sim = child(2);
    sim.start("task");
    for turn in 1..=2 {
        model_calls(&mut sim, vec![call(&format!("l{turn}"), "list_directory", &format!(r#"{{"path":"d{turn}"}}"#))]);
        done(&mut sim, &format!("l{turn}"));
    }
    assert!(sim.state.child.grace, "after 2 turns the third is the grace turn");
    model_calls(&mut sim, vec![call("l3", "list_directory", r#"{"path":"d3"}"#)]);
    let fx = done(&mut sim, "l3");
    assert_eq!(
        ended(&fx),
        Some(ChildOutcome::Failed { reason: "it passed its turn limit of 2 turns without submitting a result".into() })
    );
    assert!(!starts_request(&fx));
    assert_eq!(sim.state.status, S::Idle);
}

#[test]
fn a_child_that_fails_reports_why_with_its_tokens() {
    let mut sim = child(20);
    sim.start("task");
    let rid = sim.request_id();
    let response = LlmResponse {
        text: String::new(),
        tool_calls: vec![call("l", "list_directory", r#"{"path":"."}"#)],
        usage: Some(Usage { prompt_tokens: 100, completion_tokens: 20 }),
        stop_reason: StopReason::ToolUse,
    };
    sim.send(Event::LlmCompleted { request_id: rid, response });
    done(&mut sim, "l");
    let rid = sim.request_id();
    let fx = sim.send(Event::LlmFailed { request_id: rid, failure: LlmFailure::fatal(FailureCode::Auth, "bad key") });
    let tokens = fx.iter().find_map(|e| match e {
        Effect::ChildEnded { tokens, .. } => Some(*tokens),
        _ => None,
    });
    assert_eq!(ended(&fx), Some(ChildOutcome::Failed { reason: "bad key".into() }));
    assert_eq!(tokens, Some(120));
}

#[test]
fn a_cancelled_child_says_so_and_a_restarted_one_is_interrupted() {
    let mut sim = child(20);
    sim.start("task");
    let fx = sim.send(Event::Cancel);
    assert_eq!(ended(&fx), Some(ChildOutcome::Failed { reason: "it was cancelled".into() }));

    let mut sim = child(20);
    sim.start("task");
    let (state, added) = braid_core::recovery::recover(&sim.state, &sim.conversation, sim.now).unwrap();
    assert!(state.child.ended);
    let said = added.iter().any(|m| matches!(&m.body, MessageType::SystemControl { control: braid_protocol::ControlKind::Recovery { detail, .. } } if detail.contains("interrupted by the restart")));
    assert!(said);
}

/// A task's model is offered only when there is a choice, and then only
/// the models that exist: a grammar built from the schema cannot name
/// another.
#[test]
fn a_tasks_model_is_offered_as_the_available_models_only() {
    let task_properties = |models: &[String]| {
        let spec = braid_core::subagents::tool_specs(models).remove(0);
        spec.input_schema["properties"]["tasks"]["items"]["properties"].clone()
    };
    assert!(task_properties(&[]).get("model").is_none(), "no choice, no field");
    assert!(task_properties(&["local/smollm2".into()]).get("model").is_none(), "one model is the parent's");
    let two = ["openai/gpt-4o".to_owned(), "local/smollm2".to_owned()];
    assert_eq!(task_properties(&two)["model"]["enum"], serde_json::json!(two), "exactly the available models");
}

#[test]
fn a_child_inherits_the_parent_s_folder_policy_and_model_unless_its_task_names_one() {
    use braid_protocol::{CallId, ModelChoice, SubAgentLimits, SubTask};
    let choice = |p: &str, m: &str| ModelChoice { provider_id: p.into(), model: m.into() };
    let mut sim = parent();
    sim.ctx.meta.model = Some(choice("p", "big"));
    let parent = braid_core::subagents::Parent::of(&sim.ctx);
    let available = ["p/big".to_owned(), "q/small".to_owned()];
    let task = SubTask { name: "scan".into(), instructions: "look".into(), model: None, isolated: false };
    assert_eq!(parent.model_for(&task, &available), (Some(choice("p", "big")), None), "the parent's by default");
    let named = SubTask { model: Some("small".into()), ..task.clone() };
    assert_eq!(parent.model_for(&named, &available), (Some(choice("q", "small")), None), "named by its model part");
    let unknown = SubTask { model: Some("huge".into()), ..task.clone() };
    let (model, note) = parent.model_for(&unknown, &available);
    assert_eq!(model, Some(choice("p", "big")), "an unknown name runs on the parent's model");
    assert!(note.unwrap().contains("\"huge\" is not available (available: p/big, q/small)"));

    let limits = SubAgentLimits { turn_limit: 5, ..SubAgentLimits::default() };
    let defaults = braid_core::MachineConfig::default();
    let call = CallId("spawn".into());
    let kid = parent.child(
        &named,
        (&call, 2),
        limits,
        Some(choice("q", "small")),
        &defaults,
        ContextId("kid".into()),
        sim.now,
        None,
    );
    assert_eq!(kid.meta.title, "scan · sub-agent of New conversation");
    assert_eq!((kid.meta.working_dir.as_str(), kid.meta.model.clone()), ("/sim", Some(choice("q", "small"))));
    assert_eq!(kid.state.config.tools.policy, ToolApprovalPolicy::AutoAll, "the parent's policy, not the default");
    assert_eq!(kid.state.config.max_loop_depth, 6, "the turn limit governs, with its grace turn");
    let seat = kid.state.config.child.unwrap();
    assert_eq!(
        (seat.parent.0.as_str(), seat.call_id.0.as_str(), seat.index, seat.turn_limit),
        ("ctx-sim", "spawn", 2, 5)
    );
    assert!(kid.conversation.active_messages().next().is_none(), "it starts empty");
    assert_eq!(seat.workspace, None, "it works in the parent's folder");

    // Given a copy of the folder, it works there, and says so.
    let copy = Some("/copies/kid".to_owned());
    let kid = parent.child(&task, (&call, 0), limits, None, &defaults, ContextId("kid2".into()), sim.now, copy.clone());
    assert_eq!(kid.meta.working_dir, "/copies/kid");
    assert_eq!(kid.state.config.child.unwrap().workspace, copy);
}

/// What came back of a child's copy is kept with the child (its parent's
/// card shows it after the call); a conversation that is no child keeps
/// nothing.
#[test]
fn a_child_keeps_what_came_back_of_its_copy() {
    use braid_protocol::{ChildWorkspace, IsolationKind};
    let returned = ChildWorkspace {
        folder: "/copies/a".into(),
        kind: IsolationKind::GitWorktree,
        merged: vec!["a.txt".into()],
        conflicts: vec![],
        kept: vec![],
        problem: None,
    };
    let mut kid = child(5);
    kid.send(Event::CopyReturned(Box::new(returned.clone())));
    assert_eq!(kid.state.child.returned, Some(returned.clone()));
    let mut other = parent();
    other.send(Event::CopyReturned(Box::new(returned)));
    assert_eq!(other.state.child.returned, None);
}

/// Tasks run at once each get their own copy of the workspace unless the
/// model says otherwise; one task works in the parent's folder.
#[test]
fn parallel_tasks_are_isolated_unless_told_otherwise() {
    let isolated =
        |args: &str| -> Vec<bool> { braid_core::subagents::tasks(args).unwrap().iter().map(|t| t.isolated).collect() };
    assert_eq!(isolated(r#"{"tasks":[{"instructions":"x"}]}"#), [false]);
    assert_eq!(isolated(r#"{"tasks":[{"instructions":"x","isolated":true}]}"#), [true]);
    assert_eq!(isolated(r#"{"tasks":[{"instructions":"x"},{"instructions":"y","isolated":false}]}"#), [true, false]);
}

/// What the parent's model reads of a child's copy: what came back, what
/// was written with markers, what stayed behind and where.
#[test]
fn the_result_says_what_came_back_from_a_childs_copy() {
    use braid_protocol::{ChildWorkspace, IsolationKind, SubAgentView};
    let workspace = ChildWorkspace {
        folder: "/copies/a".into(),
        kind: IsolationKind::Copy,
        merged: vec!["notes.txt".into(), "src/a.rs".into()],
        conflicts: vec!["notes.txt".into()],
        kept: vec!["logo.png".into()],
        problem: None,
    };
    let agent = SubAgentView {
        name: "a".into(),
        context_id: None,
        report: Some(ChildReport { workspace: Some(workspace), ..submitted("done") }),
        isolated: true,
    };
    let (_, text) = braid_core::subagents::aggregate(&[agent]);
    assert!(text.contains("merged back into this one: notes.txt, src/a.rs"), "{text}");
    assert!(text.contains("conflict markers: notes.txt"), "{text}");
    assert!(text.contains("not merged back: logo.png (kept in /copies/a)"), "{text}");
}
