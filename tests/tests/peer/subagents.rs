//! Sub-agents on the real model. The call is forced (`force_tool`, so
//! llama.cpp samples its arguments under a grammar built from the schema
//! Braid sent); how many tasks, their names and their instructions are the
//! model's and are not checked. What is checked is Braid's side: the
//! schema offers only what can work (no `model` field when the parent's is
//! the only model), the arguments are valid against it, every task gets a
//! child and an outcome, a child's grace turn offers only `submit_result`,
//! the parent's next request carries the one result, and the loop goes on.

use super::{provider, until, Recording, MODEL};
use braid_protocol::{MessageType, NewMessage, StatusKind, ToolApprovalPolicy, SPAWN_AGENTS, SUBMIT_RESULT};
use braid_runtime::{Runtime, RuntimeConfig};
use braid_testkit::harness::REAL_MODEL_LIMIT;
use std::path::Path;
use std::sync::Arc;

pub async fn subagents_flow(dir: &Path, url: &str) {
    let recording = Arc::new(Recording { inner: provider(url, None), sent: Default::default() });
    let mut config = RuntimeConfig::new(dir.join("subagents.db"), dir.to_owned());
    super::no_auto_continue(&mut config);
    config.model = MODEL.into();
    config.max_tokens = 400;
    config.machine.tools.policy = ToolApprovalPolicy::AutoAll;
    let rt = Runtime::open(config, recording.clone()).unwrap().0;
    let parent = rt.create_context(None, None).await.unwrap().id;
    let (_, mut sub) = rt.subscribe(&parent).await.unwrap();
    let ask = NewMessage {
        force_tool: Some(SPAWN_AGENTS.into()),
        ..NewMessage::user_text("Hand out two tasks: one sub-agent names a colour, another names a fruit.")
    };
    rt.send_message(&parent, ask, false).await.unwrap();
    until(&mut sub, &[StatusKind::Idle, StatusKind::Failed], REAL_MODEL_LIMIT).await;

    let sent = recording.sent.lock().unwrap().clone();
    let forced = sent.first().expect("the parent's request");
    assert_eq!(forced.tool_choice, Some(braid_llm::ToolChoice::Function(SPAWN_AGENTS.into())));
    let offered = forced.tools.iter().find(|t| t.name == SPAWN_AGENTS).expect("spawn_agents was offered");
    let task = &offered.input_schema["properties"]["tasks"]["items"]["properties"];
    assert!(task.get("model").is_none(), "only the parent's model exists, so no model is offered: {task}");

    let snap = rt.load_context(&parent).await.unwrap();
    let (calls, result) = snap.messages.iter().fold((None, None), |(calls, result), m| match &m.body {
        MessageType::ToolRequest { calls, .. } => (Some(calls.clone()), result),
        MessageType::ToolResult { output, .. } => (calls, Some(output.clone())),
        _ => (calls, result),
    });
    let calls = calls.expect("the forced call is stored");
    assert_eq!(calls[0].name, SPAWN_AGENTS, "{calls:?}");
    let result = result.expect("the call has its result");
    // The grammar keeps the arguments to the schema, but the answer's
    // output limit can cut them mid-string (the model decides how long a
    // task's text is). Either way Braid must do the right thing with them.
    let tasks = match braid_core::subagents::tasks(&calls[0].arguments) {
        Ok(tasks) => tasks,
        Err(e) => {
            println!("the model's arguments were cut or broken ({e}); Braid refused them");
            let refusal = snap.messages.iter().find(|m| matches!(m.body, MessageType::ToolResult { .. }));
            let refusal = format!("{:?}", refusal.map(|m| &m.body));
            assert!(refusal.contains("not valid JSON"), "refused, saying why: {refusal}");
            assert!(rt.children(&parent).await.unwrap().is_empty(), "no child for arguments that are not JSON");
            let told = sent.iter().skip(1).any(|r| format!("{:?}", r.messages).contains("not valid JSON"));
            assert!(told, "the refusal reaches the model's next request");
            rt.shutdown().await;
            return;
        }
    };
    println!("spawn_agents tasks: {tasks:?}\nresult:\n{result}");
    let children = rt.children(&parent).await.unwrap();
    assert_eq!(children.len(), tasks.len(), "one conversation per task");
    for (i, task) in tasks.iter().enumerate() {
        let head = format!("## {} ({} of {})\n", task.name, i + 1, tasks.len());
        let outcome = result.split(&head).nth(1).unwrap_or_else(|| panic!("task {i} reported:\n{result}"));
        assert!(outcome.starts_with("Submitted") || outcome.starts_with("Failed"), "an outcome for {head}{outcome}");
    }
    let grace: Vec<_> =
        sent.iter().filter(|r| r.tool_choice == Some(braid_llm::ToolChoice::Function(SUBMIT_RESULT.into()))).collect();
    assert!(
        grace.iter().all(|r| r.tools.len() == 1 && r.tools[0].name == SUBMIT_RESULT),
        "a grace turn offers submit only"
    );
    let after =
        sent.iter().rev().find(|r| r.tools.iter().all(|t| t.name != SUBMIT_RESULT)).expect("the parent's next request");
    let carried =
        after.messages.iter().any(|m| matches!(&m.body, MessageType::ToolResult { output, .. } if *output == result));
    assert!(carried, "the parent's next request carries the children's results");
    assert!(
        snap.messages.last().is_some_and(|m| !matches!(m.body, MessageType::ToolResult { .. })),
        "the loop went on"
    );
    rt.shutdown().await;
}
