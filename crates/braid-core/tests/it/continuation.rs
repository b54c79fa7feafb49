//! An answer cut at the output limit goes on by itself (once by default,
//! up to the conversation's limit, or not at all) and stays one answer:
//! the continuation's text is joined to it exactly, its own draft goes.

use braid_core::llm::{LlmResponse, StopReason};
use braid_core::machine::{Effect, Event};
use braid_core::sim::Sim;
use braid_protocol::{BraidEvent, ContextStatus as S, MessageType, Role};

fn reply(sim: &mut Sim, text: &str, stop: StopReason) -> Vec<Effect> {
    let request_id = sim.request_id();
    sim.send(Event::LlmDelta { request_id, text: text.into() });
    let response = LlmResponse { text: text.into(), tool_calls: Vec::new(), usage: None, stop_reason: stop };
    sim.send(Event::LlmCompleted { request_id, response })
}

/// A new conversation (continuing `continue_cut` times) where `question`
/// is answered with `text`, cut at the output limit.
fn cut_answer(continue_cut: Option<u32>, question: &str, text: &str) -> (Sim, Vec<Effect>) {
    let mut sim = Sim::new();
    sim.state.config.generation.continue_cut = continue_cut;
    sim.start(question);
    sim.prepare(sim.prepared(8_000));
    let fx = reply(&mut sim, text, StopReason::MaxTokens);
    (sim, fx)
}

/// The answers stored, as (text, cut).
fn answers(sim: &Sim) -> Vec<(String, bool)> {
    sim.messages()
        .iter()
        .filter(|m| matches!(m.body, MessageType::Text { role: Role::Assistant, .. }))
        .map(|m| (m.body.plain_text().unwrap_or_default(), m.meta.cut))
        .collect()
}

fn notices(fx: &[Effect]) -> Vec<String> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Emit(BraidEvent::ContextUpdate(u)) => u.metadata.notice.as_ref().map(|n| n.message.clone()),
            _ => None,
        })
        .collect()
}

fn sent_texts(fx: &[Effect]) -> (String, Vec<String>) {
    fx.iter()
        .find_map(|e| match e {
            Effect::SendLlmRequest { system, messages, .. } => Some((
                braid_protocol::sent::join_parts(system.iter().map(|p| p.text.as_str())).unwrap_or_default(),
                messages.iter().map(|m| m.body.plain_text().unwrap_or_default()).collect(),
            )),
            _ => None,
        })
        .expect("a request goes out")
}

#[test]
fn a_cut_answer_continues_once_by_default_and_stays_one_answer() {
    let (mut sim, fx) = cut_answer(None, "write a long poem", "Roses are");
    assert!(fx.iter().any(|e| matches!(e, Effect::StartLlmRequest { .. })), "it goes on by itself");
    assert!(!notices(&fx).iter().any(|n| n.contains("Continue")), "no Continue asked of the user: {:?}", notices(&fx));
    let (system, texts) = sent_texts(&sim.prepare(sim.prepared(8_000)));
    assert!(system.contains("cut off at the output limit"), "the model is told to go on");
    assert_eq!(texts, ["write a long poem", "Roses are"]);
    let draft = sim.state.request.as_ref().unwrap().response_id;
    let fx = reply(&mut sim, " red.", StopReason::EndTurn);
    assert_eq!(answers(&sim), [("Roses are red.".to_owned(), false)], "joined exactly, one answer, no longer cut");
    assert!(sim.messages().iter().all(|m| m.id != draft), "the continuation's own message is never stored");
    let discarded = fx.iter().any(|e| matches!(e, Effect::Emit(BraidEvent::ContextUpdate(u)) if u.message.as_ref().is_some_and(|l| l.message_id == draft)));
    assert!(discarded, "its draft is told gone");
    assert_eq!(sim.state.status, S::Idle);
}

#[test]
fn up_to_n_continuations_then_the_answer_stays_cut_and_says_so() {
    let (mut sim, _) = cut_answer(Some(2), "count to a million", "1, 2");
    sim.prepare(sim.prepared(8_000));
    reply(&mut sim, ", 3, 4", StopReason::MaxTokens);
    sim.prepare(sim.prepared(8_000));
    let fx = reply(&mut sim, ", 5", StopReason::MaxTokens);
    assert!(!fx.iter().any(|e| matches!(e, Effect::StartLlmRequest { .. })), "two continuations, then it stops");
    assert_eq!(answers(&sim), [("1, 2, 3, 4, 5".to_owned(), true)]);
    assert!(notices(&fx).iter().any(|n| n.contains("again after 2 automatic continuations")), "{:?}", notices(&fx));
    assert_eq!(sim.state.status, S::Idle);
    // Continue by hand still goes on from it.
    sim.send(Event::Retry);
    let (system, _) = sent_texts(&sim.prepare(sim.prepared(8_000)));
    assert!(system.contains("cut off at the output limit"));
}

