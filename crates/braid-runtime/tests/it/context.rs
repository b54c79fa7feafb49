//! Fitting long conversations into a small window through the runtime,
//! with the fake provider: older messages are left out of what is sent
//! (never out of storage), counts are stored with each message, a message
//! too large alone is refused clearly, and a provider's "too long" error is
//! answered by one tighter retry.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::llm::StopReason;
use braid_llm::fake::{FakeProvider, FakeStep};
use braid_llm::secrets::Secrets;
use braid_llm::LlmError;
use braid_protocol::{ContextStatus, MessageType, NewMessage, TokenEncoding};
use braid_runtime::{Fallback, Providers, Runtime, RuntimeConfig};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

fn open(dir: &Path, fake: Arc<FakeProvider>, window: u32) -> Runtime {
    let fallback = Fallback {
        provider: fake,
        model: "small".into(),
        label: "fake".into(),
        context_window: window,
        max_output_tokens: 64,
        vision: false,
        tools: true,
        encoding: TokenEncoding::O200k,
    };
    let providers = Providers::in_memory(Secrets::file_only(dir)).with_fallback(fallback);
    let mut config = RuntimeConfig::new(dir.join("braid.db"), dir.to_owned());
    config.max_tokens = 64;
    Runtime::open_with(config, providers).unwrap().0
}

fn say(t: &str) -> NewMessage {
    NewMessage::user_text(t)
}

async fn settle(rt: &Runtime, id: &braid_protocol::ContextId) -> ContextStatus {
    braid_testkit::harness::Watch::new(rt, id).await.settled().await
}

fn words(n: usize, tag: &str) -> String {
    (0..n).map(|i| format!("{tag}{i}")).collect::<Vec<_>>().join(" ")
}

#[tokio::test]
async fn older_messages_are_left_out_of_the_request_but_kept() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    // 1,600 tokens of window: 64 reserved, the ten tools' definitions take
    // about 700 and the system prompt about 250, leaving about 570 for
    // messages (a turn here costs ~125).
    let rt = open(dir.path(), fake.clone(), 1_600);
    let ctx = rt.create_context(None, None).await.unwrap();
    for turn in 0..6 {
        rt.send_message(&ctx.id, say(&words(30, &format!("t{turn}w"))), false).await.unwrap();
        assert_eq!(settle(&rt, &ctx.id).await, ContextStatus::Idle);
    }
    let snap = rt.load_context(&ctx.id).await.unwrap();
    assert_eq!(snap.messages.len(), 12, "everything is stored");
    for m in &snap.messages {
        let t = m.meta.tokens.expect("counted when stored");
        assert_eq!(t.encoding, TokenEncoding::O200k);
        // Answers were counted chunk by chunk as they streamed: the same
        // figure as counting the whole text.
        assert_eq!(t.count, braid_core::tokens::message_tokens(TokenEncoding::O200k, &m.body), "{m:?}");
    }
    let usage = snap.context.expect("the last request's figures");
    assert!(usage.left_out > 0, "{usage:?}");
    assert!(usage.system + usage.tools + usage.messages + usage.reserved_output <= usage.window, "{usage:?}");
    let last = fake.requests().pop().unwrap();
    assert!(last.messages.len() < 11, "sent {} of 11", last.messages.len());
    let newest = last.messages.last().unwrap().body.plain_text().unwrap();
    assert!(newest.starts_with("t5w0"), "the newest message is always sent: {newest}");
}

