//! `cargo bench -p braid-llm --bench sse`: SSE bytes to provider events,
//! per typical chunk (one OpenAI `chat.completion.chunk` with a token, as
//! one network read).

use braid_llm::http::BodyDecoder;
use braid_llm::ProviderKind;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

const OPENAI: &str = "data: {\"id\":\"chatcmpl-701e4d00-26ff-4242-9a96-fa579bf4342d\",\"object\":\"chat.completion.chunk\",\"created\":1795649511,\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" time\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n";
const ANTHROPIC: &str = "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\" time\"}}\n\n";
const GEMINI: &str = "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\" time\"}]},\"index\":0}],\"modelVersion\":\"gemini-2.0-flash\"}\n\n";

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("sse decode, one chunk");
    for (name, kind, chunk) in [
        ("openai", ProviderKind::OpenAiCompatible, OPENAI),
        ("anthropic", ProviderKind::Anthropic, ANTHROPIC),
        ("gemini", ProviderKind::Gemini, GEMINI),
    ] {
        group.throughput(Throughput::Bytes(chunk.len() as u64));
        let mut decoder = BodyDecoder::new(kind, "bench");
        let mut out = Vec::with_capacity(4);
        group.bench_function(name, |b| {
            b.iter(|| {
                out.clear();
                decoder.push(black_box(chunk.as_bytes()), &mut out).unwrap_or_else(|e| panic!("{e}"));
                black_box(&out);
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
