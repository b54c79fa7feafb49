//! Typed payloads through the runtime: each variant reaches the model as
//! it should; a refused one stores nothing; a workflow from the folder runs
//! and its card gets the outcome; a client's tool result answers a call
//! that waits; and "What the model sees" is the request the model got.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::llm::StopReason;
use braid_llm::fake::{FakeProvider, FakeStep};
use braid_protocol::{
    ContextId, ControlKind, LineRange, MessageType, Payload, PromptPart, SendMessageRequest, StatusKind, WorkflowStatus,
};
use braid_runtime::Runtime;
use braid_testkit::harness::open_in;
use braid_testkit::harness::Watch;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

fn request(id: &ContextId, payload: Payload) -> SendMessageRequest {
    SendMessageRequest { context_id: id.clone(), payload, client_metadata: None, queue_if_busy: false }
}

async fn send(rt: &Runtime, id: &ContextId, payload: Payload) -> Result<(), String> {
    let mut watch = Watch::new(rt, id).await;
    rt.send_payload(request(id, payload)).await.map_err(|e| e.to_wire().message)?;
    watch.until("busy", |s| s.is_busy()).await;
    watch.settled().await;
    Ok(())
}

async fn count(rt: &Runtime, id: &ContextId) -> u64 {
    rt.peek(id).await.unwrap().summary.message_count
}

