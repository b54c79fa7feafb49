//! MCP servers through the runtime, against real servers from npm
//! (`tests/mcp-servers`): server-everything over stdio and streamable
//! HTTP, server-filesystem over stdio, a command that does not exist and
//! one that hangs at start. Their tools join the catalogue, calls are
//! asked and answered like any other, a server killed during a call fails
//! that call clearly and is back for the next.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_llm::fake::FakeProvider;
use braid_protocol::{
    ApprovalDecision, McpState, MessageType, NewMessage, Permission, StatusKind, ToolResultStatus, ToolSource,
};
use braid_runtime::Runtime;
use braid_testkit::harness::open_in;
use braid_testkit::harness::Watch;
use braid_testkit::mcp::{call, outputs, server_bin, until};
use braid_testkit::script::{answer, calls};
use serde_json::json;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

const START: Duration = Duration::from_secs(60);

fn open(dir: &Path, fake: Arc<FakeProvider>, mcp: serde_json::Value) -> Runtime {
    let rt = open_in(dir, fake, |_| {});
    std::fs::write(dir.join("mcp.json"), mcp.to_string()).unwrap();
    rt.start_mcp(dir.join("mcp.json"));
    rt
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn real_servers_start_in_the_background_and_their_tools_are_called() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    std::fs::create_dir(&work).unwrap();
    std::fs::write(work.join("notes.txt"), "kumquat\n").unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open(
        dir.path(),
        fake.clone(),
        json!({"mcpServers": {
            "everything": {"command": server_bin("mcp-server-everything"), "args": ["stdio"], "env": {"BRAID_MCP_TEST": "given"}},
            "files": {"command": server_bin("mcp-server-filesystem"), "args": [work]},
            "missing": {"command": "braid-no-such-mcp-server"},
            "hangs": {"command": "sleep", "args": ["600"], "startupTimeoutMs": 1500},
            "off": {"command": "sleep", "args": ["600"], "disabled": true}
        }}),
    );
    // Nothing waited for the servers: the app works while they start.
    let settings = rt.mcp_settings();
    assert!(settings.servers.iter().all(|s| s.state != McpState::Ready), "{:?}", settings.servers);
    assert_eq!(settings.servers.iter().find(|s| s.name == "off").unwrap().state, McpState::Disabled);

    until(&rt, "missing", START, |s| s.state == McpState::Failed).await;
    let s = until(&rt, "hangs", START, |s| s.state == McpState::Failed).await;
    let hangs = s.servers.iter().find(|s| s.name == "hangs").unwrap();
    assert!(hangs.reason.as_deref().unwrap().contains("did not start within 1.5 s"), "{hangs:?}");
    let s = until(&rt, "missing", START, |_| true).await;
    let missing = s.servers.iter().find(|s| s.name == "missing").unwrap();
    assert!(missing.reason.as_deref().unwrap().contains("\"braid-no-such-mcp-server\" was not found"), "{missing:?}");

    until(&rt, "everything", START, |s| s.state == McpState::Ready).await;
    until(&rt, "files", START, |s| s.state == McpState::Ready).await;
    let tools = rt.tools();
    let echo = tools.iter().find(|t| t.name == "mcp__everything__echo").expect("echo in the catalogue");
    assert_eq!(echo.permission, Permission::Read, "the server says echo only reads");
    assert_eq!(echo.source, ToolSource::Mcp { server: "everything".into() });
    assert!(
        tools.iter().any(|t| t.name == "mcp__files__read_text_file"),
        "{:?}",
        tools.iter().map(|t| &t.name).collect::<Vec<_>>()
    );
    assert!(tools.iter().any(|t| t.name == "read_mcp_result"));

    // Asked under the default policy, approved, and the result reaches the model.
    let (status, out) = call(&rt, &fake, "e1", "mcp__everything__echo", json!({"message": "hello over stdio"})).await;
    assert_eq!((status, out.as_str()), (ToolResultStatus::Success, "Echo: hello over stdio"));
    let sent = fake.requests().pop().unwrap();
    assert!(format!("{:?}", sent.messages).contains("Echo: hello over stdio"), "the model got the result");

    // The server sees its own settings and what a program needs, not
    // Braid's environment (tokens, keys): cargo's variables stand for it.
    assert!(std::env::var_os("CARGO_MANIFEST_DIR").is_some());
    let (_, env) = call(&rt, &fake, "env", "mcp__everything__get-env", json!({})).await;
    assert!(
        env.contains("\"BRAID_MCP_TEST\":\"given\"") || env.contains("\"BRAID_MCP_TEST\": \"given\""),
        "{env:.300}"
    );
    assert!(env.contains("\"PATH\"") && !env.contains("CARGO_MANIFEST_DIR"), "{env:.300}");

    // An image in a result follows the results, kept and read like any other.
    let (status, out) = call(&rt, &fake, "img", "mcp__everything__get-tiny-image", json!({})).await;
    assert_eq!(status, ToolResultStatus::Success);
    assert!(out.contains("[image image/png,") && out.contains("follows the results]"), "{out}");
    let contexts = rt.list_contexts().await.unwrap();
    let snap = rt.load_context(&contexts[0].id).await.unwrap();
    let after = snap.messages.iter().skip_while(|m| !matches!(m.body, MessageType::ToolResult { .. })).nth(1);
    let Some(MessageType::Image { source: braid_protocol::ImageSource::Stored(stored), used, error, .. }) =
        after.map(|m| &m.body)
    else {
        panic!("an image follows the result: {:?}", snap.messages.iter().map(|m| m.body.kind()).collect::<Vec<_>>())
    };
    assert_eq!(stored.media_type, "image/png");
    assert!(used.is_some() || error.is_some(), "it was read (OCR, the model has no vision) or says why not");

    let file = work.join("notes.txt").display().to_string();
    let (status, out) = call(&rt, &fake, "f1", "mcp__files__read_text_file", json!({"path": file})).await;
    assert_eq!((status, out.trim()), (ToolResultStatus::Success, "kumquat"));
    let (status, out) = call(&rt, &fake, "f2", "mcp__files__read_text_file", json!({"path": "/etc/passwd"})).await;
    assert_eq!(status, ToolResultStatus::Error, "outside its folder the server refuses: {out}");
    rt.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_over_streamable_http_answers_calls() {
    let (_server, url) = braid_testkit::mcp::http_everything().await;
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open(dir.path(), fake.clone(), json!({"mcpServers": {"web": {"type": "http", "url": url}}}));
    until(&rt, "web", START, |s| s.state == McpState::Ready).await;
    let (status, out) = call(&rt, &fake, "h1", "mcp__web__get-sum", json!({"a": 2, "b": 40})).await;
    assert_eq!(status, ToolResultStatus::Success);
    assert!(out.contains("42"), "{out}");
    rt.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_during_a_call_fails_that_call_and_is_back_for_the_next() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let mark = format!("BRAID_TEST_MARK=killed-{}", std::process::id());
    let rt = open(
        dir.path(),
        fake.clone(),
        json!({"mcpServers": {"everything": {
            "command": server_bin("mcp-server-everything"), "args": ["stdio"],
            "env": {"BRAID_TEST_MARK": mark.trim_start_matches("BRAID_TEST_MARK=")}
        }}}),
    );
    until(&rt, "everything", START, |s| s.state == McpState::Ready).await;
    assert_eq!(rt.mcp_settings().servers[0].ready_count, 1);
    let ctx = rt.create_context(None, None).await.unwrap();
    fake.push_reply(calls(&[(
        "long",
        "mcp__everything__trigger-long-running-operation",
        json!({"duration": 60, "steps": 60}),
    )]));
    fake.push_reply(answer("done"));
    let mut watch = Watch::new(&rt, &ctx.id).await;
    rt.send_message(&ctx.id, NewMessage::user_text("go"), false).await.unwrap();
    watch.state(StatusKind::AwaitingToolApproval).await;
    rt.decide_tool_call(&ctx.id, "long".into(), ApprovalDecision::Approve).await.unwrap();
    watch.state(StatusKind::ExecutingTool).await;
    assert_eq!(braid_testkit::mcp::kill_marked(&mark), 1, "one server process to kill");
    tokio::time::timeout(START, watch.settled()).await.expect("the call ends when its server dies");
    let snap = rt.load_context(&ctx.id).await.unwrap();
    let (status, error) = outputs(&snap.messages).pop().unwrap();
    assert_eq!(status, ToolResultStatus::Error);
    assert!(error.contains("stopped during the call"), "{error}");

    // Started again on its own, and the next call works.
    until(&rt, "everything", START, |s| s.state == McpState::Ready && s.ready_count == 2).await;
    let (status, out) = call(&rt, &fake, "again", "mcp__everything__echo", json!({"message": "back"})).await;
    assert_eq!((status, out.as_str()), (ToolResultStatus::Success, "Echo: back"));
    rt.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resources_join_a_conversation_and_prompts_fill_the_composer() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open(
        dir.path(),
        fake.clone(),
        json!({"mcpServers": {"everything": {"command": server_bin("mcp-server-everything"), "args": ["stdio"]}}}),
    );
    until(&rt, "everything", START, |s| s.state == McpState::Ready).await;
    let uri = "demo://resource/static/document/architecture.md";
    let resources = rt.list_mcp_resources().await;
    assert!(resources.iter().any(|r| r.server == "everything" && r.uri == uri), "{resources:?}");

    // `@server:uri` adds the resource, read now, just before the text.
    let ctx = rt.create_context(None, None).await.unwrap();
    let text = format!("what does @everything:{uri} say?");
    rt.send_message(&ctx.id, NewMessage::user_text(&text), false).await.unwrap();
    Watch::new(&rt, &ctx.id).await.settled().await;
    let snap = rt.load_context(&ctx.id).await.unwrap();
    let MessageType::McpResource { server_name, resource_uri, content, mime_type, .. } = &snap.messages[0].body else {
        panic!("the resource comes first: {:?}", snap.messages[0].body);
    };
    assert_eq!(
        (server_name.as_str(), resource_uri.as_str(), mime_type.as_deref()),
        ("everything", uri, Some("text/markdown"))
    );
    assert!(content.contains("Architecture"), "{content:.80}");
    assert_eq!(snap.messages[1].body.plain_text().as_deref(), Some(text.as_str()));
    let sent = fake.requests().pop().unwrap().messages;
    let with_it = |m: &braid_protocol::Message| matches!(&m.body, MessageType::McpResource { resource_uri, .. } if resource_uri == uri);
    assert!(sent.iter().any(with_it), "the model is sent the resource");

    // A resource the server does not have stops the message, which is not stored.
    let before = rt.load_context(&ctx.id).await.unwrap().messages.len();
    let bad = rt.send_message(&ctx.id, NewMessage::user_text("@everything:demo://no/such/thing please"), false).await;
    assert!(bad.unwrap_err().to_string().contains("@everything:demo://no/such/thing"), "the reason names it");
    assert_eq!(rt.load_context(&ctx.id).await.unwrap().messages.len(), before);

    // A template's variables, filled in, name a resource like any other.
    let templates = rt.list_mcp_templates().await;
    let text_t = templates.iter().find(|t| t.uri_template == "demo://resource/dynamic/text/{resourceId}").unwrap();
    assert_eq!((text_t.variables.as_slice(), text_t.server.as_str()), (&["resourceId".to_owned()][..], "everything"));
    let filled = text_t.uri_template.replace("{resourceId}", "7");
    rt.send_message(&ctx.id, NewMessage::user_text(&format!("and @everything:{filled}")), false).await.unwrap();
    Watch::new(&rt, &ctx.id).await.settled().await;
    let snap = rt.load_context(&ctx.id).await.unwrap();
    let read = snap.messages.iter().find_map(|m| match &m.body {
        MessageType::McpResource { resource_uri, content, .. } if *resource_uri == filled => Some(content.clone()),
        _ => None,
    });
    assert!(read.unwrap().contains('7'), "the server made resource 7");

    // Mentioned again while fresh, a resource is not read again: the copy
    // the conversation holds serves.
    let copies = |snap: &braid_protocol::ContextSnapshot| {
        snap.messages
            .iter()
            .filter(|m| matches!(&m.body, MessageType::McpResource { resource_uri, .. } if resource_uri == uri))
            .count()
    };
    rt.send_message(&ctx.id, NewMessage::user_text(&format!("again @everything:{uri}")), false).await.unwrap();
    Watch::new(&rt, &ctx.id).await.settled().await;
    assert_eq!(copies(&rt.load_context(&ctx.id).await.unwrap()), 1);

    // It was subscribed to when read: once its server says it changed, the
    // next message reads it again, and only the newest copy is sent.
    let mut changes = rt.mcp_changes();
    call(&rt, &fake, "sub", "mcp__everything__toggle-subscriber-updates", json!({})).await;
    tokio::time::timeout(START, changes.changed()).await.expect("the server says the resource changed").unwrap();
    rt.send_message(&ctx.id, NewMessage::user_text("anything new?"), false).await.unwrap();
    Watch::new(&rt, &ctx.id).await.settled().await;
    assert_eq!(copies(&rt.load_context(&ctx.id).await.unwrap()), 2, "read again without a mention");
    let sent = fake.requests().pop().unwrap().messages;
    assert_eq!(sent.iter().filter(|m| with_it(m)).count(), 1, "the older copy is not sent");

    let prompts = rt.list_mcp_prompts().await;
    let args = prompts.iter().find(|p| p.name == "args-prompt").expect("args-prompt listed");
    assert!(args.arguments.iter().any(|a| a.name == "city" && a.required), "{args:?}");
    let filled = rt
        .get_mcp_prompt("everything", "args-prompt", [("city".to_owned(), "Lyon".to_owned())].into_iter().collect())
        .await
        .unwrap();
    assert_eq!(filled, "What's weather in Lyon?");
    assert!(rt.get_mcp_prompt("nowhere", "x", Default::default()).await.unwrap_err().to_string().contains("not ready"));
    rt.shutdown().await;
}

#[tokio::test]
async fn a_settings_file_that_cannot_be_used_is_kept_and_said_so() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open_in(dir.path(), fake, |_| {});
    let broken = r#"{"mcpServers": {"a": {"command": "x", "url": "http://h"}}}"#;
    std::fs::write(dir.path().join("mcp.json"), broken).unwrap();
    rt.start_mcp(dir.path().join("mcp.json"));
    let s = rt.mcp_settings();
    assert_eq!(s.text, broken, "the text is there to mend");
    assert!(s.error.as_deref().unwrap().contains("not both"), "{:?}", s.error);
    assert!(s.servers.is_empty());
    // A save that cannot be used changes nothing on disk.
    let err = rt.save_mcp_settings("{oops".into()).await.unwrap_err();
    assert!(err.to_string().contains("not valid"), "{err}");
    assert_eq!(std::fs::read_to_string(dir.path().join("mcp.json")).unwrap(), broken);
    let fixed = r#"{"mcpServers": {"a": {"command": "sleep", "args": ["600"], "disabled": true}}}"#;
    let s = rt.save_mcp_settings(fixed.into()).await.unwrap();
    assert_eq!((s.error, s.servers[0].state), (None, McpState::Disabled));
    assert_eq!(std::fs::read_to_string(dir.path().join("mcp.json")).unwrap(), fixed);
    let offers_reading = |rt: &Runtime| rt.tools().iter().any(|t| t.name == "read_mcp_result");
    assert!(offers_reading(&rt), "with a server, a cut result can be read");
    rt.save_mcp_settings(r#"{"mcpServers": {}}"#.into()).await.unwrap();
    assert!(!offers_reading(&rt), "with none, nothing to read");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_servers_call_timeout_governs_its_calls_not_the_conversations() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    // The conversation's limit for built-in tools: far below the call.
    let rt = open_in(dir.path(), fake.clone(), |c| c.machine.tools.timeout_ms = 500);
    let everything =
        |ms: u64| json!({"command": server_bin("mcp-server-everything"), "args": ["stdio"], "callTimeoutMs": ms});
    let mcp = json!({"mcpServers": {"patient": everything(60_000), "hasty": everything(1_000)}});
    std::fs::write(dir.path().join("mcp.json"), mcp.to_string()).unwrap();
    rt.start_mcp(dir.path().join("mcp.json"));
    until(&rt, "patient", START, |s| s.state == McpState::Ready).await;
    until(&rt, "hasty", START, |s| s.state == McpState::Ready).await;
    let long = json!({"duration": 3, "steps": 3});
    let (status, out) = call(&rt, &fake, "p", "mcp__patient__trigger-long-running-operation", long.clone()).await;
    assert_eq!(status, ToolResultStatus::Success, "3 s is within the server's 60 s: {out}");
    let (status, error) = call(&rt, &fake, "h", "mcp__hasty__trigger-long-running-operation", long).await;
    assert_eq!(status, ToolResultStatus::Error);
    assert!(error.contains("the MCP server hasty did not answer within 1 s"), "its own limit, named: {error}");
    rt.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_over_the_message_limit_is_said_with_its_size_not_as_a_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    // A limit of 1 MB (maxResultMb) and a call limit far beyond the test.
    // get-env answers with the server's environment: 12 variables of
    // 100 KB (one may hold 128 KB) make an answer of 1.2 MB.
    let env: serde_json::Map<String, serde_json::Value> =
        (0..12).map(|i| (format!("BIG_{i}"), json!("x".repeat(100 * 1024)))).collect();
    let everything = json!({"command": server_bin("mcp-server-everything"), "args": ["stdio"], "env": env,
        "maxResultMb": 1, "callTimeoutMs": 600_000});
    let rt = open(dir.path(), fake.clone(), json!({"mcpServers": {"big": everything}}));
    until(&rt, "big", START, |s| s.state == McpState::Ready).await;
    let (status, error) = call(&rt, &fake, "e", "mcp__big__get-env", json!({})).await;
    assert_eq!(status, ToolResultStatus::Error);
    assert!(
        error.contains("the MCP server big answered with 1.2 MB, over the 1.0 MB a message may have (maxResultMb"),
        "the size and the limit, named: {}",
        &error[..error.len().min(300)]
    );
    // The connection goes on: the next answer within the limit arrives.
    let (status, out) = call(&rt, &fake, "f", "mcp__big__echo", json!({ "message": "small" })).await;
    assert_eq!(status, ToolResultStatus::Success, "{out}");
    assert!(out.contains("small"), "{out}");
    rt.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_http_too_an_answer_over_the_limit_fails_its_call_and_says_so() {
    let env: Vec<(String, String)> = (0..12).map(|i| (format!("BIG_{i}"), "x".repeat(100 * 1024))).collect();
    let (_server, url) = braid_testkit::mcp::http_everything_with(&env).await;
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let web = json!({"type": "http", "url": url, "maxResultMb": 1, "callTimeoutMs": 600_000});
    let rt = open(dir.path(), fake.clone(), json!({"mcpServers": {"web": web}}));
    until(&rt, "web", START, |s| s.state == McpState::Ready).await;
    let (status, error) = call(&rt, &fake, "e", "mcp__web__get-env", json!({})).await;
    assert_eq!(status, ToolResultStatus::Error);
    assert!(
        error.contains("the MCP server web answered with more than 1.0 MB, over the 1.0 MB a message may have"),
        "the limit, named: {}",
        &error[..error.len().min(300)]
    );
    rt.shutdown().await;
}
