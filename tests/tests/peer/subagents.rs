//! Sub-agents on the real model: made to call `spawn_agents`, its tasks'
//! arguments come out valid (llama.cpp constrains them to the schema);
//! each child answers, then on its grace turn is made to call
//! `submit_result`; the parent's next request carries every child's
//! result, and the loop goes on to an answer.

use super::{provider, until, Recording, MODEL};
use braid_protocol::{MessageType, NewMessage, StatusKind, ToolApprovalPolicy, SPAWN_AGENTS, SUBMIT_RESULT};
use braid_runtime::{Runtime, RuntimeConfig};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

pub async fn subagents_flow(dir: &Path, url: &str) {
    let recording = Arc::new(Recording { inner: provider(url, None), sent: Default::default() });
    let mut config = RuntimeConfig::new(dir.join("subagents.db"), dir.to_owned());
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
    until(&mut sub, &[StatusKind::Idle, StatusKind::Failed], Duration::from_secs(300)).await;

    let snap = rt.load_context(&parent).await.unwrap();
    let (calls, result) = snap.messages.iter().fold((None, None), |(calls, result), m| match &m.body {
        MessageType::ToolRequest { calls, .. } => (Some(calls.clone()), result),
        MessageType::ToolResult { output, .. } => (calls, Some(output.clone())),
        _ => (calls, result),
    });
    let calls = calls.expect("the model called a tool");
    assert_eq!(calls[0].name, SPAWN_AGENTS, "{calls:?}");
    let tasks = braid_core::subagents::tasks(&calls[0].arguments).expect("the forced call's tasks are valid");
    let result = result.expect("the call has its result");
    println!("spawn_agents tasks: {tasks:?}\nresult:\n{result}");
    let children = rt.children(&parent).await.unwrap();
    assert_eq!(children.len(), tasks.len(), "one conversation per task");
    assert_eq!(result.matches("\nSubmitted (").count(), tasks.len(), "every child submitted:\n{result}");
    let sent = recording.sent.lock().unwrap().clone();
    let grace: Vec<_> =
        sent.iter().filter(|r| r.tool_choice == Some(braid_llm::ToolChoice::Function(SUBMIT_RESULT.into()))).collect();
    assert!(!grace.is_empty(), "a child that answered in words was made to submit");
    assert!(grace.iter().all(|r| r.tools.len() == 1 && r.tools[0].name == SUBMIT_RESULT));
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
