//! An answer's pace, measured by the core from its events' times: the wait
//! from the request going out to the first token, then the tokens and the
//! time they took (the server's count when it reports one, else Braid's).

use braid_core::llm::{LlmResponse, Usage};
use braid_core::machine::Event;
use braid_core::sim::Sim;
use braid_protocol::{AnswerSpeed, MessageType, Role};

/// Streams `chunks` after `wait` ms, `each` ms apart, and completes.
fn answer(sim: &mut Sim, wait: u64, chunks: &[&str], each: u64, usage: Option<Usage>) -> Option<AnswerSpeed> {
    sim.start("how fast?");
    sim.prepare(sim.prepared(100_000));
    let request_id = sim.request_id();
    sim.send(Event::LlmRequestStarted { request_id });
    sim.advance(wait);
    for (i, c) in chunks.iter().enumerate() {
        if i > 0 {
            sim.advance(each);
        }
        sim.send(Event::LlmDelta { request_id, text: (*c).to_owned() });
    }
    let response = LlmResponse { usage, ..LlmResponse::text(chunks.concat()) };
    sim.send(Event::LlmCompleted { request_id, response });
    let last =
        sim.messages().into_iter().rev().find(|m| matches!(&m.body, MessageType::Text { role: Role::Assistant, .. }));
    last.and_then(|m| m.meta.speed)
}

#[test]
fn the_wait_for_the_first_token_and_the_reported_tokens_are_kept_with_the_answer() {
    let mut sim = Sim::new();
    let usage = Some(Usage { prompt_tokens: 12, completion_tokens: 40 });
    let speed = answer(&mut sim, 350, &["Hello", " there", ", friend."], 500, usage);
    assert_eq!(speed, Some(AnswerSpeed { first_token_ms: 350, streaming_ms: 1000, output_tokens: 40, reported: true }));
}

#[test]
fn without_reported_usage_braids_own_count_is_used_and_marked_so() {
    let mut sim = Sim::new();
    let speed = answer(&mut sim, 20, &["one two three four"], 0, None).expect("a speed");
    assert!(!speed.reported);
    assert!(speed.output_tokens > 0, "{speed:?}");
    assert_eq!((speed.first_token_ms, speed.streaming_ms), (20, 0));
}

#[test]
fn a_retry_times_its_own_attempt() {
    let mut sim = Sim::new();
    sim.start("again");
    sim.prepare(sim.prepared(100_000));
    let first = sim.request_id();
    sim.send(Event::LlmRequestStarted { request_id: first });
    sim.advance(5_000);
    let failure = braid_core::llm::LlmFailure {
        code: braid_protocol::FailureCode::Network,
        message: "connection reset".into(),
        retryable: true,
        retry_after_ms: Some(100),
    };
    sim.send(Event::LlmFailed { request_id: first, failure });
    sim.advance(100);
    sim.send(Event::RetryTimerFired { request_id: first });
    sim.prepare(sim.prepared(100_000));
    let second = sim.request_id();
    sim.send(Event::LlmRequestStarted { request_id: second });
    sim.advance(200);
    sim.send(Event::LlmDelta { request_id: second, text: "ok".into() });
    sim.send(Event::LlmCompleted { request_id: second, response: LlmResponse::text("ok") });
    let speed = sim.messages().last().and_then(|m| m.meta.speed).expect("a speed");
    assert_eq!(speed.first_token_ms, 200, "the failed attempt's wait is not counted");
}