#[tokio::test]
async fn a_message_too_large_alone_is_refused_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open(dir.path(), fake.clone(), 500);
    let ctx = rt.create_context(None, None).await.unwrap();
    rt.send_message(&ctx.id, say(&words(600, "w")), false).await.unwrap();
    match settle(&rt, &ctx.id).await {
        ContextStatus::Failed { error_code, message, .. } => {
            assert_eq!(error_code, braid_protocol::FailureCode::ContextTooLarge);
            assert!(message.contains("Shorten it or choose a model with a larger window"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    assert!(fake.requests().is_empty(), "nothing was sent");
    assert_eq!(rt.load_context(&ctx.id).await.unwrap().messages.len(), 1, "the message is kept");
}

#[tokio::test]
async fn the_providers_too_long_error_gets_one_tighter_retry() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open(dir.path(), fake.clone(), 2_000);
    let ctx = rt.create_context(None, None).await.unwrap();
    for turn in 0..4 {
        rt.send_message(&ctx.id, say(&words(40, &format!("t{turn}w"))), false).await.unwrap();
        settle(&rt, &ctx.id).await;
    }
    fake.push_reply(vec![FakeStep::Fail(LlmError::ContextLengthExceeded {
        message: "this model's maximum context length is 512 tokens".into(),
    })]);
    fake.push_reply(vec![FakeStep::Text("short answer".into()), FakeStep::Finish(StopReason::EndTurn)]);
    rt.send_message(&ctx.id, say("and now?"), false).await.unwrap();
    assert_eq!(settle(&rt, &ctx.id).await, ContextStatus::Idle);
    let requests = fake.requests();
    let (refused, retried) = (&requests[requests.len() - 2], &requests[requests.len() - 1]);
    assert!(
        retried.messages.len() < refused.messages.len(),
        "{} then {}",
        refused.messages.len(),
        retried.messages.len()
    );
    let snap = rt.load_context(&ctx.id).await.unwrap();
    assert_eq!(snap.messages.last().unwrap().body.plain_text().unwrap(), "short answer");
    assert_eq!(snap.messages.len(), 10, "nothing stored was dropped");
}

#[tokio::test]
async fn past_the_threshold_older_messages_are_summarised_by_the_model_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open(dir.path(), fake.clone(), 2_000);
    let ctx = rt.create_context(None, None).await.unwrap();
    let (_, mut sub) = rt.subscribe(&ctx.id).await.unwrap();
    let mut turn = 0;
    // Fill the window until Braid asks for a summary (the fake answers the
    // summary request with its next scripted reply).
    fake.push_reply(vec![
        FakeStep::Text("SUMMARY: the user counted words.".into()),
        FakeStep::Finish(StopReason::EndTurn),
    ]);
    loop {
        rt.send_message(&ctx.id, say(&words(60, &format!("t{turn}w"))), false).await.unwrap();
        assert_eq!(settle(&rt, &ctx.id).await, ContextStatus::Idle);
        turn += 1;
        let snap = rt.load_context(&ctx.id).await.unwrap();
        if snap.messages.iter().any(|m| {
            matches!(&m.body, MessageType::SystemControl { control: braid_protocol::ControlKind::Summary { .. } })
        }) {
            break;
        }
        assert!(turn < 12, "no summary after {turn} turns");
    }
    let mut saw_summarizing = false;
    while let Ok(Some(Ok(e))) = tokio::time::timeout(Duration::from_millis(50), sub.recv()).await {
        if let braid_protocol::BraidEvent::ContextUpdate(u) = e {
            saw_summarizing |= u.current_state == ContextStatus::Summarizing;
        }
    }
    assert!(saw_summarizing, "the state showed Summarizing");
    let snap = rt.load_context(&ctx.id).await.unwrap();
    let replaced = snap
        .messages
        .iter()
        .find_map(|m| match &m.body {
            MessageType::SystemControl { control: braid_protocol::ControlKind::Summary { text, replaces } } => {
                assert!(text.starts_with("You said: User: t0w0"), "{text}");
                Some((replaces.clone(), text.clone()))
            }
            _ => None,
        })
        .unwrap();
    let (replaced, summary) = replaced;
    assert!(replaced.len() >= 2);
    assert!(replaced.iter().all(|id| snap.messages.iter().any(|m| m.id == *id)), "the originals are still stored");
    // The request after the summary starts with it, not with the originals.
    let requests = fake.requests();
    let summary_request = &requests[requests.len() - 2];
    assert!(summary_request.system.as_deref().unwrap().starts_with("Summarise the conversation"));
    let after = requests.last().unwrap();
    let first = after.messages[0].body.plain_text().unwrap();
    assert!(first.starts_with("[Summary of") && first.contains(&summary), "{first}");
    assert!(after.messages.iter().all(|m| !replaced.contains(&m.id)));
}

/// Each request as an OpenAI-compatible server receives it.
fn wire(r: &braid_llm::LlmRequest) -> serde_json::Value {
    braid_llm::openai::encode(r)
}

#[tokio::test]
async fn the_next_turn_starts_with_the_bytes_this_turn_sent_so_prompt_caches_hold() {
    // A server's prompt cache (llama.cpp, Ollama, the hosted providers)
    // is reused only when the request starts with what was sent before:
    // the system prompt, the tool definitions and the earlier messages
    // must not change from one turn to the next.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "kumquat\n").unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open(dir.path(), fake.clone(), 100_000);
    let ctx = rt.create_context(None, None).await.unwrap();
    for question in ["What is in notes.txt?", "And in @notes.txt?", "Thanks. Say it again."] {
        rt.send_message(&ctx.id, say(question), false).await.unwrap();
        assert!(matches!(settle(&rt, &ctx.id).await, ContextStatus::Idle), "answered");
    }
    let sent: Vec<serde_json::Value> = fake.requests().iter().map(wire).collect();
    assert_eq!(sent.len(), 3);
    for (n, pair) in sent.windows(2).enumerate() {
        let (before, after) = (&pair[0], &pair[1]);
        assert_eq!(before["tools"], after["tools"], "turn {n}: the tool definitions changed");
        assert_eq!(before["tool_choice"], after["tool_choice"], "turn {n}");
        let (old, new) = (before["messages"].as_array().unwrap(), after["messages"].as_array().unwrap());
        assert!(new.len() > old.len(), "turn {n}: the next request holds more");
        for (i, m) in old.iter().enumerate() {
            assert_eq!(m.to_string(), new[i].to_string(), "turn {n}: message {i} (system first) changed");
        }
    }
}

#[tokio::test]
async fn the_breakdown_counts_what_is_then_sent_and_compact_previews_applies_and_undoes() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open(dir.path(), fake.clone(), 100_000);
    let ctx = rt.create_context(None, None).await.unwrap();
    for question in ["The budget is 40.", "The deadline is May.", "Go."] {
        rt.send_message(&ctx.id, say(question), false).await.unwrap();
        assert_eq!(settle(&rt, &ctx.id).await, ContextStatus::Idle);
    }
    // The breakdown while typing equals the request's own count once sent.
    let b = rt.context_breakdown(&ctx.id, "And the team?".into()).await.unwrap();
    rt.send_message(&ctx.id, say("And the team?"), false).await.unwrap();
    assert_eq!(settle(&rt, &ctx.id).await, ContextStatus::Idle);
    let usage = rt.load_context(&ctx.id).await.unwrap().context.unwrap();
    assert_eq!(b.total, usage.system + usage.tools + usage.messages, "{b:#?}\n{usage:?}");

    // `/compact keep the numbers`, with a preview: nothing replaced until
    // approved, and the approved (edited) text is what the model reads.
    rt.compact_context(&ctx.id, Some("keep the numbers".into()), Default::default(), true).await.unwrap();
    assert_eq!(settle(&rt, &ctx.id).await, ContextStatus::Idle);
    let asked = fake.requests().pop().unwrap();
    assert!(asked.system.as_deref().unwrap().ends_with("keep this: keep the numbers"), "{:?}", asked.system);
    let snap = rt.load_context(&ctx.id).await.unwrap();
    let preview = snap.summary_preview.expect("the summary waits for approval");
    assert_eq!(preview.replaces.len(), 6, "all but the last exchange");
    assert!(!snap.messages.iter().any(|m| matches!(m.body, MessageType::SystemControl { .. })));
    rt.apply_summary(&ctx.id, Some("Budget 40, deadline May (approved).".into())).await.unwrap();
    rt.send_message(&ctx.id, say("Next?"), false).await.unwrap();
    assert_eq!(settle(&rt, &ctx.id).await, ContextStatus::Idle);
    let sent = fake.requests().pop().unwrap();
    let first = sent.messages[0].body.plain_text().unwrap();
    assert!(first.contains("Budget 40, deadline May (approved)."), "{first}");
    assert_eq!(sent.messages.len(), 4, "the summary, the last exchange kept whole, the new question");

    // Undo: the originals go again; they never left the history.
    let summary = rt
        .load_context(&ctx.id)
        .await
        .unwrap()
        .messages
        .iter()
        .find(|m| {
            matches!(&m.body, MessageType::SystemControl { control: braid_protocol::ControlKind::Summary { .. } })
        })
        .unwrap()
        .id;
    rt.undo_summary(&ctx.id, summary).await.unwrap();
    rt.send_message(&ctx.id, say("Again?"), false).await.unwrap();
    assert_eq!(settle(&rt, &ctx.id).await, ContextStatus::Idle);
    let sent = fake.requests().pop().unwrap();
    assert_eq!(sent.messages[0].body.plain_text().unwrap(), "The budget is 40.");
}

