//! Real MCP servers from npm (`tests/mcp-servers`, pinned, installed by
//! `make test`), and waiting on the runtime's MCP changes.

use braid_protocol::{McpServerStatus, McpSettings};
use braid_runtime::Runtime;
use std::path::PathBuf;
use std::time::Duration;

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
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut child = tokio::process::Command::new(server_bin("mcp-server-everything"))
        .arg("streamableHttp")
        .env("PORT", port.to_string())
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
