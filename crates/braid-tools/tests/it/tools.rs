//! The built-in tools on a real temporary workspace: what they return, how
//! they fail, and that no path leaves the workspace.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::machine::ToolOutcome;
use braid_core::sim::SIM_TOOLS;
use braid_protocol::{Approval, Permission, ToolCall, ToolSource};
use braid_tools::{RegisterError, Tool, ToolContext, ToolRegistry};
use futures::future::BoxFuture;
use futures::FutureExt;
use serde_json::json;
use std::path::Path;
use std::sync::Arc;

use crate::support;
use support::{err, ok, ws};

#[test]
fn the_registry_matches_the_simulated_catalogue() {
    let r = ToolRegistry::builtin();
    let specs = r.specs();
    let names: Vec<(&str, _)> = specs.iter().map(|i| (i.name.as_str(), i.permission)).collect();
    assert_eq!(names, SIM_TOOLS.to_vec(), "the core's simulator tests the built-in names and permissions");
    for t in &specs {
        assert_eq!(t.input_schema["type"], "object", "{}", t.name);
        assert!(!t.examples.is_empty() && !t.description.is_empty(), "{}", t.name);
        assert_eq!(t.source, ToolSource::Builtin);
    }
}

#[test]
fn schemas_are_generated_from_the_input_structs() {
    let specs = ToolRegistry::builtin().specs();
    let read = specs.iter().find(|s| s.name == "read_file").unwrap();
    let schema = &read.input_schema;
    assert_eq!(schema["required"], json!(["path"]));
    assert_eq!(schema["properties"]["start_line"]["minimum"], json!(1));
    assert!(schema["properties"]["path"]["description"].as_str().unwrap().contains("workspace"));
    let text = schema.to_string();
    for banned in ["$schema", "\"title\"", "\"format\""] {
        assert!(!text.contains(banned), "{banned} in {text}");
    }
    // Every example is accepted by the schema's required fields.
    for s in &specs {
        let required = s.input_schema["required"].as_array().cloned().unwrap_or_default();
        for e in &s.examples {
            for r in &required {
                assert!(e.get(r.as_str().unwrap()).is_some(), "{} example {e} lacks {r}", s.name);
            }
        }
    }
}

