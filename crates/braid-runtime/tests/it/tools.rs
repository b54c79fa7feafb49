//! Tools through the runtime with the scripted fake provider and the real
//! built-in tools on a temporary workspace: definitions offered per mode,
//! the iteration timeout, a denial reaching the model, and cancelling a
//! real process tree.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_llm::fake::FakeProvider;
use braid_llm::ToolChoice;
use braid_protocol::{
    AgentMode, ApprovalDecision, ContextStatus, ErrorCode, GenerationSettings, MessageType, NewMessage, Role,
    StatusKind, ToolApprovalPolicy, ToolResultStatus, ToolUse,
};
use braid_runtime::{Runtime, RuntimeConfig};
use braid_testkit::harness::open_in;
use braid_testkit::harness::{limit, scaled, Watch};
use braid_testkit::script::{answer, calls, results};
use serde_json::json;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn open(dir: &Path, fake: Arc<FakeProvider>, policy: ToolApprovalPolicy, timeout_ms: u64) -> Runtime {
    open_in(dir, fake, |c| {
        c.machine.tools.policy = policy;
        c.machine.tools.timeout_ms = timeout_ms;
    })
}

fn say(t: &str) -> NewMessage {
    NewMessage::user_text(t)
}

/// The context in state `kind` (now, or on one of its next events) within
/// `limit`.
async fn wait(rt: &Runtime, id: &braid_protocol::ContextId, kind: StatusKind, limit: Duration) -> ContextStatus {
    let mut watch = Watch::new(rt, id).await;
    tokio::time::timeout(limit, watch.state(kind)).await.unwrap_or_else(|_| panic!("not {kind:?} within {limit:?}"))
}

#[tokio::test]
async fn the_model_is_offered_the_tools_its_mode_allows() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open(dir.path(), fake.clone(), ToolApprovalPolicy::Manual, 30_000);
    let ctx = rt.create_context(None, None).await.unwrap();
    rt.send_message(&ctx.id, say("hi"), false).await.unwrap();
    wait(&rt, &ctx.id, StatusKind::Idle, limit()).await;
    rt.set_mode(&ctx.id, AgentMode::Plan).await.unwrap();
    rt.send_message(&ctx.id, say("plan"), false).await.unwrap();
    wait(&rt, &ctx.id, StatusKind::Idle, limit()).await;
    let requests = fake.requests();
    let names = |i: usize| requests[i].tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>();
    let codebase = ["codebase_search", "find_definition", "find_references", "get_project_overview"];
    let builtin = ["read_file", "list_directory", "glob_files", "write_file", "edit_file", "run_command"];
    assert_eq!(names(0), [&builtin[..], &codebase[..], &["spawn_agents"]].concat(), "sub-agents last");
    assert_eq!(names(1), [&builtin[..3], &codebase[..]].concat(), "Plan mode: read tools only");

    let system = |i: usize| requests[i].system.clone().unwrap_or_default();
    assert!(system(1).contains("You are in Plan mode"));
    assert!(system(0).contains("- write_file {"), "examples of the offered tools: {}", system(0));
    assert!(!system(1).contains("write_file"), "no example of a tool not offered: {}", system(1));
    let snap = rt.load_context(&ctx.id).await.unwrap();
    assert_eq!(snap.tools.mode, AgentMode::Plan);
}

