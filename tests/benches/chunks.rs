//! What a streamed chunk costs through the runtime (issue #39): from the
//! provider handing over a text delta to the `content_delta` a client
//! receives — the context's mailbox, the core's transition, the store
//! (nothing is written for a chunk, and its lock is not taken) and the
//! broadcast. The fake provider hands over ready events, so nothing here is
//! the provider's decoding (see `cargo bench -p braid-llm --bench sse`).
//! - One context: 5,000 chunks queued at once, then the end; per chunk,
//!   the time until the client has the last chunk's `content_delta`.
//!   The answer's end (`content_final`: the stored answer, counted and
//!   indexed for search, once per answer) is timed on its own.
//! - Four contexts streaming at the same time, 5,000 chunks each: per
//!   chunk over all of them (with a lock every context shared, this would
//!   be four times one context's cost or worse).
//!
//! - Straight, side by side in the same run: the same fake provider's
//!   chunks read by a task that does nothing with them (the hand-over
//!   Braid cannot avoid). What Braid adds is the difference.
//!
//! Real SQLite in a temporary folder, two worker threads, medians of 15.
//!
//!   cargo bench -p braid-testkit --bench chunks

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a benchmark reports

use braid_llm::fake::{FakeController, FakeProvider};
use braid_llm::{LlmProvider, LlmRequest, ProviderEvent};
use braid_protocol::{BraidEvent, ContextId, NewMessage};
use braid_runtime::Runtime;
use braid_testkit::harness::open_in;
use futures::StreamExt;
use std::sync::Arc;
use std::time::{Duration, Instant};

const CHUNKS: u64 = 5_000;
const RUNS: usize = 15;

/// What one run took: per chunk (to the last chunk's delta, the slowest
/// context's) and the answers' end after it.
struct Took {
    per_chunk: Duration,
    end: Duration,
}

/// Streams `CHUNKS` deltas into each of `contexts` conversations at once.
async fn stream(rt: &Runtime, fake: &mut FakeController, contexts: usize) -> Took {
    let mut ids: Vec<ContextId> = Vec::new();
    let mut subs = Vec::new();
    let mut requests = Vec::new();
    for _ in 0..contexts {
        let id = rt.create_context(None, None).await.unwrap().id;
        let (_, sub) = rt.subscribe(&id).await.unwrap();
        rt.send_message(&id, NewMessage::user_text("a long story"), false).await.unwrap();
        let request = fake.next_request().await.unwrap();
        request.connect();
        ids.push(id);
        subs.push(sub);
        requests.push(request);
    }
    let start = Instant::now();
    for i in 0..CHUNKS {
        for request in &requests {
            request.text(&format!("w{i} "));
        }
    }
    for request in &requests {
        request.finish(braid_core::llm::StopReason::EndTurn);
    }
    // All contexts' events share one channel: the readers run at once. A
    // reader that fell behind may have lost the last delta; the first
    // event it sees after that counts as the stream's end (so a lag only
    // ever makes the chunks look slower), and it asks the context
    // whether the answer is done.
    let ends = subs.into_iter().zip(&ids).map(|(mut sub, id)| async move {
        let mut streamed = None;
        loop {
            match sub.recv().await {
                Some(Ok(BraidEvent::ContentDelta(d))) if d.context_id == *id && d.sequence == CHUNKS => {
                    streamed = Some(Instant::now());
                }
                Some(Ok(BraidEvent::ContentFinal(f))) if f.context_id == *id => break,
                Some(Ok(_)) => {}
                Some(Err(_)) if !rt.peek(id).await.unwrap().summary.status.is_busy() => break,
                Some(Err(_)) => {
                    streamed.get_or_insert_with(Instant::now);
                }
                None => panic!("the events ended before the answer did"),
            }
        }
        let ended = Instant::now();
        (streamed.unwrap_or(ended), ended)
    });
    let times = futures::future::join_all(ends).await;
    let streamed = times.iter().map(|t| t.0).max().unwrap();
    let ended = times.iter().map(|t| t.1).max().unwrap();
    Took { per_chunk: (streamed - start) / (CHUNKS as u32 * contexts as u32), end: ended - streamed }
}

/// The same chunks, handed over the same way, to a task that only reads
/// them: per chunk, until it has the last.
async fn straight(provider: &FakeProvider, fake: &mut FakeController) -> Duration {
    let request = LlmRequest {
        model: "fake".into(),
        system: None,
        messages: Vec::new(),
        tools: Vec::new(),
        tool_choice: None,
        max_tokens: None,
        temperature: None,
    };
    let mut stream = provider.stream(request);
    let reader = tokio::spawn(async move {
        let mut last = None;
        while let Some(event) = stream.next().await {
            match event.unwrap() {
                ProviderEvent::TextDelta(_) => last = Some(Instant::now()),
                ProviderEvent::Finished(_) => break,
                _ => {}
            }
        }
        last.unwrap()
    });
    let request = fake.next_request().await.unwrap();
    request.connect();
    let start = Instant::now();
    for i in 0..CHUNKS {
        request.text(&format!("w{i} "));
    }
    request.finish(braid_core::llm::StopReason::EndTurn);
    let last = reader.await.unwrap();
    (last - start) / CHUNKS as u32
}

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn main() {
    let tokio = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    tokio.block_on(async {
        let dir = tempfile::tempdir().unwrap();
        let (provider, mut fake) = FakeProvider::manual();
        let rt = open_in(dir.path(), Arc::new(provider), |_| {});
        // Warm up: the first context pays for the store and the catalogue.
        stream(&rt, &mut fake, 1).await;
        let (raw, mut direct) = FakeProvider::manual();
        let (mut one, mut four, mut end, mut bare) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for _ in 0..RUNS {
            bare.push(straight(&raw, &mut direct).await);
            let took = stream(&rt, &mut fake, 1).await;
            one.push(took.per_chunk);
            end.push(took.end);
            four.push(stream(&rt, &mut fake, 4).await.per_chunk);
        }
        let (one, four, end, bare) = (median(one), median(four), median(end), median(bare));
        println!(
            "chunks: straight     {:>7.2} µs per chunk (the provider's hand-over alone)",
            bare.as_secs_f64() * 1e6
        );
        println!(
            "chunks: one context  {:>7.2} µs per chunk (median of {RUNS}, {CHUNKS} chunks): Braid adds {:.2} µs",
            one.as_secs_f64() * 1e6,
            one.saturating_sub(bare).as_secs_f64() * 1e6
        );
        println!(
            "chunks: four at once {:>7.2} µs per chunk over all ({:.2}× one context's)",
            four.as_secs_f64() * 1e6,
            four.as_secs_f64() / one.as_secs_f64()
        );
        println!(
            "chunks: the answer's end (stored, counted, indexed) {:>6.2} ms after its last chunk",
            end.as_secs_f64() * 1e3
        );
        rt.shutdown().await;
    });
}
