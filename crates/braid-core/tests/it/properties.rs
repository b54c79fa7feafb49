//! Property tests: over random event sequences the transition never panics,
//! is deterministic, and every invariant holds after every step (the
//! simulator checks them: state/data agreement, branches name only pooled
//! messages, every tool call has exactly one result before the next LLM
//! request, persistence effects come first).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::llm::{LlmFailure, LlmResponse, StopReason, ToolCallSpec};
use braid_core::machine::{Effect, Event, PipelineStage, ToolOutcome};
use braid_core::sim::Sim;
use braid_protocol::{BranchId, MessageId, MessageType, RequestId, Role, ToolResultStatus};
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Action {
    User {
        queue: bool,
        empty: bool,
    },
    PipelineOk,
    PipelineFail,
    Stage(u8),
    /// The runtime's facts for the current request, with a window of
    /// 100 × this many tokens (small ones summarise, fail or leave out).
    Prepared(u8),
    Started,
    Connected,
    Delta(u8),
    Complete {
        tools: u8,
        text: bool,
        bad_args: bool,
    },
    Fail {
        retryable: bool,
    },
    Timer,
    Decide {
        index: u8,
        approve: bool,
    },
    ToolDone {
        index: u8,
    },
    Cancel,
    Interrupt,
    Retry,
    /// Fork the active branch at one of its messages (and maybe switch
    /// to the fork), through the machine.
    Fork {
        at: u8,
        switch: bool,
    },
    /// Switch to an existing branch.
    Switch(u8),
    Unqueue(u8),
    Stale,
    Advance(u16),
    AutoApprove(bool),
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        3 => (any::<bool>(), prop::bool::weighted(0.1)).prop_map(|(queue, empty)| Action::User { queue, empty }),
        3 => Just(Action::PipelineOk),
        1 => Just(Action::PipelineFail),
        1 => (0u8..4).prop_map(Action::Stage),
        2 => (1u8..40).prop_map(Action::Prepared),
        2 => Just(Action::Started),
        2 => Just(Action::Connected),
        4 => (0u8..20).prop_map(Action::Delta),
        3 => (0u8..4, any::<bool>(), prop::bool::weighted(0.2)).prop_map(|(tools, text, bad_args)| Action::Complete { tools, text, bad_args }),
        2 => any::<bool>().prop_map(|retryable| Action::Fail { retryable }),
        2 => Just(Action::Timer),
        2 => (0u8..4, any::<bool>()).prop_map(|(index, approve)| Action::Decide { index, approve }),
        3 => (0u8..4).prop_map(|index| Action::ToolDone { index }),
        1 => Just(Action::Cancel),
        1 => Just(Action::Interrupt),
        1 => Just(Action::Retry),
        1 => (any::<u8>(), any::<bool>()).prop_map(|(at, switch)| Action::Fork { at, switch }),
        1 => any::<u8>().prop_map(Action::Switch),
        1 => (0u8..4).prop_map(Action::Unqueue),
        1 => Just(Action::Stale),
        1 => (0u16..40_000).prop_map(Action::Advance),
        1 => any::<bool>().prop_map(Action::AutoApprove),
    ]
}

