//! The codebase tools through the runtime: a scripted model calls
//! `find_definition` in a conversation working in the codebase fixture,
//! the call waits for the index the conversation's folder gets, and the
//! file opens at a line, confined to the workspace. `/` and the home
//! folder get no index.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_llm::fake::FakeProvider;
use braid_protocol::{IndexState, MessageType, NewMessage, StatusKind, ToolApprovalPolicy};
use braid_runtime::RuntimeError;
use braid_testkit::harness::open_in;
use braid_testkit::harness::Watch;
use braid_testkit::script::{answer, calls};
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_model_finds_a_definition_and_the_file_opens_at_its_line() {
    let work = braid_testkit::fixtures::codebase();
    // The app's data (and the stored index) live outside the workspace.
    let data = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    fake.push_reply(calls(&[("d", "find_definition", json!({"symbol": "Settings::apply"}))]));
    fake.push_reply(answer("It is in rust/src/lib.rs."));
    let rt = open_in(data.path(), fake.clone(), |c| c.machine.tools.policy = ToolApprovalPolicy::AutoAll);
    let ctx = rt.create_context(None, Some(work.path().display().to_string())).await.unwrap().id;
    let mut watch = Watch::new(&rt, &ctx).await;
    rt.send_message(&ctx, NewMessage::user_text("where is apply?"), false).await.unwrap();
    watch.state(StatusKind::ExecutingTool).await;
    assert_eq!(watch.settled().await, braid_protocol::ContextStatus::Idle);
    let snap = rt.load_context(&ctx).await.unwrap();
    let output = snap
        .messages
        .iter()
        .find_map(|m| match &m.body {
            MessageType::ToolResult { output, .. } => Some(output.clone()),
            _ => None,
        })
        .expect("the tool ran");
    assert!(output.contains("rust/src/lib.rs:22 · method apply (in mod config › impl Settings)"), "{output}");
    let sent_back = &fake.requests()[1];
    assert!(sent_back
        .messages
        .iter()
        .any(|m| matches!(&m.body, MessageType::ToolResult { output: o, .. } if o == &output)));

    let index = rt.codebase_index(&ctx).await.unwrap().expect("the workspace is indexed");
    assert_eq!((index.state, index.files), (IndexState::Ready, 13), "{index:?}");

    let excerpt = rt.read_workspace_file(&ctx, "rust/src/lib.rs", 22).await.unwrap();
    assert_eq!((excerpt.line, excerpt.start_line, excerpt.total_lines), (22, 2, 31));
    assert_eq!(excerpt.lines[(22 - excerpt.start_line) as usize].trim(), "pub fn apply(&mut self, line: &str) {");
    let outside = rt.read_workspace_file(&ctx, "../secret.txt", 1).await;
    assert!(matches!(outside, Err(RuntimeError::InvalidInput(_))), "{outside:?}");
    let missing = rt.read_workspace_file(&ctx, "nope.rs", 1).await;
    assert!(matches!(missing, Err(RuntimeError::InvalidInput(_))), "{missing:?}");
    rt.shutdown().await;
}

#[tokio::test]
async fn the_root_folder_is_never_indexed() {
    let data = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open_in(data.path(), fake, |_| {});
    let ctx = rt.create_context(None, Some("/".into())).await.unwrap().id;
    assert_eq!(rt.codebase_index(&ctx).await.unwrap(), None);
    rt.shutdown().await;
}
