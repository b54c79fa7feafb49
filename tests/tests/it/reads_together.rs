//! Reads the model asks for together run together, through the runtime
//! against a real MCP server: five calls of a read-only tool that waits
//! 200 ms (`nap` in mcp-stateless-server, which answers with when it
//! started and ended) in one answer. They overlap — every one started
//! before the first ended — and their results come back in the model's
//! order. The wall time is printed for docs/PERFORMANCE.md; the check is
//! the overlap, which holds on a loaded machine.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_llm::fake::FakeProvider;
use braid_protocol::{McpState, NewMessage, ToolApprovalPolicy, ToolResultStatus};
use braid_testkit::harness::{open_in, Watch};
use braid_testkit::mcp::{outputs, until};
use braid_testkit::script::{answer, calls};
use serde_json::json;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn five_slow_reads_in_one_answer_run_at_once_and_come_back_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open_in(dir.path(), fake.clone(), |_| {});
    let settings = json!({"mcpServers": {"slow": {"command": env!("CARGO_BIN_EXE_mcp-stateless-server")}}});
    std::fs::write(dir.path().join("mcp.json"), settings.to_string()).unwrap();
    rt.start_mcp(dir.path().join("mcp.json"));
    until(&rt, "slow", Duration::from_secs(60), |s| s.state == McpState::Ready).await;

    let ctx = rt.create_context(None, None).await.unwrap();
    rt.set_tool_policy(&ctx.id, ToolApprovalPolicy::AutoAll, None).await.unwrap();
    let naps: Vec<(String, &str, serde_json::Value)> =
        (1..=5).map(|i| (format!("n{i}"), "mcp__slow__nap", json!({ "text": format!("nap {i}") }))).collect();
    let asked: Vec<(&str, &str, serde_json::Value)> =
        naps.iter().map(|(id, t, a)| (id.as_str(), *t, a.clone())).collect();
    fake.push_reply(calls(&asked));
    fake.push_reply(answer("rested"));
    let mut watch = Watch::new(&rt, &ctx.id).await;
    let started = Instant::now();
    rt.send_message(&ctx.id, NewMessage::user_text("rest five times"), false).await.unwrap();
    watch.until("busy", |s| s.is_busy()).await;
    tokio::time::timeout(Duration::from_secs(120), watch.settled()).await.expect("the turn ends");
    let wall = started.elapsed();

    let snap = rt.load_context(&ctx.id).await.unwrap();
    let results = outputs(&snap.messages);
    let said: Vec<String> = snap.messages.iter().map(|m| braid_core::conversation::describe(&m.body)).collect();
    assert_eq!(results.len(), 5, "{results:?} {said:?} {:?}", snap.summary.status);
    assert!(results.iter().all(|(s, _)| *s == ToolResultStatus::Success), "{results:?}");
    let spans: Vec<(u128, u128)> = results
        .iter()
        .map(|(_, out)| {
            let (a, b) = out.trim().split_once('-').expect("start-end");
            (a.parse().unwrap(), b.parse().unwrap())
        })
        .collect();
    let first_end = spans.iter().map(|s| s.1).min().unwrap();
    assert!(spans.iter().all(|s| s.0 < first_end), "the five naps overlap: {spans:?}");
    let ids: Vec<String> = snap
        .messages
        .iter()
        .filter_map(|m| match &m.body {
            braid_protocol::MessageType::ToolResult { request_id, .. } => Some(request_id.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(ids, ["n1", "n2", "n3", "n4", "n5"], "results in the model's order");
    println!("five 200 ms reads in one answer: turn {} ms", wall.as_millis());
    rt.shutdown().await;
}
