//! A referenced file never silently disappears: when fitting leaves it
//! out, the request's record names it (the chat marks its chip); kept by
//! the user, it goes ahead of older messages while it fits.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::llm::LlmResponse;
use braid_core::machine::{Effect, Event};
use braid_core::sim::Sim;
use braid_protocol::{MessageId, MessageType};

/// Asks `question` with `file`'s content attached as an @reference, and
/// has it answered; returns the reference's id.
fn ask_with_file(sim: &mut Sim, question: &str, content: &str) -> MessageId {
    let file = MessageType::FileReference {
        path: "notes.md".into(),
        range: None,
        content: Some(content.into()),
        status: Default::default(),
        error: None,
    };
    sim.start_with(question, vec![file]);
    sim.prepare(sim.prepared(100_000));
    let rid = sim.request_id();
    sim.send(Event::LlmCompleted { request_id: rid, response: LlmResponse::text("noted") });
    sim.messages().iter().find(|m| matches!(m.body, MessageType::FileReference { .. })).unwrap().id
}

fn sent_texts(fx: &[Effect]) -> Vec<String> {
    fx.iter()
        .find_map(|e| match e {
            Effect::SendLlmRequest { messages, .. } => Some(
                messages
                    .iter()
                    .map(|m| match &m.body {
                        MessageType::FileReference { path, .. } => format!("@{path}"),
                        b => b.plain_text().unwrap_or_default(),
                    })
                    .collect(),
            ),
            _ => None,
        })
        .unwrap()
}

/// Three later exchanges of some length, then a question sent into a
/// window too small for everything.
fn later_turns_then_a_small_window(sim: &mut Sim) -> Vec<Effect> {
    sim.state.config.summarize_at_percent = 100;
    for i in 0..3 {
        sim.start(&format!("question {i} {}", "word ".repeat(60)));
        sim.prepare(sim.prepared(100_000));
        let rid = sim.request_id();
        sim.send(Event::LlmCompleted { request_id: rid, response: LlmResponse::text("answer ".repeat(60)) });
    }
    sim.start("last question");
    sim.state.book.summarized_for = Some(sim.request_id());
    sim.prepare(sim.prepared(700))
}

#[test]
fn a_reference_left_out_is_named_and_kept_it_goes_ahead_of_older_messages() {
    let mut sim = Sim::new();
    let file = ask_with_file(&mut sim, "read my notes", &"note ".repeat(400));
    let fx = later_turns_then_a_small_window(&mut sim);
    assert!(!sent_texts(&fx).contains(&"@notes.md".to_owned()), "it did not fit by age");
    let usage = sim.state.book.last_sent.clone().unwrap();
    assert_eq!(usage.left_out_references, [file], "the left-out reference is named");
    let rid = sim.request_id();
    sim.send(Event::LlmCompleted { request_id: rid, response: LlmResponse::text("ok") });

    // Kept: it goes ahead of the older exchanges.
    sim.send(Event::KeepInContext { message: file, keep: true });
    assert!(sim.state.config.kept.contains(&file));
    let fx = later_turns_then_a_small_window(&mut sim);
    let texts = sent_texts(&fx);
    assert!(texts.contains(&"@notes.md".to_owned()), "{texts:?}");
    assert!(sim.state.book.last_sent.clone().unwrap().left_out_references.is_empty());
    assert_eq!(texts.last().map(String::as_str), Some("last question"));

    // No longer kept: back to fitting by age.
    sim.send(Event::KeepInContext { message: file, keep: false });
    assert!(sim.state.config.kept.is_empty());
}