#[test]
fn off_means_it_waits_for_continue_and_an_empty_or_cancelled_continuation_keeps_the_answer() {
    let (_, fx) = cut_answer(Some(0), "a", "half");
    assert!(!fx.iter().any(|e| matches!(e, Effect::StartLlmRequest { .. })));
    assert!(notices(&fx).iter().any(|n| n.contains("Press Continue")));

    let (mut sim, _) = cut_answer(None, "b", "half");
    sim.prepare(sim.prepared(8_000));
    let request_id = sim.request_id();
    let empty =
        LlmResponse { text: String::new(), tool_calls: Vec::new(), usage: None, stop_reason: StopReason::EndTurn };
    let fx = sim.send(Event::LlmCompleted { request_id, response: empty });
    assert_eq!(answers(&sim), [("half".to_owned(), true)], "nothing more came: still cut");
    assert!(notices(&fx).iter().any(|n| n.contains("Press Continue")), "{:?}", notices(&fx));

    let (mut sim, _) = cut_answer(None, "c", "half");
    sim.prepare(sim.prepared(8_000));
    let request_id = sim.request_id();
    sim.send(Event::LlmDelta { request_id, text: " and mo".into() });
    sim.send(Event::Cancel);
    assert_eq!(answers(&sim), [("half".to_owned(), true)], "a cancelled continuation leaves the answer as it was");
    assert_eq!(sim.state.status, S::Idle);
}

#[test]
fn more_than_ten_continuations_is_refused() {
    let mut sim = Sim::new();
    let settings = braid_protocol::GenerationSettings { continue_cut: Some(11), ..Default::default() };
    let fx = sim.send(Event::SetGeneration { settings });
    let refused = braid_core::sim::reply_of(&fx).and_then(|r| r.as_ref().err()).map(|e| e.message.clone());
    assert!(refused.unwrap_or_default().contains("at most 10 times"));
}

#[test]
fn continue_pressed_after_a_stopped_answer_goes_on_as_the_same_answer() {
    let mut sim = Sim::new();
    sim.start("tell a story");
    sim.prepare(sim.prepared(8_000));
    let request_id = sim.request_id();
    sim.send(Event::LlmDelta { request_id, text: "Once upon".into() });
    sim.send(Event::Interrupt);
    let response = LlmResponse {
        text: "Once upon".into(),
        tool_calls: Vec::new(),
        usage: None,
        stop_reason: StopReason::Interrupted,
    };
    sim.send(Event::LlmCompleted { request_id, response });
    assert_eq!(sim.state.status, S::Idle);
    let stopped = sim.messages().last().unwrap().meta.stopped;
    assert!(stopped, "kept, marked stopped");
    sim.send(Event::Retry);
    let (system, _) = sent_texts(&sim.prepare(sim.prepared(8_000)));
    assert!(system.contains("stopped by the user"), "{system}");
    reply(&mut sim, " a time.", StopReason::EndTurn);
    let all = answers(&sim);
    assert_eq!(all, [("Once upon a time.".to_owned(), false)], "one answer, joined");
    assert!(!sim.messages().last().unwrap().meta.stopped, "finished now");
}

#[test]
fn a_continuation_that_fails_and_is_retried_still_joins_the_cut_answer() {
    use braid_core::llm::LlmFailure;
    use braid_protocol::FailureCode;
    // A server out of reach for a moment, then (the other way a request
    // is sent again) refused as too long: both retries continue the answer.
    let unreachable = || LlmFailure::retryable(FailureCode::Network, "could not reach the server");
    let too_long = LlmFailure::fatal(FailureCode::ContextLengthExceeded, "maximum context length is 4096 tokens");
    let (mut sim, _) = cut_answer(Some(2), "count to ten", "1, 2");
    sim.prepare(sim.prepared(8_000));
    let request_id = sim.request_id();
    sim.send(Event::LlmFailed { request_id, failure: unreachable() });
    assert_eq!(sim.state.status.kind(), braid_protocol::StatusKind::RetryingLlmRequest);
    sim.send(Event::RetryTimerFired { request_id });
    let (system, texts) = sent_texts(&sim.prepare(sim.prepared(8_000)));
    assert!(system.contains("cut off at the output limit"), "the retry still asks to go on: {system}");
    assert_eq!(texts, ["count to ten", "1, 2"], "one assistant message at the end");
    let request_id = sim.request_id();
    sim.send(Event::LlmFailed { request_id, failure: too_long });
    sim.prepare(sim.prepared(8_000));
    reply(&mut sim, ", 3", StopReason::MaxTokens);
    assert_eq!(answers(&sim), [("1, 2, 3".to_owned(), true)], "joined, not a second answer");
    // The retries did not reset the count: one automatic continuation is
    // left, then it stops.
    let (_, texts) = sent_texts(&sim.prepare(sim.prepared(8_000)));
    assert_eq!(texts, ["count to ten", "1, 2, 3"]);
    let fx = reply(&mut sim, ", 4", StopReason::MaxTokens);
    assert!(!fx.iter().any(|e| matches!(e, Effect::StartLlmRequest { .. })), "two continuations in all");
    assert_eq!(answers(&sim), [("1, 2, 3, 4".to_owned(), true)]);
}
