//! Team chat through the runtime with coding CLIs: stand-ins that speak
//! Claude Code's, Codex's and Gemini CLI's streamed JSON exactly
//! (`tests/fixtures/agents`) run as processes in the workspace. A chain
//! routed by markers, each member given the previous answer without its
//! markers; a missing or signed-out CLI refused when the team is set; a
//! failing CLI reported; cancel killing a member's whole process group;
//! a member in its own copy of the workspace, its writes merged back.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_llm::fake::FakeProvider;
use braid_protocol::{
    AgentType, ContextId, ContextStatus, NewMessage, StatusKind, Team, TeamAction, TeamMember, TeamView,
};
use braid_runtime::{Runtime, RuntimeConfig, RuntimeError};
use braid_testkit::fixtures::{standin, team_workspace};
use braid_testkit::harness::open_in;
use braid_testkit::harness::{process_gone, Watch};
use serde_json::Value;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

fn cli(name: &str, agent: AgentType, program: &str, instruction: &str) -> TeamMember {
    TeamMember {
        name: name.to_owned(),
        agent,
        colour: "#3b82f6".to_owned(),
        instruction: instruction.to_owned(),
        instruction_file: None,
        window: None,
        program: Some(standin(program).display().to_string()),
        isolated: false,
    }
}

fn team(members: Vec<TeamMember>) -> Team {
    Team { members, task: "Ship the release".into(), window: 5, byte_budget: 768 * 1024 }
}

struct Setup {
    rt: Runtime,
    ctx: ContextId,
    work: tempfile::TempDir,
    data: tempfile::TempDir,
}

async fn setup() -> Setup {
    let work = team_workspace();
    let data = tempfile::tempdir().unwrap();
    let rt = open_in(data.path(), Arc::new(FakeProvider::echo(Duration::ZERO)), |_| {});
    let ctx = rt.create_context(None, Some(work.path().display().to_string())).await.unwrap().id;
    Setup { rt, ctx, work, data }
}

