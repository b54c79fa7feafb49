//! Real MCP servers from npm (`tests/mcp-servers`, pinned, installed by
//! `make test`), and waiting on the runtime's MCP changes.

use crate::harness::Watch;
use crate::script::{answer, calls};
use braid_llm::fake::FakeProvider;
use braid_protocol::{
    ApprovalDecision, McpServerStatus, McpSettings, MessageType, NewMessage, StatusKind, ToolResultStatus,
};
use braid_runtime::Runtime;
use std::path::PathBuf;
use std::time::Duration;

/// How long a scripted call may take, start to end.
const CALL_LIMIT: Duration = Duration::from_secs(60);

/// The installed server program `bin` (`mcp-server-everything`, …).
pub fn server_bin(bin: &str) -> PathBuf {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("mcp-servers/node_modules/.bin").join(bin);
    assert!(
        p.exists(),
        "{} is missing: install the test MCP servers with `make mcp-servers` (npm ci in tests/mcp-servers)",
        p.display()
    );
    p
}

/// Waits (on the runtime's change notices, not by polling) until `wanted`
/// holds for the server `name`; panics with what it saw after `limit`.
pub async fn until(
    rt: &Runtime,
    name: &str,
    limit: Duration,
    wanted: impl Fn(&McpServerStatus) -> bool,
) -> McpSettings {
    let mut changes = rt.mcp_changes();
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        let now = rt.mcp_settings();
        if now.servers.iter().any(|s| s.name == name && wanted(s)) {
            return now;
        }
        if tokio::time::timeout_at(deadline, changes.changed()).await.is_err() {
            panic!("MCP server {name} not as wanted within {limit:?}: {:#?}", now.servers);
        }
    }
}

/// The output (or error) of each tool result, in order.
pub fn outputs(rt_messages: &[braid_protocol::Message]) -> Vec<(ToolResultStatus, String)> {
    rt_messages
        .iter()
        .filter_map(|m| match &m.body {
            MessageType::ToolResult { status, output, error, .. } => {
                Some((*status, if output.is_empty() { error.clone().unwrap_or_default() } else { output.clone() }))
            }
            _ => None,
        })
        .collect()
}

/// Sends `text` with the model scripted to call `tool` with `args`,
/// approves the call when asked, and returns the call's result.
pub async fn call(
    rt: &Runtime,
    fake: &FakeProvider,
    id: &str,
    tool: &str,
    args: serde_json::Value,
) -> (ToolResultStatus, String) {
    let ctx = rt.create_context(None, None).await.unwrap();
    fake.push_reply(calls(&[(id, tool, args)]));
    fake.push_reply(answer("done"));
    let mut watch = Watch::new(rt, &ctx.id).await;
    rt.send_message(&ctx.id, NewMessage::user_text("go"), false).await.unwrap();
    tokio::time::timeout(CALL_LIMIT, watch.state(StatusKind::AwaitingToolApproval)).await.expect("the call is asked");
    rt.decide_tool_call(&ctx.id, id.into(), ApprovalDecision::Approve).await.unwrap();
    tokio::time::timeout(CALL_LIMIT, watch.settled()).await.expect("the turn ends");
    let snap = rt.load_context(&ctx.id).await.unwrap();
    outputs(&snap.messages).pop().unwrap()
}

/// Kills (SIGKILL) every process whose environment holds `mark`
/// (`NAME=value`): a server started by a test, told apart from any other.
/// Returns how many were killed.
pub fn kill_marked(mark: &str) -> usize {
    let mut killed = 0;
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
        let Ok(env) = std::fs::read(entry.path().join("environ")) else { continue };
        if env.split(|b| *b == 0).any(|v| v == mark.as_bytes()) {
            let ok = std::process::Command::new("kill").args(["-KILL", &pid.to_string()]).status();
            killed += usize::from(ok.is_ok_and(|s| s.success()));
        }
    }
    killed
}

/// server-everything over streamable HTTP on a free loopback port: the
/// child (killed when dropped) and the URL of its endpoint, once it listens.
pub async fn http_everything() -> (tokio::process::Child, String) {
    http_everything_with(&[]).await
}

/// [`http_everything`] with `env` added to the server's environment.
pub async fn http_everything_with(env: &[(String, String)]) -> (tokio::process::Child, String) {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut child = tokio::process::Command::new(server_bin("mcp-server-everything"))
        .arg("streamableHttp")
        .env("PORT", port.to_string())
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = tokio::io::AsyncBufReadExt::lines(tokio::io::BufReader::new(child.stderr.take().unwrap()));
    let listening = async {
        while let Ok(Some(line)) = lines.next_line().await {
            if line.contains("listening on port") {
                return true;
            }
        }
        false
    };
    assert!(
        tokio::time::timeout(Duration::from_secs(30), listening).await.unwrap_or(false),
        "the HTTP server did not start"
    );
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    (child, format!("http://127.0.0.1:{port}/mcp"))
}
