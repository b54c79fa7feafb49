//! The window under the user's hand: the breakdown of the next request
//! against the request that then goes, the actions it offers, and
//! compaction asked for (all, up to / from a message, with instructions,
//! with a preview), edited, taken back and cancelled; the threshold
//! "only when I ask".

use braid_core::context::WindowOp;
use braid_core::llm::{LlmResponse, StopReason};
use braid_core::machine::{Effect, Event};
use braid_core::sim::{reply_of, Sim};
use braid_protocol::{
    BreakdownAction, BreakdownCategory as Cat, CompactScope, ContextBreakdown, ContextStatus as S, ContextStrategy,
    FileRefStatus, Message, MessageId, MessageType, Role,
};

fn answer(sim: &mut Sim, text: &str) {
    let request_id = sim.request_id();
    let response =
        LlmResponse { text: text.into(), tool_calls: Vec::new(), usage: None, stop_reason: StopReason::EndTurn };
    sim.send(Event::LlmCompleted { request_id, response });
}

/// One question and its answer, sent through a window of `window`.
fn exchange(sim: &mut Sim, question: &str, reply: &str, window: u32) {
    sim.start(question);
    sim.prepare(sim.prepared(window));
    answer(sim, reply);
}

fn file(path: &str, content: &str) -> MessageType {
    MessageType::FileReference {
        path: path.into(),
        range: None,
        content: Some(content.into()),
        status: FileRefStatus::Resolved,
        error: None,
    }
}

fn resource(uri: &str, content: &str) -> MessageType {
    MessageType::McpResource {
        server_name: "docs".into(),
        resource_uri: uri.into(),
        content: content.into(),
        mime_type: None,
        retrieved_at: braid_protocol::Timestamp(0),
    }
}

fn breakdown(sim: &Sim, window: u32, draft: &str) -> ContextBreakdown {
    sim.breakdown(sim.prepared(window), draft, sim.now)
}

fn part(b: &ContextBreakdown, c: Cat) -> u32 {
    b.parts.iter().find(|p| p.category == c).map_or(0, |p| p.tokens)
}

/// What the request that goes out holds: the sent messages' texts.
fn sent(fx: &[Effect]) -> Vec<String> {
    fx.iter()
        .find_map(|e| match e {
            Effect::SendLlmRequest { messages, .. } => {
                Some(messages.iter().map(|m| m.body.plain_text().unwrap_or_default()).collect())
            }
            _ => None,
        })
        .expect("a request goes out")
}

fn sent_tools(fx: &[Effect]) -> Vec<String> {
    fx.iter()
        .find_map(|e| match e {
            Effect::SendLlmRequest { tools, .. } => Some(tools.iter().map(|t| t.name.clone()).collect()),
            _ => None,
        })
        .expect("a request goes out")
}

fn window(sim: &mut Sim, op: WindowOp) -> Vec<Effect> {
    let step = sim.ctx.window_op(op, sim.now);
    sim.took(step)
}

fn ok(fx: &[Effect]) {
    assert!(matches!(reply_of(fx), Some(Ok(_))), "refused: {:?}", reply_of(fx));
}

fn refused(fx: &[Effect]) -> String {
    match reply_of(fx) {
        Some(Err(e)) => e.message.clone(),
        other => panic!("accepted: {other:?}"),
    }
}

/// A conversation with text, tool-free answers, a file, a resource and
/// long turns, so every category has something.
fn mixed(sim: &mut Sim) {
    exchange(sim, "Plan the migration of the billing service.", &"step ".repeat(120), 100_000);
    sim.start_with("Look at @notes.md", vec![file("notes.md", &"note line\n".repeat(40))]);
    sim.prepare(sim.prepared(100_000));
    answer(sim, "The notes say three things.");
    sim.start_with("And the API docs", vec![resource("docs://api", &"endpoint\n".repeat(30))]);
    sim.prepare(sim.prepared(100_000));
    answer(sim, "Noted the endpoints.");
}

