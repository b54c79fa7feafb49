//! `cargo bench -p braid-tools --bench mcp`: one MCP tool call (the echo
//! of server-everything over stdio, from tests/mcp-servers) made directly
//! on the rmcp connection, and the same call through Braid — the registry
//! lookup, argument parsing, the catalogue tool and its result conversion.
//! The difference is what Braid adds; goal: under 1 ms. Run `make
//! mcp-servers` first.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use braid_protocol::{Approval, ToolCall};
use braid_tools::mcp::client::{self, StderrTail};
use braid_tools::mcp::{McpConfig, ResultStore, Supervisor};
use braid_tools::{ToolContext, ToolRegistry};
use criterion::{criterion_group, criterion_main, Criterion};
use rmcp::model::CallToolRequestParams;
use std::path::PathBuf;
use std::sync::Arc;

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let bin = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/mcp-servers/node_modules/.bin/mcp-server-everything");
    assert!(bin.exists(), "run `make mcp-servers` first: {} is missing", bin.display());
    let text = format!(
        r#"{{"mcpServers": {{"everything": {{"command": {:?}, "args": ["stdio"]}}}}}}"#,
        bin.display().to_string()
    );
    let config = McpConfig::parse(&text).unwrap().servers.remove("everything").unwrap();
    let dir = tempfile::tempdir().unwrap();

    // The direct connection.
    let (tx, _notices) = tokio::sync::mpsc::unbounded_channel();
    let (conn, _, _) =
        rt.block_on(client::connect("everything", &config, dir.path(), &StderrTail::default(), tx)).unwrap();
    let peer = conn.peer().clone();

    // Braid's: the supervisor hands its tools over; the echo is registered.
    let (updates, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let supervisor = Supervisor {
        name: "everything".into(),
        generation: 1,
        config,
        workspace: dir.path().to_owned(),
        results: ResultStore::new(dir.path().join("results"), 100_000),
        taken: Arc::new(|_: &str| false),
        secret: Arc::new(|_: &str| None),
        updates,
    };
    rt.spawn(supervisor.run());
    let tools = rt.block_on(async {
        loop {
            let u = rx.recv().await.unwrap();
            if let Some(t) = u.tools.filter(|t| !t.is_empty()) {
                return t;
            }
        }
    });
    let mut registry = ToolRegistry::default();
    for t in tools {
        registry.register(t).unwrap();
    }
    let ctx = ToolContext::new(dir.path().to_owned());
    let call = ToolCall {
        id: "c".into(),
        name: "mcp__everything__echo".into(),
        arguments: r#"{"message":"hello"}"#.into(),
        approval: Approval::Pending,
    };

    let mut g = c.benchmark_group("mcp echo over stdio");
    g.bench_function("direct rmcp call", |b| {
        b.iter(|| {
            let mut p = CallToolRequestParams::new("echo");
            p.arguments = serde_json::json!({"message": "hello"}).as_object().cloned();
            rt.block_on(peer.call_tool(p)).unwrap()
        })
    });
    g.bench_function("through Braid's registry", |b| b.iter(|| rt.block_on(registry.dispatch(&call, &ctx))));
    g.finish();
    drop(conn);
}

criterion_group!(benches, bench);
criterion_main!(benches);