struct Named(&'static str, ToolSource);
impl Tool for Named {
    fn name(&self) -> &str {
        self.0
    }
    fn description(&self) -> &str {
        "test"
    }
    fn input_schema(&self) -> serde_json::Value {
        json!({"type": "object"})
    }
    fn permission(&self) -> Permission {
        Permission::Read
    }
    fn examples(&self) -> Vec<serde_json::Value> {
        Vec::new()
    }
    fn source(&self) -> ToolSource {
        self.1.clone()
    }
    fn run<'a>(&'a self, _: serde_json::Value, _: &'a ToolContext) -> BoxFuture<'a, ToolOutcome> {
        async { braid_tools::success("ran".into()) }.boxed()
    }
}

#[test]
fn registration_checks_names_and_never_lets_a_name_change_meaning() {
    let mut r = ToolRegistry::builtin();
    let long: &'static str = Box::leak("x".repeat(65).into_boxed_str());
    for bad in ["", "has space", "dots.in.name", "ünïcode", long] {
        let e = r.register(Arc::new(Named(bad, ToolSource::Agent))).unwrap_err();
        assert!(matches!(e, RegisterError::BadName(_)), "{bad:?}: {e}");
    }
    let ok: &'static str = Box::leak("a".repeat(64).into_boxed_str());
    r.register(Arc::new(Named(ok, ToolSource::Agent))).unwrap();
    r.register(Arc::new(Named("search-docs_2", ToolSource::Mcp { server: "docs".into() }))).unwrap();
    let taken = r.register(Arc::new(Named("read_file", ToolSource::Mcp { server: "fs".into() }))).unwrap_err();
    assert!(taken.to_string().contains("already registered"), "{taken}");
    for alike in ["read_fiIe", "READ_FILE", "read-file", "read_fi1e"] {
        let e = r.register(Arc::new(Named(alike, ToolSource::Mcp { server: "fs".into() }))).unwrap_err();
        assert!(matches!(&e, RegisterError::LooksLike { other, .. } if other == "read_file"), "{alike}: {e}");
    }
    // The same source may replace its own tool (a server restarted).
    r.register(Arc::new(Named("search-docs_2", ToolSource::Mcp { server: "docs".into() }))).unwrap();
    assert_eq!(r.specs().len(), 8);
    assert!(r.unregister("search-docs_2"));
    assert!(!r.unregister("search-docs_2"));
    assert_eq!(r.specs().len(), 7);
}

#[tokio::test]
async fn read_file_numbers_lines_and_reads_ranges() {
    let w = ws();
    w.file("a.txt", "one\ntwo\nthree\nfour\n");
    assert_eq!(
        ok(&w.call("read_file", json!({"path":"a.txt"})).await),
        "     1\tone\n     2\ttwo\n     3\tthree\n     4\tfour\n"
    );
    assert_eq!(
        ok(&w.call("read_file", json!({"path":"a.txt","start_line":2,"end_line":3})).await),
        "     2\ttwo\n     3\tthree\n"
    );
    assert_eq!(ok(&w.call("read_file", json!({"path":"a.txt","start_line":4,"end_line":4})).await), "     4\tfour\n");
    assert_eq!(
        ok(&w.call("read_file", json!({"path":"a.txt","start_line":3,"end_line":99})).await),
        "     3\tthree\n     4\tfour\n"
    );
    assert!(err(&w.call("read_file", json!({"path":"a.txt","start_line":3,"end_line":2})).await)
        .contains("before start_line"));
    assert!(err(&w.call("read_file", json!({"path":"a.txt","start_line":9})).await).contains("past the end (4 lines)"));
    assert!(err(&w.call("read_file", json!({"path":"a.txt","start_line":0})).await).contains("1 or more"));
    assert!(err(&w.call("read_file", json!({"path":"missing.txt"})).await).contains("missing.txt does not exist"));
    assert!(err(&w.call("read_file", json!({})).await).contains("invalid arguments: missing field `path`"));
}

#[tokio::test]
async fn binary_huge_unicode_and_directories() {
    let w = ws();
    std::fs::write(w.root().join("bin.dat"), [0u8, 159, 146, 150]).unwrap();
    assert!(err(&w.call("read_file", json!({"path":"bin.dat"})).await).contains("binary file"));
    let big = "x".repeat(3 * 1024 * 1024);
    w.file("big.txt", &big);
    assert!(err(&w.call("read_file", json!({"path":"big.txt"})).await).contains("read a line range"));
    w.file("données/été.md", "ça marche\n");
    assert!(ok(&w.call("read_file", json!({"path":"données/été.md"})).await).contains("ça marche"));
    assert!(err(&w.call("read_file", json!({"path":"données"})).await).contains("is a directory"));
    assert_eq!(ok(&w.call("list_directory", json!({})).await), "big.txt\nbin.dat\ndonnées/");
}

#[tokio::test]
async fn write_and_edit() {
    let w = ws();
    assert!(ok(&w.call("write_file", json!({"path":"src/new/mod.rs","content":"fn a() {}\nfn b() {}\n"})).await)
        .starts_with("created src/new/mod.rs"));
    assert!(ok(&w
        .call("write_file", json!({"path":"src/new/mod.rs","content":"fn a() {}\nfn b() {}\nfn a2() {}\n"}))
        .await)
    .starts_with("overwrote"));
    let e = w.call("edit_file", json!({"path":"src/new/mod.rs","old_string":"fn c()","new_string":"x"})).await;
    assert!(err(&e).contains("was not found"));
    let e = w.call("edit_file", json!({"path":"src/new/mod.rs","old_string":"fn a","new_string":"x"})).await;
    assert!(err(&e).contains("occurs 2 times"));
    let e =
        w.call("edit_file", json!({"path":"src/new/mod.rs","old_string":"fn b() {}","new_string":"fn bee() {}"})).await;
    assert_eq!(ok(&e), "edited src/new/mod.rs at line 2");
    assert_eq!(
        std::fs::read_to_string(w.root().join("src/new/mod.rs")).unwrap(),
        "fn a() {}\nfn bee() {}\nfn a2() {}\n"
    );
    assert!(err(&w.call("edit_file", json!({"path":"src/new/mod.rs","old_string":"","new_string":"x"})).await)
        .contains("empty"));
    let leftovers: Vec<_> =
        std::fs::read_dir(w.root().join("src/new")).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(leftovers.len(), 1, "no temporary file left: {leftovers:?}");
}

#[tokio::test]
async fn glob_finds_files_and_respects_gitignore() {
    let w = ws();
    w.file("src/a.rs", "");
    w.file("src/deep/b.rs", "");
    w.file("target/debug/c.rs", "");
    w.file("README.md", "");
    w.file(".gitignore", "target/\n");
    assert_eq!(ok(&w.call("glob_files", json!({"pattern":"**/*.rs"})).await), "src/a.rs\nsrc/deep/b.rs");
    assert_eq!(ok(&w.call("glob_files", json!({"pattern":"*.md"})).await), "README.md");
    assert!(ok(&w.call("glob_files", json!({"pattern":"*.zig"})).await).contains("no file matches"));
    assert!(err(&w.call("glob_files", json!({"pattern":"../**"})).await).contains("without '..'"));
    assert!(err(&w.call("glob_files", json!({"pattern":"/etc/*"})).await).contains("relative"));
}

#[tokio::test]
async fn no_file_tool_leaves_the_workspace() {
    let w = ws();
    let outside = w.dir.path().join("secret.txt");
    std::fs::write(&outside, "top secret").unwrap();
    std::os::unix::fs::symlink(w.dir.path(), w.root().join("up")).unwrap();
    std::os::unix::fs::symlink(&outside, w.root().join("link.txt")).unwrap();
    std::os::unix::fs::symlink(w.dir.path().join("nowhere"), w.root().join("dangling")).unwrap();
    w.file("inside.txt", "fine");
    let abs_outside = outside.display().to_string();
    let abs_inside = w.root().join("inside.txt").display().to_string();
    let escapes = [
        "../secret.txt",
        "a/../../secret.txt",
        "./../ws/../secret.txt",
        &abs_outside,
        "up/secret.txt",
        "link.txt",
        "dangling",
        "/etc/passwd",
    ];
    for path in escapes {
        for (tool, args) in [
            ("read_file", json!({"path": path})),
            ("list_directory", json!({"path": path})),
            ("write_file", json!({"path": path, "content": "pwned"})),
            ("edit_file", json!({"path": path, "old_string": "top", "new_string": "pwned"})),
        ] {
            let o = w.call(tool, args).await;
            let e = err(&o);
            assert!(e.contains("outside the workspace") || e.contains("points nowhere"), "{tool} {path}: {e}");
        }
    }
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "top secret", "nothing outside was touched");
    assert!(!w.dir.path().join("nowhere").exists());
    // Inside, absolute or with harmless `..`, is fine.
    assert!(ok(&w.call("read_file", json!({"path": abs_inside})).await).contains("fine"));
    assert!(ok(&w.call("read_file", json!({"path": "sub/../inside.txt"})).await).contains("fine"));
}

