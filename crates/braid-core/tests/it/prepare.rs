//! The decisions taken between `StartLlmRequest` and the request leaving,
//! now the machine's: fitting the window, summarising first, refusing a
//! message no window holds, telling the model of changed files once,
//! learning the estimate's error from reported usage, and counting stored
//! messages. Event by event with the simulator, no runtime.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::fit::{FileChange, FileChangeKind};
use braid_core::llm::{LlmResponse, StopReason, Usage};
use braid_core::machine::{Effect, Event};
use braid_core::sim::Sim;
use braid_core::tokens::TokenEncoding;
use braid_protocol::{BraidEvent, ContextStatus as S};

fn answer(sim: &mut Sim, text: &str, usage: Option<Usage>) {
    let rid = sim.request_id();
    let response = LlmResponse { text: text.into(), tool_calls: Vec::new(), usage, stop_reason: StopReason::EndTurn };
    sim.send(Event::LlmCompleted { request_id: rid, response });
}

fn sent(fx: &[Effect]) -> Option<(Option<String>, Vec<String>)> {
    fx.iter().find_map(|e| match e {
        Effect::SendLlmRequest { system, messages, .. } => {
            let system = braid_protocol::sent::join_parts(system.iter().map(|p| p.text.as_str()));
            Some((system, messages.iter().map(|m| m.body.plain_text().unwrap_or_default()).collect()))
        }
        _ => None,
    })
}

fn notices(fx: &[Effect]) -> Vec<String> {
    notices_as(fx, |n| n.code.to_string())
}

fn notice_texts(fx: &[Effect]) -> Vec<String> {
    notices_as(fx, |n| n.message.clone())
}

fn notices_as(fx: &[Effect], f: impl Fn(&braid_protocol::Notice) -> String) -> Vec<String> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Emit(BraidEvent::ContextUpdate(u)) => u.metadata.notice.as_ref().map(&f),
            _ => None,
        })
        .collect()
}

#[test]
fn a_request_that_fits_is_sent_whole_and_the_window_use_is_recorded() {
    let mut sim = Sim::new();
    sim.start("hello");
    let fx = sim.prepare(sim.prepared(8_000));
    let (system, texts) = sent(&fx).expect("the request goes out");
    let system = system.unwrap();
    assert!(system.starts_with(braid_core::prompt::BASE_PROMPT), "Braid's base prompt first: {system}");
    assert!(!system.contains("changed outside Braid") && !system.contains("Continue exactly"), "{system}");
    assert_eq!(texts, vec!["hello"]);
    let usage = sim.state.book.last_sent.clone().expect("the window's use is kept for the meter");
    assert_eq!((usage.window, usage.reserved_output, usage.sent_messages, usage.left_out), (8_000, 100, 1, 0));
    assert_eq!(sim.state.status, S::PreparingLlmRequest, "still preparing until the runtime starts sending");
}

#[test]
fn older_messages_are_left_out_when_the_window_is_small_and_the_newest_is_kept() {
    let mut sim = Sim::new();
    sim.state.config.summarize_at_percent = 100;
    let long = "word ".repeat(300);
    sim.start(&long);
    sim.prepare(sim.prepared(100_000));
    answer(&mut sim, &long, None);
    sim.start("short question");
    // No summary: one was already made for this request.
    sim.state.book.summarized_for = Some(sim.request_id());
    let fx = sim.prepare(sim.prepared(350));
    let (_, texts) = sent(&fx).expect("sent without the old turn");
    assert_eq!(texts, vec!["short question"]);
    assert!(sim.state.book.last_sent.clone().unwrap().left_out >= 1);
}

#[test]
fn a_message_no_window_can_hold_fails_with_a_reason_and_nothing_is_sent() {
    let mut sim = Sim::new();
    sim.start(&"word ".repeat(2_000));
    let fx = sim.prepare(sim.prepared(600));
    assert!(sent(&fx).is_none());
    match &sim.state.status {
        S::Failed { error_code, message, recoverable } => {
            assert_eq!(*error_code, braid_protocol::FailureCode::ContextTooLarge);
            assert!(message.contains("sim-model") && message.contains("too long"), "{message}");
            assert!(!recoverable);
        }
        other => panic!("expected Failed, got {other:?}"),
    }
}

