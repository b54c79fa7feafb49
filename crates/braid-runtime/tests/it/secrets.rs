//! Secrets kept from the model, end to end through the runtime: a
//! `.env` token read by a tool reaches the provider only as a
//! placeholder (the scripted provider records every request exactly as
//! it would leave), a tool call that uses the placeholder runs with the
//! real value, and the stored conversation keeps what the model wrote.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_llm::fake::FakeProvider;
use braid_protocol::{MessageType, NewMessage, StatusKind, ToolApprovalPolicy};
use braid_runtime::{Runtime, RuntimeConfig};
use braid_testkit::counting::{no_tokenizer, Counting};
use braid_testkit::harness::open_in;
use braid_testkit::harness::Watch;
use braid_testkit::script::{answer, calls};
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;

const TOKEN: &str = "ghp_k3Xr9QmW2vLp8ZtY6nB4cD1fH7jS5aE0uI9o";

/// One turn, to its end (the watch may first see the Idle before it).
async fn turn(watch: &mut Watch) {
    watch.until("busy", |s| s.is_busy()).await;
    assert_eq!(watch.settled().await.kind(), StatusKind::Idle);
}

fn placeholder_in(text: &str) -> Option<String> {
    let at = text.find("secret-github-token-")?;
    Some(text[at..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-').collect())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_reaches_the_model_as_a_placeholder_and_tools_as_itself() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    std::fs::create_dir(&ws).unwrap();
    std::fs::write(ws.join(".env"), format!("GITHUB_TOKEN={TOKEN}\nDEBUG=1\n")).unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    fake.push_reply(calls(&[("read", "read_file", json!({"path": ".env"}))]));
    fake.push_reply(answer("It holds a GitHub token."));
    let mut config = RuntimeConfig::new(dir.path().join("braid.db"), ws.clone());
    config.machine.tools.policy = ToolApprovalPolicy::AutoAll;
    let (rt, _) = Runtime::open(config, fake.clone()).unwrap();
    let ctx = rt.create_context(None, None).await.unwrap().id;
    let mut watch = Watch::new(&rt, &ctx).await;

    // The user's own message holds the token too.
    rt.send_message(&ctx, NewMessage::user_text(&format!("What is in .env? Mine is {TOKEN}")), false).await.unwrap();
    turn(&mut watch).await;
    let sent = format!("{:?}", fake.requests());
    assert!(!sent.contains(TOKEN), "the token left for the model:\n{sent}");
    let placeholder = placeholder_in(&sent).expect("a placeholder stands in");
    let after_read = format!("{:?}", fake.requests()[1].messages);
    assert!(after_read.contains(&format!("GITHUB_TOKEN={placeholder}")), "{after_read}");
    assert!(after_read.contains("DEBUG=1"), "what is not a secret is left: {after_read}");
    // The conversation itself keeps what the tool read (it is the user's).
    let stored = format!("{:?}", rt.load_context(&ctx).await.unwrap().messages);
    assert!(stored.contains(TOKEN));

    // The model uses the placeholder; the command gets the real token.
    let check = format!("grep -qx 'GITHUB_TOKEN={placeholder}' .env && echo the real token arrived");
    fake.push_reply(calls(&[("use", "run_command", json!({ "command": check }))]));
    fake.push_reply(answer("Done."));
    rt.send_message(&ctx, NewMessage::user_text("Use it."), false).await.unwrap();
    // A call that runs with a secret is asked, whatever the policy.
    watch.state(StatusKind::AwaitingToolApproval).await;
    rt.decide_tool_call(&ctx, "use".into(), braid_protocol::ApprovalDecision::Approve).await.unwrap();
    assert_eq!(watch.settled().await.kind(), StatusKind::Idle);
    let snapshot = rt.load_context(&ctx).await.unwrap();
    let result = snapshot
        .messages
        .iter()
        .rev()
        .find_map(|m| match &m.body {
            MessageType::ToolResult { output, .. } => Some(output.clone()),
            _ => None,
        })
        .unwrap();
    assert!(result.contains("the real token arrived"), "{result}");
    let request = snapshot.messages.iter().rev().find_map(|m| match &m.body {
        MessageType::ToolRequest { calls, .. } => Some(calls[0].arguments.clone()),
        _ => None,
    });
    assert!(request.unwrap().contains(&placeholder), "the call is stored as the model wrote it");
    assert!(!format!("{:?}", fake.requests()).contains(TOKEN), "nor in any later request");
    rt.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_workspace_listed_in_show_secrets_in_is_sent_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open_in(dir.path(), fake.clone(), |c| c.show_secrets_in = vec![dir.path().to_owned()]);
    let ctx = rt.create_context(None, None).await.unwrap().id;
    let mut watch = Watch::new(&rt, &ctx).await;
    rt.send_message(&ctx, NewMessage::user_text(&format!("token {TOKEN}")), false).await.unwrap();
    turn(&mut watch).await;
    let sent = format!("{:?}", fake.requests());
    assert!(sent.contains(TOKEN), "the user turned the filter off here: {sent}");
    rt.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_export_holds_placeholders() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let (rt, _) = Runtime::open(RuntimeConfig::new(dir.path().join("braid.db"), dir.path().to_owned()), fake).unwrap();
    let ctx = rt.create_context(None, None).await.unwrap().id;
    let mut watch = Watch::new(&rt, &ctx).await;
    rt.send_message(&ctx, NewMessage::user_text(&format!("my token is {TOKEN}")), false).await.unwrap();
    turn(&mut watch).await;
    for format in [braid_protocol::ExportFormat::Json, braid_protocol::ExportFormat::Markdown { all_branches: true }] {
        let file = rt.export_context(&ctx, format, false).await.unwrap();
        assert!(!file.text.contains(TOKEN), "{}", file.text);
        assert!(file.text.contains("my token is secret-github-"), "{}", file.text);
        // Asked for, the real value.
        let file = rt.export_context(&ctx, format, true).await.unwrap();
        assert!(file.text.contains(&format!("my token is {TOKEN}")), "{}", file.text);
    }
    rt.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_servers_tokenizer_counts_placeholders_never_the_secret() {
    let dir = tempfile::tempdir().unwrap();
    // A short answer: the long question's echo would overflow the events
    // the test reads afterwards.
    let short = FakeProvider::answering(|_| {
        Some(vec![
            braid_llm::fake::FakeStep::Text("Counted.".into()),
            braid_llm::fake::FakeStep::Finish(braid_core::llm::StopReason::EndTurn),
        ])
    });
    let counting = Counting::new(short);
    // A model Braid has no tokenizer for: its server is asked to count.
    let fallback = no_tokenizer(counting.clone(), 8_192);
    let providers =
        braid_runtime::Providers::in_memory(braid_llm::secrets::Secrets::file_only(dir.path())).with_fallback(fallback);
    let config = RuntimeConfig::new(dir.path().join("braid.db"), dir.path().to_owned());
    let (rt, _) = Runtime::open_with(config, providers).unwrap();
    let ctx = rt.create_context(None, None).await.unwrap().id;
    let mut watch = Watch::new(&rt, &ctx).await;
    let (_, mut events) = rt.subscribe(&ctx).await.unwrap();
    // Long enough for its count to matter (half the window's room or
    // more): only then is the server asked.
    let long = format!("count this: {TOKEN} {}", "word ".repeat(4_000));
    rt.send_message(&ctx, NewMessage::user_text(&long), false).await.unwrap();
    turn(&mut watch).await;
    // And the user is told, once, as the request leaves.
    let code = braid_protocol::NoticeCode::SecretsHidden;
    let notices = braid_testkit::harness::notices(&mut events, code, Duration::from_millis(200)).await;
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(notices[0].message.starts_with("1 secret was hidden from the model"), "{}", notices[0].message);
    let counted = counting.counted().join("\n");
    assert!(counted.contains("count this: secret-github-"), "the server was asked to count the message: {counted}");
    assert!(!counted.contains(TOKEN), "the token went to the server's tokenizer: {counted}");
    rt.shutdown().await;
}
