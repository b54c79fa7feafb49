//! A workspace's own `.mcp.json` and the settings' secrets, against the
//! real server-everything: the workspace's servers wait for the user's
//! trust (again after the file changes), a secret named in `env` is
//! filled in when the server starts and never shown.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_llm::fake::FakeProvider;
use braid_protocol::mcp::McpOrigin;
use braid_protocol::McpState;
use braid_runtime::{Runtime, RuntimeConfig};
use braid_testkit::mcp::{call, server_bin, until};
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;

const START: Duration = Duration::from_secs(60);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn workspace_servers_wait_for_trust_and_secrets_fill_in_unseen() {
    let dir = tempfile::tempdir().unwrap();
    let (data, work) = (dir.path().join("data"), dir.path().join("work"));
    std::fs::create_dir_all(&data).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    let everything = server_bin("mcp-server-everything");
    let shared = json!({"mcpServers": {
        "repo": {"command": everything, "args": ["stdio"], "env": {"REPO_TOKEN": "${secret:repo-token}"}},
        "mine": {"command": "sleep", "args": ["600"]}
    }});
    std::fs::write(work.join(".mcp.json"), shared.to_string()).unwrap();
    std::fs::write(
        data.join("mcp.json"),
        json!({"mcpServers": {"mine": {"command": "sleep", "args": ["600"], "disabled": true}}}).to_string(),
    )
    .unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = Runtime::open(RuntimeConfig::new(data.join("braid.db"), work.clone()), fake.clone()).unwrap().0;
    rt.start_mcp(data.join("mcp.json"));

    // Not started: the user has not trusted the file.
    let s = rt.mcp_settings();
    let repo = s.servers.iter().find(|s| s.name == "repo").unwrap();
    assert_eq!((repo.state, repo.origin), (McpState::Untrusted, McpOrigin::Workspace));
    let mine = s.servers.iter().find(|s| s.name == "mine").unwrap();
    assert_eq!((mine.state, mine.origin), (McpState::Disabled, McpOrigin::Settings), "the user's own wins");
    let ws = s.workspace.unwrap();
    assert!(!ws.trusted && ws.error.unwrap().contains("named mine"));
    assert_eq!((s.secrets[0].name.as_str(), s.secrets[0].set), ("repo-token", false));
    assert!(rt.tools().iter().all(|t| !t.name.starts_with("mcp__repo__")));

    // Trusted, it still needs its secret, and says which.
    rt.trust_workspace_mcp(true).await.unwrap();
    let s = until(&rt, "repo", START, |s| s.state == McpState::Failed).await;
    let repo = s.servers.iter().find(|s| s.name == "repo").unwrap();
    assert!(!repo.retrying, "nothing changes until the secret is set");
    assert!(repo.reason.as_deref().unwrap().contains("\"repo-token\" (REPO_TOKEN) is not set"), "{repo:?}");

    // With the secret set, it starts and sees it; the settings never show it.
    let s = rt.set_mcp_secret("repo-token", Some("kumquat-4417".into())).await.unwrap();
    assert!(s.secrets[0].set);
    until(&rt, "repo", START, |s| s.state == McpState::Ready).await;
    let (_, env) = call(&rt, &fake, "env", "mcp__repo__get-env", json!({})).await;
    assert!(env.contains("kumquat-4417"), "{env:.300}");
    assert!(!serde_json::to_string(&rt.mcp_settings()).unwrap().contains("kumquat-4417"));
    assert!(rt.set_mcp_secret("bad name", Some("x".into())).await.is_err());

    // Trust survives a restart of the app, for the file as it was.
    rt.shutdown().await;
    let rt = Runtime::open(RuntimeConfig::new(data.join("braid.db"), work.clone()), fake.clone()).unwrap().0;
    rt.start_mcp(data.join("mcp.json"));
    until(&rt, "repo", START, |s| s.state == McpState::Ready).await;

    // Changed, it must be trusted again.
    let changed = json!({"mcpServers": {"repo": {"command": everything, "args": ["stdio"], "env": {"EXTRA": "1"}}}});
    std::fs::write(work.join(".mcp.json"), changed.to_string()).unwrap();
    let s = rt.save_mcp_settings(rt.mcp_settings().text).await.unwrap();
    assert_eq!(s.servers.iter().find(|s| s.name == "repo").unwrap().state, McpState::Untrusted);
    assert!(rt.tools().iter().all(|t| !t.name.starts_with("mcp__repo__")), "its tools left with it");
    let s = rt.trust_workspace_mcp(false).await.unwrap();
    assert!(!s.workspace.unwrap().trusted);
    rt.shutdown().await;
}
