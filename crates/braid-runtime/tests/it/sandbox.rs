//! The conversation's sandbox through the runtime: `run_command` runs in
//! it; a write outside the workspace is stopped and the user decides (keep
//! it in: the model hears why; or run it once outside); the setting
//! changes what the next command may do, and is kept with the conversation.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_llm::fake::FakeProvider;
use braid_protocol::{
    ApprovalDecision, NewMessage, Sandbox, SandboxLevel, StatusKind, ToolApprovalPolicy, ToolResultStatus,
};
use braid_runtime::{Runtime, RuntimeConfig};
use braid_testkit::harness::Watch;
use braid_testkit::script::{answer, calls, results};
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_the_sandbox_stopped_waits_for_the_user_who_may_let_it_run_outside_once() {
    let dir = tempfile::tempdir().unwrap();
    // Outside the workspace and outside /tmp (the sandbox's /tmp is
    // private) and the home (hidden): where a write meets a read-only disk.
    let outside = std::path::Path::new("/var/tmp").join(format!("braid-runtime-sandbox-{}", std::process::id()));
    std::fs::create_dir_all(&outside).unwrap();
    let target = outside.join("note.txt");
    let write = json!({ "command": format!("echo hi > {}", target.display()) });
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    fake.push_reply(calls(&[("kept", "run_command", write.clone())]));
    fake.push_reply(answer("The sandbox stopped it."));
    fake.push_reply(calls(&[("outside", "run_command", write.clone())]));
    fake.push_reply(answer("Written outside the sandbox."));
    fake.push_reply(calls(&[("full", "run_command", write)]));
    fake.push_reply(answer("Written with full access."));
    let mut config = RuntimeConfig::new(dir.path().join("braid.db"), dir.path().to_owned());
    config.machine.tools.policy = ToolApprovalPolicy::Sandboxed;
    let (rt, _) = Runtime::open(config.clone(), fake.clone()).unwrap();
    let ctx = rt.create_context(None, None).await.unwrap().id;
    assert_eq!(rt.peek(&ctx).await.unwrap().tools.sandbox, Sandbox::default());
    let mut watch = Watch::new(&rt, &ctx).await;

    // 1. Run without asking (the policy), stopped by the sandbox: the user
    //    is asked, sees why, and keeps it in; the model hears why.
    rt.send_message(&ctx, NewMessage::user_text("write the note"), false).await.unwrap();
    watch.state(StatusKind::AwaitingToolApproval).await;
    let snap = rt.load_context(&ctx).await.unwrap();
    let blocked = snap.blocked.expect("the blocked command is shown");
    assert_eq!(blocked.call_id, "kept");
    assert!(blocked.reason.contains("refused a write"), "{}", blocked.reason);
    assert!(blocked.output.starts_with("sandbox: workspace-write"), "{}", blocked.output);
    let reason = Some("write it in the workspace".to_owned());
    rt.decide_tool_call_with_reason(&ctx, "kept".into(), ApprovalDecision::Deny, reason).await.unwrap();
    watch.state(StatusKind::Idle).await;
    let told = format!("{:?}", fake.requests()[1].messages.last().unwrap().body);
    assert!(told.contains("blocked by the sandbox") && told.contains("write it in the workspace"), "{told}");
    assert!(!target.exists());

    // 2. Stopped again: this time the user lets it run outside, once.
    rt.send_message(&ctx, NewMessage::user_text("write it anyway"), false).await.unwrap();
    watch.state(StatusKind::AwaitingToolApproval).await;
    rt.decide_tool_call(&ctx, "outside".into(), ApprovalDecision::Approve).await.unwrap();
    watch.state(StatusKind::Idle).await;
    assert!(target.exists(), "outside the sandbox the write lands");
    let told = format!("{:?}", fake.requests()[3].messages.last().unwrap().body);
    assert!(told.contains("sandbox: none (full access)") && !told.contains("blocked"), "{told}");
    assert_eq!(rt.peek(&ctx).await.unwrap().tools.sandbox, Sandbox::default(), "only that call left the sandbox");
    std::fs::remove_file(&target).unwrap();

    // 3. Full access for the conversation: no sandbox, so this policy asks
    //    first, and the approved command runs with the user's rights.
    let full = Sandbox { level: SandboxLevel::FullAccess, ..Sandbox::default() };
    assert_eq!(rt.set_sandbox(&ctx, full).await.unwrap().sandbox, full);
    rt.send_message(&ctx, NewMessage::user_text("now with full access"), false).await.unwrap();
    watch.state(StatusKind::AwaitingToolApproval).await;
    assert!(rt.load_context(&ctx).await.unwrap().blocked.is_none(), "asked before it runs, not blocked");
    rt.decide_tool_call(&ctx, "full".into(), ApprovalDecision::Approve).await.unwrap();
    watch.state(StatusKind::Idle).await;
    let snap = rt.load_context(&ctx).await.unwrap();
    let statuses: Vec<_> = results(&snap.messages).into_iter().map(|r| (r.0, r.1)).collect();
    let expected = [
        ("kept", ToolResultStatus::Error),
        ("outside", ToolResultStatus::Success),
        ("full", ToolResultStatus::Success),
    ];
    assert_eq!(statuses, expected.map(|(id, s)| (id.to_owned(), s)));
    assert!(target.exists());
    rt.shutdown().await;

    let (again, _) = Runtime::open(config, fake).unwrap();
    assert_eq!(again.peek(&ctx).await.unwrap().tools.sandbox, full, "kept with the conversation");
    again.shutdown().await;
    std::fs::remove_dir_all(&outside).unwrap();
}