#[tokio::test]
async fn run_command_reports_exit_code_and_output_in_a_fixed_directory() {
    let w = ws();
    std::fs::create_dir(w.root().join("sub")).unwrap();
    let o = w.call("run_command", json!({"command":"cd sub && pwd && echo oops >&2"})).await;
    let out = ok(&o);
    assert!(out.starts_with("sandbox: workspace-write, network off\nexit code: 0\n"), "{out}");
    assert!(out.contains("/ws/sub") && out.contains("stderr:\noops"), "{out}");
    let o = w.call("run_command", json!({"command":"pwd"})).await;
    assert!(ok(&o).trim_end().ends_with("/ws"), "cd does not persist: {}", o.output);
    let o = w.call("run_command", json!({"command":"echo failing; exit 3"})).await;
    assert_eq!(err(&o), "the command exited with 3");
    assert!(o.output.contains("exit code: 3") && o.output.contains("failing"));
    let o = w.call("run_command", json!({"command":"yes | head -c 200000"})).await;
    assert!(ok(&o).contains("bytes left out") && o.output.len() < 40_000, "capped: {}", o.output.len());
    assert!(err(&w.call("run_command", json!({"command":"  "})).await).contains("empty"));
}

fn alive(pid: u32) -> bool {
    // A zombie is dead; only its parent has not collected it yet.
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|s| !s.rsplit(')').next().unwrap_or("").trim_start().starts_with('Z'))
}

