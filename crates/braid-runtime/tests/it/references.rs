//! `@file` references and freshness through the runtime: mentions become
//! FileReference messages before the text, a bad reference stops the
//! message with the reason (nothing is added), and files changed outside
//! Braid are pointed out to the model before its next request.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::llm::StopReason;
use braid_llm::fake::{FakeProvider, FakeStep};
use braid_protocol::{BraidEvent, FileRefStatus, LineRange, MessageType, NewMessage, StatusKind, ToolApprovalPolicy};
use braid_runtime::Runtime;
use braid_testkit::harness::open_in;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn open(dir: &std::path::Path, fake: Arc<FakeProvider>) -> Runtime {
    open_in(dir, fake, |c| c.machine.tools.policy = ToolApprovalPolicy::AutoAll)
}

async fn idle(rt: &Runtime, id: &braid_protocol::ContextId) {
    braid_testkit::harness::Watch::new(rt, id).await.settled().await;
}

fn text(t: &str) -> NewMessage {
    NewMessage::user_text(t)
}

#[tokio::test]
async fn mentions_become_references_stored_before_the_text_and_sent() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/lib.rs"), "fn a() {}\nfn b() {}\nfn c() {}\n").unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open(dir.path(), fake.clone());
    let ctx = rt.create_context(None, None).await.unwrap();
    let (_, mut sub) = rt.subscribe(&ctx.id).await.unwrap();
    rt.send_message(&ctx.id, text("what does @src/lib.rs:2-3 do?"), false).await.unwrap();
    idle(&rt, &ctx.id).await;
    let snap = rt.load_context(&ctx.id).await.unwrap();
    match &snap.messages[0].body {
        MessageType::FileReference { path, range, content, status, .. } => {
            assert_eq!(path, "src/lib.rs");
            assert_eq!(*range, Some(LineRange { start_line: 2, end_line: 3 }));
            assert_eq!(content.as_deref(), Some("fn b() {}\nfn c() {}"));
            assert_eq!(*status, FileRefStatus::Resolved);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(snap.messages[1].body.plain_text().unwrap(), "what does @src/lib.rs:2-3 do?");
    let sent = &fake.requests()[0].messages;
    assert!(matches!(sent[0].body, MessageType::FileReference { .. }), "the reference goes to the model");
    let mut saw_resolving = false;
    while let Ok(Some(Ok(e))) = tokio::time::timeout(Duration::from_millis(20), sub.recv()).await {
        if let BraidEvent::ContextUpdate(u) = e {
            saw_resolving |= u.current_state.kind() == StatusKind::ResolvingFileReferences;
        }
    }
    assert!(saw_resolving, "the state showed ResolvingFileReferences");
    // A structured reference is resolved in place.
    let body = MessageType::FileReference {
        path: "./src/lib.rs".into(),
        range: Some(LineRange { start_line: 1, end_line: 1 }),
        content: None,
        status: FileRefStatus::Unresolved,
        error: None,
    };
    rt.send_message(&ctx.id, NewMessage { body, force_tool: None, images: Vec::new() }, false).await.unwrap();
    idle(&rt, &ctx.id).await;
    let snap = rt.load_context(&ctx.id).await.unwrap();
    let resolved = snap.messages.iter().rev().find(|m| matches!(m.body, MessageType::FileReference { .. })).unwrap();
    assert!(
        matches!(&resolved.body, MessageType::FileReference { path, content: Some(c), .. } if path == "src/lib.rs" && c == "fn a() {}")
    );
}

#[tokio::test]
async fn a_bad_reference_stops_the_message_and_adds_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open(dir.path(), fake.clone());
    let ctx = rt.create_context(None, None).await.unwrap();
    let (_, mut sub) = rt.subscribe(&ctx.id).await.unwrap();
    for bad in ["see @missing.txt", "see @../outside.txt", "see @notes.txt:9-3"] {
        if bad.contains("notes") {
            std::fs::write(dir.path().join("notes.txt"), "a\n").unwrap();
        }
        // Refused to the caller, with the reason (not a receipt for a
        // message that was never stored).
        let refused = rt.send_message(&ctx.id, text(bad), false).await.unwrap_err().to_wire();
        assert_eq!(refused.code, braid_protocol::ErrorCode::InvalidInput, "{bad}: {refused}");
        assert!(refused.message.starts_with("The message was not added: "), "{refused}");
        idle(&rt, &ctx.id).await;
    }
    let mut notices = Vec::new();
    while let Ok(Some(Ok(e))) = tokio::time::timeout(Duration::from_millis(20), sub.recv()).await {
        if let BraidEvent::ContextUpdate(u) = e {
            if let Some(n) = u.metadata.notice {
                notices.push(n.message);
            }
        }
    }
    assert!(notices.iter().any(|n| n.contains("@missing.txt: no such file")), "{notices:?}");
    assert!(notices.iter().any(|n| n.contains("outside the workspace")), "{notices:?}");
    assert!(notices.iter().any(|n| n.contains("ends before it starts")), "{notices:?}");
    assert!(rt.load_context(&ctx.id).await.unwrap().messages.is_empty(), "nothing was added");
    assert!(fake.requests().is_empty());
}