/// Turns an abstract action into a concrete event for the current state,
/// so that most events are relevant (and some are deliberately stale).
fn event_for(sim: &mut Sim, action: &Action, last_pipeline: &mut Option<braid_protocol::Message>) -> Option<Event> {
    let rid = sim.state.request.as_ref().map(|r| r.id).unwrap_or(RequestId(999));
    let calls: Vec<braid_protocol::CallId> =
        sim.state.round.as_ref().map(|r| r.calls().iter().map(|c| c.id.clone()).collect()).unwrap_or_default();
    Some(match action {
        Action::User { queue, empty } => {
            let text = if *empty { "" } else { "hello" };
            Event::UserMessage {
                body: MessageType::text(Role::User, text),
                queue_if_busy: *queue,
                force_tool: None,
                images: Vec::new(),
            }
        }
        Action::PipelineOk => Event::PipelineSucceeded { message: last_pipeline.clone()?, attachments: Vec::new() },
        Action::PipelineFail => Event::PipelineFailed { message_id: last_pipeline.as_ref()?.id, error: "nope".into() },
        Action::Stage(s) => Event::PipelineStage {
            message_id: last_pipeline.as_ref()?.id,
            stage: [
                PipelineStage::ProcessingUserMessage,
                PipelineStage::ResolvingFileReferences,
                PipelineStage::ReadingImages { done: 0, total: 1 },
            ][*s as usize % 3],
        },
        Action::Prepared(w) => {
            Event::RequestPrepared { request_id: rid, prepared: Box::new(sim.prepared(u32::from(*w) * 100)) }
        }
        Action::Started => Event::LlmRequestStarted { request_id: rid },
        Action::Connected => Event::LlmConnected { request_id: rid },
        Action::Delta(n) => Event::LlmDelta { request_id: rid, text: "ab".repeat(*n as usize) },
        Action::Complete { tools, text, bad_args } => {
            let tool_calls = (0..*tools)
                .map(|i| ToolCallSpec {
                    id: if i == 0 && *bad_args { String::new() } else { format!("t{}_{i}", sim.state.next_message_id) },
                    name: "read_file".into(),
                    arguments: if *bad_args { "{oops".into() } else { "{}".into() },
                })
                .collect();
            let stop_reason = if *tools > 0 { StopReason::ToolUse } else { StopReason::EndTurn };
            Event::LlmCompleted {
                request_id: rid,
                response: LlmResponse {
                    text: if *text { "answer".into() } else { String::new() },
                    tool_calls,
                    usage: None,
                    stop_reason,
                },
            }
        }
        Action::Fail { retryable } => Event::LlmFailed {
            request_id: rid,
            failure: if *retryable {
                LlmFailure::retryable(braid_protocol::FailureCode::Network, "reset")
            } else {
                LlmFailure::fatal(braid_protocol::FailureCode::Auth, "bad key")
            },
        },
        Action::Timer => Event::RetryTimerFired { request_id: rid },
        Action::Decide { index, approve } => {
            let decision = if *approve {
                braid_protocol::ApprovalDecision::Approve
            } else {
                braid_protocol::ApprovalDecision::Deny
            };
            Event::ToolDecision { call_id: calls.get(*index as usize)?.clone(), decision, reason: None }
        }
        Action::ToolDone { index } => Event::ToolFinished {
            call_id: calls.get(*index as usize)?.clone(),
            outcome: ToolOutcome {
                status: ToolResultStatus::Success,
                output: "ok".into(),
                error: None,
                recoverable: false,
                duration_ms: 1,
                written: None,
                blocked: None,
                images: Vec::new(),
                secrets: None,
            },
        },
        Action::Cancel => Event::Cancel,
        Action::Interrupt => Event::Interrupt,
        Action::Retry => Event::Retry,
        Action::Fork { at, switch } => {
            let ids: Vec<MessageId> = sim.conversation.active_messages().map(|m| m.id).collect();
            let at = *ids.get(*at as usize % ids.len().max(1))?;
            let source = sim.conversation.active_branch().clone();
            let draft = sim.conversation.fork(&source, at, "alt", None, sim.now).ok()?;
            Event::CreateBranch { draft: Box::new(draft), switch: *switch }
        }
        Action::Switch(i) => {
            let branches: Vec<BranchId> = sim.conversation.branches().map(|b| b.id.clone()).collect();
            let to = branches[*i as usize % branches.len()].clone();
            Event::SwitchBranch { from: sim.conversation.active_branch().clone(), to }
        }
        Action::Unqueue(i) => {
            Event::Unqueue { message_id: sim.state.queue.get(*i as usize).map(|q| q.id).unwrap_or(MessageId(0)) }
        }
        Action::Stale => Event::LlmDelta { request_id: RequestId(rid.0 + 1000), text: "stale".into() },
        Action::Advance(ms) => {
            sim.advance(u64::from(*ms));
            return None;
        }
        Action::AutoApprove(on) => {
            sim.state.config.tools.policy = if *on {
                braid_protocol::ToolApprovalPolicy::AutoAll
            } else {
                braid_protocol::ToolApprovalPolicy::Manual
            };
            return None;
        }
    })
}

fn run(actions: &[Action]) -> Result<(Vec<Effect>, Vec<braid_protocol::ContextStatus>), TestCaseError> {
    let mut sim = Sim::new();
    sim.state.config.tools.policy = braid_protocol::ToolApprovalPolicy::Manual;
    let mut last_pipeline = None;
    for a in actions {
        let Some(event) = event_for(&mut sim, a, &mut last_pipeline) else { continue };
        let effects = sim.step(event).map_err(|v| TestCaseError::fail(format!("after {a:?}: {v}")))?;
        for e in &effects {
            if let Effect::RunPipeline(m) = e {
                last_pipeline = Some(m.clone());
            }
        }
    }
    // Whatever happened, cancel brings the context back to a state that
    // accepts a message (possibly starting a queued one).
    let fx = sim.step(Event::Cancel).map_err(|v| TestCaseError::fail(v.to_string()))?;
    drop(fx);
    prop_assert!(
        !sim.state.status.is_busy()
            || sim.state.status.kind() == braid_protocol::StatusKind::ProcessingUserMessage
            || sim.state.status.kind() == braid_protocol::StatusKind::Cancelling,
        "after cancel: {:?}",
        sim.state.status
    );
    let _ = BranchId::main();
    Ok((sim.effects, sim.states))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn transitions_never_panic_and_keep_invariants(actions in prop::collection::vec(action(), 0..120)) {
        run(&actions)?;
    }

    #[test]
    fn transitions_are_deterministic(actions in prop::collection::vec(action(), 0..80)) {
        let a = run(&actions)?;
        let b = run(&actions)?;
        prop_assert_eq!(a, b);
    }
}
