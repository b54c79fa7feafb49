//! File freshness across a restart, and no blind overwrites, through the
//! runtime with the scripted fake provider and the real tools on a real
//! workspace: the records are stored with the tool results and loaded with
//! the conversation, a change made while Braid was closed is shown and
//! told to the model once, and a write over a file the model has not seen
//! as it is needs a read first or the user's "approve and overwrite".

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_llm::fake::FakeProvider;
use braid_protocol::{
    ApprovalDecision, FileState, NewMessage, OverwriteReason, StatusKind, ToolApprovalPolicy, ToolResultStatus,
};
use braid_runtime::Runtime;
use braid_testkit::harness::open_in;
use braid_testkit::harness::Watch;
use braid_testkit::script::{answer, calls, results};
use serde_json::json;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

fn open(dir: &Path, fake: Arc<FakeProvider>, policy: ToolApprovalPolicy) -> Runtime {
    open_in(dir, fake, |c| c.machine.tools.policy = policy)
}

async fn settled(rt: &Runtime, id: &braid_protocol::ContextId) {
    Watch::new(rt, id).await.settled().await;
}

#[tokio::test]
async fn a_change_made_while_braid_was_closed_is_shown_told_once_and_guards_the_write() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("plan.md"), "step 1\n").unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    fake.push_reply(calls(&[("r1", "read_file", json!({"path": "plan.md"}))]));
    fake.push_reply(answer("I read the plan."));
    let rt = open(dir.path(), fake, ToolApprovalPolicy::AutoAll);
    let ctx = rt.create_context(None, None).await.unwrap();
    rt.send_message(&ctx.id, NewMessage::user_text("read the plan"), false).await.unwrap();
    settled(&rt, &ctx.id).await;
    rt.shutdown().await;
    drop(rt);

    // Edited while Braid is closed.
    std::fs::write(dir.path().join("plan.md"), "step 1\nstep 2 (by hand)\n").unwrap();

    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let new_plan = json!({"path": "plan.md", "content": "step 1\nstep 2 (by hand)\nstep 3\n"});
    fake.push_reply(calls(&[("w1", "write_file", new_plan.clone())]));
    fake.push_reply(calls(&[("r2", "read_file", json!({"path": "plan.md"}))]));
    fake.push_reply(calls(&[("w2", "write_file", new_plan)]));
    fake.push_reply(answer("Added step 3."));
    fake.push_reply(answer("Nothing else."));
    let rt = open(dir.path(), fake.clone(), ToolApprovalPolicy::AutoAll);
    let snap = rt.load_context(&ctx.id).await.unwrap();
    assert_eq!(snap.files.len(), 1);
    assert_eq!(
        (snap.files[0].state, snap.files[0].while_closed),
        (FileState::ChangedOutside, true),
        "{:?}",
        snap.files
    );

    rt.send_message(&ctx.id, NewMessage::user_text("add step 3"), false).await.unwrap();
    settled(&rt, &ctx.id).await;
    let snap = rt.load_context(&ctx.id).await.unwrap();
    let r = results(&snap.messages);
    assert_eq!(r[1].0, "w1");
    assert!(r[1].2.contains("plan.md changed outside Braid since you last read it (7 → 24 bytes)"), "{r:?}");
    assert_eq!((r[3].0.as_str(), r[3].1), ("w2", ToolResultStatus::Success), "after reading again the write works");
    assert_eq!(std::fs::read_to_string(dir.path().join("plan.md")).unwrap(), "step 1\nstep 2 (by hand)\nstep 3\n");
    assert_eq!((snap.files[0].state, snap.files[0].while_closed), (FileState::Fresh, false));

    rt.send_message(&ctx.id, NewMessage::user_text("anything else?"), false).await.unwrap();
    settled(&rt, &ctx.id).await;
    let told: Vec<bool> = fake
        .requests()
        .iter()
        .map(|r| r.system.clone().unwrap_or_default().contains("plan.md: changed (7 → 24 bytes)"))
        .collect();
    assert_eq!(told, [true, false, false, false, false], "the model is told once, in the first request");
}