#[test]
fn a_change_found_at_open_is_announced_as_made_while_braid_was_closed() {
    let mut sim = Sim::new();
    let modified = FileChangeKind::Modified { size_before: 7, size_now: 24, content: 1 };
    let changes = vec![
        FileChange { path: "plan.md".into(), kind: modified },
        FileChange { path: "old.md".into(), kind: FileChangeKind::Deleted },
    ];
    let fx = sim.send(Event::FilesChangedWhileClosed { changes });
    assert_eq!(
        notice_texts(&fx),
        [
            "plan.md changed outside Braid while it was closed; the model will be told before its next request.",
            "old.md was deleted outside Braid while it was closed."
        ]
    );
    // Seen again live, the same change is not announced twice; another is.
    let fx = sim.send(Event::FileChecked { path: "plan.md".into(), change: Some(modified) });
    assert!(notice_texts(&fx).is_empty());
    let other = FileChangeKind::Modified { size_before: 7, size_now: 24, content: 2 };
    let fx = sim.send(Event::FileChecked { path: "plan.md".into(), change: Some(other) });
    assert_eq!(notice_texts(&fx).len(), 1, "same size, other content: a new change");
}

#[test]
fn a_changed_file_is_told_to_the_model_once_and_to_the_user_once() {
    let mut sim = Sim::new();
    let change = FileChange {
        path: "src/a.rs".into(),
        kind: FileChangeKind::Modified { size_before: 10, size_now: 42, content: 7 },
    };
    let fx = sim.send(Event::FileChecked { path: change.path.clone(), change: Some(change.kind) });
    assert_eq!(notices(&fx), vec!["file_changed"]);
    let fx = sim.send(Event::FileChecked { path: change.path.clone(), change: Some(change.kind) });
    assert!(notices(&fx).is_empty(), "the same change is announced once");

    sim.start("go on");
    let mut facts = sim.prepared(8_000);
    facts.configured_prompt = Some("You help.".into());
    facts.changed_files = vec![change.clone()];
    let (system, _) = sent(&sim.prepare(facts.clone())).unwrap();
    let system = system.unwrap();
    assert!(system.starts_with("You help.\n\n") && system.contains("- src/a.rs: changed (10 → 42 bytes)"), "{system}");
    answer(&mut sim, "ok", None);

    sim.start("and now");
    let (system, _) = sent(&sim.prepare(facts.clone())).unwrap();
    let system = system.unwrap();
    assert!(system.starts_with("You help.") && !system.contains("src/a.rs: changed"), "told once per change: {system}");
    answer(&mut sim, "ok", None);

    sim.start("deleted?");
    facts.changed_files = vec![FileChange { path: "src/a.rs".into(), kind: FileChangeKind::Deleted }];
    let (system, _) = sent(&sim.prepare(facts)).unwrap();
    assert!(system.unwrap().contains("- src/a.rs: deleted"), "a new change is told again");
}

#[test]
fn reported_usage_corrects_the_estimate_for_models_without_a_tokenizer() {
    let mut sim = Sim::new();
    sim.start("hello there");
    let mut facts = sim.prepared(8_000);
    facts.encoding = TokenEncoding::Estimate;
    sim.prepare(facts);
    let ours = {
        let u = sim.state.book.last_sent.clone().unwrap();
        u.system + u.tools + u.messages
    };
    answer(&mut sim, "hi", Some(Usage { prompt_tokens: ours * 2, completion_tokens: 1 }));
    assert!((sim.state.book.estimate_ratio - 2.0).abs() < 1e-9, "{}", sim.state.book.estimate_ratio);

    // A model with a known tokenizer learns nothing from usage.
    let mut sim = Sim::new();
    sim.start("hello there");
    sim.prepare(sim.prepared(8_000));
    answer(&mut sim, "hi", Some(Usage { prompt_tokens: 9_999, completion_tokens: 1 }));
    assert_eq!(sim.state.book.estimate_ratio, 1.0);
}

#[test]
fn stored_messages_carry_their_count_in_the_encoding_in_use() {
    let mut sim = Sim::new();
    sim.start("count me");
    let user = sim.messages()[0].meta.tokens.expect("counted when stored");
    assert_eq!(user.encoding, TokenEncoding::O200k);
    assert!(user.count > 4);
    let mut facts = sim.prepared(8_000);
    facts.encoding = TokenEncoding::Cl100k;
    sim.prepare(facts);
    answer(&mut sim, "counted too", None);
    let reply = sim.messages()[1].meta.tokens.unwrap();
    assert_eq!(reply.encoding, TokenEncoding::Cl100k, "the model's encoding from the facts");
}

