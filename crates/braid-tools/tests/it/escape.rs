//! The escape suite: `run_command` in the default sandbox, attacked from
//! inside, with real processes. Modelled on Codex's Linux sandbox suite.
//! Every command is written so that exit code 0 means the breach worked,
//! and every breach must fail; where a breach would leave a trace on the
//! host, the host is checked as well.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use crate::sandbox::Outside;
use crate::support::{ws, Ws};
use braid_protocol::{Sandbox, SandboxLevel, SandboxPaths, ToolResultStatus};
use braid_tools::Confinement;
use serde_json::json;
use std::path::Path;
use std::sync::Arc;

async fn breach(w: &Ws, what: &str, command: &str) {
    let o = w.call("run_command", json!({ "command": command })).await;
    assert_eq!(o.status, ToolResultStatus::Error, "{what}: the breach worked ({command})\n{}", o.output);
}

fn sandboxed() -> Ws {
    assert_eq!(braid_tools::sandbox::unavailable(), None, "this machine runs bubblewrap");
    ws()
}

#[tokio::test]
async fn writes_outside_the_workspace_fail_by_every_way_out() {
    let w = sandboxed();
    std::fs::create_dir(w.root().join(".git")).unwrap();
    std::fs::write(w.root().join(".git/config"), "[core]\n").unwrap();
    std::fs::write(w.root().join(".mcp.json"), "{}").unwrap();
    let out = Outside::new("escape");
    let o = out.0.display();
    std::fs::write(out.0.join("target"), "kept\n").unwrap();
    let n = std::process::id();
    for (what, command) in [
        ("write to /", format!("touch /braid-escape-{n}")),
        ("write to $HOME", format!("touch \"$HOME/braid-escape-{n}\"")),
        ("write to the workspace's .git/config", "echo '[evil]' >> .git/config".to_owned()),
        ("write the workspace's .mcp.json", "echo '{\"mcpServers\":{}}' > .mcp.json".to_owned()),
        (
            "a symlink swapped in during the call",
            format!(
                "for i in $(seq 50); do rm -rf d; mkdir d; (rm -rf d; ln -s {o} d) & echo x > d/f 2>/dev/null; \
                 wait; done; test -e {o}/f"
            ),
        ),
        ("through /proc/self/root", format!("echo x > /proc/self/root{o}/f")),
        ("a hard link to a file outside", format!("ln {o}/target hl && echo pwned >> hl")),
    ] {
        breach(&w, what, &command).await;
    }
    assert!(!Path::new(&format!("/braid-escape-{n}")).exists());
    assert!(!out.0.join("f").exists(), "nothing was written outside");
    assert_eq!(std::fs::read_to_string(out.0.join("target")).unwrap(), "kept\n");
    assert_eq!(std::fs::read_to_string(w.root().join(".git/config")).unwrap(), "[core]\n");
    assert_eq!(std::fs::read_to_string(w.root().join(".mcp.json")).unwrap(), "{}");
}

/// A home with keys, a toolchain (whose token must stay hidden) and
/// private notes, and Braid's data folder beside it; both outside /tmp.
struct Home {
    home: Outside,
    data: Outside,
}

