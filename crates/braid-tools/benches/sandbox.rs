//! `cargo bench -p braid-tools --bench sandbox`: what the sandbox adds to
//! starting a command — `run_command` of `true`, whole (spawn, wait,
//! result), with full access and in the workspace-write sandbox side by
//! side. Goal: the sandbox adds under 5 ms.

use braid_protocol::{Approval, Sandbox, SandboxLevel, ToolCall};
use braid_tools::{ToolContext, ToolRegistry};
use criterion::{criterion_group, criterion_main, Criterion};

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap_or_else(|e| panic!("{e}"));
    let registry = ToolRegistry::builtin();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let call = ToolCall {
        id: "c".into(),
        name: "run_command".into(),
        arguments: r#"{"command":"true"}"#.into(),
        approval: Approval::Approved,
    };
    let mut group = c.benchmark_group("run_command start");
    group.sample_size(50);
    for (name, level) in
        [("full access", SandboxLevel::FullAccess), ("workspace-write sandbox", SandboxLevel::WorkspaceWrite)]
    {
        let mut ctx = ToolContext::new(dir.path().to_owned());
        ctx.sandbox = Sandbox { level, ..Sandbox::default() };
        group.bench_function(name, |b| b.iter(|| rt.block_on(registry.dispatch(&call, &ctx))));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