#[test]
fn the_breakdown_sums_to_what_the_request_then_counts_for_every_mix() {
    // Windows from roomy to tight (older turns left out), and a draft
    // that is plain or calls for tools.
    for (w, draft) in [(100_000, "What next?"), (1_200, "What next?"), (100_000, "run the tests in src/")] {
        let mut sim = Sim::new();
        mixed(&mut sim);
        let b = breakdown(&sim, w, draft);
        assert_eq!(b.total, b.parts.iter().map(|p| p.tokens).sum::<u32>(), "the parts sum to the total");
        for c in [Cat::BasePrompt, Cat::Messages, Cat::Draft, Cat::Tools] {
            assert!(part(&b, c) > 0, "{c:?} is counted at {w}: {b:#?}");
        }
        sim.state.book.summarized_for = None;
        sim.state.config.summarize_at_percent = 100;
        sim.start(draft);
        sim.state.book.summarized_for = Some(sim.request_id());
        let fx = sim.prepare(sim.prepared(w));
        sent(&fx);
        let u = sim.state.book.last_sent.clone().unwrap();
        assert_eq!(b.total, u.system + u.tools + u.messages, "window {w}, draft {draft:?}: the request's own count");
        assert_eq!(b.left_out, u.left_out, "what is left out is what the request leaves out");
        assert_eq!(b.reserved_output, u.reserved_output);
        answer(&mut sim, "ok");
    }
}

#[test]
fn files_resources_and_summaries_are_their_own_parts_with_their_actions() {
    let mut sim = Sim::new();
    mixed(&mut sim);
    let b = breakdown(&sim, 100_000, "");
    assert!(part(&b, Cat::Files) > 0 && part(&b, Cat::Resources) > 0, "{b:#?}");
    assert_eq!(part(&b, Cat::Draft), 0, "nothing typed, nothing counted");
    let files = b.parts.iter().find(|p| p.category == Cat::Files).unwrap();
    let note = &files.items[0];
    assert_eq!(note.label, "@notes.md");
    let id = note.message.unwrap();
    assert!(note.actions.contains(&BreakdownAction::Keep { message: id }), "{:?}", note.actions);
    assert!(note.actions.contains(&BreakdownAction::LeaveOut { message: id }));
    let messages = b.parts.iter().find(|p| p.category == Cat::Messages).unwrap();
    assert!(messages.items[0].label.starts_with("Answer: step step"), "the largest first: {:?}", messages.items[0]);
    assert!(matches!(messages.items[0].actions[0], BreakdownAction::SummarizeUpTo { .. }));
}

#[test]
fn dropping_a_tool_group_takes_its_tools_out_of_the_breakdown_and_the_request() {
    let mut sim = Sim::new();
    exchange(&mut sim, "hello", "hi", 100_000);
    let before = breakdown(&sim, 100_000, "run the tests");
    let tools = before.parts.iter().find(|p| p.category == Cat::Tools).unwrap();
    let commands = tools.items.iter().find(|i| i.label == "Commands").expect("the commands group is listed");
    assert_eq!(commands.actions, vec![BreakdownAction::DropTools { group: "commands".into() }]);
    let fx = window(&mut sim, WindowOp::ToolGroup { group: "commands".into(), offered: false });
    ok(&fx);
    let after = breakdown(&sim, 100_000, "run the tests");
    assert!(part(&after, Cat::Tools) < part(&before, Cat::Tools), "the count falls");
    let tools = after.parts.iter().find(|p| p.category == Cat::Tools).unwrap();
    let dropped = tools.items.iter().find(|i| i.label.starts_with("Commands")).unwrap();
    assert!(!dropped.sent && dropped.actions == vec![BreakdownAction::OfferTools { group: "commands".into() }]);
    sim.start("run the tests");
    let fx = sim.prepare(sim.prepared(100_000));
    let names = sent_tools(&fx);
    assert!(!names.contains(&"run_command".to_owned()) && names.contains(&"read_file".to_owned()), "{names:?}");
    answer(&mut sim, "ok");
    let fx = window(&mut sim, WindowOp::ToolGroup { group: "nonsense".into(), offered: false });
    assert!(refused(&fx).contains("no tool group"));
}

#[test]
fn a_message_left_out_is_not_sent_until_it_is_included_again() {
    let mut sim = Sim::new();
    exchange(&mut sim, "secret plan alpha", "noted alpha", 100_000);
    let question = sim.messages()[0].id;
    ok(&window(&mut sim, WindowOp::LeaveOut { message: question, out: true }));
    let b = breakdown(&sim, 100_000, "next");
    let listed = b.parts.iter().flat_map(|p| &p.items).find(|i| i.message == Some(question)).unwrap();
    assert_eq!(listed.actions, vec![BreakdownAction::Include { message: question }]);
    sim.start("next");
    let texts = sent(&sim.prepare(sim.prepared(100_000)));
    assert!(!texts.contains(&"secret plan alpha".to_owned()), "{texts:?}");
    answer(&mut sim, "ok");
    ok(&window(&mut sim, WindowOp::LeaveOut { message: question, out: false }));
    sim.start("again");
    let texts = sent(&sim.prepare(sim.prepared(100_000)));
    assert_eq!(texts[0], "secret plan alpha");
    answer(&mut sim, "ok");
    assert!(
        refused(&window(&mut sim, WindowOp::LeaveOut { message: MessageId(999), out: true })).contains("no message")
    );
}