#[test]
fn facts_for_a_request_that_is_no_longer_current_change_nothing() {
    let mut sim = Sim::new();
    sim.start("hello");
    let facts = sim.prepared(8_000);
    let rid = sim.request_id();
    sim.send(Event::Cancel);
    let before = sim.state.clone();
    let fx = sim.send(Event::RequestPrepared { request_id: rid, prepared: Box::new(facts) });
    assert!(fx.is_empty(), "{fx:?}");
    assert_eq!(sim.state, before);
}

#[test]
fn an_answer_cut_at_the_output_limit_is_marked_and_continue_goes_on_from_it() {
    let mut sim = Sim::new();
    // Continue by hand: no automatic continuation (see continuation.rs).
    sim.state.config.generation.continue_cut = Some(0);
    sim.start("write a long poem");
    sim.prepare(sim.prepared(8_000));
    let rid = sim.request_id();
    let response = LlmResponse {
        text: "Roses are".into(),
        tool_calls: Vec::new(),
        usage: None,
        stop_reason: StopReason::MaxTokens,
    };
    let fx = sim.send(Event::LlmCompleted { request_id: rid, response });
    assert!(notices(&fx).contains(&"answer_cut".to_owned()), "{:?}", notices(&fx));
    let last = sim.messages().last().map(|m| (m.meta.cut, m.body.plain_text())).unwrap();
    assert_eq!(last, (true, Some("Roses are".into())), "kept, and marked as cut");
    assert_eq!(sim.state.status, S::Idle);

    // Continue: the same conversation goes out, and the model is told to
    // go on from where it stopped.
    sim.send(Event::Retry);
    let (system, texts) = sent(&sim.prepare(sim.prepared(8_000))).unwrap();
    assert!(system.unwrap().contains("cut off at the output limit"));
    assert_eq!(texts, vec!["write a long poem", "Roses are"]);
    answer(&mut sim, " red.", None);
    let (system, _) = sent(&{
        sim.start("thanks");
        sim.prepare(sim.prepared(8_000))
    })
    .unwrap();
    assert!(!system.unwrap_or_default().contains("cut off"), "only right after a cut answer");
    assert!(!sim.messages().iter().rev().nth(1).unwrap().meta.cut, "a finished answer is not marked");
}

#[test]
fn an_answer_the_user_stopped_is_kept_marked_and_continue_goes_on_from_it() {
    let mut sim = Sim::new();
    sim.start("write a long poem");
    sim.prepare(sim.prepared(8_000));
    let rid = sim.request_id();
    sim.send(Event::LlmDelta { request_id: rid, text: "Roses are".into() });
    sim.send(Event::Interrupt);
    let response = LlmResponse { text: "Roses are".into(), stop_reason: StopReason::Interrupted, ..Default::default() };
    let fx = sim.send(Event::LlmCompleted { request_id: rid, response });
    assert!(notice_texts(&fx).iter().any(|n| n.contains("press Continue")), "{:?}", notice_texts(&fx));
    let last = sim.messages().last().map(|m| (m.meta.stopped, m.meta.cut, m.body.plain_text())).unwrap();
    assert_eq!(last, (true, false, Some("Roses are".into())), "kept, and marked as stopped");

    sim.send(Event::Retry);
    let (system, texts) = sent(&sim.prepare(sim.prepared(8_000))).unwrap();
    assert!(system
        .unwrap()
        .contains("Your previous answer was stopped by the user. Continue exactly where it stopped"));
    assert_eq!(texts, vec!["write a long poem", "Roses are"]);
    answer(&mut sim, " red.", None);
    assert!(!sim.messages().last().unwrap().meta.stopped, "a finished answer is not marked");
}