#[tokio::test]
async fn a_call_longer_than_the_timeout_ends_with_a_timeout_result() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    fake.push_reply(calls(&[("slow", "run_command", json!({"command": "sleep 20"}))]));
    fake.push_reply(answer("That took too long."));
    let rt = open(dir.path(), fake.clone(), ToolApprovalPolicy::AutoAll, 300);
    let ctx = rt.create_context(None, None).await.unwrap();
    let t0 = Instant::now();
    rt.send_message(&ctx.id, say("wait"), false).await.unwrap();
    wait(&rt, &ctx.id, StatusKind::ExecutingTool, limit()).await;
    wait(&rt, &ctx.id, StatusKind::Idle, limit()).await;
    // Ended by the 0.3 s timeout, not by the 20 s command (on a busy
    // machine too).
    assert!(t0.elapsed() < Duration::from_secs(15), "{:?}", t0.elapsed());
    let snap = rt.load_context(&ctx.id).await.unwrap();
    let r = results(&snap.messages);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].1, ToolResultStatus::Error);
    assert!(r[0].2.starts_with("timed out after 0.3 s"), "{r:?}");
    assert_eq!(fake.requests().len(), 2, "the timeout went back to the model, which answered");
}

#[tokio::test]
async fn a_denied_call_reaches_the_model_as_a_denial() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    fake.push_reply(calls(&[("w", "write_file", json!({"path": "x.txt", "content": "x"}))]));
    fake.push_reply(answer("Understood, I will not write."));
    let rt = open(dir.path(), fake.clone(), ToolApprovalPolicy::Manual, 30_000);
    let ctx = rt.create_context(None, None).await.unwrap();
    rt.send_message(&ctx.id, say("write x"), false).await.unwrap();
    wait(&rt, &ctx.id, StatusKind::AwaitingToolApproval, limit()).await;
    rt.decide_tool_call(&ctx.id, "w".into(), ApprovalDecision::Deny).await.unwrap();
    wait(&rt, &ctx.id, StatusKind::Idle, limit()).await;
    assert!(!dir.path().join("x.txt").exists(), "the denied tool never ran");
    let second = &fake.requests()[1];
    let told = results(&second.messages);
    assert_eq!(told, [("w".into(), ToolResultStatus::Error, "the user denied this tool call".into())]);
}

fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|s| !s.rsplit(')').next().unwrap_or("").trim_start().starts_with('Z'))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancel_kills_the_running_command_and_its_children_within_100_ms() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let cmd = "sleep 30 & echo $! > bg.pid; sh -c 'echo $$ > fg.pid; exec sleep 30'";
    fake.push_reply(calls(&[
        ("run", "run_command", json!({"command": cmd})),
        ("next", "read_file", json!({"path": "bg.pid"})),
    ]));
    let rt = open(dir.path(), fake.clone(), ToolApprovalPolicy::AutoAll, 60_000);
    let ctx = rt.create_context(None, None).await.unwrap();
    // Host process ids: the sandbox gives commands a pid namespace of
    // their own (the escape suite checks that its processes die too).
    let full = braid_protocol::Sandbox { level: braid_protocol::SandboxLevel::FullAccess, ..Default::default() };
    rt.set_sandbox(&ctx.id, full).await.unwrap();
    rt.send_message(&ctx.id, say("run it"), false).await.unwrap();
    let read = |f: &str| std::fs::read_to_string(dir.path().join(f)).ok().and_then(|s| s.trim().parse::<u32>().ok());
    let t0 = Instant::now();
    let (bg, fg) = loop {
        if let (Some(a), Some(b)) = (read("bg.pid"), read("fg.pid")) {
            break (a, b);
        }
        assert!(t0.elapsed() < limit(), "the command never started");
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    assert!(alive(bg) && alive(fg));
    let cancelled_at = Instant::now();
    rt.cancel(&ctx.id).await.unwrap();
    // The 100 ms goal is measured by `cargo bench -p braid-testkit --bench
    // subagents` and the sandbox bench; here, that it happens at all,
    // within a bound a busy machine keeps.
    let bound = scaled(Duration::from_secs(5));
    wait(&rt, &ctx.id, StatusKind::Idle, bound).await;
    while (alive(bg) || alive(fg)) && cancelled_at.elapsed() < bound {
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let took = cancelled_at.elapsed();
    assert!(!alive(bg) && !alive(fg), "a process of the tree survived ({bg}, {fg}) after {took:?}");
    let snap = rt.load_context(&ctx.id).await.unwrap();
    let r = results(&snap.messages);
    assert_eq!(
        r.iter().map(|x| (x.0.as_str(), x.1)).collect::<Vec<_>>(),
        [("run", ToolResultStatus::Cancelled), ("next", ToolResultStatus::Cancelled)]
    );
    assert_eq!(fake.requests().len(), 1, "nothing was sent after the cancel");
}

#[tokio::test]
async fn a_message_can_make_the_model_call_a_tool_first() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "pineapple\n").unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    fake.push_reply(calls(&[("r", "read_file", json!({"path": "notes.txt"}))]));
    fake.push_reply(answer("The word is pineapple."));
    let rt = open(dir.path(), fake.clone(), ToolApprovalPolicy::Manual, 30_000);
    let ctx = rt.create_context(None, None).await.unwrap();
    let message = NewMessage {
        body: MessageType::text(Role::User, "what is in notes.txt?"),
        force_tool: Some("read_file".into()),
        images: Vec::new(),
    };
    rt.send_message(&ctx.id, message, false).await.unwrap();
    wait(&rt, &ctx.id, StatusKind::AwaitingToolApproval, limit()).await;
    rt.decide_tool_call(&ctx.id, "r".into(), ApprovalDecision::Approve).await.unwrap();
    wait(&rt, &ctx.id, StatusKind::Idle, limit()).await;
    let requests = fake.requests();
    assert_eq!(requests[0].tool_choice, Some(braid_llm::ToolChoice::Function("read_file".into())));
    // A model that calls tools well is told it may go on calling them.
    assert_eq!(requests[1].tool_choice, Some(ToolChoice::Auto));
    assert!(requests[1].tools.len() > 1);
    let snap = rt.load_context(&ctx.id).await.unwrap();
    assert_eq!(results(&snap.messages)[0].1, ToolResultStatus::Success);
}

