//! The runtime end to end: a real SQLite file, real tokio tasks, the fake
//! provider driven chunk by chunk.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::llm::StopReason;
use braid_core::MachineConfig;
use braid_llm::fake::{FakeController, FakeProvider, FakeRequest};
use braid_llm::LlmError;
use braid_protocol::{
    BraidEvent, ContextId, ContextStatus, ErrorCode, MessageChange, MessageType, NewMessage, StatusKind,
};
use braid_runtime::{Runtime, RuntimeConfig, RuntimeError, Subscription};
use std::sync::Arc;
use std::time::Duration;

struct Harness {
    rt: Runtime,
    fake: FakeController,
    _dir: tempfile::TempDir,
    db: std::path::PathBuf,
}

fn config(dir: &std::path::Path) -> RuntimeConfig {
    let mut c = RuntimeConfig::new(dir.join("braid.db"), dir.to_owned());
    c.machine = MachineConfig { backoff_base_ms: 20, backoff_cap_ms: 100, ..MachineConfig::default() };
    c
}

fn harness() -> Harness {
    let dir = tempfile::tempdir().unwrap();
    let (provider, fake) = FakeProvider::manual();
    let (rt, _) = Runtime::open(config(dir.path()), Arc::new(provider)).unwrap();
    Harness { rt, fake, db: dir.path().join("braid.db"), _dir: dir }
}

fn text(t: &str) -> NewMessage {
    NewMessage::user_text(t)
}

async fn within<T>(f: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(10), f).await.expect("timed out")
}

impl Harness {
    async fn request(&mut self) -> FakeRequest {
        within(self.fake.next_request()).await.expect("a request")
    }
}

/// Collects events until the context is in `until` (by kind).
async fn events_until(sub: &mut Subscription, until: StatusKind) -> Vec<BraidEvent> {
    let mut out = Vec::new();
    loop {
        let e = within(sub.recv()).await.expect("stream open").expect("no lag");
        let done =
            matches!(&e, BraidEvent::ContextUpdate(u) if u.current_state.kind() == until && u.previous_state.is_some());
        out.push(e);
        if done {
            return out;
        }
    }
}

fn states(events: &[BraidEvent]) -> Vec<StatusKind> {
    let mut out: Vec<StatusKind> = Vec::new();
    for e in events {
        if let BraidEvent::ContextUpdate(u) = e {
            if out.last() != Some(&u.current_state.kind()) {
                out.push(u.current_state.kind());
            }
        }
    }
    out
}

fn texts(snapshot: &braid_protocol::ContextSnapshot) -> Vec<String> {
    snapshot
        .messages
        .iter()
        .map(|m| m.body.plain_text().unwrap_or_else(|| format!("[{}]", m.body.kind().tag())))
        .collect()
}

