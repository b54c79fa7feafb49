//! `run_command` in the sandbox, with real processes: what a command, its
//! children and grandchildren may write at each level, the network off
//! and allowed, and full access as before. Cancel killing the sandboxed
//! tree is `dropping_a_running_command_kills_its_whole_process_tree` in
//! tools.rs (the default context is sandboxed).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_protocol::{Sandbox, SandboxLevel};
use serde_json::json;
use std::io::Write;

use crate::support;
use support::{err, ok, ws, Ws};

fn with(sandbox: Sandbox) -> Ws {
    assert_eq!(braid_tools::sandbox::unavailable(), None, "this machine runs bubblewrap");
    let mut w = ws();
    w.ctx.sandbox = sandbox;
    w
}

/// A folder outside the workspace, /tmp (the command's /tmp is a private
/// one, where a write would succeed and vanish) and the home (hidden):
/// in /var/tmp, removed when dropped.
pub(crate) struct Outside(pub(crate) std::path::PathBuf);

impl Outside {
    pub(crate) fn new(tag: &str) -> Outside {
        let dir = std::path::Path::new("/var/tmp").join(format!("braid-sandbox-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Outside(dir)
    }
    pub(crate) fn file(&self) -> std::path::PathBuf {
        self.0.join("outside.txt")
    }
}

impl Drop for Outside {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[tokio::test]
async fn workspace_write_writes_inside_only_for_the_command_and_all_it_starts() {
    let w = with(Sandbox::default());
    std::fs::create_dir(w.root().join(".git")).unwrap();
    let o = w.call("run_command", json!({"command": "echo hi > inside.txt && mkdir -p a/b && touch a/b/c"})).await;
    assert!(ok(&o).starts_with("sandbox: workspace-write, network off\nexit code: 0"), "{}", o.output);
    assert!(w.root().join("a/b/c").exists() && w.root().join("inside.txt").exists());

    let home = std::env::var("HOME").unwrap();
    let probe = format!("{home}/braid-sandbox-probe-{}", std::process::id());
    let beside = Outside::new("write");
    let out = beside.file().display().to_string();
    std::os::unix::fs::symlink(&beside.0, w.root().join("escape")).unwrap();
    for (what, command) in [
        ("the home folder", format!("touch {probe}")),
        ("/etc", "touch /etc/braid-sandbox-probe".to_owned()),
        ("beside the workspace", format!("echo x > {out}")),
        ("through a symlink pointing out", "echo x > escape/through-link.txt".to_owned()),
        ("from a child", format!("sh -c 'touch {out}'")),
        ("from a grandchild in the background", format!("sh -c \"sh -c 'touch {out}' & wait\"; test -e {out}")),
        ("the workspace's .git", "touch .git/index.lock".to_owned()),
    ] {
        let o = w.call("run_command", json!({ "command": command })).await;
        let why = err(&o);
        assert!(why.contains("blocked by the sandbox") && why.contains("not its .git"), "{what}: {why}\n{}", o.output);
        // Flagged for the core, which asks the user whether to run it outside.
        assert!(o.blocked.as_deref().is_some_and(|b| b.contains("refused a write")), "{what}: {:?}", o.blocked);
    }
    assert!(!std::path::Path::new(&probe).exists() && !std::path::Path::new("/etc/braid-sandbox-probe").exists());
    assert!(!beside.file().exists() && !beside.0.join("through-link.txt").exists());
    assert!(!w.root().join(".git/index.lock").exists());

    // .git when allowed; /tmp is the command's own, gone after it.
    let w2 = with(Sandbox { git_writable: true, ..Sandbox::default() });
    std::fs::create_dir(w2.root().join(".git")).unwrap();
    ok(&w2.call("run_command", json!({"command": "touch .git/HEAD.lock && echo t > /tmp/braid-private"})).await);
    assert!(w2.root().join(".git/HEAD.lock").exists());
    assert!(!std::path::Path::new("/tmp/braid-private").exists(), "/tmp inside is private");
}

#[tokio::test]
async fn read_only_writes_nothing_but_its_temp_folder() {
    let w = with(Sandbox { level: SandboxLevel::ReadOnly, ..Sandbox::default() });
    w.file("notes.txt", "kept\n");
    let o = w.call("run_command", json!({"command": "cat notes.txt && echo scratch > /tmp/s && cat /tmp/s"})).await;
    assert!(ok(&o).contains("kept") && o.output.contains("scratch") && o.output.starts_with("sandbox: read-only"));
    let o = w.call("run_command", json!({"command": "echo changed > notes.txt"})).await;
    assert!(err(&o).contains("it is read-only"), "{}", o.output);
    assert_eq!(std::fs::read_to_string(w.root().join("notes.txt")).unwrap(), "kept\n");
}

/// A listener on the host's 127.0.0.1 that answers one line.
fn listener() -> u16 {
    let server = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = server.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for mut stream in server.incoming().flatten() {
            let _ = stream.write_all(b"hello from the host\n");
        }
    });
    port
}

#[tokio::test]
async fn the_network_is_off_unless_the_conversation_allows_it() {
    let port = listener();
    let connect = format!(
        "python3 -c \"import socket; s = socket.create_connection(('127.0.0.1', {port}), 5); print(s.recv(64).decode())\""
    );
    let off = with(Sandbox::default());
    let o = off.call("run_command", json!({ "command": connect })).await;
    assert!(err(&o).contains("blocked by the sandbox: the sandbox has no network"), "{}", o.output);
    assert!(o.blocked.as_deref().is_some_and(|b| b.contains("no network")), "{:?}", o.blocked);
    let o = off
        .call("run_command", json!({"command": format!("curl -sS -m 5 telnet://127.0.0.1:{port} </dev/null")}))
        .await;
    assert!(err(&o).contains("no network"), "{}", o.output);

    let on = with(Sandbox { network: true, ..Sandbox::default() });
    let o = on.call("run_command", json!({ "command": connect })).await;
    assert!(ok(&o).contains("hello from the host") && o.output.contains("network allowed"), "{}", o.output);
}

#[tokio::test]
async fn full_access_runs_as_before() {
    let w = with(Sandbox { level: SandboxLevel::FullAccess, ..Sandbox::default() });
    let beside = Outside::new("full");
    let out = beside.file().display().to_string();
    let o = w.call("run_command", json!({"command": format!("echo x > {out}")})).await;
    assert!(ok(&o).starts_with("sandbox: none (full access)\nexit code: 0"), "{}", o.output);
    assert!(beside.file().exists());
    let o = w.call("run_command", json!({"command": "echo 'touch: Read-only file system' >&2; exit 1"})).await;
    assert_eq!(o.blocked, None, "with full access nothing is the sandbox's doing: {}", err(&o));
}

#[test]
fn the_catalogue_says_commands_run_in_the_sandbox_here() {
    let specs = braid_tools::ToolRegistry::builtin().specs();
    let run = specs.iter().find(|t| t.name == "run_command").expect("run_command");
    assert_eq!(run.sandbox, braid_protocol::ToolSandbox::Applied);
    let read = specs.iter().find(|t| t.name == "read_file").expect("read_file");
    assert_eq!(read.sandbox, braid_protocol::ToolSandbox::NotUsed);
}