fn tool_names(request: &braid_llm::LlmRequest) -> Vec<&str> {
    request.tools.iter().map(|t| t.name.as_str()).collect()
}

#[tokio::test]
async fn the_conversation_decides_tools_temperature_and_answer_length() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "pineapple\n").unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open(dir.path(), fake.clone(), ToolApprovalPolicy::AutoAll, 30_000);
    let ctx = rt.create_context(None, None).await.unwrap();
    assert_eq!(rt.peek(&ctx.id).await.unwrap().tool_use, ToolUse::Auto, "the model calls tools well");

    // Bad values are refused and change nothing.
    for bad in [
        GenerationSettings { temperature: Some(2.5), ..Default::default() },
        GenerationSettings { temperature: Some(-0.1), ..Default::default() },
        GenerationSettings { max_output_tokens: Some(0), ..Default::default() },
    ] {
        let e = rt.set_generation(&ctx.id, bad).await.unwrap_err().to_wire();
        assert_eq!(e.code, ErrorCode::InvalidInput, "{e:?}");
    }
    assert_eq!(rt.peek(&ctx.id).await.unwrap().generation, GenerationSettings::default());

    // On request: a plain turn offers no tools, with the temperature and
    // the answer limit asked for (capped at the model's own).
    let wanted = GenerationSettings {
        tool_use: Some(ToolUse::OnRequest),
        temperature: Some(0.3),
        max_output_tokens: Some(50),
        continue_cut: None,
    };
    assert_eq!(rt.set_generation(&ctx.id, wanted).await.unwrap(), wanted);
    rt.send_message(&ctx.id, say("hello"), false).await.unwrap();
    wait(&rt, &ctx.id, StatusKind::Idle, limit()).await;
    let plain = fake.requests().pop().unwrap();
    assert!(plain.tools.is_empty() && plain.tool_choice.is_none(), "{:?}", tool_names(&plain));
    assert_eq!((plain.temperature, plain.max_tokens), (Some(0.3), Some(50)));

    // `/tool` offers that one tool; the answer after its result declares
    // it (the history holds a call) but may not call again.
    fake.push_reply(calls(&[("r", "read_file", json!({"path": "notes.txt"}))]));
    fake.push_reply(answer("It says pineapple."));
    let forced = NewMessage {
        body: MessageType::text(Role::User, "read notes.txt"),
        force_tool: Some("read_file".into()),
        images: Vec::new(),
    };
    rt.send_message(&ctx.id, forced, false).await.unwrap();
    wait(&rt, &ctx.id, StatusKind::Idle, limit()).await;
    let requests = fake.requests();
    let (call, after) = (&requests[requests.len() - 2], &requests[requests.len() - 1]);
    assert_eq!(tool_names(call), ["read_file"]);
    assert_eq!(call.tool_choice, Some(ToolChoice::Function("read_file".into())));
    assert_eq!(tool_names(after), ["read_file"]);
    assert_eq!(after.tool_choice, Some(ToolChoice::None));

    // Off: `/tool` is refused, nothing is stored.
    let off = GenerationSettings { tool_use: Some(ToolUse::Off), ..wanted };
    rt.set_generation(&ctx.id, off).await.unwrap();
    let before = rt.load_context(&ctx.id).await.unwrap().messages.len();
    let forced = NewMessage {
        body: MessageType::text(Role::User, "read it again"),
        force_tool: Some("read_file".into()),
        images: Vec::new(),
    };
    let e = rt.send_message(&ctx.id, forced, false).await.unwrap_err().to_wire();
    assert!(e.message.contains("tools are off"), "{e:?}");
    assert_eq!(rt.load_context(&ctx.id).await.unwrap().messages.len(), before);

    // The settings are kept with the conversation across a restart.
    drop(rt);
    let rt = open(dir.path(), fake, ToolApprovalPolicy::AutoAll, 30_000);
    let snap = rt.load_context(&ctx.id).await.unwrap();
    assert_eq!((snap.generation, snap.tool_use), (off, ToolUse::Off));
}

