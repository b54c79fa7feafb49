//! The ways a secret leaked before, each now shut, end to end through the
//! runtime (the scripted provider keeps every request as it leaves, and
//! each is searched for any 10-character piece of the secret): a
//! placeholder put through `rev`, `base64` or `fold` by a real command,
//! `/compact`'s own instructions, short and nested `.env` values, a key
//! file lost between two runs, and a credential read by a file tool or
//! `@file` in a conversation whose folder holds it.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_llm::fake::FakeProvider;
use braid_llm::LlmRequest;
use braid_protocol::{ApprovalDecision, MessageType, NewMessage, NoticeCode, StatusKind, ToolApprovalPolicy};
use braid_runtime::Runtime;
use braid_testkit::harness::{notices, open_in, Watch};
use braid_testkit::script::{answer, calls};
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;

const TOKEN: &str = "ghp_k3Xr9QmW2vLp8ZtY6nB4cD1fH7jS5aE0uI9o";

/// Every 10-character piece of `secret` found in what left for a model.
fn pieces_sent(requests: &[LlmRequest], secret: &str) -> Vec<String> {
    let sent = format!("{requests:?}");
    let chars: Vec<char> = secret.chars().collect();
    chars.windows(10).map(|w| w.iter().collect::<String>()).filter(|p| sent.contains(p.as_str())).collect()
}

fn placeholder_in(request: &LlmRequest) -> Option<String> {
    let text = format!("{:?}", request.messages);
    braid_core::secrets::placeholders_in(&text).into_iter().next()
}

fn results_so_far(request: &LlmRequest) -> usize {
    request.messages.iter().filter(|m| matches!(m.body, MessageType::ToolResult { .. })).count()
}

fn outputs(rt_messages: &[braid_protocol::Message]) -> Vec<(braid_protocol::MessageId, String)> {
    rt_messages
        .iter()
        .filter_map(|m| match &m.body {
            MessageType::ToolResult { output, error, .. } => {
                Some((m.id, format!("{output}{}", error.as_deref().unwrap_or(""))))
            }
            _ => None,
        })
        .collect()
}

