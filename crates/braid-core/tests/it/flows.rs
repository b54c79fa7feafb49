//! State-sequence tests: a flow of events in, the exact states and events
//! out. No runtime, a simulated clock (quinn-proto style).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::llm::{LlmFailure, LlmResponse, StopReason, ToolCallSpec};
use braid_core::machine::{Effect, Event, Reply, ToolOutcome};
use braid_core::sim::{reply_of, Sim};
use braid_protocol::{
    Approval, ApprovalDecision, BraidEvent, BranchId, ContextStatus as S, ControlKind, ErrorCode, MessageChange,
    MessageId, MessageType, Role, SendReceipt, StatusKind, ToolResultStatus,
};

fn user(text: &str) -> Event {
    Event::UserMessage {
        body: MessageType::text(Role::User, text),
        queue_if_busy: false,
        force_tool: None,
        images: Vec::new(),
    }
}

fn queued(text: &str) -> Event {
    Event::UserMessage {
        body: MessageType::text(Role::User, text),
        queue_if_busy: true,
        force_tool: None,
        images: Vec::new(),
    }
}

fn kinds(sim: &Sim) -> Vec<StatusKind> {
    sim.states.iter().map(S::kind).collect()
}

fn emitted(effects: &[Effect]) -> Vec<BraidEvent> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Emit(ev) => Some(ev.clone()),
            _ => None,
        })
        .collect()
}

fn texts(sim: &Sim) -> Vec<String> {
    sim.messages().iter().map(|m| braid_core::conversation::describe(&m.body)).collect()
}

/// The runtime prepares the request (a roomy window), starts sending, and
/// the answer streams in.
fn stream(sim: &mut Sim, chunks: &[&str]) {
    sim.prepare(sim.prepared(100_000));
    let rid = sim.request_id();
    sim.send(Event::LlmRequestStarted { request_id: rid });
    sim.send(Event::LlmConnected { request_id: rid });
    for c in chunks {
        sim.send(Event::LlmDelta { request_id: rid, text: (*c).to_owned() });
    }
}

fn complete(sim: &mut Sim, text: &str) -> Vec<Effect> {
    let rid = sim.request_id();
    sim.send(Event::LlmCompleted { request_id: rid, response: LlmResponse::text(text) })
}

#[test]
fn simple_text_conversation() {
    let mut sim = Sim::new();
    let fx = sim.send(user("hi"));
    assert_eq!(reply_of(&fx), Some(&Ok(Reply::Accepted(SendReceipt { message_id: MessageId(1), queued: false }))));
    assert!(matches!(fx[0], Effect::PersistState), "state is persisted before effects run: {fx:?}");
    sim.pipeline_ok(&fx);
    let rid = sim.request_id();
    sim.send(Event::LlmConnected { request_id: rid });
    sim.send(Event::LlmDelta { request_id: rid, text: "Hello!".into() });
    complete(&mut sim, "Hello!");
    assert_eq!(texts(&sim), ["hi", "Hello!"]);
    assert_eq!(sim.state.status, S::Idle);
    assert_eq!(sim.messages()[1].body.role(), Some(Role::Assistant));
}