#[tokio::test]
async fn the_models_own_counts_are_kept_so_a_restart_does_not_ask_for_them_again() {
    use braid_testkit::counting::{no_tokenizer, Counting};
    let dir = tempfile::tempdir().unwrap();
    let open = |counting: Arc<Counting>| {
        // A model without a tokenizer Braid has, and a window small enough
        // that its server's counts matter.
        let providers =
            Providers::in_memory(Secrets::file_only(dir.path())).with_fallback(no_tokenizer(counting, 1_200));
        let mut config = RuntimeConfig::new(dir.path().join("braid.db"), dir.path().to_owned());
        config.max_tokens = 64;
        Runtime::open_with(config, providers).unwrap().0
    };
    let reply = || FakeProvider::answering(|_| Some(braid_testkit::script::answer("ok")));
    let before = Counting::new(reply());
    let rt = open(before.clone());
    let ctx = rt.create_context(None, None).await.unwrap();
    for turn in 0..6 {
        rt.send_message(&ctx.id, say(&words(60, &format!("t{turn}w"))), false).await.unwrap();
        assert_eq!(settle(&rt, &ctx.id).await, ContextStatus::Idle);
    }
    let asked = before.counted();
    assert!(asked.iter().any(|t| t.starts_with("t0w0")), "the server counted the conversation once it mattered");
    rt.shutdown().await;
    drop(rt);

    let after = Counting::new(reply());
    let rt = open(after.clone());
    rt.send_message(&ctx.id, say("and now?"), false).await.unwrap();
    assert_eq!(settle(&rt, &ctx.id).await, ContextStatus::Idle);
    let asked = after.counted();
    assert!(asked.iter().any(|t| t == "and now?"), "the new message is counted: {asked:?}");
    assert!(
        !asked.iter().any(|t| t.starts_with("t0w0") || t.starts_with("t4w0")),
        "nothing counted before is asked again: {asked:?}"
    );
}