impl Home {
    fn new() -> Home {
        let (home, data) = (Outside::new("home"), Outside::new("data"));
        for (file, text) in [
            (".ssh/id_rsa", "-----BEGIN OPENSSH PRIVATE KEY-----\nSSHKEY\n"),
            (".cargo/credentials.toml", "[registry]\ntoken = \"CARGOTOKEN\"\n"),
            (".cargo/bin/tool", "#!/bin/sh\necho the toolchain runs\n"),
            ("notes/private.txt", "PRIVATENOTE\n"),
        ] {
            let p = home.0.join(file);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        std::fs::write(data.0.join("secrets.json"), "{\"openai\":\"BRAIDKEY\"}").unwrap();
        std::fs::write(data.0.join("braid.db"), "BRAIDDB").unwrap();
        Home { home, data }
    }

    fn confine(&self) -> Arc<Confinement> {
        Arc::new(Confinement::new(Some(&self.home.0), std::slice::from_ref(&self.data.0), &SandboxPaths::default()))
    }
}

#[tokio::test]
async fn keys_homes_and_braids_own_data_cannot_be_read() {
    let h = Home::new();
    let mut w = sandboxed();
    w.ctx.confine = h.confine();
    let (home, data) = (h.home.0.display(), h.data.0.display());
    for (what, command) in [
        ("~/.ssh", format!("cat {home}/.ssh/id_rsa")),
        ("the home's own files", format!("cat {home}/notes/private.txt")),
        ("a token in a toolchain's folder", format!("grep -r CARGOTOKEN {home}/.cargo")),
        ("Braid's keys", format!("cat {data}/secrets.json")),
        ("Braid's database", format!("cat {data}/braid.db")),
        ("the real ~/.ssh", "ls \"$HOME/.ssh\" 2>&1 | grep -v 'No such' | grep .".to_owned()),
        ("the user's session bus and keyring", "ls /run/user/* 2>&1 | grep -v 'No such' | grep .".to_owned()),
    ] {
        let o = w.call("run_command", json!({ "command": command })).await;
        assert_eq!(o.status, ToolResultStatus::Error, "{what}: read ({command})\n{}", o.output);
        for secret in ["SSHKEY", "CARGOTOKEN", "PRIVATENOTE", "BRAIDKEY", "BRAIDDB"] {
            assert!(!o.output.contains(secret), "{what}: {secret} came out\n{}", o.output);
        }
    }
    // Named as the sandbox's doing, so the user can let it in.
    let o = w.call("run_command", json!({ "command": format!("cat {home}/.ssh/id_rsa") })).await;
    assert!(o.error.as_deref().unwrap_or_default().contains("the sandbox hides"), "{o:?}");
    // The toolchain is still there to run.
    let o = w.call("run_command", json!({ "command": format!("sh {home}/.cargo/bin/tool") })).await;
    assert!(o.output.contains("the toolchain runs"), "{}", o.output);
}

#[tokio::test]
async fn a_workspace_that_is_the_home_still_hides_its_keys() {
    let h = Home::new();
    let mut w = sandboxed();
    w.ctx.confine = h.confine();
    w.ctx.workspace = h.home.0.canonicalize().unwrap();
    breach(&w, "~/.ssh in the workspace", "cat .ssh/id_rsa | grep SSHKEY").await;
    breach(&w, "the token in the workspace", "grep -r CARGOTOKEN .cargo").await;
    let o = w.call("run_command", json!({ "command": "cat notes/private.txt && touch notes/new" })).await;
    assert!(o.output.contains("PRIVATENOTE"), "the workspace itself is the command's: {}", o.output);
    assert!(h.home.0.join("notes/new").exists());
}

#[tokio::test]
async fn no_network_no_capabilities_no_new_privileges_no_other_processes() {
    let w = sandboxed();
    let server = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = server.local_addr().unwrap().port();
    std::thread::spawn(move || for _ in server.incoming() {});
    let me = std::process::id();
    let exe = std::env::current_exe().unwrap();
    let exe = exe.file_name().unwrap().to_string_lossy();
    for (what, command) in [
        ("curl to the host", format!("curl -sS -m 5 http://127.0.0.1:{port}/ -o /dev/null")),
        (
            "a socket to the host",
            format!("python3 -c \"import socket; socket.create_connection(('127.0.0.1', {port}), 5)\""),
        ),
        ("DNS", "getent hosts crates.io".to_owned()),
        (
            "prctl(PR_GET_NO_NEW_PRIVS) is 0",
            "python3 -c 'import ctypes, sys; sys.exit(0 if ctypes.CDLL(None).prctl(39, 0, 0, 0, 0) == 0 else 1)'"
                .to_owned(),
        ),
        ("effective capabilities", "! grep -qE '^CapEff:[[:space:]]+0+$' /proc/self/status".to_owned()),
        ("remount / writable", "mount -o remount,rw,bind / && touch /braid-remounted".to_owned()),
        ("a user namespace to regain capabilities", "unshare -rm true".to_owned()),
        ("another process's memory and environment", format!("tr '\\0' ' ' < /proc/{me}/cmdline | grep -q '{exe}'")),
    ] {
        breach(&w, what, &command).await;
    }
    assert!(!Path::new("/braid-remounted").exists());
}

/// Processes on the host whose command line has `arg` as one argument.
fn running_with(arg: &str) -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else { return Vec::new() };
    dir.flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|c| c.split(|b| *b == 0).any(|a| a == arg.as_bytes()))
        })
        .collect()
}