/// The summary the user asked for: its effect's request, batch and
/// instructions.
fn summarize_effect(fx: &[Effect]) -> (braid_protocol::RequestId, Vec<MessageId>, Option<String>) {
    fx.iter()
        .find_map(|e| match e {
            Effect::Summarize { request_id, replaces, instructions } => {
                Some((*request_id, replaces.clone(), instructions.clone()))
            }
            _ => None,
        })
        .expect("a summary is asked for")
}

fn three_exchanges(sim: &mut Sim) -> Vec<MessageId> {
    exchange(sim, "one: the budget is 40", "noted 40", 100_000);
    exchange(sim, "two: the deadline is May", "noted May", 100_000);
    exchange(sim, "three: go", "going", 100_000);
    sim.messages().iter().map(|m| m.id).collect()
}

#[test]
fn compact_summarises_all_but_the_last_exchange_with_the_users_instructions() {
    let mut sim = Sim::new();
    let ids = three_exchanges(&mut sim);
    let op =
        WindowOp::Compact { scope: CompactScope::All, instructions: Some(" keep the numbers ".into()), preview: false };
    let fx = window(&mut sim, op);
    ok(&fx);
    let (rid, batch, instructions) = summarize_effect(&fx);
    assert_eq!(batch, ids[..4].to_vec(), "the first two exchanges; the last stays as it is");
    assert_eq!(instructions.as_deref(), Some("keep the numbers"));
    assert_eq!(sim.state.status, S::Summarizing);
    let fx =
        sim.send(Event::SummaryReady { request_id: rid, text: "Budget 40, deadline May.".into(), replaces: batch });
    assert_eq!(sim.state.status, S::Idle, "back to where it was");
    assert!(fx
        .iter()
        .any(|e| matches!(e, Effect::AppendMessage(m) if matches!(m.body, MessageType::SystemControl { .. }))));
    sim.start("four");
    let texts = sent(&sim.prepare(sim.prepared(100_000)));
    assert_eq!(texts.len(), 4, "summary, the last exchange, the new question: {texts:?}");
    assert!(texts[0].contains("Budget 40, deadline May."), "{}", texts[0]);
    assert_eq!(&texts[1..], ["three: go", "going", "four"]);
}

#[test]
fn a_previewed_summary_replaces_nothing_until_approved_and_can_be_edited() {
    let mut sim = Sim::new();
    three_exchanges(&mut sim);
    let fx = window(&mut sim, WindowOp::Compact { scope: CompactScope::All, instructions: None, preview: true });
    let (rid, batch, _) = summarize_effect(&fx);
    let n = sim.messages().len();
    sim.send(Event::SummaryReady { request_id: rid, text: "draft summary".into(), replaces: batch });
    assert_eq!(sim.messages().len(), n, "nothing replaced yet");
    assert_eq!(sim.state.book.summary_preview.as_ref().unwrap().text, "draft summary");
    assert_eq!(sim.state.status, S::Idle);
    assert!(refused(&window(&mut sim, WindowOp::ApplySummary(Some("  ".into())))).contains("empty"));
    assert!(sim.state.book.summary_preview.is_some(), "a refused edit keeps the preview");
    // Not while an answer is written: its card would stand between the
    // question and the answer.
    sim.start("a question meanwhile");
    let busy = refused(&window(&mut sim, WindowOp::ApplySummary(None)));
    assert!(busy.contains("busy"), "{busy}");
    assert!(sim.state.book.summary_preview.is_some(), "the preview waits");
    sim.prepare(sim.prepared(100_000));
    answer(&mut sim, "answered");
    ok(&window(&mut sim, WindowOp::ApplySummary(Some("Budget 40 (edited).".into()))));
    assert!(sim.state.book.summary_preview.is_none());
    sim.start("four");
    let texts = sent(&sim.prepare(sim.prepared(100_000)));
    assert!(texts[0].contains("Budget 40 (edited)."), "{texts:?}");
    answer(&mut sim, "ok");
    // Discarding: nothing replaced, and nothing left to apply.
    let fx = window(&mut sim, WindowOp::Compact { scope: CompactScope::All, instructions: None, preview: true });
    let (rid, batch, _) = summarize_effect(&fx);
    sim.send(Event::SummaryReady { request_id: rid, text: "other".into(), replaces: batch });
    ok(&window(&mut sim, WindowOp::DiscardSummary));
    assert!(refused(&window(&mut sim, WindowOp::ApplySummary(None))).contains("no summary"));
}