#[tokio::test]
async fn a_write_over_an_unread_file_waits_for_the_user_to_approve_overwriting_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.md"), "the user's notes\n").unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    fake.push_reply(calls(&[
        ("w1", "write_file", json!({"path": "notes.md", "content": "agent\n"})),
        ("w2", "write_file", json!({"path": "new.md", "content": "new\n"})),
    ]));
    fake.push_reply(answer("Refused, then."));
    fake.push_reply(calls(&[("w3", "write_file", json!({"path": "notes.md", "content": "agent\n"}))]));
    fake.push_reply(answer("Overwritten."));
    let rt = open(dir.path(), fake, ToolApprovalPolicy::Manual);
    let ctx = rt.create_context(None, None).await.unwrap();
    let mut watch = Watch::new(&rt, &ctx.id).await;

    // Approved as is: the existing file is refused, the new one is made.
    rt.send_message(&ctx.id, NewMessage::user_text("write them"), false).await.unwrap();
    watch.state(StatusKind::AwaitingToolApproval).await;
    let snap = rt.load_context(&ctx.id).await.unwrap();
    let risks: Vec<_> = snap.overwrites.iter().map(|o| (o.call_id.to_string(), o.path.clone(), o.reason)).collect();
    assert_eq!(risks, [("w1".to_owned(), "notes.md".to_owned(), OverwriteReason::NotRead)], "a new file is no risk");
    // The dialog shows what each would change.
    let previews: Vec<_> = snap.previews.iter().map(|p| (p.call_id.to_string(), p.new_file, p.diff.clone())).collect();
    assert_eq!(previews[0].0, "w1");
    assert!(!previews[0].1 && previews[0].2.contains("-the user's notes\n+agent\n"), "{previews:?}");
    assert_eq!((previews[1].0.as_str(), previews[1].1), ("w2", true));
    assert!(previews[1].2.contains("+new\n"), "{previews:?}");
    rt.decide_tool_call(&ctx.id, "w1".into(), ApprovalDecision::Approve).await.unwrap();
    rt.decide_tool_call(&ctx.id, "w2".into(), ApprovalDecision::Approve).await.unwrap();
    watch.settled().await;
    let r = results(&rt.load_context(&ctx.id).await.unwrap().messages);
    assert!(r[0].2.contains("notes.md exists and you have not read it in this conversation: read it first"), "{r:?}");
    assert_eq!(r[1].1, ToolResultStatus::Success, "{r:?}");
    assert_eq!(std::fs::read_to_string(dir.path().join("notes.md")).unwrap(), "the user's notes\n");
    assert_eq!(std::fs::read_to_string(dir.path().join("new.md")).unwrap(), "new\n");

    // Approved to overwrite: it goes through.
    rt.send_message(&ctx.id, NewMessage::user_text("overwrite it"), false).await.unwrap();
    watch.state(StatusKind::AwaitingToolApproval).await;
    rt.decide_tool_call(&ctx.id, "w3".into(), ApprovalDecision::ApproveOverwrite).await.unwrap();
    watch.settled().await;
    assert_eq!(std::fs::read_to_string(dir.path().join("notes.md")).unwrap(), "agent\n");
    // Each stored write result says what it left, for merges to compare;
    // the refused one left nothing.
    let left: Vec<Option<u64>> = rt
        .load_context(&ctx.id)
        .await
        .unwrap()
        .messages
        .iter()
        .filter(|m| matches!(m.body, braid_protocol::MessageType::ToolResult { .. }))
        .map(|m| m.meta.written_hash)
        .collect();
    let hash = |s: &str| Some(braid_workspace::freshness::content_hash(s.as_bytes()));
    assert_eq!(left, [None, hash("new\n"), hash("agent\n")]);
}