#[test]
fn a_resource_read_again_is_sent_once_its_newest_copy() {
    let resource = |content: &str, at: u64| braid_protocol::MessageType::McpResource {
        server_name: "docs".into(),
        resource_uri: "demo://plan.md".into(),
        content: content.into(),
        mime_type: None,
        retrieved_at: braid_protocol::Timestamp(at),
    };
    let mut sim = Sim::new();
    sim.start_with("read @docs:demo://plan.md", vec![resource("the old plan", 1)]);
    sim.prepare(sim.prepared(8_000));
    answer(&mut sim, "ok", None);
    sim.start_with("and now?", vec![resource("the new plan", 2)]);
    let fx = sim.prepare(sim.prepared(8_000));
    let sent: Vec<String> = fx
        .iter()
        .find_map(|e| match e {
            Effect::SendLlmRequest { messages, .. } => Some(messages.iter().map(|m| format!("{:?}", m.body)).collect()),
            _ => None,
        })
        .expect("the request goes out");
    assert!(sent.iter().any(|m| m.contains("the new plan")));
    assert!(!sent.iter().any(|m| m.contains("the old plan")), "the older copy is not sent: {sent:?}");
}

#[test]
fn the_projects_instructions_go_after_the_prompt_and_the_folder_with_the_tools() {
    use braid_core::fit::{Instructions, WorkspaceFacts};
    let workspace = |cut| WorkspaceFacts {
        path: "/home/me/parser".into(),
        instructions: Some(Instructions { file: "AGENTS.md".into(), text: "Run cargo test first.\n".into(), cut }),
    };
    let mut sim = Sim::new();
    sim.start("fix it");
    let mut facts = sim.prepared(8_000);
    facts.configured_prompt = Some("Answer in French.".into());
    facts.calls_tools = true;
    facts.workspace = Some(workspace(false));
    let (system, _) = sent(&sim.prepare(facts.clone())).unwrap();
    let system = system.unwrap();
    let want = format!(
        "Answer in French.\n\n{}\n\nYou work in the folder /home/me/parser: the tools' paths are relative to it.\n\n\
         The project's instructions, from AGENTS.md in that folder:\nRun cargo test first.",
        braid_core::prompt::UNTRUSTED_RULE
    );
    assert!(system.starts_with(&want), "the user's prompt first, then the folder and its instructions:\n{system}");
    answer(&mut sim, "ok", None);

    // Without tools the folder means nothing to the model; the
    // instructions still hold. A cut file says so.
    sim.start("and now?");
    facts.calls_tools = false;
    facts.workspace = Some(workspace(true));
    let (system, _) = sent(&sim.prepare(facts)).unwrap();
    assert_eq!(
        system.as_deref(),
        Some("Answer in French.\n\nThe project's instructions, from AGENTS.md in that folder:\nRun cargo test first.\n[cut: the file is longer than Braid sends]")
    );
}

fn tools_sent(fx: &[Effect]) -> Option<Vec<String>> {
    fx.iter().find_map(|e| match e {
        Effect::SendLlmRequest { tools, .. } => Some(tools.iter().map(|t| t.name.clone()).collect()),
        _ => None,
    })
}

#[test]
fn tools_that_leave_the_conversation_no_room_are_left_out_last_first() {
    // Room for everything: every tool goes, no notice.
    let mut roomy = Sim::new();
    roomy.start("hello");
    let fx = roomy.prepare(roomy.prepared(8_000));
    let all = tools_sent(&fx).unwrap();
    assert!(all.len() >= 3, "{all:?}");
    assert!(!notices(&fx).contains(&"tools_left_out".to_owned()));
    let u = roomy.state.book.last_sent.clone().unwrap();
    // One token short of that: the last tools go, the request still leaves.
    let mut tight = Sim::new();
    tight.start("hello");
    let fx = tight.prepare(tight.prepared(u.system + u.tools + u.messages + u.reserved_output - 1));
    let kept = tools_sent(&fx).expect("the request goes out with fewer tools");
    assert!(!kept.is_empty() && kept.len() < all.len(), "{kept:?}");
    assert_eq!(kept[..], all[..kept.len()], "the first registered are kept");
    let told =
        notice_texts(&fx).into_iter().find(|t| t.contains("left out of this request")).expect("the user is told");
    assert!(told.ends_with(&all[kept.len()..].join(", ")), "{told}");
    let (system, _) = sent(&fx).unwrap();
    assert!(!system.unwrap().contains(all.last().unwrap().as_str()), "the prompt names no tool left out");
    // A tool the user forced stays; others go in its place.
    let mut forced = Sim::new();
    let fx = forced.send(Event::UserMessage {
        body: braid_protocol::MessageType::text(braid_protocol::Role::User, "hello"),
        queue_if_busy: false,
        force_tool: Some(all.last().unwrap().clone()),
        images: Vec::new(),
    });
    forced.pipeline_ok(&fx);
    let fx = forced.prepare(forced.prepared(u.system + u.tools + u.messages + u.reserved_output - 1));
    let kept = tools_sent(&fx).expect("the forced request goes out");
    assert!(kept.contains(all.last().unwrap()) && kept.len() < all.len(), "{kept:?}");
    // A window no tool set helps still refuses the message, as before.
    let mut tiny = Sim::new();
    tiny.start(&"word ".repeat(400));
    let fx = tiny.prepare(tiny.prepared(300));
    assert!(tools_sent(&fx).is_none());
    assert!(
        matches!(tiny.state.status, S::Failed { error_code: braid_protocol::FailureCode::ContextTooLarge, .. }),
        "{:?}",
        tiny.state.status
    );
}

