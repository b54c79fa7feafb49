//! The same conversation sends the same bytes after a restart, so a
//! provider's prompt cache holds: three real MCP servers (rmcp's own
//! server side, as a program) become ready in a different order at each
//! of three starts of Braid, and the request the mock provider receives
//! for the same question is byte for byte the one of the first start —
//! the tool definitions and the system prompt's list of tools in one
//! order (built-in, then by server and tool name).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_llm::http::ProviderKind;
use braid_llm::secrets::Secrets;
use braid_protocol::{Command, KeyChange, McpState, NewMessage, ProviderInput, ToolUse};
use braid_runtime::{Providers, Runtime, RuntimeConfig};
use braid_testkit::harness::Watch;
use braid_testkit::mcp::until;
use braid_testkit::mock::{MockServer, Reply};
use braid_testkit::sse;
use serde_json::json;
use std::path::Path;
use std::time::Duration;

const START: Duration = Duration::from_secs(60);
const SERVERS: [&str; 3] = ["alpha", "beta", "gamma"];

/// Braid started with the three servers, each waiting `delays` ms before
/// it answers, all of them ready.
async fn started(dir: &Path, base: &str, delays: [u64; 3]) -> Runtime {
    let providers = Providers::from_settings(dir.join("settings.json"), Secrets::file_only(dir)).unwrap();
    let mut config = RuntimeConfig::new(dir.join("braid.db"), dir.join("ws"));
    config.machine.generation.tool_use = Some(ToolUse::Auto);
    let rt = Runtime::open_with(config, providers).unwrap().0;
    let provider = ProviderInput {
        id: None,
        kind: ProviderKind::OpenAiCompatible,
        name: "Mock".into(),
        base_url: sse::base_url(ProviderKind::OpenAiCompatible, base),
        default_model: Some("mock-model".into()),
        key: KeyChange::Set { key: "sk-test-key".into() },
    };
    // Kept in the settings: saved at the first start only.
    if !dir.join("settings.json").exists() {
        rt.execute(Command::SaveProvider { provider }).await.unwrap();
    }
    let mut servers = serde_json::Map::new();
    for (name, delay) in SERVERS.iter().zip(delays) {
        let server = json!({"command": env!("CARGO_BIN_EXE_mcp-stateless-server"), "env": {"START_DELAY_MS": delay.to_string()}});
        servers.insert((*name).to_owned(), server);
    }
    std::fs::write(dir.join("mcp.json"), json!({ "mcpServers": servers }).to_string()).unwrap();
    rt.start_mcp(dir.join("mcp.json"));
    for name in SERVERS {
        until(&rt, name, START, |s| s.state == McpState::Ready).await;
    }
    rt
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_request_after_each_restart_is_byte_identical() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("ws")).unwrap();
    let (mock, base) = MockServer::start().await;
    // Ready first: alpha, then gamma, then beta.
    let orders = [[0, 400, 800], [400, 800, 0], [800, 0, 400]];
    let mut bodies = Vec::new();
    for delays in orders {
        let rt = started(dir.path(), &base, delays).await;
        mock.reply(Reply::ok(sse::answer(ProviderKind::OpenAiCompatible, "Hello.")));
        let ctx = rt.create_context(Some("same".into()), None).await.unwrap().id;
        let mut watch = Watch::new(&rt, &ctx).await;
        rt.send_message(&ctx, NewMessage::user_text("Which tools do you have?"), false).await.unwrap();
        watch.until("busy", |s| s.is_busy()).await;
        watch.settled().await;
        let sent = mock.captured().into_iter().filter(|c| c.path.ends_with("/chat/completions")).last().unwrap();
        bodies.push(sent);
        rt.shutdown().await;
    }
    let names: Vec<String> = bodies[0].body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap().to_owned())
        .collect();
    let mcp: Vec<&String> = names.iter().filter(|n| n.starts_with("mcp__")).collect();
    assert_eq!(mcp.len(), 9, "three tools of each server: {names:?}");
    let mut sorted = mcp.clone();
    sorted.sort();
    assert_eq!(mcp, sorted, "by server, then by tool");
    for (i, sent) in bodies.iter().enumerate().skip(1) {
        assert_eq!(
            String::from_utf8_lossy(&sent.raw),
            String::from_utf8_lossy(&bodies[0].raw),
            "the request after restart {i} differs from the first"
        );
    }
}
