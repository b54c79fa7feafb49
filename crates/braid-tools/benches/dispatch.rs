//! `cargo bench -p braid-tools --bench dispatch`: what Braid adds around a
//! tool call — the approval decision, the registry lookup and argument
//! parsing, and wrapping the outcome as a ToolResult message — with a tool
//! that does no work of its own. Goal: under 20 µs.

use braid_core::approval::{decide, spec_in, LoopState};
use braid_core::machine::ToolOutcome;
use braid_protocol::{Approval, Message, MessageId, MessageType, Permission, Timestamp, ToolCall, ToolSettings};
use braid_tools::{success, Tool, ToolContext, ToolRegistry};
use criterion::{criterion_group, criterion_main, Criterion};
use futures::future::BoxFuture;
use futures::FutureExt;
use serde_json::{json, Value};
use std::sync::Arc;

struct Noop;
impl Tool for Noop {
    fn name(&self) -> &str {
        "read_file"
    }
    fn description(&self) -> &str {
        "does nothing"
    }
    fn input_schema(&self) -> Value {
        json!({"type":"object"})
    }
    fn permission(&self) -> Permission {
        Permission::Read
    }
    fn examples(&self) -> Vec<Value> {
        Vec::new()
    }
    fn run<'a>(&'a self, _args: Value, _ctx: &'a ToolContext) -> BoxFuture<'a, ToolOutcome> {
        async { success(String::new()) }.boxed()
    }
}

fn bench(c: &mut Criterion) {
    let mut registry = ToolRegistry::builtin();
    registry.unregister("read_file");
    let _ = registry.register(Arc::new(Noop)); // in place of the real read_file
    let catalogue = registry.specs();
    let ctx = ToolContext::new(std::env::temp_dir());
    let settings = ToolSettings::default();
    let call = ToolCall {
        id: "call_1".into(),
        name: "read_file".into(),
        arguments: r#"{"path":"src/main.rs","start_line":10,"end_line":40}"#.into(),
        approval: Approval::Pending,
    };
    c.bench_function("tools: dispatch overhead (decide + lookup + args + wrap)", |b| {
        b.iter(|| {
            let decision = decide(&settings, &call.name, spec_in(&catalogue, &call.name), LoopState::default());
            let outcome = registry.dispatch(&call, &ctx).now_or_never().unwrap_or_else(|| success(String::new()));
            let body = MessageType::ToolResult {
                request_id: call.id.clone(),
                status: outcome.status,
                output: outcome.output,
                error: outcome.error,
                recoverable: outcome.recoverable,
                duration_ms: outcome.duration_ms,
                finished_at: Timestamp(0),
            };
            (decision, Message::new(MessageId(7), Timestamp(0), body))
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