#[test]
fn summarise_up_to_and_from_here_cover_what_they_say_and_both_stand() {
    let mut sim = Sim::new();
    let ids = three_exchanges(&mut sim);
    // Up to the first answer.
    let fx = window(
        &mut sim,
        WindowOp::Compact { scope: CompactScope::UpTo { message: ids[1] }, instructions: None, preview: false },
    );
    let (rid, batch, _) = summarize_effect(&fx);
    assert_eq!(batch, ids[..2].to_vec());
    sim.send(Event::SummaryReady { request_id: rid, text: "S-early".into(), replaces: batch });
    // From the third question to the end.
    let fx = window(
        &mut sim,
        WindowOp::Compact { scope: CompactScope::From { message: ids[4] }, instructions: None, preview: false },
    );
    let (rid, batch, _) = summarize_effect(&fx);
    assert_eq!(batch, ids[4..6].to_vec());
    sim.send(Event::SummaryReady { request_id: rid, text: "S-late".into(), replaces: batch });
    sim.start("four");
    let texts = sent(&sim.prepare(sim.prepared(100_000)));
    assert_eq!(texts.len(), 5, "{texts:?}");
    assert!(texts[0].contains("S-early") && texts[3].contains("S-late"), "each in its place: {texts:?}");
    assert_eq!(&texts[1..3], ["two: the deadline is May", "noted May"]);
    assert_eq!(texts[4], "four");
}

#[test]
fn a_summary_edited_or_taken_back_changes_the_next_request_and_the_originals_stay() {
    let mut sim = Sim::new();
    three_exchanges(&mut sim);
    let fx = window(&mut sim, WindowOp::Compact { scope: CompactScope::All, instructions: None, preview: false });
    let (rid, batch, _) = summarize_effect(&fx);
    sim.send(Event::SummaryReady { request_id: rid, text: "first text".into(), replaces: batch });
    let summary = sim.messages().last().unwrap().id;
    ok(&window(&mut sim, WindowOp::EditSummary { summary, text: "second text".into() }));
    let b = breakdown(&sim, 100_000, "");
    let s = b.parts.iter().find(|p| p.category == Cat::Summary).expect("the summary is a part");
    assert_eq!(s.items[0].actions, vec![BreakdownAction::UndoSummary { message: summary }]);
    ok(&window(&mut sim, WindowOp::UndoSummary(summary)));
    assert!(refused(&window(&mut sim, WindowOp::UndoSummary(summary))).contains("not in force"));
    sim.start("four");
    let texts = sent(&sim.prepare(sim.prepared(100_000)));
    assert_eq!(texts[0], "one: the budget is 40", "the originals are sent again: {texts:?}");
    assert!(!texts.iter().any(|t| t.contains("second text")));
    let question = sim.messages()[0].id;
    assert!(refused(&window(&mut sim, WindowOp::UndoSummary(question))).contains("not a summary"));
}

#[test]
fn compaction_is_refused_while_busy_or_with_too_little_and_cancel_stops_it() {
    let mut sim = Sim::new();
    exchange(&mut sim, "only", "one", 100_000);
    let op = || WindowOp::Compact { scope: CompactScope::All, instructions: None, preview: false };
    assert!(refused(&window(&mut sim, op())).contains("nothing to summarise"));
    exchange(&mut sim, "two", "answers", 100_000);
    sim.start("busy");
    assert!(refused(&window(&mut sim, op())).contains("busy"));
    answer(&mut sim, "done");
    let fx = window(&mut sim, op());
    let (rid, ..) = summarize_effect(&fx);
    let fx = sim.send(Event::Cancel);
    assert!(fx.iter().any(|e| matches!(e, Effect::AbortLlmRequest { request_id, .. } if *request_id == rid)));
    assert_eq!(sim.state.status, S::Idle);
    let n = sim.messages().len();
    sim.send(Event::SummaryReady { request_id: rid, text: "late".into(), replaces: vec![] });
    assert_eq!(sim.messages().len(), n, "a summary that comes after Cancel is dropped");
}

