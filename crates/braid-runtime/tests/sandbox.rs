//! The conversation's sandbox through the runtime: `run_command` runs in
//! it (a write outside the workspace reaches the model as blocked by the
//! sandbox), the setting changes what the next command may do, and it is
//! kept with the conversation.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_llm::fake::FakeProvider;
use braid_protocol::{NewMessage, Sandbox, SandboxLevel, StatusKind, ToolApprovalPolicy, ToolResultStatus};
use braid_runtime::{Runtime, RuntimeConfig};
use braid_testkit::harness::Watch;
use braid_testkit::script::{answer, calls, results};
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_run_in_the_conversations_sandbox_and_the_model_is_told_when_it_blocked_one() {
    let dir = tempfile::tempdir().unwrap();
    // Outside the workspace and outside /tmp (the sandbox's /tmp is private).
    let home = std::env::var("HOME").unwrap();
    let outside = std::path::Path::new(&home).join(format!(".cache/braid-runtime-sandbox-{}", std::process::id()));
    std::fs::create_dir_all(&outside).unwrap();
    let target = outside.join("note.txt");
    let write = json!({ "command": format!("echo hi > {}", target.display()) });
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    fake.push_reply(calls(&[("sandboxed", "run_command", write.clone())]));
    fake.push_reply(answer("The sandbox stopped it."));
    fake.push_reply(calls(&[("full", "run_command", write)]));
    fake.push_reply(answer("Written."));
    let mut config = RuntimeConfig::new(dir.path().join("braid.db"), dir.path().to_owned());
    config.machine.tools.policy = ToolApprovalPolicy::AutoAll;
    let (rt, _) = Runtime::open(config.clone(), fake.clone()).unwrap();
    let ctx = rt.create_context(None, None).await.unwrap().id;
    assert_eq!(rt.peek(&ctx).await.unwrap().tools.sandbox, Sandbox::default());

    let mut watch = Watch::new(&rt, &ctx).await;
    rt.send_message(&ctx, NewMessage::user_text("write the note"), false).await.unwrap();
    watch.until("busy", |s| s.is_busy()).await;
    watch.state(StatusKind::Idle).await;
    let told = &fake.requests()[1].messages;
    let result = format!("{:?}", told.last().unwrap().body);
    assert!(result.contains("blocked by the sandbox") && result.contains("sandbox: workspace-write"), "{result}");
    assert!(!target.exists());

    let full = Sandbox { level: SandboxLevel::FullAccess, ..Sandbox::default() };
    assert_eq!(rt.set_sandbox(&ctx, full).await.unwrap().sandbox, full);
    rt.send_message(&ctx, NewMessage::user_text("now with full access"), false).await.unwrap();
    watch.until("busy", |s| s.is_busy()).await;
    watch.state(StatusKind::Idle).await;
    let snap = rt.load_context(&ctx).await.unwrap();
    let statuses: Vec<_> = results(&snap.messages).into_iter().map(|r| (r.0, r.1)).collect();
    assert_eq!(statuses, [("sandboxed".into(), ToolResultStatus::Error), ("full".into(), ToolResultStatus::Success)]);
    assert!(target.exists());
    rt.shutdown().await;

    let (again, _) = Runtime::open(config, fake).unwrap();
    assert_eq!(again.peek(&ctx).await.unwrap().tools.sandbox, full, "kept with the conversation");
    again.shutdown().await;
    std::fs::remove_dir_all(&outside).unwrap();
}