/// A tool the code has never seen, registered while the app runs.
struct CountWords;
impl braid_tools::Tool for CountWords {
    fn name(&self) -> &str {
        "count_words"
    }
    fn description(&self) -> &str {
        "Count the words of a text."
    }
    fn input_schema(&self) -> serde_json::Value {
        json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]})
    }
    fn permission(&self) -> braid_protocol::Permission {
        braid_protocol::Permission::Read
    }
    fn examples(&self) -> Vec<serde_json::Value> {
        vec![json!({"text": "one two"})]
    }
    fn source(&self) -> braid_protocol::ToolSource {
        braid_protocol::ToolSource::Agent
    }
    fn run<'a>(
        &'a self,
        args: serde_json::Value,
        _: &'a braid_tools::ToolContext,
    ) -> futures::future::BoxFuture<'a, braid_core::machine::ToolOutcome> {
        let n = args["text"].as_str().unwrap_or("").split_whitespace().count();
        Box::pin(async move { braid_tools::success(format!("{n} words")) })
    }
}

#[tokio::test]
async fn a_tool_registered_at_run_time_is_asked_run_and_its_result_reaches_the_model() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    fake.push_reply(calls(&[("c1", "count_words", json!({"text": "a b c d"}))]));
    fake.push_reply(answer("Four words."));
    // The default policy: read tools on the allow-list run, others are asked.
    let rt = open(dir.path(), fake.clone(), braid_protocol::ToolSettings::default().policy, 30_000);
    let ctx = rt.create_context(None, None).await.unwrap();
    rt.register_tool(Arc::new(CountWords)).await.unwrap();
    assert!(rt.tools().iter().any(|t| t.name == "count_words" && t.source == braid_protocol::ToolSource::Agent));
    let bad = rt.register_tool(Arc::new(Renamed("count words"))).await.unwrap_err();
    assert!(bad.to_string().contains("use only letters"), "{bad}");

    rt.send_message(&ctx.id, say("how many words?"), false).await.unwrap();
    wait(&rt, &ctx.id, StatusKind::AwaitingToolApproval, limit()).await;
    rt.decide_tool_call(&ctx.id, "c1".into(), ApprovalDecision::Approve).await.unwrap();
    wait(&rt, &ctx.id, StatusKind::Idle, limit()).await;

    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    assert!(requests[0].tools.iter().any(|t| t.name == "count_words"), "offered to the model");
    assert!(requests[0].system.as_deref().unwrap_or("").contains(r#"- count_words {"text":"one two"}"#));
    let told = requests[1].messages.iter().any(|m| {
        matches!(&m.body, MessageType::ToolResult { output, status: ToolResultStatus::Success, .. } if output == "4 words")
    });
    assert!(told, "the result went back to the model");

    assert!(rt.unregister_tool("count_words").await);
    assert!(!rt.tools().iter().any(|t| t.name == "count_words"));
}

struct Renamed(&'static str);
impl braid_tools::Tool for Renamed {
    fn name(&self) -> &str {
        self.0
    }
    fn description(&self) -> &str {
        "x"
    }
    fn input_schema(&self) -> serde_json::Value {
        json!({"type": "object"})
    }
    fn permission(&self) -> braid_protocol::Permission {
        braid_protocol::Permission::Write
    }
    fn examples(&self) -> Vec<serde_json::Value> {
        Vec::new()
    }
    fn run<'a>(
        &'a self,
        _: serde_json::Value,
        _: &'a braid_tools::ToolContext,
    ) -> futures::future::BoxFuture<'a, braid_core::machine::ToolOutcome> {
        Box::pin(async { panic!("a refused tool never runs") })
    }
}

