//! `cargo bench -p braid-core --bench graph`: laying out a history of 50
//! branches and 5,000 messages (goal: under 5 ms, docs/PERFORMANCE.md).

use braid_core::graph::{layout, Node};
use braid_protocol::MessageId;
use criterion::{criterion_group, criterion_main, Criterion};

/// 50 branches, each forked from a message of history so far, writing in
/// turns: 5,000 messages in all.
fn history() -> Vec<Node> {
    let mut nodes = vec![Node { id: MessageId(1), parents: Vec::new(), color: 0 }];
    let mut tips: Vec<u64> = vec![1];
    let mut id = 1u64;
    while nodes.len() < 5_000 {
        for branch in 0..50u32 {
            id += 1;
            let parent = match tips.get(branch as usize) {
                Some(&tip) => tip,
                None => {
                    // Forks from a message some way back.
                    tips.push(nodes[(id as usize * 37) % nodes.len()].id.0);
                    tips[branch as usize]
                }
            };
            nodes.push(Node { id: MessageId(id), parents: vec![MessageId(parent)], color: branch });
            tips[branch as usize] = id;
        }
    }
    nodes
}

fn bench(c: &mut Criterion) {
    let nodes = history();
    c.bench_function("graph: layout 50 branches, 5,000 messages", |b| b.iter(|| layout(&nodes).rows.len()));
}

criterion_group!(benches, bench);
criterion_main!(benches);
