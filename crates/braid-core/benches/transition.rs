//! `cargo bench -p braid-core`: the cost of one state transition.

use braid_core::llm::LlmResponse;
use braid_core::machine::Event;
use braid_core::sim::Sim;
use braid_core::transition;
use braid_protocol::{MessageType, Role};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

fn streaming_sim() -> Sim {
    let mut sim = Sim::new();
    let fx = sim.send(Event::UserMessage {
        body: MessageType::text(Role::User, "hi"),
        queue_if_busy: false,
        force_tool: None,
        images: Vec::new(),
    });
    sim.pipeline_ok(&fx);
    let rid = sim.request_id();
    sim.send(Event::LlmDelta { request_id: rid, text: "first".into() });
    sim
}

fn bench(c: &mut Criterion) {
    let sim = streaming_sim();
    let rid = sim.request_id();
    let now = sim.now;
    c.bench_function("transition: stream delta", |b| {
        b.iter(|| transition(black_box(&sim.state), Event::LlmDelta { request_id: rid, text: "token".into() }, now))
    });
    c.bench_function("transition: busy rejection", |b| {
        b.iter(|| {
            transition(
                black_box(&sim.state),
                Event::UserMessage {
                    body: MessageType::text(Role::User, "again"),
                    queue_if_busy: false,
                    force_tool: None,
                    images: Vec::new(),
                },
                now,
            )
        })
    });
    let idle = braid_core::ContextState::new(braid_protocol::ContextId("bench".into()));
    c.bench_function("transition: idle + user message", |b| {
        b.iter(|| {
            transition(
                black_box(&idle),
                Event::UserMessage {
                    body: MessageType::text(Role::User, "hello"),
                    queue_if_busy: false,
                    force_tool: None,
                    images: Vec::new(),
                },
                now,
            )
        })
    });
    c.bench_function("transition: complete answer", |b| {
        b.iter(|| {
            transition(
                black_box(&sim.state),
                Event::LlmCompleted { request_id: rid, response: LlmResponse::text("first token") },
                now,
            )
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