#[tokio::test]
async fn plan_mode_never_runs_a_registered_tool_that_writes() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    fake.push_reply(calls(&[("d1", "deploy_site", json!({}))]));
    fake.push_reply(answer("I may not deploy in Plan mode."));
    let rt = open(dir.path(), fake.clone(), ToolApprovalPolicy::AutoAll, 30_000);
    rt.register_tool(Arc::new(Renamed("deploy_site"))).await.unwrap();
    let ctx = rt.create_context(None, None).await.unwrap();
    rt.set_mode(&ctx.id, AgentMode::Plan).await.unwrap();
    rt.send_message(&ctx.id, say("deploy"), false).await.unwrap();
    wait(&rt, &ctx.id, StatusKind::Idle, limit()).await;
    let requests = fake.requests();
    assert!(!requests[0].tools.iter().any(|t| t.name == "deploy_site"), "not offered in Plan mode");
    let snap = rt.load_context(&ctx.id).await.unwrap();
    let r = results(&snap.messages);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].1, ToolResultStatus::Error, "{r:?}");
    assert!(r[0].2.contains("Plan mode"), "{r:?}");
}

#[tokio::test]
async fn opening_stops_commands_the_last_session_left_running() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    // A command of the last session whose group outlived it.
    let mut left = std::process::Command::new("sh").args(["-c", "sleep 300"]).process_group(0).spawn().unwrap();
    let pgid = left.id() as i32;
    std::mem::forget(braid_tools::ledger::ProcessLedger::new(dir.path().join("processes")).record(pgid));
    let mut c = RuntimeConfig::new(dir.path().join("braid.db"), dir.path().to_owned());
    c.machine.tools.policy = ToolApprovalPolicy::AutoAll;
    let (rt, report) = Runtime::open(c, Arc::new(FakeProvider::echo(Duration::ZERO))).unwrap();
    assert_eq!(report.stopped_process_groups, [pgid]);
    let status = left.wait().unwrap();
    assert!(!status.success(), "killed: {status:?}");
    drop(rt);
}
