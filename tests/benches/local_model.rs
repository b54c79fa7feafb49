//! The built-in model against the same GGUF served by llama.cpp's server
//! (llama.cpp's `llama-server`, `tests/llm-peer.sh`), side by side in one run: time
//! to the first token and tokens per second of the answer, both greedy,
//! one thread each (as the peer is started), then the built-in model with
//! the threads it uses in the app. Medians of several runs, alternating.
//!
//!   cargo bench -p braid-testkit --bench local_model

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a benchmark reports

use braid_llm::{HttpProvider, LlmProvider, LlmRequest, ProviderEvent, ProviderKind, Timeouts};
use braid_local::LocalProvider;
use braid_protocol::LocalModelSettings;
use braid_protocol::{Message, MessageId, MessageType, Role, Timestamp};
use braid_testkit::local::starter_model;
use futures::StreamExt;
use std::time::Instant;

const RUNS: usize = 7;

/// The question of run `n`: a new one each time, so no answer is read
/// from a cache; the system turn before it is the same.
fn request(n: usize) -> LlmRequest {
    let text = format!("Question {n}: write five sentences about the sea and the ships that sail on it.");
    LlmRequest {
        model: "smollm2-135m".into(),
        system: Some("You are a helpful assistant.".into()),
        messages: vec![Message::new(MessageId(1), Timestamp(0), MessageType::text(Role::User, &text))],
        tools: Vec::new(),
        tool_choice: None,
        max_tokens: Some(96),
        temperature: Some(0.0),
    }
}

/// (seconds to the first token, tokens per second after it, tokens).
/// Tokens are the pieces streamed (one per token from both; the server
/// does not report usage in its stream).
async fn measure(p: &dyn LlmProvider, n: usize) -> (f64, f64, u32) {
    let start = Instant::now();
    let mut stream = p.stream(request(n));
    let (mut first, mut last, mut tokens) = (None, start, 0u32);
    while let Some(event) = stream.next().await {
        if let ProviderEvent::TextDelta(_) = event.expect("the answer streams") {
            first.get_or_insert_with(Instant::now);
            last = Instant::now();
            tokens += 1;
        }
    }
    let first = first.expect("some text");
    let ttft = first.duration_since(start).as_secs_f64();
    let rate = f64::from(tokens.saturating_sub(1)) / last.duration_since(first).as_secs_f64().max(1e-9);
    (ttft, rate, tokens)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("llm-peer.sh");
    let started = std::process::Command::new("bash").arg(&script).arg("start").status().expect("llm-peer.sh runs");
    assert!(started.success(), "the llama.cpp server did not start");
    let url =
        String::from_utf8(std::process::Command::new("bash").arg(&script).arg("url").output().unwrap().stdout).unwrap();
    let server = HttpProvider::new(ProviderKind::OpenAiCompatible, "llama.cpp", url.trim(), None, Timeouts::default())
        .expect("a provider for the server");
    let one =
        LocalProvider::new(starter_model(), LocalModelSettings { context: 4096, threads: 1, ..braid_local::fitted() });
    let app = LocalProvider::new(starter_model(), braid_local::fitted());
    let contenders: [(&str, &dyn LlmProvider); 3] =
        [("llama.cpp server, 1 thread", &server), ("built-in, 1 thread", &one), ("built-in, app threads", &app)];
    for (_, p) in contenders {
        measure(p, 0).await; // warm: the model loaded
    }
    let mut results: Vec<(Vec<f64>, Vec<f64>, u32)> = vec![(Vec::new(), Vec::new(), 0); 3];
    for run in 1..=RUNS {
        for (i, (_, p)) in contenders.iter().enumerate() {
            let (ttft, rate, tokens) = measure(*p, run).await;
            results[i].0.push(ttft * 1000.0);
            results[i].1.push(rate);
            results[i].2 = tokens;
        }
    }
    let base = (median(results[0].0.clone()), median(results[0].1.clone()));
    println!("{RUNS} runs each, medians; SmolLM2-135M-Instruct Q4_1, greedy, 96 tokens at most");
    println!("{:<28} {:>12} {:>10} {:>8} {:>14}", "", "first token", "tokens/s", "tokens", "vs the server");
    for (i, (name, _)) in contenders.iter().enumerate() {
        let (ttft, rate) = (median(results[i].0.clone()), median(results[i].1.clone()));
        println!(
            "{name:<28} {ttft:>9.1} ms {rate:>10.1} {:>8} {:>6.2}× speed, {:.2}× first token",
            results[i].2,
            rate / base.1,
            base.0 / ttft
        );
    }
}
