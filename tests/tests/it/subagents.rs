//! Sub-agents through the runtime: real SQLite, real tools and processes,
//! and a fake model that answers each conversation from its own request
//! (`braid_testkit::children`). Children run in parallel within the
//! limit and report back as one result; a child that gives up, chats,
//! crowds its submission, tries to nest, or passes its time limit is
//! reported failed or refused; cancel reaches every child's processes; a
//! restart tells the parent; a child's approval is answered like any.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_llm::fake::FakeProvider;
use braid_protocol::{
    ApprovalDecision, BraidEvent, ContextId, ContextSnapshot, ContextStatus, MessageType, NewMessage, StatusKind,
    SubAgentsView, ToolApprovalPolicy, ToolResultStatus,
};
use braid_runtime::{Runtime, RuntimeConfig};
use braid_testkit::children::respond;
use braid_testkit::harness::{limit, process_gone, Watch};
use serde_json::json;
use std::path::Path;
use std::sync::Arc;

fn config(dir: &Path, configure: impl FnOnce(&mut RuntimeConfig)) -> RuntimeConfig {
    let mut c = RuntimeConfig::new(dir.join("braid.db"), dir.to_owned());
    c.machine.tools.policy = ToolApprovalPolicy::AutoAll;
    configure(&mut c);
    c
}

pub(crate) fn open(dir: &Path, configure: impl FnOnce(&mut RuntimeConfig)) -> Runtime {
    Runtime::open(config(dir, configure), Arc::new(FakeProvider::answering(respond))).unwrap().0
}

pub(crate) fn spawn(tasks: serde_json::Value) -> NewMessage {
    NewMessage::user_text(&format!("SPAWN {}", json!({ "tasks": tasks })))
}

/// The `spawn_agents` call's result in the parent.
pub(crate) fn spawn_result(snapshot: &ContextSnapshot) -> (ToolResultStatus, String) {
    snapshot
        .messages
        .iter()
        .find_map(|m| match &m.body {
            MessageType::ToolResult { request_id, status, output, .. } if request_id.as_str() == "spawn" => {
                Some((*status, output.clone()))
            }
            _ => None,
        })
        .expect("the spawn call has its result")
}

/// The parent's sub-agents as its events report them, until `done` holds.
pub(crate) async fn agents_until(
    rt: &Runtime,
    parent: &ContextId,
    done: impl Fn(&SubAgentsView) -> bool,
) -> SubAgentsView {
    let (snapshot, mut sub) = rt.subscribe(parent).await.unwrap();
    if let Some(view) = snapshot.sub_agents.filter(|v| done(v)) {
        return view;
    }
    let deadline = tokio::time::Instant::now() + limit();
    loop {
        let event = tokio::time::timeout_at(deadline, sub.recv()).await.expect("the sub-agents got there in time");
        if let Some(Ok(BraidEvent::ContextUpdate(u))) = event {
            if let Some(view) = u.metadata.sub_agents.filter(|v| done(v)) {
                return *view;
            }
        }
    }
}