/// A turn whose every call is asked: each is approved as it comes
/// (`done`: those approved already).
async fn approving(
    rt: &Runtime,
    ctx: &braid_protocol::ContextId,
    watch: &mut Watch,
    mut done: Vec<braid_protocol::CallId>,
) {
    loop {
        let status = watch
            .until("a question or the end", |s| !s.is_busy() || s.kind() == StatusKind::AwaitingToolApproval)
            .await;
        let braid_protocol::ContextStatus::AwaitingToolApproval { pending_requests, .. } = status else { return };
        let new: Vec<_> = pending_requests.into_iter().filter(|id| !done.contains(id)).collect();
        for id in new {
            rt.decide_tool_call(ctx, id.clone(), ApprovalDecision::Approve).await.unwrap();
            done.push(id);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_placeholder_through_rev_base64_or_fold_never_reaches_the_model() {
    let dir = tempfile::tempdir().unwrap();
    // The model asks for the placeholder it was shown, put through one
    // transform after another, then answers.
    let commands = ["echo {P} | rev", "echo {P} | base64", "echo {P} | fold -w 12"];
    let fake = Arc::new(FakeProvider::answering(move |request| {
        let placeholder = placeholder_in(request)?;
        let step = results_so_far(request);
        Some(match commands.get(step) {
            Some(c) => {
                calls(&[(&format!("t{step}"), "run_command", json!({"command": c.replace("{P}", &placeholder)}))])
            }
            None => answer("That was the key, transformed."),
        })
    }));
    let rt = open_in(dir.path(), fake.clone(), |c| c.machine.tools.policy = ToolApprovalPolicy::Sandboxed);
    let ctx = rt.create_context(None, None).await.unwrap().id;
    let mut watch = Watch::new(&rt, &ctx).await;
    rt.send_message(&ctx, NewMessage::user_text(&format!("My key is {TOKEN}; show it reversed.")), false)
        .await
        .unwrap();
    watch.until("busy", |s| s.is_busy()).await;
    // Under "Run sandboxed commands and edits" each is asked all the same,
    // and the approval names the secret.
    let asked = watch.state(StatusKind::AwaitingToolApproval).await;
    let snapshot = rt.load_context(&ctx).await.unwrap();
    assert_eq!(snapshot.secret_uses.len(), 1, "{asked:?}");
    assert!(snapshot.secret_uses[0].known && snapshot.secret_uses[0].kind == "github", "{:?}", snapshot.secret_uses);
    let first = match asked {
        braid_protocol::ContextStatus::AwaitingToolApproval { pending_requests, .. } => pending_requests[0].clone(),
        _ => unreachable!(),
    };
    rt.decide_tool_call(&ctx, first.clone(), ApprovalDecision::Approve).await.unwrap();
    approving(&rt, &ctx, &mut watch, vec![first]).await;

    let snapshot = rt.load_context(&ctx).await.unwrap();
    let results = outputs(&snapshot.messages);
    assert_eq!(results.len(), 3, "{results:?}");
    for (_, output) in &results {
        assert!(output.starts_with("[output withheld"), "{output}");
    }
    let held: Vec<String> =
        snapshot.messages.iter().filter_map(|m| m.meta.withheld.as_ref()).map(|w| w.output.clone()).collect();
    let reversed: String = TOKEN.chars().rev().collect();
    assert!(held[0].contains(&reversed), "the command really ran with the key: {held:?}");
    let leaked = pieces_sent(&fake.requests(), TOKEN);
    assert!(leaked.is_empty(), "pieces of the key reached the model: {leaked:?}");
    let leaked = pieces_sent(&fake.requests(), &reversed);
    assert!(leaked.is_empty(), "pieces of the reversed key reached the model: {leaked:?}");

    // The user reads the first and lets the model have it: from the next
    // request on, it goes (their choice, made after reading it).
    rt.release_output(&ctx, results[0].0).await.unwrap();
    let sent_before = fake.requests().len();
    rt.send_message(&ctx, NewMessage::user_text("and now?"), false).await.unwrap();
    watch.until("busy", |s| s.is_busy()).await;
    watch.settled().await;
    let after = &fake.requests()[sent_before..];
    assert!(format!("{after:?}").contains(&reversed), "the released output went");
    assert!(!format!("{after:?}").contains(TOKEN), "the key itself never does");
    rt.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compact_s_own_instructions_are_masked() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open_in(dir.path(), fake.clone(), |_| {});
    let ctx = rt.create_context(None, None).await.unwrap().id;
    let mut watch = Watch::new(&rt, &ctx).await;
    for text in ["first question", "second question", "third question"] {
        rt.send_message(&ctx, NewMessage::user_text(text), false).await.unwrap();
        watch.until("busy", |s| s.is_busy()).await;
        watch.settled().await;
    }
    let key = "sk-proj-Qe4Tn8vLr2Wc6Jh1Ya5Km";
    let instructions = format!("keep the deploy key {key} verbatim");
    rt.compact_context(&ctx, Some(instructions), Default::default(), true).await.unwrap();
    watch.until("busy", |s| s.is_busy()).await;
    watch.settled().await;
    let requests = fake.requests();
    let summary = requests.last().unwrap();
    let system = summary.system.clone().unwrap_or_default();
    assert!(system.contains("keep the deploy key secret-api-key-"), "{system}");
    assert!(pieces_sent(&requests, key).is_empty(), "{system}");
    rt.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn short_and_nested_dotenv_values_are_hidden_public_ones_are_not() {
    let dir = tempfile::tempdir().unwrap();
    let nested = dir.path().join("services/api");
    std::fs::create_dir_all(&nested).unwrap();
    std::fs::write(dir.path().join(".env"), "DB_PASSWORD=hunter7\nPORT=5432\nDEBUG=true\nNODE_ENV=production\n")
        .unwrap();
    std::fs::write(nested.join(".env.local"), "STRIPE=zq81ma9dkk\n").unwrap();
    std::fs::write(nested.join(".env.example"), "EXAMPLE=placeholder-value\n").unwrap();
    // A FIFO named like a secret file never holds the look.
    let fifo = dir.path().join(".env.fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open_in(dir.path(), fake.clone(), |_| {});
    let ctx = rt.create_context(None, None).await.unwrap().id;
    let mut watch = Watch::new(&rt, &ctx).await;
    let text = "the password hunter7 and zq81ma9dkk, port 5432, production, true, placeholder-value";
    rt.send_message(&ctx, NewMessage::user_text(text), false).await.unwrap();
    watch.until("busy", |s| s.is_busy()).await;
    watch.settled().await;
    let sent = format!("{:?}", fake.requests());
    assert!(!sent.contains("hunter7") && !sent.contains("zq81ma9dkk"), "{sent}");
    for public in ["port 5432", "production", "true", "placeholder-value"] {
        assert!(sent.contains(public), "{public} is left as it is: {sent}");
    }
    // A value written later is learned before the next request.
    std::fs::write(nested.join(".env.local"), "STRIPE=zq81ma9dkk\nLATER=w7x8y9z0q1\n").unwrap();
    rt.send_message(&ctx, NewMessage::user_text("and w7x8y9z0q1?"), false).await.unwrap();
    watch.until("busy", |s| s.is_busy()).await;
    watch.settled().await;
    assert!(!format!("{:?}", fake.requests()).contains("w7x8y9z0q1"));
    rt.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_key_is_told_and_an_old_placeholder_is_refused_never_run_as_text() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open_in(dir.path(), fake.clone(), |c| c.machine.tools.policy = ToolApprovalPolicy::AutoAll);
    let ctx = rt.create_context(None, None).await.unwrap().id;
    let mut watch = Watch::new(&rt, &ctx).await;
    rt.send_message(&ctx, NewMessage::user_text(&format!("my token is {TOKEN}")), false).await.unwrap();
    watch.until("busy", |s| s.is_busy()).await;
    watch.settled().await;
    let old = placeholder_in(&fake.requests()[0]).unwrap();
    rt.shutdown().await;

    std::fs::remove_file(dir.path().join("secret-filter.key")).unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open_in(dir.path(), fake.clone(), |c| c.machine.tools.policy = ToolApprovalPolicy::AutoAll);
    let mut watch = Watch::new(&rt, &ctx).await;
    let (_, mut events) = rt.subscribe(&ctx).await.unwrap();
    fake.push_reply(calls(&[("old", "run_command", json!({"command": format!("echo {old}")}))]));
    fake.push_reply(answer("done"));
    rt.send_message(&ctx, NewMessage::user_text("use it"), false).await.unwrap();
    let asked = watch.state(StatusKind::AwaitingToolApproval).await;
    let snapshot = rt.load_context(&ctx).await.unwrap();
    assert!(
        snapshot.secret_uses.iter().any(|u| u.placeholder == old && !u.known),
        "{:?} {asked:?}",
        snapshot.secret_uses
    );
    rt.decide_tool_call(&ctx, "old".into(), ApprovalDecision::Approve).await.unwrap();
    watch.settled().await;
    let told = notices(&mut events, NoticeCode::SecretsKeyReplaced, Duration::from_millis(300)).await;
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(told[0].message.contains("was missing"), "{}", told[0].message);
    let snapshot = rt.load_context(&ctx).await.unwrap();
    let (_, result) = outputs(&snapshot.messages).pop().unwrap();
    assert!(result.contains("not run") && result.contains(&old), "{result}");
    assert!(!result.contains("exit code"), "the command never ran: {result}");
    rt.shutdown().await;

    // A key file that cannot be used is kept aside, never written over.
    std::fs::write(dir.path().join("secret-filter.key"), b"short").unwrap();
    let rt = open_in(dir.path(), Arc::new(FakeProvider::echo(Duration::ZERO)), |_| {});
    let kept: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("secret-filter.key.unreadable-"))
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(std::fs::read(dir.path().join(&kept[0])).unwrap(), b"short");
    assert_eq!(std::fs::read(dir.path().join("secret-filter.key")).unwrap().len(), 32);
    rt.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_credential_in_the_folder_is_refused_by_read_file_and_at_file() {
    let dir = tempfile::tempdir().unwrap();
    let ssh = dir.path().join(".ssh");
    std::fs::create_dir(&ssh).unwrap();
    std::fs::write(ssh.join("id_rsa"), "-----BEGIN OPENSSH PRIVATE KEY-----\nsecretbits\n").unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    fake.push_reply(calls(&[("r", "read_file", json!({"path": ".ssh/id_rsa"}))]));
    fake.push_reply(answer("done"));
    let hide = ssh.display().to_string();
    let rt = open_in(dir.path(), fake.clone(), |c| {
        c.machine.tools.policy = ToolApprovalPolicy::AutoAll;
        c.sandbox_paths.hide = vec![hide];
    });
    let ctx = rt.create_context(None, None).await.unwrap().id;
    let mut watch = Watch::new(&rt, &ctx).await;
    rt.send_message(&ctx, NewMessage::user_text("read my key"), false).await.unwrap();
    watch.until("busy", |s| s.is_busy()).await;
    watch.settled().await;
    let snapshot = rt.load_context(&ctx).await.unwrap();
    let (_, result) = outputs(&snapshot.messages).pop().unwrap();
    assert!(result.contains("the sandbox hides") && !result.contains("secretbits"), "{result}");
    let refused = rt.send_message(&ctx, NewMessage::user_text("what is in @.ssh/id_rsa"), false).await;
    let e = refused.expect_err("the reference is refused");
    assert!(e.to_string().contains("the sandbox hides"), "{e}");
    assert!(!format!("{:?}", fake.requests()).contains("secretbits"));
    rt.shutdown().await;
}