#[tokio::test]
async fn dropping_a_running_command_kills_its_whole_process_tree() {
    let mut w = ws();
    // Host process ids: the sandbox gives commands a pid namespace of
    // their own (the escape suite checks that its processes die too).
    w.ctx.sandbox = braid_protocol::Sandbox { level: braid_protocol::SandboxLevel::FullAccess, ..Default::default() };
    // The shell starts a background child and a foreground one, and writes
    // both pids where the test can read them.
    let cmd = "sleep 30 & echo $! > bg.pid; sh -c 'echo $$ > fg.pid; exec sleep 30'";
    let call = ToolCall {
        id: "t".into(),
        name: "run_command".into(),
        arguments: json!({"command": cmd}).to_string(),
        approval: Approval::Approved,
    };
    let run = w.tools.dispatch(&call, &w.ctx);
    let pids = async {
        loop {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            let read =
                |f: &str| std::fs::read_to_string(w.root().join(f)).ok().and_then(|s| s.trim().parse::<u32>().ok());
            if let (Some(a), Some(b)) = (read("bg.pid"), read("fg.pid")) {
                return (a, b);
            }
        }
    };
    let (bg, fg) = tokio::select! {
        _ = run => panic!("the command finished"),
        pids = pids => pids,
    };
    // `select!` dropped the running call above: that is the cancel.
    let t0 = std::time::Instant::now();
    // How fast is the sandbox bench's business; a busy machine may take longer.
    while (alive(bg) || alive(fg)) && t0.elapsed() < std::time::Duration::from_secs(5) {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(!alive(bg) && !alive(fg), "processes survived the cancel ({bg} {fg}) after {:?}", t0.elapsed());
}

/// In the child process of the test below: run a command that starts a
/// background and a foreground process, then wait to be killed.
fn run_command_until_killed(dir: &str) {
    let mut ctx = ToolContext::new(Path::new(dir).to_owned());
    // Host process ids: the sandbox gives commands a pid namespace of
    // their own (the escape suite checks that its processes die too).
    ctx.sandbox = braid_protocol::Sandbox { level: braid_protocol::SandboxLevel::FullAccess, ..Default::default() };
    ctx.ledger = Some(braid_tools::ledger::ProcessLedger::new(Path::new(dir).join("processes")));
    // pg.pid: the group (field 5 of stat), written last.
    let cmd = "sleep 60 & echo $! > bg.pid; sh -c 'echo $$ > fg.pid; exec sleep 60' & \
               read -r s < /proc/$$/stat; set -- $s; echo $5 > pg.pid; wait";
    let call = ToolCall {
        id: "t".into(),
        name: "run_command".into(),
        arguments: json!({"command": cmd}).to_string(),
        approval: Approval::Approved,
    };
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(ToolRegistry::builtin().dispatch(&call, &ctx));
}

/// This test binary run again as "Braid" with a command under way (see
/// `run_command_until_killed`), once the command wrote its pids: the
/// background and foreground processes and the process group.
fn killable_braid() -> (tempfile::TempDir, std::process::Child, (u32, u32, u32)) {
    let dir = tempfile::tempdir().unwrap();
    let parent = std::process::Command::new(std::env::current_exe().unwrap())
        // The test's full name in this binary (its module, then its name).
        .args(["--exact", "tools::a_command_dies_with_braid_even_when_braid_is_killed", "--nocapture"])
        .env("BRAID_TEST_KILLED_PARENT", dir.path())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let read = |f: &str| std::fs::read_to_string(dir.path().join(f)).ok().and_then(|s| s.trim().parse::<u32>().ok());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let pids = loop {
        if let (Some(a), Some(b), Some(g)) = (read("bg.pid"), read("fg.pid"), read("pg.pid")) {
            break (a, b, g);
        }
        assert!(std::time::Instant::now() < deadline, "the command never started");
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    (dir, parent, pids)
}

#[test]
fn a_command_dies_with_braid_even_when_braid_is_killed() {
    if let Ok(dir) = std::env::var("BRAID_TEST_KILLED_PARENT") {
        run_command_until_killed(&dir);
        return;
    }
    // This test binary, run again as "Braid" with a command under way,
    // then killed with SIGKILL: no cleanup code of its own can run.
    let (_dir, mut parent, (bg, fg, _)) = killable_braid();
    assert!(alive(bg) && alive(fg));
    parent.kill().unwrap(); // SIGKILL
    parent.wait().unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while (alive(bg) || alive(fg)) && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(!alive(bg) && !alive(fg), "the command outlived Braid ({bg}, {fg})");
}

#[test]
fn a_group_whose_leader_was_killed_first_is_stopped_at_the_next_start() {
    if std::env::var("BRAID_TEST_KILLED_PARENT").is_ok() {
        return; // the child of the test above runs only that test
    }
    let (dir, mut parent, (bg, fg, group)) = killable_braid();
    assert!(dir.path().join("processes").join(group.to_string()).exists(), "the group is recorded");
    // The leader goes first, so nothing is left to stop its group when
    // Braid dies: the commands outlive Braid.
    let leader = rustix::process::Pid::from_raw(group as i32).unwrap();
    rustix::process::kill_process(leader, rustix::process::Signal::KILL).unwrap();
    while alive(group) {
        std::thread::yield_now();
    }
    parent.kill().unwrap();
    parent.wait().unwrap();
    assert!(alive(bg) && alive(fg), "the setup left the group running");
    // The next start stops them.
    let ledger = braid_tools::ledger::ProcessLedger::new(dir.path().join("processes"));
    assert_eq!(ledger.reap(), [group as i32]);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while (alive(bg) || alive(fg)) && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(!alive(bg) && !alive(fg), "the group survived the next start ({bg}, {fg})");
}