#[tokio::test]
async fn the_model_is_told_which_files_changed_outside_since_it_read_them() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("plan.md"), "step 1\n").unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    fake.push_reply(vec![
        FakeStep::ToolCall { id: "r".into(), name: "read_file".into(), arguments: r#"{"path":"plan.md"}"#.into() },
        FakeStep::Finish(StopReason::ToolUse),
    ]);
    fake.push_reply(vec![FakeStep::Text("read it".into()), FakeStep::Finish(StopReason::EndTurn)]);
    let rt = open(dir.path(), fake.clone());
    let ctx = rt.create_context(None, None).await.unwrap();
    rt.send_message(&ctx.id, text("read the plan"), false).await.unwrap();
    idle(&rt, &ctx.id).await;
    let files = rt.load_context(&ctx.id).await.unwrap().files;
    assert_eq!(
        files,
        [braid_protocol::FileInPlay {
            path: "plan.md".into(),
            state: braid_protocol::FileState::Fresh,
            while_closed: false
        }]
    );
    std::fs::write(dir.path().join("plan.md"), "step 1\nstep 2 (added by hand)\n").unwrap();
    let files = rt.load_context(&ctx.id).await.unwrap().files;
    assert_eq!(files[0].state, braid_protocol::FileState::ChangedOutside, "the files in play show the change");
    let found = rt
        .execute(braid_protocol::Command::ListWorkspaceFiles {
            context_id: ctx.id.clone(),
            query: "pln".into(),
            limit: None,
        })
        .await
        .unwrap();
    assert_eq!(found, serde_json::json!(["plan.md"]));
    rt.send_message(&ctx.id, text("go on"), false).await.unwrap();
    idle(&rt, &ctx.id).await;
    rt.send_message(&ctx.id, text("and then?"), false).await.unwrap();
    idle(&rt, &ctx.id).await;
    let requests = fake.requests();
    let system = |i: usize| requests[i].system.clone().unwrap_or_default();
    assert!(!system(1).contains("changed outside Braid"), "no change yet");
    assert!(system(2).contains("plan.md: changed (7 → 30 bytes)"), "{}", system(2));
    assert!(!system(3).contains("plan.md"), "said once per change");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watched_file_changed_outside_is_announced_once_and_a_touch_is_not() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("plan.md"), "step 1\n").unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open(dir.path(), fake.clone());
    let ctx = rt.create_context(None, None).await.unwrap();
    let (_, mut sub) = rt.subscribe(&ctx.id).await.unwrap();
    rt.send_message(&ctx.id, text("look at @plan.md"), false).await.unwrap();
    idle(&rt, &ctx.id).await;
    assert!(notices(&mut sub, 300).await.is_empty());
    // A touch: same bytes, new time.
    std::fs::File::options()
        .write(true)
        .open(dir.path().join("plan.md"))
        .unwrap()
        .set_modified(std::time::SystemTime::now() + Duration::from_secs(30))
        .unwrap();
    assert!(notices(&mut sub, 1_000).await.is_empty(), "a touch is not a change");
    std::fs::write(dir.path().join("plan.md"), "step 1\nstep 2\n").unwrap();
    let seen = notices(&mut sub, 2_000).await;
    assert_eq!(seen, ["plan.md changed outside Braid; the model will be told before its next request."], "{seen:?}");
}

async fn notices(sub: &mut braid_runtime::Subscription, wait: u64) -> Vec<String> {
    let mut out = Vec::new();
    let end = Instant::now() + Duration::from_millis(wait);
    while let Ok(Some(Ok(e))) = tokio::time::timeout(end.saturating_duration_since(Instant::now()), sub.recv()).await {
        if let BraidEvent::ContextUpdate(u) = e {
            if let Some(n) = u.metadata.notice.filter(|n| n.code == braid_protocol::NoticeCode::FileChanged) {
                out.push(n.message);
            }
        }
    }
    out
}

#[tokio::test]
async fn a_reference_can_be_kept_in_context_and_that_lasts() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.md"), "keep me\n").unwrap();
    let rt = open(dir.path(), Arc::new(FakeProvider::echo(Duration::ZERO)));
    let ctx = rt.create_context(None, None).await.unwrap();
    rt.send_message(&ctx.id, text("read @notes.md"), false).await.unwrap();
    idle(&rt, &ctx.id).await;
    let snap = rt.load_context(&ctx.id).await.unwrap();
    let (file, question) = (snap.messages[0].id, snap.messages[1].id);
    let refused = rt.keep_in_context(&ctx.id, question, true).await.unwrap_err();
    assert!(refused.to_string().contains("only a file reference, an image or a resource can be kept"), "{refused}");
    let missing = rt.keep_in_context(&ctx.id, braid_protocol::MessageId(999), true).await.unwrap_err();
    assert!(missing.to_string().contains("there is no message 999"), "{missing}");
    rt.keep_in_context(&ctx.id, file, true).await.unwrap();
    drop(rt);
    let rt = open(dir.path(), Arc::new(FakeProvider::echo(Duration::ZERO)));
    assert_eq!(rt.load_context(&ctx.id).await.unwrap().kept, [file], "kept after a restart");
    rt.keep_in_context(&ctx.id, file, false).await.unwrap();
    assert!(rt.load_context(&ctx.id).await.unwrap().kept.is_empty());
}
