//! `cargo bench -p braid-core --bench tokens`: counting throughput of
//! bpe-openai (what Braid uses) and tiktoken-rs on the same mixed corpus.

#[path = "../tests/it/support/corpus.rs"]
mod corpus;

use braid_core::optimize::select;
use braid_core::tokens::{count, message_tokens, RunningCount, TokenEncoding};
use braid_protocol::{ContextStrategy, Message, MessageId, MessageType, Role, Timestamp};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn bench(c: &mut Criterion) {
    let docs = corpus::documents(256 * 1024);
    let bytes: usize = docs.iter().map(String::len).sum();
    let tik_o = tiktoken_rs::o200k_base().unwrap_or_else(|e| panic!("{e}"));
    let tik_c = tiktoken_rs::cl100k_base().unwrap_or_else(|e| panic!("{e}"));
    let mut g = c.benchmark_group("tokens: count 256 KB mixed");
    g.throughput(Throughput::Bytes(bytes as u64));
    g.sample_size(20);
    g.bench_function("bpe-openai o200k", |b| {
        b.iter(|| docs.iter().map(|d| count(TokenEncoding::O200k, d)).sum::<u32>())
    });
    g.bench_function("tiktoken-rs o200k", |b| {
        b.iter(|| docs.iter().map(|d| tik_o.encode_ordinary(d).len()).sum::<usize>())
    });
    g.bench_function("bpe-openai cl100k", |b| {
        b.iter(|| docs.iter().map(|d| count(TokenEncoding::Cl100k, d)).sum::<u32>())
    });
    g.bench_function("tiktoken-rs cl100k", |b| {
        b.iter(|| docs.iter().map(|d| tik_c.encode_ordinary(d).len()).sum::<usize>())
    });
    g.finish();

    // A 1,000-message conversation (prose and code from the corpus).
    let messages: Vec<Message> = corpus::documents(1_200_000)
        .into_iter()
        .take(1_000)
        .enumerate()
        .map(|(i, d)| {
            let role = if i % 2 == 0 { Role::User } else { Role::Assistant };
            let text: String = d.chars().take(1_200).collect();
            Message::new(MessageId(i as u64 + 1), Timestamp(0), MessageType::text(role, text))
        })
        .collect();
    let counts: Vec<u32> = messages.iter().map(|m| message_tokens(TokenEncoding::O200k, &m.body)).collect();
    let strategy = ContextStrategy::Intelligent { keep_last: 10 };
    c.bench_function("optimize: 1,000 messages into 100k tokens, counts cached", |b| {
        b.iter(|| {
            let refs: Vec<(&Message, u32)> = messages.iter().zip(&counts).map(|(m, t)| (m, *t)).collect();
            select(&refs, strategy, 100_000).map(|s| s.keep.len()).unwrap_or(0)
        })
    });
    c.bench_function("optimize: 1,000 messages into 100k tokens, counting from scratch", |b| {
        b.iter(|| {
            let refs: Vec<(&Message, u32)> =
                messages.iter().map(|m| (m, message_tokens(TokenEncoding::O200k, &m.body))).collect();
            select(&refs, strategy, 100_000).map(|s| s.keep.len()).unwrap_or(0)
        })
    });
    // The context view (`/context`) of that conversation with 50 tools and
    // a draft: the same planning a request runs, on a copy of the state.
    let mut sim = braid_core::sim::Sim::new();
    sim.state.catalogue = (0..50)
        .map(|i| braid_core::sim::spec(&format!("tool_{i}"), braid_protocol::Permission::Read))
        .collect::<Vec<_>>()
        .into();
    for (m, t) in messages.iter().zip(&counts) {
        let mut m = m.clone();
        m.meta.tokens = Some(braid_protocol::TokenCount { encoding: TokenEncoding::O200k, count: *t });
        sim.conversation.append(m).unwrap_or_else(|e| panic!("{e}"));
    }
    let draft = "Now refactor the parser so that the tokenizer is shared, and run the tests in src/.";
    c.bench_function("context: breakdown of 1,000 messages and 50 tools, with a draft", |b| {
        b.iter(|| sim.breakdown(sim.prepared(128_000), draft, sim.now).total)
    });
    c.bench_function("tokens: add a streamed delta to the running count", |b| {
        let mut running = RunningCount::default();
        let deltas = [" the", " quick", " brown", " fox", " jumps", " over", " lazy", " dogs", ".\n"];
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % deltas.len();
            running.push(TokenEncoding::O200k, deltas[i])
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