#[test]
fn only_when_i_ask_never_summarises_by_itself() {
    let mut sim = Sim::new();
    let strategy = ContextStrategy::Intelligent { keep_last: 2 };
    let fx = sim.send(Event::SetContextStrategy { strategy, summarize_at_percent: Some(30) });
    assert!(refused(&fx).contains("only when asked"));
    sim.send(Event::SetContextStrategy { strategy, summarize_at_percent: Some(0) });
    let long = "word ".repeat(200);
    for i in 0..4 {
        exchange(&mut sim, &format!("{i} {long}"), &long, 100_000);
    }
    let b = breakdown(&sim, 1_000, "next");
    assert!(!b.would_summarize && b.summarize_at_percent == 0);
    sim.start("next");
    let fx = sim.prepare(sim.prepared(1_000));
    assert!(!fx.iter().any(|e| matches!(e, Effect::Summarize { .. })), "older turns are left out instead");
    assert!(sim.state.book.last_sent.clone().unwrap().left_out > 0);
    // At the default threshold the same request is summarised first.
    answer(&mut sim, "ok");
    sim.send(Event::SetContextStrategy { strategy, summarize_at_percent: Some(92) });
    assert!(breakdown(&sim, 1_000, "next").would_summarize);
}

#[test]
fn the_summariser_is_told_what_the_user_asked_it_to_keep() {
    let plain = braid_core::prompt::summary_instructions(None);
    let asked = braid_core::prompt::summary_instructions(Some("keep the numbers"));
    assert_eq!(plain, braid_core::prompt::SUMMARY_INSTRUCTIONS);
    assert!(asked.starts_with(&plain) && asked.ends_with("keep this: keep the numbers"), "{asked}");
    let _ = Message::new(MessageId(1), braid_protocol::Timestamp(0), MessageType::text(Role::User, "x"));
}

/// Answers the summary the request in flight asked for with `text`.
fn summarised(sim: &mut Sim, fx: &[Effect], text: &str) -> Vec<MessageId> {
    let (rid, batch, _) = summarize_effect(fx);
    let (replaces, _) = braid_core::prompt::summary_job(&sim.conversation, &batch, 100_000);
    sim.send(Event::SummaryReady { request_id: rid, text: text.into(), replaces: replaces.clone() });
    replaces
}

#[test]
fn one_summary_brings_the_request_well_under_the_threshold_and_lasts_many_turns() {
    let mut sim = Sim::new();
    sim.state.config.summarize_at_percent = 100;
    // A long conversation, as after an import: 800 messages, five windows.
    for i in 0..400 {
        exchange(
            &mut sim,
            &format!("question {i} {}", "word ".repeat(20)),
            &format!("answer {i} {}", "more ".repeat(20)),
            1_000_000,
        );
    }
    sim.state.config.summarize_at_percent = 92;
    sim.start("and now?");
    let fx = sim.prepare(sim.prepared(4_096));
    let replaced = summarised(&mut sim, &fx, "The story so far.");
    assert!(
        replaced.len() > 700,
        "everything older than what stays is covered by the one summary ({})",
        replaced.len()
    );
    let fx = sim.prepare(sim.prepared(4_096));
    let texts = sent(&fx);
    assert!(texts[0].contains("The story so far."), "{}", texts[0]);
    let usage = sim.state.book.last_sent.clone().unwrap();
    let share = (usage.system + usage.tools + usage.messages + usage.reserved_output) * 100 / usage.window;
    assert!(share <= 70, "the request sits well under the threshold after it ({share} %)");
    answer(&mut sim, "ok");
    // The next turns go without summarising again.
    for i in 0..8 {
        sim.start(&format!("next {i}"));
        let fx = sim.prepare(sim.prepared(4_096));
        assert!(!fx.iter().any(|e| matches!(e, Effect::Summarize { .. })), "turn {i} summarised again");
        answer(&mut sim, "fine");
    }
}

#[test]
fn the_summariser_reads_the_newest_part_of_a_batch_too_long_for_it() {
    let messages: Vec<Message> = (1..=400)
        .map(|i| {
            Message::new(
                MessageId(i),
                braid_protocol::Timestamp(0),
                MessageType::text(Role::User, format!("line {i} {}", "x ".repeat(20))),
            )
        })
        .collect();
    let refs: Vec<&Message> = messages.iter().collect();
    let input = braid_core::prompt::summary_input(Some("before"), &refs, 2_000);
    assert!(input.starts_with("Earlier summary:\nbefore"), "the earlier summary is always read");
    assert!(input.contains("line 400 ") && !input.contains("line 1 "), "the newest part is read");
    let left = input.lines().find(|l| l.contains("older messages are left out")).unwrap_or_default();
    assert!(left.starts_with('['), "and the text says how many were left out: {left}");
    assert!(braid_core::tokens::count(braid_core::tokens::TokenEncoding::O200k, &input) <= 2_000);
}
