//! `cargo bench -p braid-core --bench tokens`: counting throughput of
//! bpe-openai (what Braid uses) and tiktoken-rs on the same mixed corpus.

#[path = "../tests/support/corpus.rs"]
mod corpus;

use braid_core::tokens::{count, TokenEncoding};
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
}

criterion_group!(benches, bench);
criterion_main!(benches);
