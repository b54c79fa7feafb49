//! A conversation's folder through the runtime's commands: moved to
//! another folder (the tools read there from the next call, and it lasts
//! a restart), refused for a folder that does not exist; in a broad folder
//! (standing in for the home folder) the first read is asked, once.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_llm::fake::FakeProvider;
use braid_protocol::{
    ApprovalDecision, Command, ContextStatus, ContextSummary, ErrorCode, Message, MessageType, NewMessage, StatusKind,
};
use braid_runtime::{Runtime, RuntimeConfig, RuntimeError};
use braid_testkit::harness::Watch;
use braid_testkit::script::{answer, calls};
use serde_json::json;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// `home` is the broad folder and the default one.
fn open(dir: &Path, fake: Arc<FakeProvider>) -> Runtime {
    let home = std::fs::canonicalize(dir.join("home")).unwrap();
    let mut c = RuntimeConfig::new(dir.join("braid.db"), home.clone());
    c.broad_dirs = vec![home];
    Runtime::open(c, fake).unwrap().0
}

/// What each tool call returned, in order.
fn outputs(messages: &[Message]) -> Vec<String> {
    messages
        .iter()
        .filter_map(|m| match &m.body {
            MessageType::ToolResult { output, .. } => Some(output.clone()),
            _ => None,
        })
        .collect()
}

fn folders() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (folder, text) in [("home", "a letter"), ("project", "the plan")] {
        std::fs::create_dir(dir.path().join(folder)).unwrap();
        std::fs::write(dir.path().join(folder).join("notes.txt"), text).unwrap();
    }
    dir
}

async fn move_to(
    rt: &Runtime,
    id: &braid_protocol::ContextId,
    dir: &Path,
) -> Result<ContextSummary, braid_protocol::WireError> {
    let command = Command::SetWorkingDir { context_id: id.clone(), working_dir: dir.display().to_string() };
    rt.execute(command).await.map(|v| serde_json::from_value(v).unwrap())
}

#[tokio::test]
async fn a_conversation_moves_to_another_folder_and_its_tools_follow() {
    let dir = folders();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open(dir.path(), fake.clone());
    let default: String = serde_json::from_value(rt.execute(Command::DefaultWorkingDir).await.unwrap()).unwrap();
    let home = std::fs::canonicalize(dir.path().join("home")).unwrap();
    assert_eq!(default, home.display().to_string());
    let id = rt.create_context(None, None).await.unwrap().id;
    assert!(rt.load_context(&id).await.unwrap().tools.confirm_reads, "the home folder is broad");

    let project = std::fs::canonicalize(dir.path().join("project")).unwrap();
    let moved = move_to(&rt, &id, &dir.path().join("project/../project")).await.unwrap();
    assert_eq!(moved.working_dir, project.display().to_string(), "kept as the real path");
    assert!(!rt.load_context(&id).await.unwrap().tools.confirm_reads, "a project folder is not");

    // The read runs by itself in the project and reads the project's file.
    fake.push_reply(calls(&[("r1", "read_file", json!({"path": "notes.txt"}))]));
    fake.push_reply(answer("read"));
    rt.send_message(&id, NewMessage::user_text("read the notes"), false).await.unwrap();
    Watch::new(&rt, &id).await.settled().await;
    let outputs = outputs(&rt.load_context(&id).await.unwrap().messages);
    assert!(outputs[0].contains("the plan"), "{outputs:?}");

    let missing = move_to(&rt, &id, &dir.path().join("nowhere")).await.unwrap_err();
    assert_eq!(missing.code, ErrorCode::InvalidInput);
    assert!(missing.message.contains("does not exist"), "{}", missing.message);
    // A folder above the home folder holds it: as broad.
    move_to(&rt, &id, dir.path()).await.unwrap();
    assert!(rt.load_context(&id).await.unwrap().tools.confirm_reads, "above the home folder is broad too");
    move_to(&rt, &id, &project).await.unwrap();
    drop(rt);
    let rt = open(dir.path(), fake);
    let summary = rt.list_contexts().await.unwrap().into_iter().find(|c| c.id == id).unwrap();
    assert_eq!(summary.working_dir, project.display().to_string(), "the move lasts a restart");
}

#[tokio::test]
async fn in_the_home_folder_the_first_read_is_asked_and_the_folder_stays_while_busy() {
    let dir = folders();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open(dir.path(), fake.clone());
    let id = rt.create_context(None, None).await.unwrap().id;
    fake.push_reply(calls(&[("r1", "read_file", json!({"path": "notes.txt"}))]));
    fake.push_reply(calls(&[("r2", "list_directory", json!({"path": "."}))]));
    fake.push_reply(answer("done"));
    rt.send_message(&id, NewMessage::user_text("look around"), false).await.unwrap();
    let asked = Watch::new(&rt, &id).await.state(StatusKind::AwaitingToolApproval).await;
    let ContextStatus::AwaitingToolApproval { tool_names, .. } = asked else { unreachable!() };
    assert_eq!(tool_names, ["read_file"]);

    let busy = move_to(&rt, &id, &dir.path().join("project")).await.unwrap_err();
    assert_eq!(busy.code, ErrorCode::AgentBusy, "{}", busy.message);
    let summary = rt.load_context(&id).await.unwrap().summary;
    assert!(summary.working_dir.ends_with("home"), "unchanged: {}", summary.working_dir);

    rt.decide_tool_call_with_reason(&id, "r1".into(), ApprovalDecision::Approve, None).await.unwrap();
    // The second read is not asked: the loop goes on to the answer.
    let end = Watch::new(&rt, &id).await.settled().await;
    assert_eq!(end, ContextStatus::Idle);
    let outputs = outputs(&rt.load_context(&id).await.unwrap().messages);
    assert_eq!(outputs.len(), 2, "{outputs:?}");
    assert!(outputs[0].contains("a letter"), "{outputs:?}");

    let err = rt.set_working_dir(&id, "  ").await.unwrap_err();
    assert!(matches!(err, RuntimeError::InvalidInput(ref m) if m == "choose a folder"), "{err:?}");
}