/// Every run the stand-ins logged, in order.
fn runs(work: &Path) -> Vec<Value> {
    let log = std::fs::read_to_string(work.join(".standin-log.jsonl")).unwrap_or_default();
    log.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn rejected(result: Result<TeamView, RuntimeError>) -> String {
    match result {
        Err(RuntimeError::Rejected(e)) => e.message,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_clis_answer_in_turn_each_given_the_previous_answer() {
    let s = setup().await;
    let members = vec![
        cli("cc", AgentType::ClaudeCode, "claude", "You review.\nREPLY: Claude checked it. [NEXT:gm]"),
        cli("cx", AgentType::OpenaiCodex, "codex", "REPLY: Codex wrote it."),
        TeamMember { instruction_file: Some("notes.md".into()), ..cli("gm", AgentType::GoogleGemini, "gemini", "") },
    ];
    let view = s.rt.set_team(&s.ctx, Some(team(members))).await.unwrap();
    assert!(view.checks.iter().all(|c| c.ready), "{:?}", view.checks);
    let mut watch = Watch::new(&s.rt, &s.ctx).await;
    s.rt.send_message(&s.ctx, NewMessage::user_text("[NEXT:cx] [NEXT:cc] Hi team"), false).await.unwrap();
    watch.state(StatusKind::StreamingLlmResponse).await;
    assert_eq!(watch.settled().await, ContextStatus::Idle);

    let snap = s.rt.load_context(&s.ctx).await.unwrap();
    let said: Vec<(Option<String>, String)> =
        snap.messages.iter().map(|m| (m.meta.author.clone(), m.body.plain_text().unwrap_or_default())).collect();
    let expected = [
        (None, "[NEXT:cx] [NEXT:cc] Hi team"),
        (Some("cx"), "Codex wrote it."),
        (Some("cc"), "Claude checked it. [NEXT:gm]"),
        (Some("gm"), "from the file"),
    ];
    let expected: Vec<(Option<String>, String)> =
        expected.iter().map(|(a, t)| (a.map(str::to_owned), (*t).to_owned())).collect();
    assert_eq!(said, expected, "stored in order, under their authors");
    assert!(snap.messages[1].meta.usage.is_some(), "the CLI's reported tokens are kept");

    let runs = runs(s.work.path());
    let prompt = |i: usize| runs[i]["prompt"].as_str().unwrap().to_owned();
    let args = |i: usize| {
        runs[i]["args"].as_array().unwrap().iter().map(|a| a.as_str().unwrap().to_owned()).collect::<Vec<_>>()
    };
    assert_eq!(runs.len(), 3);
    assert!(runs.iter().all(|r| r["cwd"].as_str() == Some(s.work.path().to_str().unwrap())), "run in the workspace");
    // Codex: everything in one prompt, the user's markers stripped.
    assert_eq!(args(0), ["exec", "--json", "--skip-git-repo-check", "-"]);
    assert_eq!(
        prompt(0),
        "[SYSTEM]\nREPLY: Codex wrote it.\n\n[TEAM_TASK]\nShip the release\n\n[MESSAGE]\nuser: Hi team"
    );
    // Claude: its system text apart; the previous answer is its message.
    assert_eq!(args(1)[..4], ["-p", "--output-format", "stream-json", "--verbose"]);
    assert_eq!(args(1)[4..], ["--append-system-prompt", "You review.\nREPLY: Claude checked it. [NEXT:gm]"]);
    assert_eq!(
        prompt(1),
        "[TEAM_TASK]\nShip the release\n\n[CONTEXT]\nuser: Hi team\n\n[MESSAGE]\ncx: <untrusted source=\"team member cx\">\nCodex wrote it.\n</untrusted>"
    );
    // Gemini: plain headings, its instruction file read, Claude's marker gone.
    assert_eq!(args(2), ["--skip-trust", "--output-format", "stream-json", "-p", ""]);
    assert_eq!(
        prompt(2),
        "Instructions:\nREPLY: from the file\n\nTeam task:\nShip the release\n\n\
         Conversation so far:\nuser: Hi team\n\ncx: <untrusted source=\"team member cx\">\nCodex wrote it.\n</untrusted>\n\n\
         User message:\ncc: <untrusted source=\"team member cc\">\nClaude checked it.\n</untrusted>"
    );
    // Stored: after a restart the team and who said what are as they were.
    s.rt.shutdown().await;
    let config = RuntimeConfig::new(s.data.path().join("braid.db"), s.data.path().to_owned());
    let rt = Runtime::open(config, Arc::new(FakeProvider::echo(Duration::ZERO))).unwrap().0;
    let again = rt.load_context(&s.ctx).await.unwrap();
    let authors: Vec<Option<String>> = again.messages.iter().map(|m| m.meta.author.clone()).collect();
    assert_eq!(authors, said.iter().map(|(a, _)| a.clone()).collect::<Vec<_>>());
    let names: Vec<String> = rt.team(&s.ctx).await.unwrap().team.unwrap().members.into_iter().map(|m| m.name).collect();
    assert_eq!(names, ["cc", "cx", "gm"]);
    rt.shutdown().await;
}

/// The stand-in logs each run in the folder it runs in: a member in its
/// own copy writes its log there, and the log comes back to the folder
/// when its turn ends, as that turn's change; the copy is gone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_in_its_own_copy_writes_there_and_its_change_comes_back() {
    let s = setup().await;
    let member = TeamMember { isolated: true, ..cli("cc", AgentType::ClaudeCode, "claude", "REPLY: Done in my copy.") };
    s.rt.set_team(&s.ctx, Some(team(vec![member]))).await.unwrap();
    let (_, mut events) = s.rt.subscribe(&s.ctx).await.unwrap();
    let mut watch = Watch::new(&s.rt, &s.ctx).await;
    s.rt.send_message(&s.ctx, NewMessage::user_text("[NEXT:cc] Go"), false).await.unwrap();
    watch.state(StatusKind::StreamingLlmResponse).await;
    assert_eq!(watch.settled().await, ContextStatus::Idle);

    let runs = runs(s.work.path());
    assert_eq!(runs.len(), 1, "its log came back to the folder");
    let ran_in = runs[0]["cwd"].as_str().unwrap().to_owned();
    assert_ne!(ran_in, s.work.path().to_str().unwrap(), "it ran in its own copy");
    assert!(!Path::new(&ran_in).exists(), "merged back whole, the copy is gone");
    let turns = s.rt.changed_turns(&s.ctx).await.unwrap();
    assert_eq!(turns.iter().map(|t| t.count.files).sum::<u32>(), 1, "the log is the turn's change: {turns:?}");
    let mut said = None;
    while let Ok(Some(Ok(event))) = tokio::time::timeout(Duration::ZERO, events.recv()).await {
        if let braid_protocol::BraidEvent::ContextUpdate(u) = event {
            said = said.or(u.metadata.notice.filter(|n| n.code == braid_protocol::NoticeCode::WorkspaceCopy));
        }
    }
    let said = said.expect("the member's copy is reported").message;
    assert!(
        said.starts_with("cc: It worked in a copy") && said.contains("merged back into this one: .standin-log.jsonl")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_or_signed_out_cli_is_refused_when_the_team_is_set() {
    let s = setup().await;
    let missing =
        TeamMember { program: Some("/nowhere/claude".into()), ..cli("cc", AgentType::ClaudeCode, "claude", "") };
    let message = rejected(s.rt.set_team(&s.ctx, Some(team(vec![missing]))).await);
    assert!(
        message.contains("cc: `/nowhere/claude` is not installed (npm install -g @anthropic-ai/claude-code"),
        "{message}"
    );

    // A CLI that says it is signed out (through a wrapper, so nothing
    // else in this process sees the setting).
    let bin = tempfile::tempdir().unwrap();
    for program in ["claude", "codex"] {
        let wrapper = bin.path().join(program);
        let body = format!("#!/bin/sh\nSTANDIN_SIGNED_OUT=1 exec {} \"$@\"\n", standin(program).display());
        std::fs::write(&wrapper, body).unwrap();
        std::process::Command::new("chmod").arg("+x").arg(&wrapper).status().unwrap();
    }
    let out = |name: &str, agent, program: &str| TeamMember {
        program: Some(bin.path().join(program).display().to_string()),
        ..cli(name, agent, program, "")
    };
    let team_out = team(vec![out("cc", AgentType::ClaudeCode, "claude"), out("cx", AgentType::OpenaiCodex, "codex")]);
    let message = rejected(s.rt.set_team(&s.ctx, Some(team_out)).await);
    assert!(message.contains("cc: Claude Code is not signed in"), "{message}");
    assert!(message.contains("cx: Codex is not signed in (Not logged in): run `codex login`"), "{message}");

    // Gemini without a key anywhere it looks.
    std::fs::remove_file(s.work.path().join(".gemini/.env")).unwrap();
    let gemini = team(vec![cli("gm", AgentType::GoogleGemini, "gemini", "")]);
    let message = rejected(s.rt.set_team(&s.ctx, Some(gemini)).await);
    assert!(message.contains("gm: Gemini CLI is not signed in"), "{message}");
    assert!(s.rt.team(&s.ctx).await.unwrap().team.is_none(), "nothing was set");
    s.rt.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_cli_fails_the_turn_with_its_reason() {
    let s = setup().await;
    let failing = cli("cx", AgentType::OpenaiCodex, "codex", "REPLY: FAIL unexpected status 401 Unauthorized");
    s.rt.set_team(&s.ctx, Some(team(vec![failing]))).await.unwrap();
    let mut watch = Watch::new(&s.rt, &s.ctx).await;
    s.rt.send_message(&s.ctx, NewMessage::user_text("Hi"), false).await.unwrap();
    match watch.state(StatusKind::Failed).await {
        ContextStatus::Failed { message, .. } => {
            assert_eq!(message, "cx (openai-codex) failed: unexpected status 401 Unauthorized")
        }
        other => panic!("expected Failed, got {other:?}"),
    }
    s.rt.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_kills_the_members_whole_process_group_and_drops_the_chain() {
    let s = setup().await;
    let members =
        vec![cli("cc", AgentType::ClaudeCode, "claude", "REPLY: SLOW"), cli("cx", AgentType::OpenaiCodex, "codex", "")];
    s.rt.set_team(&s.ctx, Some(team(members))).await.unwrap();
    let mut watch = Watch::new(&s.rt, &s.ctx).await;
    s.rt.send_message(&s.ctx, NewMessage::user_text("[NEXT:cc] [NEXT:cx] go"), false).await.unwrap();
    watch.state(StatusKind::StreamingLlmResponse).await;
    let route = s.rt.team(&s.ctx).await.unwrap().route;
    assert_eq!((route.running.as_deref(), route.queue.clone()), (Some("cc"), vec!["cx".to_owned()]));
    // The stand-in logged its grandchild before it said anything.
    let child = runs(s.work.path()).iter().find_map(|r| r["child"].as_i64()).expect("the grandchild's pid");
    s.rt.steer_team(&s.ctx, TeamAction::Stop).await.unwrap();
    assert_eq!(watch.settled().await, ContextStatus::Idle);
    assert!(s.rt.team(&s.ctx).await.unwrap().route.queue.is_empty(), "the chain is dropped");
    assert!(process_gone(child), "the member's grandchild {child} outlived the cancel");
    s.rt.shutdown().await;
}

/// The real CLIs from npm (`tests/agent-clis.sh`, pinned, cached outside
/// the clone), each run through a wrapper with an empty home folder and no
/// keys: Braid finds them and says clearly that they are not signed in.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_real_clis_are_found_and_said_to_be_signed_out() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("agent-clis.sh");
    let out = std::process::Command::new("bash").arg(&script).output().unwrap();
    assert!(out.status.success(), "agent-clis.sh failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let bin = std::path::PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    let s = setup().await;
    std::fs::remove_file(s.work.path().join(".gemini/.env")).unwrap();
    let home = tempfile::tempdir().unwrap();
    let wrappers = tempfile::tempdir().unwrap();
    let member = |name: &str, agent, program: &str| {
        let wrapper = wrappers.path().join(program);
        let body = format!(
            "#!/bin/sh\nexport HOME={}\nunset ANTHROPIC_API_KEY CODEX_API_KEY OPENAI_API_KEY GEMINI_API_KEY GOOGLE_API_KEY\nexec {} \"$@\"\n",
            home.path().display(),
            bin.join(program).display()
        );
        std::fs::write(&wrapper, body).unwrap();
        std::process::Command::new("chmod").arg("+x").arg(&wrapper).status().unwrap();
        TeamMember { program: Some(wrapper.display().to_string()), ..cli(name, agent, program, "") }
    };
    let members = vec![
        member("cc", AgentType::ClaudeCode, "claude"),
        member("cx", AgentType::OpenaiCodex, "codex"),
        member("gm", AgentType::GoogleGemini, "gemini"),
    ];
    let message = rejected(s.rt.set_team(&s.ctx, Some(team(members))).await);
    println!("{message}");
    assert!(message.starts_with("The team was not set."), "{message}");
    assert!(message.contains("cc: Claude Code is not signed in: run `claude` and /login"), "{message}");
    assert!(message.contains("cx: Codex is not signed in (Not logged in): run `codex login`"), "{message}");
    assert!(message.contains("gm: Gemini CLI is not signed in"), "{message}");
    s.rt.shutdown().await;
}