fn setup() -> (tempfile::TempDir, Arc<FakeProvider>, Runtime, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir_all(project.join(".braid/workflows")).unwrap();
    std::fs::write(project.join("notes.txt"), "one\ntwo\nthree\n").unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open_in(dir.path(), fake.clone(), |_| {});
    (dir, fake, rt, project)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn payloads_reach_the_model_and_refusals_store_nothing() {
    let (_dir, fake, rt, project) = setup();
    let id = rt.create_context(None, Some(project.display().to_string())).await.unwrap().id;

    let mut meta = request(&id, Payload::Text { text: "hello".into() });
    meta.client_metadata = Some(serde_json::json!({ "trace": "t-1" }));
    let mut watch = Watch::new(&rt, &id).await;
    let receipt = rt.send_payload(meta).await.unwrap();
    watch.until("busy", |s| s.is_busy()).await;
    watch.settled().await;
    assert_eq!(receipt.client_metadata, Some(serde_json::json!({ "trace": "t-1" })), "given back");

    let lines = Payload::FileReference {
        path: "notes.txt".into(),
        range: Some(LineRange { start_line: 2, end_line: 3 }),
        text: Some("what is here?".into()),
    };
    send(&rt, &id, lines).await.unwrap();
    let sent = fake.requests().last().unwrap().clone();
    let texts: Vec<String> = sent
        .messages
        .iter()
        .map(|m| braid_llm::render::as_text(&m.body).unwrap_or_else(|| m.body.plain_text().unwrap_or_default()))
        .collect();
    assert!(texts.iter().any(|t| t.contains("File notes.txt (lines 2-3)") && t.contains("two\nthree")), "{texts:?}");

    let before = count(&rt, &id).await;
    for (payload, why) in [
        (Payload::FileReference { path: "missing.txt".into(), range: None, text: None }, "missing.txt"),
        (Payload::FileReference { path: "../etc/passwd".into(), range: None, text: None }, ".."),
        (
            Payload::McpResource { server: "docs".into(), uri: "docs://a".into(), text: None },
            "no connected MCP server is named \"docs\"",
        ),
        (Payload::Workflow { name: "nothing".into(), arguments: BTreeMap::new() }, "there is no workflow \"nothing\""),
        (Payload::ToolResult { call_id: "c9".into(), output: "x".into(), is_error: false }, "awaiting approval"),
        (Payload::Text { text: " ".into() }, "empty"),
    ] {
        let e = rt.send_payload(request(&id, payload)).await.unwrap_err().to_wire().message;
        assert!(e.contains(why), "{why}: {e}");
    }
    assert_eq!(count(&rt, &id).await, before, "nothing refused was stored");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_workflow_runs_from_the_folder_and_its_card_gets_the_outcome() {
    let (dir, fake, rt, project) = setup();
    let review = "---\ndescription: Review a file\nparameters:\n  - name: file\n  - name: focus\n    default: bugs\n---\nReview {{file}} for {{focus}}.\n";
    std::fs::write(project.join(".braid/workflows/review.md"), review).unwrap();
    std::fs::write(project.join(".braid/workflows/broken.md"), "---\ncolour: red\n---\nhi").unwrap();
    // The app's folder: the workspace's own of the same name wins.
    std::fs::create_dir_all(dir.path().join("workflows")).unwrap();
    std::fs::write(dir.path().join("workflows/review.md"), "App review of {{file}}.").unwrap();
    std::fs::write(dir.path().join("workflows/hello.md"), "Say hello.").unwrap();
    let id = rt.create_context(None, Some(project.display().to_string())).await.unwrap().id;

    let list = rt.list_workflows(&id).await.unwrap();
    let names: Vec<(&str, &str)> = list.workflows.iter().map(|w| (w.name.as_str(), w.origin.as_str())).collect();
    assert_eq!(names, [("hello", "config"), ("review", "workspace")]);
    assert!(list.problems.len() == 1 && list.problems[0].contains("broken.md") && list.problems[0].contains("colour"));

    let before = count(&rt, &id).await;
    let e =
        rt.send_payload(request(&id, Payload::Workflow { name: "review".into(), arguments: BTreeMap::new() })).await;
    assert!(e.unwrap_err().to_wire().message.contains("review needs a value for file"));
    assert_eq!(count(&rt, &id).await, before, "a missing argument stores nothing");

    let arguments = BTreeMap::from([("file".to_owned(), "src/a.rs".to_owned())]);
    send(&rt, &id, Payload::Workflow { name: "review".into(), arguments }).await.unwrap();
    let asked = fake.requests().last().unwrap().messages.last().unwrap().body.plain_text().unwrap();
    assert_eq!(asked, "Review src/a.rs for bugs.");
    let snapshot = rt.load_context(&id).await.unwrap();
    let outcome = snapshot.messages.iter().find_map(|m| match &m.body {
        MessageType::SystemControl { control: ControlKind::Workflow { name, arguments, outcome, .. } } => {
            Some((name.clone(), arguments.clone(), outcome.clone()))
        }
        _ => None,
    });
    let (name, arguments, outcome) = outcome.expect("the workflow's card");
    assert_eq!((name.as_str(), arguments["file"].as_str()), ("review", "src/a.rs"));
    let outcome = outcome.expect("the outcome is written");
    assert_eq!(outcome.status, WorkflowStatus::Completed);
    assert!(outcome.answer.is_some(), "the answer is named");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clients_tool_result_answers_a_call_that_waits() {
    let (_dir, fake, rt, project) = setup();
    let id = rt.create_context(None, Some(project.display().to_string())).await.unwrap().id;
    fake.push_reply(vec![
        FakeStep::ToolCall {
            id: "w1".into(),
            name: "write_file".into(),
            arguments: r#"{"path":"out.txt","content":"x"}"#.into(),
        },
        FakeStep::Finish(StopReason::ToolUse),
    ]);
    let mut watch = Watch::new(&rt, &id).await;
    rt.send_payload(request(&id, Payload::Text { text: "write it".into() })).await.unwrap();
    watch.state(StatusKind::AwaitingToolApproval).await;
    let result = Payload::ToolResult { call_id: "w1".into(), output: "written by my editor".into(), is_error: false };
    rt.send_payload(request(&id, result)).await.unwrap();
    watch.settled().await;
    assert!(!project.join("out.txt").exists(), "the call did not run");
    let told = fake
        .requests()
        .last()
        .unwrap()
        .messages
        .iter()
        .any(|m| matches!(&m.body, MessageType::ToolResult { output, .. } if output == "written by my editor"));
    assert!(told, "the model got the client's result");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_the_model_sees_is_the_request_it_got() {
    let (_dir, fake, rt, project) = setup();
    std::fs::write(project.join("AGENTS.md"), "Be brief.\n").unwrap();
    let id = rt.create_context(None, Some(project.display().to_string())).await.unwrap().id;
    assert_eq!(rt.sent_request(&id).await.unwrap(), None, "nothing sent yet");
    send(&rt, &id, Payload::Text { text: "hello".into() }).await.unwrap();
    let seen = rt.sent_request(&id).await.unwrap().expect("kept");
    let got = fake.requests().last().unwrap().clone();
    assert_eq!(seen.system_text(), got.system, "the same system prompt");
    let parts: Vec<PromptPart> = seen.system.iter().map(|p| p.part).collect();
    assert_eq!(parts[..3], [PromptPart::Base, PromptPart::Untrusted, PromptPart::Workspace]);
    assert!(parts.contains(&PromptPart::Instructions) && parts.contains(&PromptPart::Tools));
    assert_eq!(seen.messages.len(), got.messages.len());
    assert_eq!(seen.messages.last().map(|m| m.text.as_str()), Some("hello"));
    let names: Vec<&str> = seen.tools.iter().map(|t| t.name.as_str()).collect();
    let got_names: Vec<&str> = got.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, got_names);
    assert!(seen.system.iter().all(|p| p.tokens > 0) && seen.tools.iter().all(|t| t.tokens > 0));
    let unknown = rt.sent_request(&ContextId("nope".into())).await;
    assert!(unknown.is_err(), "an unknown conversation is an error");
}
