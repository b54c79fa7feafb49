//! Both MCP protocols through the runtime, against real servers: rmcp's
//! own server speaks the stateless 2026-07-28 protocol, npm's
//! server-everything only 2025-11-25, which the client falls back to.
//! Each is ready with the version it speaks and its tools answer; a list
//! change under the stateless protocol reaches the catalogue.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_llm::fake::FakeProvider;
use braid_protocol::{McpState, ToolResultStatus};
use braid_testkit::harness::open_in;
use braid_testkit::mcp::{call, server_bin, until};
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;

const START: Duration = Duration::from_secs(60);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_stateless_protocol_and_the_fallback_both_work() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open_in(dir.path(), fake.clone(), |_| {});
    let settings = json!({"mcpServers": {
        "stateless": {"command": env!("CARGO_BIN_EXE_mcp-stateless-server")},
        "everything": {"command": server_bin("mcp-server-everything"), "args": ["stdio"]}
    }});
    std::fs::write(dir.path().join("mcp.json"), settings.to_string()).unwrap();
    rt.start_mcp(dir.path().join("mcp.json"));

    let s = until(&rt, "stateless", START, |s| s.state == McpState::Ready).await;
    let stateless = s.servers.iter().find(|s| s.name == "stateless").unwrap();
    assert_eq!(stateless.protocol.as_deref(), Some("2026-07-28"), "{stateless:?}");
    let s = until(&rt, "everything", START, |s| s.state == McpState::Ready).await;
    let everything = s.servers.iter().find(|s| s.name == "everything").unwrap();
    assert_eq!(everything.protocol.as_deref(), Some("2025-11-25"), "{everything:?}");

    let (status, out) = call(&rt, &fake, "s1", "mcp__stateless__shout", json!({"text": "quiet please"})).await;
    assert_eq!((status, out.as_str()), (ToolResultStatus::Success, "QUIET PLEASE"));
    // The stateless protocol's list change comes on the listen stream: the
    // new tool joins the catalogue.
    assert!(rt.tools().iter().all(|t| t.name != "mcp__stateless__extra"));
    let (_, out) = call(&rt, &fake, "g1", "mcp__stateless__grow", json!({})).await;
    assert_eq!(out, "grown", "the server told the client on its listen stream");
    let mut changes = rt.mcp_changes();
    let deadline = tokio::time::Instant::now() + START;
    while rt.tools().iter().all(|t| t.name != "mcp__stateless__extra") {
        tokio::time::timeout_at(deadline, changes.changed()).await.expect("the new tool joins").unwrap();
    }

    let (status, out) = call(&rt, &fake, "e1", "mcp__everything__echo", json!({"message": "older"})).await;
    assert_eq!((status, out.as_str()), (ToolResultStatus::Success, "Echo: older"));
    rt.shutdown().await;
}