pub(crate) fn started(view: &SubAgentsView) -> Vec<ContextId> {
    view.agents.iter().filter_map(|a| a.context_id.clone()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn children_run_within_the_limit_and_each_outcome_reaches_the_parent() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "alpha").unwrap();
    let rt = open(dir.path(), |c| c.sub_agents.concurrency = 2);
    let parent = rt.create_context(Some("release".into()), None).await.unwrap().id;
    let tasks = json!([
        // A model that is not available (a model without a grammar may
        // write any name): the child runs on the parent's, and says so.
        { "name": "fixer", "instructions": "SUBMIT fixed the bug", "model": "Fruit" },
        { "name": "quitter", "instructions": "GIVEUP the file is missing" },
        { "name": "talker", "instructions": "CHAT" },
        { "name": "crowder", "instructions": "CROWD" },
        { "name": "nester", "instructions": "NEST" },
    ]);
    // Every state of the parent, to see how many children ran at once.
    let (_, mut sub) = rt.subscribe(&parent).await.unwrap();
    let mut watch = Watch::new(&rt, &parent).await;
    rt.send_message(&parent, spawn(tasks), false).await.unwrap();
    assert_eq!(
        watch.state(StatusKind::AwaitingSubAgents).await,
        ContextStatus::AwaitingSubAgents { done: 0, total: 5 }
    );
    assert_eq!(watch.settled().await, ContextStatus::Idle);
    let mut most = 0;
    while let Ok(Some(Ok(event))) = tokio::time::timeout(std::time::Duration::ZERO, sub.recv()).await {
        if let BraidEvent::ContextUpdate(u) = event {
            if let Some(view) = u.metadata.sub_agents {
                most = most.max(view.agents.iter().filter(|a| a.context_id.is_some() && a.report.is_none()).count());
            }
        }
    }
    assert_eq!(most, 2, "two children at a time, never more");

    let snapshot = rt.load_context(&parent).await.unwrap();
    let (status, output) = spawn_result(&snapshot);
    assert_eq!(status, ToolResultStatus::Success);
    assert!(
        output.contains("## fixer (1 of 5)\nSubmitted") && output.contains("120 tokens; model \"Fruit\""),
        "{output}"
    );
    assert!(
        output.contains("not available (available: none), so it ran on this conversation's model):\nfixed the bug"),
        "{output}"
    );
    assert!(
        output.contains("## quitter (2 of 5)\nFailed") && output.contains("it gave up: the file is missing"),
        "{output}"
    );
    assert!(
        output.contains("## talker (3 of 5)\nFailed") && output.contains("without submitting a result, twice"),
        "{output}"
    );
    assert!(
        output.contains("## crowder (4 of 5)\nSubmitted") && output.contains("must be the only tool call"),
        "{output}"
    );
    assert!(
        output.contains("## nester (5 of 5)\nSubmitted") && output.contains("cannot start sub-agents of its own"),
        "{output}"
    );
    assert_eq!(snapshot.messages.last().unwrap().body.plain_text().as_deref(), Some("All the sub-agents reported."));

    // Children are conversations of their own, kept out of the list.
    let listed: Vec<ContextId> = rt.list_contexts().await.unwrap().into_iter().map(|c| c.id).collect();
    assert_eq!(listed, std::slice::from_ref(&parent));
    let children = rt.children(&parent).await.unwrap();
    assert_eq!(children.len(), 5);
    // Created as slots free up: found by name, not by place.
    let crowder = children.iter().find(|c| c.child.name == "crowder").unwrap().context_id.clone();
    let crowder = rt.load_context(&crowder).await.unwrap();
    let child = crowder.child.clone().unwrap();
    assert_eq!((child.parent, child.name.as_str(), child.index), (parent.clone(), "crowder", 3));
    // Tasks run at once each work in a copy of the parent's folder, gone
    // once it is merged back (here: nothing changed).
    assert_ne!(crowder.summary.working_dir, snapshot.summary.working_dir);
    assert_eq!(child.workspace.as_deref(), Some(crowder.summary.working_dir.as_str()));
    assert!(!std::path::Path::new(&crowder.summary.working_dir).exists());
    let refused = braid_testkit::script::results(&crowder.messages);
    assert_eq!(refused.len(), 3, "both crowded calls refused, then the submission: {refused:?}");
    assert!(refused[..2].iter().all(|r| r.2.contains("submit_result must be the only tool call")));

    // Deleting the parent deletes its children.
    rt.delete_context(&parent).await.unwrap();
    assert!(rt.load_context(&crowder.summary.id).await.is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_child_past_its_time_limit_is_stopped_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    let rt = open(dir.path(), |c| c.sub_agents.time_limit_ms = 300);
    let parent = rt.create_context(None, None).await.unwrap().id;
    let mut watch = Watch::new(&rt, &parent).await;
    rt.send_message(&parent, spawn(json!([{ "name": "slow", "instructions": "STALL" }])), false).await.unwrap();
    watch.state(StatusKind::AwaitingSubAgents).await;
    assert_eq!(watch.settled().await, ContextStatus::Idle);
    let (status, output) = spawn_result(&rt.load_context(&parent).await.unwrap());
    assert_eq!(status, ToolResultStatus::Error);
    assert!(output.contains("it passed its time limit of 300 ms"), "{output}");
    let slow = rt.children(&parent).await.unwrap().remove(0).context_id;
    let mut child = Watch::new(&rt, &slow).await;
    assert_eq!(child.settled().await, ContextStatus::Idle, "the child was stopped");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_the_parent_cancels_every_child_and_kills_their_commands() {
    let dir = tempfile::tempdir().unwrap();
    // Host process ids: the sandbox gives commands a pid namespace of
    // their own (braid-tools' escape suite checks that its processes die).
    let full = braid_protocol::Sandbox { level: braid_protocol::SandboxLevel::FullAccess, ..Default::default() };
    let rt = open(dir.path(), |c| c.machine.tools.sandbox = full);
    let parent = rt.create_context(None, None).await.unwrap().id;
    // In the parent's folder, where the test reads the pids.
    let run = |n: u32| json!({ "name": format!("sleeper {n}"), "instructions": format!("RUN echo $$ > pid{n}; exec sleep 30"), "isolated": false });
    rt.send_message(&parent, spawn(json!([run(1), run(2)])), false).await.unwrap();
    let view = agents_until(&rt, &parent, |v| started(v).len() == 2).await;
    for child in started(&view) {
        Watch::new(&rt, &child).await.state(StatusKind::ExecutingTool).await;
    }
    let pid = |n: u32| loop {
        // The command writes its pid first thing; it runs already.
        if let Ok(text) = std::fs::read_to_string(dir.path().join(format!("pid{n}"))) {
            if let Ok(pid) = text.trim().parse::<i32>() {
                break pid;
            }
        }
        std::thread::yield_now();
    };
    let pids = [pid(1), pid(2)];
    let mut watch = Watch::new(&rt, &parent).await;
    rt.cancel(&parent).await.unwrap();
    assert_eq!(watch.settled().await, ContextStatus::Idle);
    for child in started(&view) {
        assert_eq!(Watch::new(&rt, &child).await.settled().await, ContextStatus::Idle);
        let results = braid_testkit::script::results(&rt.load_context(&child).await.unwrap().messages);
        assert_eq!(results[0].1, ToolResultStatus::Cancelled, "{results:?}");
    }
    for pid in pids {
        assert!(process_gone(pid.into()), "the sleep of pid {pid} was killed");
    }
    let (_, output) = spawn_result(&rt.load_context(&parent).await.unwrap());
    assert_eq!(output.matches("cancelled by the user").count(), 2, "{output}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_restart_the_parent_hears_its_children_were_interrupted() {
    let dir = tempfile::tempdir().unwrap();
    let rt = open(dir.path(), |_| ());
    let parent = rt.create_context(None, None).await.unwrap().id;
    let tasks =
        json!([{ "name": "quick", "instructions": "SUBMIT early" }, { "name": "stuck", "instructions": "STALL" }]);
    rt.send_message(&parent, spawn(tasks), false).await.unwrap();
    let view = agents_until(&rt, &parent, |v| v.agents[0].report.is_some() && v.agents[1].context_id.is_some()).await;
    let stuck = view.agents[1].context_id.clone().unwrap();
    Watch::new(&rt, &stuck).await.state(StatusKind::AwaitingLlmFirstChunk).await;
    // The process dies here: a second runtime opens the same database, as
    // the next start would, while the first is left as it was.
    let (again, report) =
        Runtime::open(config(dir.path(), |_| ()), Arc::new(FakeProvider::answering(respond))).unwrap();
    let recovered: Vec<&ContextId> = report.recovered.iter().map(|r| &r.context).collect();
    assert!(
        recovered.contains(&&parent) && recovered.contains(&&stuck),
        "recovered {recovered:?}, failed {:?}",
        report.failed
    );
    let (status, output) = spawn_result(&again.load_context(&parent).await.unwrap());
    assert_eq!(status, ToolResultStatus::Success);
    assert!(output.contains("## quick (1 of 2)\nSubmitted") && output.contains("early"), "{output}");
    assert!(output.contains("## stuck (2 of 2)\nFailed: interrupted by restart"), "{output}");
    let child = again.load_context(&stuck).await.unwrap();
    let said = child.messages.iter().any(|m| {
        matches!(&m.body, MessageType::SystemControl { control: braid_protocol::ControlKind::Recovery { detail, .. } }
            if detail.contains("interrupted by the restart"))
    });
    assert!(said, "the child says why it stopped");
    // The parent's list of children says how it ended, as the result does.
    let listed = again.children(&parent).await.unwrap();
    let outcome = listed.iter().find(|c| c.context_id == stuck).and_then(|c| c.outcome.clone());
    assert_eq!(outcome, Some(braid_protocol::ChildOutcome::Failed { reason: "interrupted by restart".into() }));
    drop(rt);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_childs_approval_is_answered_from_the_parent_view() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "ship friday").unwrap();
    let rt = open(dir.path(), |c| c.machine.tools.policy = ToolApprovalPolicy::Manual);
    let parent = rt.create_context(None, None).await.unwrap().id;
    let mut watch = Watch::new(&rt, &parent).await;
    rt.send_message(&parent, spawn(json!([{ "name": "reader", "instructions": "READ notes.txt" }])), false)
        .await
        .unwrap();
    watch.state(StatusKind::AwaitingToolApproval).await;
    rt.decide_tool_call(&parent, "spawn".into(), ApprovalDecision::Approve).await.unwrap();
    // The parent's view names the child; the child asks as any conversation.
    let view = agents_until(&rt, &parent, |v| !started(v).is_empty()).await;
    let reader = started(&view).remove(0);
    let asked = Watch::new(&rt, &reader).await.state(StatusKind::AwaitingToolApproval).await;
    let ContextStatus::AwaitingToolApproval { pending_requests, tool_names } = asked else { unreachable!() };
    assert_eq!(tool_names, ["read_file"]);
    rt.decide_tool_call(&reader, pending_requests[0].clone(), ApprovalDecision::Approve).await.unwrap();
    assert_eq!(watch.settled().await, ContextStatus::Idle);
    let (_, output) = spawn_result(&rt.load_context(&parent).await.unwrap());
    assert!(output.contains("after the tool:") && output.contains("ship friday"), "{output}");
}

/// The models a task may name are the providers' models now: none to
/// choose from, no field; a second provider saved, both on offer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_models_a_task_may_name_follow_the_providers() {
    use braid_protocol::{Command, KeyChange, ProviderInput, ProviderKind, SPAWN_AGENTS};
    let dir = tempfile::tempdir().unwrap();
    let rt = open(dir.path(), |_| {});
    let offered = |rt: &Runtime| {
        let spawn = rt.tools().into_iter().find(|t| t.name == SPAWN_AGENTS).unwrap();
        spawn.input_schema["properties"]["tasks"]["items"]["properties"].get("model").cloned()
    };
    assert_eq!(offered(&rt), None, "the parent's model only: nothing to choose");
    for (name, model) in [("one", "m1"), ("two", "m2")] {
        let provider = ProviderInput {
            id: None,
            kind: ProviderKind::OpenAiCompatible,
            name: name.into(),
            base_url: "http://127.0.0.1:9/v1".into(),
            default_model: Some(model.into()),
            key: KeyChange::Keep,
        };
        rt.execute(Command::SaveProvider { provider }).await.unwrap();
    }
    let choices = offered(&rt).expect("two models: a choice")["enum"].clone();
    let choices: Vec<String> = serde_json::from_value(choices).unwrap();
    assert_eq!(choices.len(), 2, "{choices:?}");
    assert!(choices[0].ends_with("/m1") && choices[1].ends_with("/m2"), "{choices:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_sub_agents_changed_is_the_parent_turn_s_to_review_and_rewind() {
    let dir = tempfile::tempdir().unwrap();
    let rt = open(dir.path(), |_| {});
    let parent = rt.create_context(None, None).await.unwrap().id;
    let mut watch = Watch::new(&rt, &parent).await;
    let write = |n: u32| json!({ "name": format!("writer {n}"), "instructions": format!("RUN printf 'child {n}\\n' > out{n}.txt") });
    rt.send_message(&parent, spawn(json!([write(1), write(2)])), false).await.unwrap();
    watch.state(StatusKind::AwaitingSubAgents).await;
    assert_eq!(watch.settled().await, ContextStatus::Idle);
    assert!(dir.path().join("out1.txt").exists() && dir.path().join("out2.txt").exists());

    // The parent's turn counts and lists the children's files.
    let turns = rt.changed_turns(&parent).await.unwrap();
    assert_eq!(turns.len(), 1, "{turns:?}");
    assert_eq!(turns[0].count.files, 2);
    let review = rt.turn_changes(&parent, turns[0].question).await.unwrap();
    let paths: Vec<&str> = review.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["out1.txt", "out2.txt"]);

    // Rewinding the parent to its question takes them back.
    let done = rt.rewind_files(&parent, turns[0].question, Vec::new()).await.unwrap();
    assert_eq!(done.files, 2);
    assert!(!dir.path().join("out1.txt").exists() && !dir.path().join("out2.txt").exists());
}