#[tokio::test]
async fn a_command_past_its_time_takes_everything_it_started_with_it() {
    let w = sandboxed();
    // A new session escapes the process group that cancel kills; the
    // sandbox's process namespace takes it down all the same.
    let marker = format!("{}.5", 9000 + std::process::id() % 1000);
    let command = format!("setsid sleep {marker} & sleep {marker}");
    let run = w.call("run_command", json!({ "command": command }));
    let timed_out = tokio::time::timeout(std::time::Duration::from_secs(2), run).await;
    assert!(timed_out.is_err(), "the command ran past its time");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !running_with(&marker).is_empty() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(running_with(&marker), Vec::<u32>::new(), "a process outlived its command");
}

#[test]
fn a_fork_bomb_stops_at_the_process_limit() {
    // The kernel never limits root's processes (the count is per user, and
    // root's is exempt), so as root the sandbox is run as nobody.
    let dir = Outside::new("bomb");
    let ws = dir.0.canonicalize().unwrap();
    let bomb = "i=0; while [ $i -lt 3000 ]; do sleep 30 & i=$((i+1)); done; echo all 3000 started";
    let sandbox = Sandbox { level: SandboxLevel::ReadOnly, ..Sandbox::default() };
    let args = braid_tools::sandbox::wrap(&sandbox, &Confinement::default(), &ws, &["sh", "-c", bomb]).unwrap();
    let root = rustix::process::geteuid().is_root();
    let mut command = match root {
        true => {
            let mut c = std::process::Command::new("setpriv");
            c.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--", braid_tools::sandbox::program()]);
            c
        }
        false => std::process::Command::new(braid_tools::sandbox::program()),
    };
    let out = command.args(&args).current_dir(&ws).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("all 3000 started"), "the bomb was not stopped (root: {root})");
    assert!(!out.status.success(), "the shell could not fork past the limit: {out:?}");
}

/// Braid's own environment, as a child of this test binary sees it: set
/// there (not here, where other tests' threads read the environment).
const SECRET_ENV: [(&str, &str); 4] = [
    ("GITHUB_TOKEN", "ghp_ESCAPETOKENESCAPETOKENESCAPETOKEN12"),
    ("DEMO_API_KEY", "sk-ESCAPEKEYESCAPEKEY"),
    ("KEPT_TOKEN", "kept-by-the-user"),
    ("PLAIN_SETTING", "plain"),
];

#[tokio::test]
#[ignore = "run by commands_inherit_no_variable_named_like_a_secret, in a child with the variables set"]
async fn secret_variables_child() {
    let mut w = sandboxed();
    let paths = SandboxPaths { env: vec!["KEPT_TOKEN".into()], ..SandboxPaths::default() };
    w.ctx.confine = Arc::new(Confinement::new(None, &[], &paths));
    for (name, value) in SECRET_ENV {
        assert_eq!(std::env::var(name).as_deref(), Ok(value), "the parent set {name}");
    }
    let o = w
        .call(
            "run_command",
            json!({ "command": "printenv GITHUB_TOKEN; printenv DEMO_API_KEY; printenv KEPT_TOKEN PLAIN_SETTING" }),
        )
        .await;
    assert!(!o.output.contains("ESCAPE"), "a secret-named variable reached the command\n{}", o.output);
    assert!(o.output.contains("kept-by-the-user") && o.output.contains("plain"), "{}", o.output);
}

#[test]
fn commands_inherit_no_variable_named_like_a_secret() {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--ignored", "--exact", "escape::secret_variables_child"])
        .envs(SECRET_ENV)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.contains("1 passed"), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
}