#[tokio::test]
async fn streams_chunk_by_chunk_and_persists_the_answer() {
    let mut h = harness();
    let ctx = h.rt.create_context(Some("demo".into()), None).await.unwrap();
    let (snap, mut sub) = h.rt.subscribe(&ctx.id).await.unwrap();
    assert_eq!(snap.summary.status, ContextStatus::Idle);
    let receipt = h.rt.send_message(&ctx.id, text("hello"), false).await.unwrap();
    assert!(!receipt.queued);
    let req = h.request().await;
    assert_eq!(req.request.messages.len(), 1, "the prompt holds the user message");
    req.connect();
    for w in ["Hi ", "there", "!"] {
        req.text(w);
    }
    req.usage(3, 2);
    req.finish(StopReason::EndTurn);
    let events = events_until(&mut sub, StatusKind::Idle).await;
    let stored = h.rt.load_context(&ctx.id).await.unwrap();
    assert_eq!(
        stored.messages[1].meta.usage,
        Some(braid_protocol::TokenUsage { prompt_tokens: 3, completion_tokens: 2 }),
        "reported usage is recorded on the answer"
    );
    assert_eq!(stored.messages[0].meta.usage, None);
    assert_eq!(
        states(&events),
        [
            StatusKind::ProcessingUserMessage,
            StatusKind::EnhancingSystemPrompt,
            StatusKind::PreparingLlmRequest,
            StatusKind::ConnectingToLlm,
            StatusKind::AwaitingLlmFirstChunk,
            StatusKind::StreamingLlmResponse,
            StatusKind::ProcessingLlmResponse,
            StatusKind::Idle
        ]
    );
    let deltas: Vec<(u64, String)> = events
        .iter()
        .filter_map(|e| match e {
            BraidEvent::ContentDelta(d) => Some((d.sequence, d.delta.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(deltas, [(1, "Hi ".into()), (2, "there".into()), (3, "!".into())]);
    assert!(events.iter().any(|e| matches!(e, BraidEvent::ContentFinal(f) if f.sequence == 4 && f.is_final)));
    // The running counts go out a few times a second; the last ones
    // always, as the state the stream ended in.
    let last_stream = events.iter().find_map(|e| match e {
        BraidEvent::ContextUpdate(u) => match u.previous_state {
            Some(ContextStatus::StreamingLlmResponse { chunks, chars }) => Some((chunks, chars)),
            _ => None,
        },
        _ => None,
    });
    assert_eq!(last_stream, Some((3, 9)));

    // A new runtime on the same file sees the same conversation.
    h.rt.shutdown().await;
    let (rt2, report) =
        Runtime::open(config(h.db.parent().unwrap()), Arc::new(FakeProvider::echo(Duration::ZERO))).unwrap();
    assert!(report.recovered.is_empty());
    let snap = rt2.load_context(&ctx.id).await.unwrap();
    assert_eq!(texts(&snap), ["hello", "Hi there!"]);
    assert_eq!(rt2.list_contexts().await.unwrap()[0].title, "demo");
}

#[tokio::test]
async fn cancel_mid_stream_closes_the_connection_and_keeps_no_partial_answer() {
    let mut h = harness();
    let ctx = h.rt.create_context(None, None).await.unwrap();
    let (_, mut sub) = h.rt.subscribe(&ctx.id).await.unwrap();
    h.rt.send_message(&ctx.id, text("long story"), false).await.unwrap();
    let req = h.request().await;
    req.connect();
    req.text("Once upon");
    events_until(&mut sub, StatusKind::StreamingLlmResponse).await;
    h.rt.cancel(&ctx.id).await.unwrap();
    within(async {
        while !req.is_closed() {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    })
    .await;
    req.text(" a time"); // too late: nobody listens
    let snap = h.rt.load_context(&ctx.id).await.unwrap();
    assert_eq!(snap.summary.status, ContextStatus::Idle);
    assert_eq!(texts(&snap), ["long story"]);
    let events = events_until(&mut sub, StatusKind::Idle).await;
    assert!(events.iter().any(|e| matches!(e, BraidEvent::ContextUpdate(u) if u.message.as_ref().is_some_and(|m| m.change == MessageChange::StatusChanged { status: "discarded".into() }))));
}

#[tokio::test]
async fn busy_context_rejects_or_queues_visibly() {
    let mut h = harness();
    let ctx = h.rt.create_context(None, None).await.unwrap();
    h.rt.send_message(&ctx.id, text("first"), false).await.unwrap();
    let req = h.request().await;
    req.connect();
    let err = h.rt.send_message(&ctx.id, text("second"), false).await.unwrap_err();
    let wire = err.to_wire();
    assert_eq!(wire.code, ErrorCode::AgentBusy, "{wire}");
    let receipt = h.rt.send_message(&ctx.id, text("second"), true).await.unwrap();
    assert!(receipt.queued);
    assert_eq!(h.rt.load_context(&ctx.id).await.unwrap().queued.len(), 1, "the queue is visible");
    req.text("one");
    req.finish(StopReason::EndTurn);
    let req2 = h.request().await;
    req2.text("two");
    req2.finish(StopReason::EndTurn);
    within(async {
        loop {
            let snap = h.rt.load_context(&ctx.id).await.unwrap();
            if snap.summary.status == ContextStatus::Idle && snap.messages.len() == 4 {
                assert_eq!(texts(&snap), ["first", "one", "second", "two"]);
                assert!(snap.queued.is_empty());
                return;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await;
}

#[tokio::test]
async fn retryable_failures_retry_then_fail_then_sending_continues() {
    let mut h = harness();
    let ctx = h.rt.create_context(None, None).await.unwrap();
    let (_, mut sub) = h.rt.subscribe(&ctx.id).await.unwrap();
    h.rt.send_message(&ctx.id, text("hi"), false).await.unwrap();
    for _ in 0..4 {
        let req = h.request().await;
        req.fail(LlmError::Server { provider: "fake".into(), status: 503, message: "overloaded".into() });
    }
    let events = events_until(&mut sub, StatusKind::Failed).await;
    let retries = events
        .iter()
        .filter(|e| matches!(e, BraidEvent::ContextUpdate(u) if u.current_state.kind() == StatusKind::RetryingLlmRequest && u.previous_state.is_some()))
        .count();
    assert_eq!(retries, 3);
    let snap = h.rt.load_context(&ctx.id).await.unwrap();
    match snap.summary.status {
        ContextStatus::Failed { error_code, message, .. } => {
            assert_eq!(error_code, braid_protocol::FailureCode::ServerError);
            assert!(message.contains("overloaded") && message.contains("gave up after 3 retries"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    h.rt.send_message(&ctx.id, text("again"), false).await.unwrap();
    let req = h.request().await;
    req.text("ok");
    req.finish(StopReason::EndTurn);
    events_until(&mut sub, StatusKind::Idle).await;
    assert_eq!(texts(&h.rt.load_context(&ctx.id).await.unwrap()), ["hi", "again", "ok"]);
}

#[tokio::test]
async fn a_cut_stream_is_retried_and_auth_errors_fail_at_once() {
    let mut h = harness();
    let ctx = h.rt.create_context(None, None).await.unwrap();
    let (_, mut sub) = h.rt.subscribe(&ctx.id).await.unwrap();
    h.rt.send_message(&ctx.id, text("hi"), false).await.unwrap();
    let req = h.request().await;
    req.text("half");
    drop(req); // the server hangs up without finishing
    let req = h.request().await;
    req.fail(LlmError::Auth { provider: "fake".into(), message: "401 invalid key".into() });
    events_until(&mut sub, StatusKind::Failed).await;
    let snap = h.rt.load_context(&ctx.id).await.unwrap();
    assert!(
        matches!(&snap.summary.status, ContextStatus::Failed { error_code, recoverable: false, .. } if *error_code == braid_protocol::FailureCode::Auth)
    );
    assert_eq!(texts(&snap), ["hi"], "no half answer stored");
}

#[tokio::test]
async fn interrupt_keeps_what_arrived() {
    let mut h = harness();
    let ctx = h.rt.create_context(None, None).await.unwrap();
    let (_, mut sub) = h.rt.subscribe(&ctx.id).await.unwrap();
    h.rt.send_message(&ctx.id, text("explain"), false).await.unwrap();
    let req = h.request().await;
    req.text("The short ");
    req.text("version");
    events_until(&mut sub, StatusKind::StreamingLlmResponse).await;
    within(async {
        loop {
            if let ContextStatus::StreamingLlmResponse { chunks: 2, .. } =
                h.rt.load_context(&ctx.id).await.unwrap().summary.status
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    })
    .await;
    h.rt.interrupt(&ctx.id).await.unwrap();
    events_until(&mut sub, StatusKind::Idle).await;
    assert_eq!(texts(&h.rt.load_context(&ctx.id).await.unwrap()), ["explain", "The short version"]);
}

/// Subscribes once the answer has streamed `chunks` chunks.
async fn subscribe_at_chunk(
    h: &Harness,
    id: &braid_protocol::ContextId,
    chunks: u32,
) -> (braid_protocol::ContextSnapshot, Subscription) {
    within(async {
        loop {
            let (snap, sub) = h.rt.subscribe(id).await.unwrap();
            if matches!(snap.summary.status, ContextStatus::StreamingLlmResponse { chunks: c, .. } if c == chunks) {
                return (snap, sub);
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    })
    .await
}

#[tokio::test]
async fn a_late_subscriber_gets_the_current_state_first() {
    let mut h = harness();
    let ctx = h.rt.create_context(None, None).await.unwrap();
    h.rt.send_message(&ctx.id, text("q"), false).await.unwrap();
    let req = h.request().await;
    req.connect();
    req.text("abc");
    let (snap, _) = subscribe_at_chunk(&h, &ctx.id, 1).await;
    assert_eq!(snap.summary.status, ContextStatus::StreamingLlmResponse { chunks: 1, chars: 3 });
    assert_eq!(texts(&snap), ["q"]);
    req.finish(StopReason::EndTurn);
}

#[tokio::test]
async fn a_late_subscriber_gets_the_answer_so_far_then_the_rest() {
    let mut h = harness();
    let ctx = h.rt.create_context(None, None).await.unwrap();
    h.rt.send_message(&ctx.id, text("q"), false).await.unwrap();
    let req = h.request().await;
    req.connect();
    req.text("abc");
    req.text("def");
    let (snap, mut sub) = subscribe_at_chunk(&h, &ctx.id, 2).await;
    let draft = snap.draft.expect("the answer so far");
    assert_eq!(draft.text, "abcdef");
    req.text("gh");
    let next = within(async {
        loop {
            if let BraidEvent::ContentDelta(d) = sub.recv().await.unwrap().unwrap() {
                return d;
            }
        }
    })
    .await;
    assert_eq!((next.message_id, next.sequence, next.delta.as_str()), (draft.message_id, 3, "gh"));
    req.finish(StopReason::EndTurn);
    events_until(&mut sub, StatusKind::Idle).await;
    let after = h.rt.load_context(&ctx.id).await.unwrap();
    assert_eq!(texts(&after), ["q", "abcdefgh"]);
    assert_eq!(after.draft, None, "no draft once the answer is stored");
}

#[tokio::test]
async fn branches_fork_and_switch_through_the_runtime() {
    let dir = tempfile::tempdir().unwrap();
    let (rt, _) = Runtime::open(config(dir.path()), Arc::new(FakeProvider::echo(Duration::ZERO))).unwrap();
    let ctx = rt.create_context(None, Some(dir.path().display().to_string())).await.unwrap();
    let (_, mut sub) = rt.subscribe(&ctx.id).await.unwrap();
    for q in ["one", "two"] {
        rt.send_message(&ctx.id, text(q), false).await.unwrap();
        events_until(&mut sub, StatusKind::Idle).await;
    }
    let snap = rt.load_context(&ctx.id).await.unwrap();
    assert_eq!(texts(&snap), ["one", "You said: one", "two", "You said: two"]);
    let b = rt.create_branch(&ctx.id, snap.messages[1].id, "alt".into(), Some("Be brief".into())).await.unwrap();
    rt.switch_branch(&ctx.id, b.clone()).await.unwrap();
    rt.send_message(&ctx.id, text("three"), false).await.unwrap();
    events_until(&mut sub, StatusKind::Idle).await;
    let snap = rt.load_context(&ctx.id).await.unwrap();
    assert_eq!(snap.active_branch, b);
    assert_eq!(texts(&snap), ["one", "You said: one", "[system_control]", "three", "You said: three"]);
    assert_eq!(snap.branches.len(), 2);
    let peek = rt.peek(&ctx.id).await.unwrap();
    assert!(peek.messages.is_empty() && peek.truncated, "peek carries no messages");
    assert_eq!((peek.branches.len(), peek.active_branch), (2, b.clone()));
    let bad = rt.switch_branch(&ctx.id, braid_protocol::BranchId("nope".into())).await.unwrap_err();
    assert_eq!(bad.to_wire().code, ErrorCode::InvalidInput);

    rt.delete_context(&ctx.id).await.unwrap();
    assert!(matches!(rt.load_context(&ctx.id).await, Err(RuntimeError::NotFound(_))));
    assert!(rt.list_contexts().await.unwrap().is_empty());
    let missing = rt.send_message(&ContextId("ctx-missing".into()), text("x"), false).await.unwrap_err();
    assert_eq!(missing.to_wire().code, ErrorCode::NotFound);
}

#[tokio::test]
async fn bad_input_gets_a_clear_error_and_changes_nothing() {
    let h = harness();
    let err = h.rt.create_context(None, Some("/definitely/not/here".into())).await.unwrap_err();
    assert_eq!(err.to_wire().code, ErrorCode::InvalidInput);
    assert!(err.to_string().contains("/definitely/not/here"));
    let ctx = h.rt.create_context(None, None).await.unwrap();
    let err = h.rt.send_message(&ctx.id, text("   "), false).await.unwrap_err();
    assert_eq!(err.to_wire().code, ErrorCode::InvalidInput);
    assert_eq!(err.to_string(), "the message is empty");
    let snap = h.rt.load_context(&ctx.id).await.unwrap();
    assert!(snap.messages.is_empty());
    assert_eq!(snap.summary.status, ContextStatus::Idle);
}

#[tokio::test]
async fn tool_states_run_end_to_end_with_the_fake() {
    use braid_llm::fake::FakeStep;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "hello from a\n").unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    fake.push_reply(vec![
        FakeStep::Connect,
        FakeStep::Text("Let me look.".into()),
        FakeStep::ToolCall { id: "call_1".into(), name: "read_file".into(), arguments: r#"{"path":"a.txt"}"#.into() },
        FakeStep::Finish(StopReason::ToolUse),
    ]);
    fake.push_reply(vec![FakeStep::Text("It says hello.".into()), FakeStep::Finish(StopReason::EndTurn)]);
    let mut cfg = config(dir.path());
    cfg.machine.tools.policy = braid_protocol::ToolApprovalPolicy::Manual;
    let (rt, _) = Runtime::open(cfg, fake.clone()).unwrap();
    let ctx = rt.create_context(None, None).await.unwrap();
    let (_, mut sub) = rt.subscribe(&ctx.id).await.unwrap();
    rt.send_message(&ctx.id, text("read a.txt"), false).await.unwrap();
    let events = events_until(&mut sub, StatusKind::AwaitingToolApproval).await;
    assert!(states(&events).contains(&StatusKind::ParsingToolCalls));
    let snap = rt.load_context(&ctx.id).await.unwrap();
    assert_eq!(
        snap.summary.status,
        ContextStatus::AwaitingToolApproval {
            pending_requests: vec!["call_1".into()],
            tool_names: vec!["read_file".into()]
        }
    );
    let err = rt.decide_tool_call(&ctx.id, "nope".into(), braid_protocol::ApprovalDecision::Approve).await.unwrap_err();
    assert_eq!(err.to_wire().code, ErrorCode::InvalidState);
    rt.decide_tool_call(&ctx.id, "call_1".into(), braid_protocol::ApprovalDecision::Approve).await.unwrap();
    let events = events_until(&mut sub, StatusKind::Idle).await;
    let seen = states(&events);
    for k in [
        StatusKind::ExecutingTool,
        StatusKind::CollectingToolResults,
        StatusKind::ToolAutoLoop,
        StatusKind::StreamingLlmResponse,
    ] {
        assert!(seen.contains(&k), "{k:?} in {seen:?}");
    }
    let snap = rt.load_context(&ctx.id).await.unwrap();
    let kinds: Vec<&str> = snap.messages.iter().map(|m| m.body.kind().tag()).collect();
    assert_eq!(kinds, ["text", "tool_request", "tool_result", "text"]);
    match &snap.messages[2].body {
        MessageType::ToolResult { request_id, output, status, .. } => {
            assert_eq!(request_id, "call_1");
            assert_eq!(*status, braid_protocol::ToolResultStatus::Success);
            assert_eq!(output, "     1\thello from a\n", "the real file, read by the real tool");
        }
        other => panic!("{other:?}"),
    }
    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    let second: Vec<&str> = requests[1].messages.iter().map(|m| m.body.kind().tag()).collect();
    assert_eq!(second, ["text", "tool_request", "tool_result"], "the result goes back with its call");
}