/// The running counts of a stream, as the clients were told them.
fn counts_told(effects: &[Effect]) -> Vec<(u32, u64)> {
    emitted(effects)
        .into_iter()
        .filter_map(|e| match e {
            BraidEvent::ContextUpdate(u) => match u.current_state {
                S::StreamingLlmResponse { chunks, chars } => Some((chunks, chars)),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

#[test]
fn a_streams_counts_go_out_at_most_ten_times_a_second_and_the_last_always() {
    let mut sim = Sim::new();
    sim.start("count");
    sim.prepare(sim.prepared(100_000));
    let rid = sim.request_id();
    sim.send(Event::LlmConnected { request_id: rid });
    let mut told = Vec::new();
    let mut deltas = 0;
    // 30 chunks 10 ms apart: the first, then one per 100 ms.
    for _ in 0..30 {
        let fx = sim.send(Event::LlmDelta { request_id: rid, text: "ab".into() });
        deltas += emitted(&fx).iter().filter(|e| matches!(e, BraidEvent::ContentDelta(_))).count();
        told.extend(counts_told(&fx));
        sim.advance(10);
    }
    assert_eq!(deltas, 30, "every chunk's text goes out");
    assert_eq!(told, [(1, 2), (11, 22), (21, 42)]);
    assert_eq!(sim.state.status, S::StreamingLlmResponse { chunks: 30, chars: 60 });
    let done = complete(&mut sim, &"ab".repeat(30));
    let ended = emitted(&done).into_iter().find_map(|e| match e {
        BraidEvent::ContextUpdate(u) => u.previous_state,
        _ => None,
    });
    assert_eq!(ended, Some(S::StreamingLlmResponse { chunks: 30, chars: 60 }), "the last counts end the stream");
}

#[test]
fn streamed_answer_has_exact_states_and_events() {
    let mut sim = Sim::new();
    sim.start("count");
    sim.prepare(sim.prepared(100_000));
    let rid = sim.request_id();
    sim.send(Event::LlmRequestStarted { request_id: rid });
    sim.send(Event::LlmConnected { request_id: rid });
    // 100 ms apart: each chunk's counts are told (how often they are, in
    // the next test).
    let d1 = sim.send(Event::LlmDelta { request_id: rid, text: "one ".into() });
    sim.advance(100);
    let d2 = sim.send(Event::LlmDelta { request_id: rid, text: "two ".into() });
    sim.advance(100);
    let d3 = sim.send(Event::LlmDelta { request_id: rid, text: "three ✓".into() });
    assert!(d2.iter().all(|e| !matches!(e, Effect::PersistState)), "no write per chunk");
    let done = complete(&mut sim, "one two three ✓");

    assert_eq!(
        sim.states,
        vec![
            S::Idle,
            S::ProcessingUserMessage,
            S::EnhancingSystemPrompt,
            S::PreparingLlmRequest,
            S::ConnectingToLlm,
            S::AwaitingLlmFirstChunk,
            S::StreamingLlmResponse { chunks: 1, chars: 4 },
            S::StreamingLlmResponse { chunks: 2, chars: 8 },
            S::StreamingLlmResponse { chunks: 3, chars: 15 },
            S::ProcessingLlmResponse,
            S::Idle,
        ]
    );
    let response_id = MessageId(2);
    let deltas: Vec<(u64, String)> = [d1, d2, d3]
        .iter()
        .flat_map(|fx| emitted(fx))
        .filter_map(|e| match e {
            BraidEvent::ContentDelta(d) => {
                assert_eq!(d.message_id, response_id);
                assert!(!d.is_final);
                Some((d.sequence, d.delta))
            }
            _ => None,
        })
        .collect();
    assert_eq!(deltas, [(1, "one ".to_owned()), (2, "two ".to_owned()), (3, "three ✓".to_owned())]);
    let finals: Vec<_> = emitted(&done)
        .into_iter()
        .filter_map(|e| match e {
            BraidEvent::ContentFinal(f) => Some((f.message_id, f.sequence, f.is_final)),
            _ => None,
        })
        .collect();
    assert_eq!(finals, [(response_id, 4, true)]);
    let completed = emitted(&done).into_iter().any(|e| {
        matches!(e, BraidEvent::ContextUpdate(u) if u.message.as_ref().is_some_and(|m| m.message_id == response_id && m.change == MessageChange::Completed))
    });
    assert!(completed, "the answer's lifecycle ends with Completed");
    assert_eq!(
        sim.conversation.message(response_id).map(|m| m.body.clone()),
        Some(MessageType::text(Role::Assistant, "one two three ✓"))
    );
}

#[test]
fn busy_rejects_with_agent_busy_and_queue_is_explicit() {
    let mut sim = Sim::new();
    sim.start("first");
    stream(&mut sim, &["work"]);

    let fx = sim.send(user("second"));
    match reply_of(&fx) {
        Some(Err(e)) => {
            assert_eq!(e.code, ErrorCode::AgentBusy);
            assert!(e.message.contains("Streaming (1 chunks, 4 chars)"), "says what it is busy with: {}", e.message);
            assert!(e.message.contains("Cancel or wait"), "{}", e.message);
        }
        other => panic!("expected agent_busy, got {other:?}"),
    }
    assert!(sim.state.queue.is_empty());

    let fx = sim.send(queued("second, queued"));
    assert_eq!(reply_of(&fx), Some(&Ok(Reply::Accepted(SendReceipt { message_id: MessageId(3), queued: true }))));
    let visible = emitted(&fx).into_iter().any(|e| match e {
        BraidEvent::ContextUpdate(u) => u.metadata.queue.iter().any(|q| q.preview == "second, queued"),
        _ => false,
    });
    assert!(visible, "the queued message is visible in the update");
    assert!(texts(&sim).iter().all(|t| t != "second, queued"), "not in history before it is sent");

    let fx = complete(&mut sim, "work");
    assert_eq!(sim.state.status, S::ProcessingUserMessage, "queued message starts when Idle");
    sim.pipeline_ok(&fx);
    stream(&mut sim, &["ok"]);
    complete(&mut sim, "ok");
    assert_eq!(texts(&sim), ["first", "work", "second, queued", "ok"]);
}

#[test]
fn unqueue_removes_a_waiting_message() {
    let mut sim = Sim::new();
    sim.start("first");
    sim.send(queued("later"));
    let id = sim.state.queue[0].id;
    assert_eq!(reply_of(&sim.send(Event::Unqueue { message_id: id })), Some(&Ok(Reply::Done)));
    assert!(sim.state.queue.is_empty());
    let again = sim.send(Event::Unqueue { message_id: id });
    assert!(matches!(reply_of(&again), Some(Err(e)) if e.code == ErrorCode::NotFound));
}

#[test]
fn queued_messages_are_edited_reordered_and_one_is_sent_now() {
    use braid_protocol::QueueChange;
    let mut sim = Sim::new();
    sim.start("first");
    stream(&mut sim, &["Partial "]);
    for t in ["a", "b", "c"] {
        sim.send(queued(t));
    }
    let id = |sim: &Sim, i: usize| sim.state.queue[i].id;
    let text = |sim: &Sim| -> Vec<String> {
        sim.state.queue.iter().map(|q| braid_core::conversation::describe(&q.body)).collect()
    };
    let edit = |message_id, change| Event::EditQueued { message_id, change };
    let b = id(&sim, 1);
    assert_eq!(
        reply_of(&sim.send(edit(b, QueueChange::Edit { text: "b, said better".into() }))),
        Some(&Ok(Reply::Done))
    );
    let blank = sim.send(edit(b, QueueChange::Edit { text: "  ".into() }));
    assert!(
        matches!(reply_of(&blank), Some(Err(e)) if e.code == ErrorCode::InvalidInput && e.message.contains("remove it"))
    );
    let c = id(&sim, 2);
    sim.send(edit(c, QueueChange::Move { to: 0 }));
    assert_eq!(text(&sim), ["c", "a", "b, said better"]);
    sim.send(edit(c, QueueChange::Move { to: 99 }));
    assert_eq!(text(&sim), ["a", "b, said better", "c"], "a place past the end is the end");
    let gone = sim.send(edit(MessageId(999), QueueChange::SendNow));
    assert!(matches!(reply_of(&gone), Some(Err(e)) if e.code == ErrorCode::NotFound));

    // Send now: it goes first, and the answer being written stops, kept.
    let rid = sim.request_id();
    let fx = sim.send(edit(b, QueueChange::SendNow));
    assert_eq!(reply_of(&fx), Some(&Ok(Reply::Done)));
    assert!(fx.contains(&Effect::AbortLlmRequest { request_id: rid, keep_partial: true }), "{fx:?}");
    assert_eq!(text(&sim), ["b, said better", "a", "c"]);
    let response = LlmResponse { text: "Partial ".into(), stop_reason: StopReason::Interrupted, ..Default::default() };
    let fx = sim.send(Event::LlmCompleted { request_id: rid, response });
    assert_eq!(sim.state.status, S::ProcessingUserMessage, "the message sent now starts at once");
    sim.pipeline_ok(&fx);
    assert_eq!(texts(&sim), ["first", "Partial ", "b, said better"]);
    assert_eq!(text(&sim), ["a", "c"]);
}

#[test]
fn cancel_mid_stream_keeps_no_partial_answer() {
    let mut sim = Sim::new();
    sim.start("write an essay");
    stream(&mut sim, &["Once ", "upon "]);
    let rid = sim.request_id();
    let fx = sim.send(Event::Cancel);
    assert!(fx.contains(&Effect::AbortLlmRequest { request_id: rid, keep_partial: false }));
    let discarded = emitted(&fx).into_iter().any(|e| {
        matches!(e, BraidEvent::ContextUpdate(u) if u.message.as_ref().is_some_and(|m| m.change == MessageChange::StatusChanged { status: "discarded".into() }))
    });
    assert!(discarded, "the UI is told to drop the streamed text");
    assert_eq!(sim.state.status, S::Idle);
    assert_eq!(texts(&sim), ["write an essay"], "no partial answer persisted");

    // A late chunk or completion from the aborted request changes nothing.
    let late = sim.send(Event::LlmDelta { request_id: rid, text: "a time".into() });
    assert!(late.is_empty(), "{late:?}");
    assert!(sim.send(Event::LlmCompleted { request_id: rid, response: LlmResponse::text("x") }).is_empty());
    assert_eq!(texts(&sim), ["write an essay"]);
}

#[test]
fn cancel_in_every_busy_state_returns_to_idle() {
    // Pipeline
    let mut sim = Sim::new();
    let fx = sim.send(user("a"));
    let pending = match &fx[..] {
        [.., Effect::RunPipeline(m)] => m.id,
        _ => panic!("{fx:?}"),
    };
    let fx = sim.send(Event::Cancel);
    assert!(fx.contains(&Effect::AbortPipeline(pending)));
    assert_eq!(sim.state.status, S::Idle);
    assert!(sim.messages().is_empty(), "a cancelled message never enters the pool");

    // Retrying
    let mut sim = Sim::new();
    sim.start("a");
    let rid = sim.request_id();
    sim.send(Event::LlmFailed {
        request_id: rid,
        failure: LlmFailure::retryable(braid_protocol::FailureCode::Network, "connection reset"),
    });
    let fx = sim.send(Event::Cancel);
    assert!(fx.contains(&Effect::CancelRetry { request_id: rid }));
    assert_eq!(sim.state.status, S::Idle);
    assert!(sim.send(Event::RetryTimerFired { request_id: rid }).is_empty(), "a cancelled retry never fires");
}

#[test]
fn retryable_error_retries_with_backoff_then_succeeds() {
    let mut sim = Sim::new();
    sim.start("hi");
    for attempt in 1..=2u32 {
        let rid = sim.request_id();
        sim.send(Event::LlmRequestStarted { request_id: rid });
        let t0 = sim.now;
        let fx = sim.send(Event::LlmFailed {
            request_id: rid,
            failure: LlmFailure::retryable(braid_protocol::FailureCode::ServerError, "HTTP 503"),
        });
        let at = match sim.state.status {
            S::RetryingLlmRequest { attempt: a, max, retry_at } => {
                assert_eq!((a, max), (attempt, 3));
                retry_at
            }
            ref other => panic!("expected RetryingLlmRequest, got {other:?}"),
        };
        let base = 1000u64 << (attempt - 1);
        let delay = t0.ms_until(at);
        assert!((base..base + base / 4).contains(&delay), "attempt {attempt}: delay {delay} ms");
        assert!(fx.contains(&Effect::ScheduleRetry { request_id: rid, at }));
        assert!(S::RetryingLlmRequest { attempt, max: 3, retry_at: at }.describe(t0).starts_with("Retrying in "));
        sim.advance(delay);
        let fx = sim.send(Event::RetryTimerFired { request_id: rid });
        assert!(matches!(fx.last(), Some(Effect::StartLlmRequest { .. })), "{fx:?}");
        assert_ne!(sim.request_id(), rid, "each attempt has its own id");
    }
    stream(&mut sim, &["fine"]);
    complete(&mut sim, "fine");
    assert_eq!(texts(&sim), ["hi", "fine"]);
    assert_eq!(
        kinds(&sim).iter().filter(|k| **k == StatusKind::RetryingLlmRequest).count(),
        2,
        "retries are visible as their own state"
    );
}

#[test]
fn retries_exhausted_fail_then_sending_continues() {
    let mut sim = Sim::new();
    sim.start("hi");
    for _ in 0..4 {
        let rid = sim.request_id();
        sim.send(Event::LlmFailed {
            request_id: rid,
            failure: LlmFailure::retryable(braid_protocol::FailureCode::Network, "connection refused"),
        });
        if sim.state.status.kind() == StatusKind::RetryingLlmRequest {
            sim.advance(60_000);
            sim.send(Event::RetryTimerFired { request_id: rid });
        }
    }
    match &sim.state.status {
        S::Failed { error_code, message, recoverable } => {
            assert_eq!(*error_code, braid_protocol::FailureCode::Network);
            assert_eq!(message, "connection refused (gave up after 3 retries)");
            assert!(recoverable);
        }
        other => panic!("expected Failed, got {other:?}"),
    }
    let fx = sim.send(user("try again please"));
    assert!(matches!(reply_of(&fx), Some(Ok(Reply::Accepted(_)))), "Failed accepts a new message");
    sim.pipeline_ok(&fx);
    stream(&mut sim, &["back"]);
    complete(&mut sim, "back");
    assert_eq!(texts(&sim), ["hi", "try again please", "back"]);
}

#[test]
fn non_retryable_error_fails_at_once_and_retry_resends() {
    let mut sim = Sim::new();
    sim.start("hi");
    let rid = sim.request_id();
    let fx = sim.send(Event::LlmFailed {
        request_id: rid,
        failure: LlmFailure::fatal(braid_protocol::FailureCode::Auth, "check the API key for OpenAI"),
    });
    assert!(!fx.iter().any(|e| matches!(e, Effect::ScheduleRetry { .. })));
    assert_eq!(
        sim.state.status,
        S::Failed {
            error_code: braid_protocol::FailureCode::Auth,
            message: "check the API key for OpenAI".into(),
            recoverable: false
        }
    );
    let fx = sim.send(Event::Retry);
    assert!(matches!(fx.last(), Some(Effect::StartLlmRequest { .. })));
    complete(&mut sim, "ok now");
    assert_eq!(texts(&sim), ["hi", "ok now"]);
}

#[test]
fn branch_create_and_switch_during_a_conversation() {
    let mut sim = Sim::new();
    sim.start("q1");
    complete(&mut sim, "a1");
    sim.start("q2");
    complete(&mut sim, "a2");
    let fork_at = sim.messages()[1].id; // a1
    let draft = sim.conversation.fork(&BranchId::main(), fork_at, "alternative", Some("Be brief.".into()), sim.now);
    let fx = sim.send(Event::CreateBranch { draft: Box::new(draft.unwrap()), switch: false });
    let Some(Ok(Reply::Branch(b))) = reply_of(&fx).cloned() else { panic!("{fx:?}") };
    assert_eq!(b, BranchId("b1".into()), "the machine hands out branch ids");

    // Switching while busy is refused with agent_busy.
    sim.start("q3");
    let fx = sim.send(Event::SwitchBranch { from: BranchId::main(), to: b.clone() });
    assert!(matches!(reply_of(&fx), Some(Err(e)) if e.code == ErrorCode::AgentBusy));
    complete(&mut sim, "a3");

    let fx = sim.send(Event::SwitchBranch { from: BranchId::main(), to: b.clone() });
    assert!(matches!(fx[..2], [Effect::PersistState, Effect::SetActiveBranch(_)]), "{fx:?}");
    assert_eq!(sim.conversation.active_branch(), &b);
    let last = sim.messages().last().map(|m| m.body.clone());
    assert_eq!(
        last,
        Some(MessageType::SystemControl {
            control: ControlKind::BranchSwitch { from: BranchId::main(), to: b.clone() }
        })
    );
    sim.start("q2'");
    complete(&mut sim, "a2'");
    assert_eq!(texts(&sim), ["q1", "a1", "[system_control]", "q2'", "a2'"]);
    assert_eq!(sim.conversation.messages(&BranchId::main()).count(), 6, "main is untouched by the other branch");
    assert_eq!(sim.conversation.system_prompt(&b, Some("base")), Some("Be brief."));
    assert_eq!(sim.conversation.system_prompt(&BranchId::main(), Some("base")), Some("base"));
}

#[test]
fn pipeline_failure_rolls_back() {
    let mut sim = Sim::new();
    let fx = sim.send(user("hi"));
    let id = match fx.last() {
        Some(Effect::RunPipeline(m)) => m.id,
        other => panic!("{other:?}"),
    };
    sim.send(Event::PipelineFailed { message_id: id, error: "file.txt: no such file".into() });
    assert_eq!(sim.state.status, S::Idle);
    assert!(sim.messages().is_empty());
}

fn tool_call(id: &str, name: &str, args: &str) -> ToolCallSpec {
    ToolCallSpec { id: id.into(), name: name.into(), arguments: args.into() }
}

fn ok(output: &str) -> ToolOutcome {
    ToolOutcome {
        status: ToolResultStatus::Success,
        output: output.into(),
        error: None,
        recoverable: false,
        duration_ms: 5,
        written: None,
        blocked: None,
        images: Vec::new(),
        secrets: None,
    }
}

fn ask_tools(sim: &mut Sim, calls: Vec<ToolCallSpec>) -> Vec<Effect> {
    let rid = sim.request_id();
    let response =
        LlmResponse { text: "Let me look.".into(), tool_calls: calls, usage: None, stop_reason: StopReason::ToolUse };
    sim.send(Event::LlmCompleted { request_id: rid, response })
}

#[test]
fn tool_round_with_approval_runs_in_order_and_loops() {
    let mut sim = Sim::new();
    sim.state.config.tools.policy = braid_protocol::ToolApprovalPolicy::Manual;
    sim.start("read two files");
    let fx = ask_tools(
        &mut sim,
        vec![tool_call("c1", "read_file", r#"{"path":"a"}"#), tool_call("c2", "read_file", r#"{"path":"b"}"#)],
    );
    assert!(!fx.iter().any(|e| matches!(e, Effect::RunTool { .. })), "nothing runs before the user decides");
    assert_eq!(
        sim.state.status,
        S::AwaitingToolApproval {
            pending_requests: vec!["c1".into(), "c2".into()],
            tool_names: vec!["read_file".into(), "read_file".into()]
        }
    );
    sim.send(Event::ToolDecision { call_id: "c2".into(), decision: ApprovalDecision::Deny, reason: None });
    let fx = sim.send(Event::ToolDecision { call_id: "c1".into(), decision: ApprovalDecision::Approve, reason: None });
    assert!(matches!(fx.last(), Some(Effect::RunTool { call, index: 1, total: 2 }) if call.id == "c1"));
    assert_eq!(sim.state.status, S::ExecutingTool { tool_name: "read_file".into(), index: 1, total: 2, attempt: 1 });
    let fx = sim.send(Event::ToolFinished { call_id: "c1".into(), outcome: ok("contents of a") });
    assert!(matches!(fx.last(), Some(Effect::StartLlmRequest { .. })), "denied c2 answered, next round starts: {fx:?}");
    assert_eq!(sim.state.status, S::ToolAutoLoop { depth: 1, tools_executed: 1 });
    complete(&mut sim, "a says hi; you denied b");

    let kinds = kinds(&sim);
    for k in [StatusKind::ParsingToolCalls, StatusKind::CollectingToolResults, StatusKind::ProcessingToolResults] {
        assert!(kinds.contains(&k), "{k:?} passed through: {kinds:?}");
    }
    let results: Vec<(String, ToolResultStatus)> = sim
        .messages()
        .iter()
        .filter_map(|m| match &m.body {
            MessageType::ToolResult { request_id, status, .. } => Some((request_id.to_string(), *status)),
            _ => None,
        })
        .collect();
    assert_eq!(results, [("c1".into(), ToolResultStatus::Success), ("c2".into(), ToolResultStatus::Error)]);
    let approvals: Vec<Approval> = sim
        .messages()
        .iter()
        .find_map(|m| match &m.body {
            MessageType::ToolRequest { calls, .. } => Some(calls.iter().map(|c| c.approval).collect()),
            _ => None,
        })
        .unwrap();
    assert_eq!(approvals, [Approval::Approved, Approval::Denied], "approval is stored on the request");
}

#[test]
fn cancel_during_a_tool_kills_it_and_answers_every_call() {
    let mut sim = Sim::new();
    sim.state.config.tools.policy = braid_protocol::ToolApprovalPolicy::AutoAll;
    sim.start("run things");
    ask_tools(
        &mut sim,
        vec![tool_call("c1", "run_command", r#"{"cmd":"sleep 100"}"#), tool_call("c2", "run_command", "{}")],
    );
    assert_eq!(sim.state.status.kind(), StatusKind::ExecutingTool);
    let fx = sim.send(Event::Cancel);
    assert!(fx.contains(&Effect::KillTool { call_id: "c1".into() }));
    assert_eq!(sim.state.status, S::Cancelling);
    sim.send(Event::ToolFinished { call_id: "c1".into(), outcome: ok("killed") });
    assert_eq!(sim.state.status, S::Idle);
    let cancelled = sim
        .messages()
        .iter()
        .filter(|m| matches!(m.body, MessageType::ToolResult { status: ToolResultStatus::Cancelled, .. }))
        .count();
    assert_eq!(cancelled, 2, "the running call and the queued one");
}

#[test]
fn interrupt_keeps_partial_answer_and_running_tool_result() {
    let mut sim = Sim::new();
    sim.start("explain");
    stream(&mut sim, &["Partial "]);
    let rid = sim.request_id();
    let fx = sim.send(Event::Interrupt);
    assert!(fx.contains(&Effect::AbortLlmRequest { request_id: rid, keep_partial: true }));
    let response = LlmResponse { text: "Partial ".into(), stop_reason: StopReason::Interrupted, ..Default::default() };
    sim.send(Event::LlmCompleted { request_id: rid, response });
    assert_eq!(texts(&sim), ["explain", "Partial "]);
    assert_eq!(sim.state.status, S::Idle);

    sim.state.config.tools.policy = braid_protocol::ToolApprovalPolicy::AutoAll;
    sim.start("two tools");
    // (A read then a write: the write has not started when the read ends.)
    ask_tools(&mut sim, vec![tool_call("t1", "read_file", "{}"), tool_call("t2", "write_file", "{}")]);
    sim.send(Event::Interrupt);
    let fx = sim.send(Event::ToolFinished { call_id: "t1".into(), outcome: ok("done") });
    assert!(
        !fx.iter().any(|e| matches!(e, Effect::StartLlmRequest { .. } | Effect::RunTool { .. })),
        "nothing further starts"
    );
    assert_eq!(sim.state.status, S::Idle);
    let statuses: Vec<ToolResultStatus> = sim
        .messages()
        .iter()
        .filter_map(|m| match &m.body {
            MessageType::ToolResult { status, .. } => Some(*status),
            _ => None,
        })
        .collect();
    assert_eq!(statuses, [ToolResultStatus::Success, ToolResultStatus::Cancelled]);
}

#[test]
fn tool_loop_stops_at_its_depth_limit() {
    let mut sim = Sim::new();
    sim.state.config.tools.policy = braid_protocol::ToolApprovalPolicy::AutoAll;
    sim.state.config.max_loop_depth = 2;
    sim.start("loop");
    for round in 1..=2 {
        ask_tools(&mut sim, vec![tool_call(&format!("r{round}"), "list_directory", "{}")]);
        sim.send(Event::ToolFinished { call_id: format!("r{round}").into(), outcome: ok(".") });
    }
    assert_eq!(sim.state.status, S::Idle);
    let told = sim.messages().iter().any(|m| matches!(&m.body, MessageType::SystemControl { control: ControlKind::Notice { code, .. } } if *code == braid_protocol::NoticeCode::LoopLimit));
    assert!(told, "the user is told the loop stopped");
    let fx = sim.send(Event::Retry);
    assert!(matches!(fx.last(), Some(Effect::StartLlmRequest { .. })), "and may continue by hand");
}
