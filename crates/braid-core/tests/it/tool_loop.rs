//! The tool auto-loop, event by event with the simulator: calls run in
//! order (reads together, their results still in order), results (and
//! their images) go back in one request, and how the
//! loop stops (depth limit, repeats, interrupt, cancel, a full window).
//! Approval policies and modes are in `tool_approvals.rs`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use crate::tool_calls::*;
use braid_core::machine::{Effect, Event, Reply, ToolOutcome};
use braid_core::sim::{reply_of, Sim};
use braid_protocol::{
    AgentMode, ContextStatus as S, ControlKind, MessageType, Role, StatusKind, ToolApprovalPolicy, ToolResultStatus,
};

#[test]
fn a_single_read_runs_by_itself_and_its_result_goes_back() {
    let mut sim = Sim::new(); // default policy: read tools are whitelisted
    sim.start("what is in a.txt?");
    let fx = model_calls(&mut sim, vec![call("c1", "read_file", r#"{"path":"a.txt"}"#)]);
    assert_eq!(ran(&fx), ["c1"]);
    assert_eq!(sim.state.status, S::ExecutingTool { tool_name: "read_file".into(), index: 1, total: 1, attempt: 1 });
    let fx = done(&mut sim, "c1");
    assert!(starts_request(&fx));
    assert_eq!(sim.state.status, S::ToolAutoLoop { depth: 1, tools_executed: 1 });
    model_answers(&mut sim, "a.txt says ok");
    assert_eq!(sim.state.status, S::Idle);
    assert_eq!(sim.tool_results(), [("c1".to_owned(), ToolResultStatus::Success, String::new())]);
}

#[test]
fn several_reads_run_together_and_their_results_go_back_in_order_in_one_request() {
    let mut sim = Sim::new();
    sim.start("read three");
    let calls = ["a", "b", "c"].map(|p| call(p, "read_file", &format!(r#"{{"path":"{p}"}}"#))).to_vec();
    let fx = model_calls(&mut sim, calls);
    assert_eq!(ran(&fx), ["a", "b", "c"], "reads start together");
    assert_eq!(sim.state.status, S::ExecutingTool { tool_name: "read_file".into(), index: 1, total: 3, attempt: 1 });
    // They finish in any order; each result is written in its turn.
    assert!(ran(&done(&mut sim, "c")).is_empty());
    assert!(sim.tool_results().is_empty(), "c waits for a and b");
    assert!(ran(&done(&mut sim, "a")).is_empty(), "nothing starts again");
    assert_eq!(sim.state.status, S::ExecutingTool { tool_name: "read_file".into(), index: 2, total: 3, attempt: 1 });
    let fx = done(&mut sim, "b");
    let requests = fx.iter().filter(|e| matches!(e, Effect::StartLlmRequest { .. })).count();
    assert_eq!(requests, 1, "all three results in one request");
    assert_eq!(sim.tool_results().iter().map(|r| r.0.as_str()).collect::<Vec<_>>(), ["a", "b", "c"]);
}

#[test]
fn a_write_runs_alone_and_the_reads_after_it_wait_for_it() {
    let mut sim = Sim::new();
    sim.state.config.tools.policy = ToolApprovalPolicy::AutoAll;
    sim.start("read, write, read");
    let calls = vec![
        call("r1", "read_file", r#"{"path":"a"}"#),
        call("r2", "glob_files", r#"{"pattern":"*"}"#),
        call("w", "write_file", r#"{"path":"a","content":"x"}"#),
        call("r3", "read_file", r#"{"path":"a"}"#),
    ];
    assert_eq!(ran(&model_calls(&mut sim, calls)), ["r1", "r2"], "the reads before the write, together");
    assert!(ran(&done(&mut sim, "r1")).is_empty());
    assert_eq!(ran(&done(&mut sim, "r2")), ["w"], "the write alone, once the reads are done");
    assert_eq!(ran(&done(&mut sim, "w")), ["r3"], "the read after it sees what it wrote");
    done(&mut sim, "r3");
    assert_eq!(sim.tool_results().iter().map(|r| r.0.as_str()).collect::<Vec<_>>(), ["r1", "r2", "w", "r3"]);
}

#[test]
fn a_failed_read_among_others_is_written_in_its_place() {
    let mut sim = Sim::new();
    sim.start("read three");
    let calls = ["a", "b", "c"].map(|p| call(p, "read_file", &format!(r#"{{"path":"{p}"}}"#))).to_vec();
    model_calls(&mut sim, calls);
    done(&mut sim, "c");
    sim.send(Event::ToolFinished {
        call_id: "b".into(),
        outcome: outcome(ToolResultStatus::Error, "", Some("no such file")),
    });
    done(&mut sim, "a");
    let statuses: Vec<(String, ToolResultStatus)> = sim.tool_results().into_iter().map(|(id, s, _)| (id, s)).collect();
    assert_eq!(
        statuses,
        [
            ("a".into(), ToolResultStatus::Success),
            ("b".into(), ToolResultStatus::Error),
            ("c".into(), ToolResultStatus::Success)
        ]
    );
    assert_eq!(sim.state.status.kind(), StatusKind::ToolAutoLoop, "the model hears all three");
}

#[test]
fn cancel_mid_batch_stops_every_running_read_and_keeps_what_a_finished_one_returned() {
    let mut sim = Sim::new();
    sim.start("read three");
    let calls = ["a", "b", "c"].map(|p| call(p, "read_file", &format!(r#"{{"path":"{p}"}}"#))).to_vec();
    model_calls(&mut sim, calls);
    done(&mut sim, "b");
    let fx = sim.send(Event::Cancel);
    let killed: Vec<String> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::KillTool { call_id } => Some(call_id.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(killed, ["c", "a"], "the read still beside it (b had finished), then the running one");
    assert_eq!(sim.state.status, S::Cancelling);
    sim.send(Event::ToolFinished { call_id: "c".into(), outcome: outcome(ToolResultStatus::Cancelled, "", None) });
    sim.send(Event::ToolFinished { call_id: "a".into(), outcome: outcome(ToolResultStatus::Cancelled, "", None) });
    assert_eq!(sim.state.status, S::Idle);
    let results: Vec<(String, ToolResultStatus)> = sim.tool_results().into_iter().map(|(id, s, _)| (id, s)).collect();
    let want =
        [("a", ToolResultStatus::Cancelled), ("b", ToolResultStatus::Success), ("c", ToolResultStatus::Cancelled)];
    assert_eq!(results, want.map(|(id, s)| (id.to_owned(), s)), "every call has its one result; b had finished");
}

#[test]
fn the_loop_runs_three_rounds_and_more_while_the_policy_allows() {
    let mut sim = Sim::new();
    sim.state.config.tools.policy = ToolApprovalPolicy::AutoAll;
    sim.start("explore");
    for round in 1..=4u32 {
        model_calls(&mut sim, vec![call(&format!("r{round}"), "list_directory", &format!(r#"{{"path":"d{round}"}}"#))]);
        done(&mut sim, &format!("r{round}"));
        assert_eq!(sim.state.status, S::ToolAutoLoop { depth: round, tools_executed: round });
    }
    model_answers(&mut sim, "explored");
    assert_eq!(sim.state.status, S::Idle);
    assert_eq!(sim.tool_results().len(), 4);
}

#[test]
fn at_the_depth_limit_the_loop_stops_says_so_and_continues_by_hand() {
    let mut sim = Sim::new();
    sim.state.config.tools.policy = ToolApprovalPolicy::AutoAll;
    sim.state.config.max_loop_depth = 2;
    sim.start("dig");
    model_calls(&mut sim, vec![call("1", "glob_files", r#"{"pattern":"*.rs"}"#)]);
    done(&mut sim, "1");
    model_calls(&mut sim, vec![call("2", "glob_files", r#"{"pattern":"*.md"}"#)]);
    let fx = done(&mut sim, "2");
    assert!(!starts_request(&fx));
    assert_eq!(sim.state.status, S::Idle);
    let told = sim.messages().iter().any(
        |m| matches!(&m.body, MessageType::SystemControl { control: ControlKind::Notice { code, .. } } if *code == braid_protocol::NoticeCode::LoopLimit),
    );
    assert!(told, "the stop is in history");
    // Continue (the Retry command) lets the model go on.
    let fx = sim.send(Event::Retry);
    assert_eq!(reply_of(&fx), Some(&Ok(Reply::Done)));
    assert!(starts_request(&fx));
    model_answers(&mut sim, "found it");
    assert_eq!(sim.state.status, S::Idle);
}

#[test]
fn a_failing_tool_in_the_middle_goes_back_as_its_result_and_the_loop_goes_on() {
    let mut sim = Sim::new();
    sim.state.config.tools.policy = ToolApprovalPolicy::AutoAll;
    sim.start("go");
    model_calls(&mut sim, vec![call("1", "read_file", r#"{"path":"a"}"#), call("2", "read_file", r#"{"path":"b"}"#)]);
    let failure = outcome(ToolResultStatus::Error, "", Some("b: no such file"));
    done(&mut sim, "1");
    let fx = sim.send(Event::ToolFinished { call_id: "2".into(), outcome: failure });
    assert!(starts_request(&fx));
    assert_eq!(sim.tool_results()[1], ("2".into(), ToolResultStatus::Error, "b: no such file".into()));
    model_calls(&mut sim, vec![call("3", "read_file", r#"{"path":"c"}"#)]);
    assert_eq!(sim.state.status.kind(), StatusKind::ExecutingTool, "the loop goes on after a failure");
}

#[test]
fn images_a_result_came_with_follow_the_rounds_last_result() {
    let mut sim = Sim::new();
    sim.start("two screenshots");
    let calls = ["a", "b"].map(|p| call(p, "read_file", &format!(r#"{{"path":"{p}"}}"#))).to_vec();
    model_calls(&mut sim, calls);
    let shot =
        |n: &str| MessageType::image(braid_protocol::ImageSource::FilePath { path: n.into() }, Default::default());
    let with_image = ToolOutcome { images: vec![shot("a.png")], ..outcome(ToolResultStatus::Success, "[image]", None) };
    sim.send(Event::ToolFinished { call_id: "a".into(), outcome: with_image });
    let fx = done(&mut sim, "b");
    assert!(starts_request(&fx), "the images go with the results in one request");
    let kinds: Vec<_> = sim.messages().iter().rev().take(4).rev().map(|m| m.body.kind().tag()).collect();
    assert_eq!(kinds, ["tool_request", "tool_result", "tool_result", "image"], "no image parts a result from its call");

    // A cancel keeps the images of the results it keeps.
    let mut sim = Sim::new();
    sim.state.config.tools.policy = ToolApprovalPolicy::AutoAll;
    sim.start("go");
    model_calls(&mut sim, vec![call("1", "read_file", "{}"), call("2", "run_command", r#"{"command":"make"}"#)]);
    let with_image = ToolOutcome { images: vec![shot("b.png")], ..outcome(ToolResultStatus::Success, "[image]", None) };
    sim.send(Event::ToolFinished { call_id: "1".into(), outcome: with_image });
    sim.send(Event::Cancel);
    let last = sim.messages().last().map(|m| m.body.kind().tag()).unwrap();
    assert_eq!(last, "image");
}

#[test]
fn interrupt_lets_the_running_tool_finish_and_starts_nothing_more() {
    let mut sim = Sim::new();
    sim.state.config.tools.policy = ToolApprovalPolicy::AutoAll;
    sim.start("go");
    model_calls(&mut sim, vec![call("1", "run_command", r#"{"command":"make"}"#), call("2", "read_file", "{}")]);
    let fx = sim.send(Event::Interrupt);
    assert!(!fx.iter().any(|e| matches!(e, Effect::KillTool { .. })), "the running tool is not killed");
    let fx = done(&mut sim, "1");
    assert!(!starts_request(&fx) && ran(&fx).is_empty());
    assert_eq!(sim.state.status, S::Idle);
    let r = sim.tool_results();
    assert_eq!((r[0].1, r[1].1), (ToolResultStatus::Success, ToolResultStatus::Cancelled), "{r:?}");
}

#[test]
fn a_model_repeating_the_same_call_is_stopped_with_a_clear_message() {
    let mut sim = Sim::new();
    sim.start("read");
    for round in 1..=2 {
        // Same call; key order differs, which must not hide the repeat.
        let args = if round == 1 { r#"{"path":"a","start_line":1}"# } else { r#"{"start_line":1,"path":"a"}"# };
        model_calls(&mut sim, vec![call(&format!("c{round}"), "read_file", args)]);
        done(&mut sim, &format!("c{round}"));
    }
    let fx = model_calls(&mut sim, vec![call("c3", "read_file", r#"{"path":"a","start_line":1}"#)]);
    assert!(ran(&fx).is_empty());
    assert_eq!(sim.state.status, S::Idle);
    let last = sim.tool_results().pop().unwrap();
    assert!(last.2.starts_with("loop detected: read_file was called 3 times"), "{last:?}");
    let notice = sim.messages().iter().any(|m| {
        matches!(&m.body, MessageType::SystemControl { control: ControlKind::Notice { code, .. } } if *code == braid_protocol::NoticeCode::LoopDetected)
    });
    assert!(notice);
}

#[test]
fn a_forced_tool_applies_to_the_first_request_of_the_turn_and_its_retries_only() {
    let mut sim = Sim::new();
    let bad = sim.send(Event::UserMessage {
        body: MessageType::text(Role::User, "x"),
        queue_if_busy: false,
        force_tool: Some("launch".into()),
        images: Vec::new(),
    });
    assert!(matches!(reply_of(&bad), Some(Err(e)) if e.message.contains("no tool named")));
    let fx = sim.send(Event::UserMessage {
        body: MessageType::text(Role::User, "read it"),
        queue_if_busy: false,
        force_tool: Some("read_file".into()),
        images: Vec::new(),
    });
    sim.pipeline_ok(&fx);
    assert_eq!(sim.state.request.as_ref().unwrap().force_tool.as_deref(), Some("read_file"));
    // A retry repeats the same request, forced tool included.
    let rid = sim.request_id();
    sim.send(Event::LlmFailed {
        request_id: rid,
        failure: braid_core::llm::LlmFailure::retryable(braid_protocol::FailureCode::Network, "reset"),
    });
    sim.advance(60_000);
    let rid = sim.request_id();
    sim.send(Event::RetryTimerFired { request_id: rid });
    assert_eq!(sim.state.request.as_ref().unwrap().force_tool.as_deref(), Some("read_file"));
    model_calls(&mut sim, vec![call("1", "read_file", r#"{"path":"a"}"#)]);
    done(&mut sim, "1");
    assert_eq!(sim.state.request.as_ref().unwrap().force_tool, None, "the loop's next round is free");
    // Plan mode does not offer write tools: forcing one is refused.
    model_answers(&mut sim, "done");
    sim.send(Event::SetMode { mode: AgentMode::Plan });
    let fx = sim.send(Event::UserMessage {
        body: MessageType::text(Role::User, "write"),
        queue_if_busy: false,
        force_tool: Some("write_file".into()),
        images: Vec::new(),
    });
    assert!(matches!(reply_of(&fx), Some(Err(e)) if e.message.contains("not available")));
}

#[test]
fn a_context_length_error_trims_and_retries_once() {
    let mut sim = Sim::new();
    sim.start("a long question");
    let rid = sim.request_id();
    let too_long = braid_core::llm::LlmFailure::fatal(
        braid_protocol::FailureCode::ContextLengthExceeded,
        "maximum context length is 4096 tokens",
    );
    let fx = sim.send(Event::LlmFailed { request_id: rid, failure: too_long.clone() });
    assert!(starts_request(&fx), "sent again at once");
    assert!(sim.state.request.as_ref().unwrap().trimmed);
    assert_ne!(sim.request_id(), rid);
    // A second refusal is a real failure, with the provider's words; the
    // largest message sent, under-counted, stays out until brought back.
    sim.prepare(sim.prepared(8_000));
    let largest = sim.state.book.largest_sent.expect("the request's largest message");
    let rid = sim.request_id();
    sim.send(Event::LlmFailed { request_id: rid, failure: too_long });
    assert!(
        matches!(&sim.state.status, S::Failed { error_code, .. } if *error_code == braid_protocol::FailureCode::ContextLengthExceeded)
    );
    assert!(sim.state.config.left_out.contains(&largest), "left out after the second refusal");
    // The next turn starts untrimmed.
    sim.start("shorter");
    assert!(!sim.state.request.as_ref().unwrap().trimmed);
}

#[test]
fn an_empty_answer_to_a_nearly_full_request_is_taken_as_too_long() {
    use braid_core::llm::LlmFailure;
    use braid_protocol::FailureCode;
    let empty = || LlmFailure::retryable(FailureCode::EmptyResponse, "the server answered with nothing");
    // About 200 tokens, the system prompt, the tools and a 100-token
    // reserve in a 470-token window.
    let mut sim = Sim::new();
    sim.start(&"word ".repeat(200));
    let fx = sim.prepare(sim.prepared(470));
    assert!(fx.iter().any(|e| matches!(e, Effect::SendLlmRequest { .. })), "{fx:?}");
    let rid = sim.request_id();
    let fx = sim.send(Event::LlmFailed { request_id: rid, failure: empty() });
    assert!(starts_request(&fx), "sent again at once, with less");
    assert!(sim.state.request.as_ref().unwrap().trimmed);
    // A small request that gets nothing is retried as before.
    let mut sim = Sim::new();
    sim.start("hi");
    sim.prepare(sim.prepared(100_000));
    let rid = sim.request_id();
    sim.send(Event::LlmFailed { request_id: rid, failure: empty() });
    assert_eq!(sim.state.status.kind(), braid_protocol::StatusKind::RetryingLlmRequest);
}

#[test]
fn a_too_long_message_never_locks_the_conversation() {
    let mut sim = Sim::new();
    sim.start(&"word ".repeat(2_000));
    sim.prepare(sim.prepared(1_000));
    let told = match &sim.state.status {
        S::Failed { error_code, message, .. } => {
            assert_eq!(*error_code, braid_protocol::FailureCode::ContextTooLarge);
            message.clone()
        }
        other => panic!("expected Failed, got {other:?}"),
    };
    assert!(
        told.contains("latest message is too long") && told.contains("what you send next goes without it"),
        "{told}"
    );
    // The next message goes, and the long one is left out of it.
    sim.start("a short question");
    let fx = sim.prepare(sim.prepared(1_000));
    let sent = fx.iter().find_map(|e| match e {
        Effect::SendLlmRequest { messages, .. } => Some(messages.clone()),
        _ => None,
    });
    let sent = sent.expect("the short message is sent");
    assert!(sent.iter().all(|m| m.body.plain_text().is_none_or(|t| t.len() < 100)), "the long one stays out");
}

#[test]
fn a_full_context_is_summarised_before_the_request_and_the_summary_is_sent_instead() {
    use braid_core::prompt::request_messages;
    let mut sim = Sim::new();
    sim.start("read a");
    model_calls(&mut sim, vec![call("r1", "read_file", r#"{"path":"src/a.rs"}"#)]);
    sim.send(Event::ToolFinished {
        call_id: "r1".into(),
        outcome: outcome(ToolResultStatus::Success, "fn a() {}", None),
    });
    model_answers(&mut sim, "a defines fn a");
    sim.state.config.context = braid_protocol::ContextStrategy::RecentN { n: 1 };
    sim.start("next step");
    let rid = sim.request_id();
    let old: Vec<_> = sim.messages().iter().take(4).map(|m| m.id).collect();
    // A window far too small: past the threshold, the older turns go first.
    let fx = sim.prepare(sim.prepared(150));
    assert_eq!(sim.state.status, S::Summarizing);
    assert!(fx.iter().any(|e| matches!(e, Effect::Summarize { replaces, .. } if *replaces == old)));
    let fx = sim.send(Event::SummaryReady {
        request_id: rid,
        text: "Task: read a. Done: fn a found.".into(),
        replaces: old.clone(),
    });
    assert!(starts_request(&fx), "the same request goes out now");
    assert_eq!(sim.request_id(), rid);
    let sent = request_messages(&sim.conversation);
    let first = sent[0].body.plain_text().unwrap();
    assert!(first.starts_with("[Summary of 4 earlier messages"), "{first}");
    assert!(first.contains("Task: read a.") && first.contains("### src/a.rs\nfn a() {}"), "files re-attached: {first}");
    assert!(sent.iter().all(|m| !old.contains(&m.id)), "the summarised messages are not sent");
    assert_eq!(sent.last().unwrap().body.plain_text().unwrap(), "next step");
    assert!(old.iter().all(|id| sim.conversation.message(*id).is_some()), "the originals stay stored");
    model_answers(&mut sim, "ok");
    assert_eq!(sim.state.status, S::Idle);
}

#[test]
fn a_failed_summary_goes_on_without_and_cancel_stops_summarising() {
    let mut sim = Sim::new();
    sim.state.config.context = braid_protocol::ContextStrategy::RecentN { n: 1 };
    sim.start("one");
    model_answers(&mut sim, "two");
    sim.start("three");
    let rid = sim.request_id();
    let fx = sim.prepare(sim.prepared(110));
    assert!(fx.iter().any(|e| matches!(e, Effect::Summarize { replaces, .. } if replaces.len() == 2)), "{fx:?}");
    let fx = sim.send(Event::SummaryFailed { request_id: rid, error: "network".into() });
    assert!(starts_request(&fx));
    assert_eq!(sim.state.status, S::EnhancingSystemPrompt, "the request is assembled again, now without the summary");
    model_answers(&mut sim, "four");
    sim.start("five");
    let rid = sim.request_id();
    sim.prepare(sim.prepared(110));
    assert_eq!(sim.state.status, S::Summarizing);
    let fx = sim.send(Event::Cancel);
    assert!(fx.iter().any(|e| matches!(e, Effect::AbortLlmRequest { request_id, .. } if *request_id == rid)));
    assert_eq!(sim.state.status, S::Idle);
}