#[test]
fn a_model_not_known_for_tools_gets_the_groups_its_message_calls_for() {
    let mut sim = Sim::new();
    let ask = |sim: &mut Sim, text: &str| {
        sim.start(text);
        let mut facts = sim.prepared(8_000);
        facts.calls_tools = false; // tools "as needed" by default
        let fx = sim.prepare(facts);
        let usage = sim.state.book.last_sent.clone().unwrap();
        let system = sent(&fx).unwrap().0.unwrap_or_default();
        answer(sim, "ok", None);
        (tools_sent(&fx).unwrap(), usage, system)
    };
    // A plain question goes alone: no definitions, no tool lines.
    let (tools, usage, system) = ask(&mut sim, "What is the capital of France?");
    assert_eq!(tools, Vec::<String>::new());
    assert_eq!(usage.tools, 0);
    assert!(!system.contains("Tools you can call"), "{system}");
    let all: Vec<String> = braid_core::sim::SIM_TOOLS.iter().map(|(n, _)| n.to_string()).collect();
    assert_eq!(usage.tools_held_back, all, "the meter says what was held back");

    // A path calls for the file tools, not the command.
    let (tools, usage, _) = ask(&mut sim, "What does notes.txt say?");
    assert_eq!(tools, ["read_file", "list_directory", "glob_files", "write_file", "edit_file"]);
    assert_eq!(usage.tools_held_back, ["run_command"]);

    // Only this turn's words count: a command and a path, every tool.
    let (tools, usage, _) = ask(&mut sim, "Run the tests and fix src/lib.rs");
    assert_eq!(tools, all);
    assert!(usage.tools_held_back.is_empty());
}

#[test]
fn after_its_calls_ran_a_small_model_answers_with_what_they_returned() {
    let mut sim = Sim::new(); // reads are allowed by the default policy
    let prepare = |sim: &mut Sim| {
        let mut facts = sim.prepared(8_000);
        facts.calls_tools = false;
        let fx = sim.prepare(facts);
        let choice = fx.iter().find_map(|e| match e {
            Effect::SendLlmRequest { tool_choice, .. } => Some(tool_choice.clone()),
            _ => None,
        });
        (tools_sent(&fx).unwrap(), choice.flatten())
    };
    sim.start("What does notes.txt say?");
    let (tools, choice) = prepare(&mut sim);
    assert!(tools.contains(&"read_file".to_owned()) && choice == Some(braid_core::llm::ToolChoice::Auto));
    sim.model_calls(&[("c1", "read_file", r#"{"path":"notes.txt"}"#)]);
    sim.tool_done("c1", "hello");
    // Offered again, a small model calls again: it answers instead, the
    // tool it called declared for the history's sake.
    let (tools, choice) = prepare(&mut sim);
    assert_eq!((tools, choice), (vec!["read_file".to_owned()], Some(braid_core::llm::ToolChoice::None)));
    answer(&mut sim, "It says hello.", None);
    // A new turn: its own words decide.
    sim.start("Thanks. And the capital of France?");
    let (tools, choice) = prepare(&mut sim);
    assert_eq!((tools, choice), (vec!["read_file".to_owned()], Some(braid_core::llm::ToolChoice::None)));
}
