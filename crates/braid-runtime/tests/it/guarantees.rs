//! Guarantees of the runtime loop that hold under load and failure: Cancel
//! is read before a flood of queued stream chunks, and a transition whose
//! write fails runs none of its effects and loses nothing stored.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::llm::StopReason;
use braid_core::MachineConfig;
use braid_llm::fake::FakeProvider;
use braid_protocol::{BraidEvent, ContextStatus, MessageType, NewMessage, StatusKind};
use braid_runtime::{Runtime, RuntimeConfig};
use std::sync::Arc;
use std::time::{Duration, Instant};

async fn within<T>(f: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(30), f).await.expect("timed out")
}

fn config(dir: &std::path::Path) -> RuntimeConfig {
    let mut c = RuntimeConfig::new(dir.join("braid.db"), dir.to_owned());
    c.machine = MachineConfig { backoff_base_ms: 20, backoff_cap_ms: 100, ..MachineConfig::default() };
    c
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancel_overtakes_ten_thousand_queued_chunks() {
    let dir = tempfile::tempdir().unwrap();
    let (provider, mut fake) = FakeProvider::manual();
    let (rt, _) = Runtime::open(config(dir.path()), Arc::new(provider)).unwrap();
    let ctx = rt.create_context(None, None).await.unwrap().id;
    let (_, mut sub) = rt.subscribe(&ctx).await.unwrap();
    rt.send_message(&ctx, NewMessage::user_text("tell me a long story"), false).await.unwrap();
    let request = within(fake.next_request()).await.unwrap();
    request.connect();
    for i in 0..10_000 {
        request.text(&format!("w{i} "));
    }
    // The chunks are on their way through the context's mailbox.
    loop {
        if let BraidEvent::ContentDelta(_) = within(sub.recv()).await.unwrap().unwrap() {
            break;
        }
    }
    let started = Instant::now();
    rt.cancel(&ctx).await.unwrap();
    let took = started.elapsed();
    let state = rt.peek(&ctx).await.unwrap().summary.status;
    assert_eq!(state, ContextStatus::Idle);
    assert!(took < Duration::from_millis(100), "cancel waited {took:?} behind the queued chunks");
    let snapshot = rt.load_context(&ctx).await.unwrap();
    assert_eq!(snapshot.messages.len(), 1, "no partial answer is kept on cancel");
    rt.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_that_cannot_be_stored_is_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let (provider, mut fake) = FakeProvider::manual();
    let (rt, _) = Runtime::open(config(dir.path()), Arc::new(provider)).unwrap();
    let ctx = rt.create_context(None, None).await.unwrap().id;
    // Another process holds the database: the message's one write fails
    // after the store's busy wait, and the sender hears it.
    let mut locker = rusqlite::Connection::open(dir.path().join("braid.db")).unwrap();
    let lock = locker.transaction_with_behavior(rusqlite::TransactionBehavior::Exclusive).unwrap();
    let refused = within(rt.send_message(&ctx, NewMessage::user_text("lost?"), false)).await.unwrap_err().to_wire();
    assert_eq!(refused.code, braid_protocol::ErrorCode::Storage, "{refused:?}");
    assert!(refused.message.contains("Could not save"), "{refused:?}");
    lock.rollback().unwrap();
    drop(locker);
    // Nothing half-stored: the same message goes through once the disk
    // takes writes.
    rt.send_message(&ctx, NewMessage::user_text("lost?"), false).await.unwrap();
    let request = within(fake.next_request()).await.unwrap();
    let texts: Vec<_> = request.request.messages.iter().filter_map(|m| m.body.plain_text()).collect();
    assert_eq!(texts, ["lost?"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_write_runs_no_effect_loses_nothing_and_retry_carries_on() {
    let dir = tempfile::tempdir().unwrap();
    let (provider, mut fake) = FakeProvider::manual();
    let (rt, _) = Runtime::open(config(dir.path()), Arc::new(provider)).unwrap();
    let ctx = rt.create_context(None, None).await.unwrap().id;
    let (_, mut sub) = rt.subscribe(&ctx).await.unwrap();
    rt.send_message(&ctx, NewMessage::user_text("first question"), false).await.unwrap();
    let request = within(fake.next_request()).await.unwrap();

    // Another process holds the database: every write from now on fails
    // (after the store's 5 s busy wait).
    let mut locker = rusqlite::Connection::open(dir.path().join("braid.db")).unwrap();
    let lock = locker.transaction_with_behavior(rusqlite::TransactionBehavior::Exclusive).unwrap();
    request.connect();
    request.text("an answer that cannot be saved");
    request.finish(StopReason::EndTurn);
    let failed = within(async {
        loop {
            if let BraidEvent::ContextUpdate(u) = sub.recv().await.unwrap().unwrap() {
                if u.current_state.kind() == StatusKind::Failed {
                    return u;
                }
            }
        }
    })
    .await;
    match &failed.current_state {
        ContextStatus::Failed { error_code, message, recoverable } => {
            assert_eq!(*error_code, braid_protocol::FailureCode::StorageFailed);
            assert!(message.contains("Could not save"), "{message}");
            assert!(recoverable);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(failed.metadata.notice.as_ref().map(|n| n.code), Some(braid_protocol::NoticeCode::Storage));
    let snapshot = rt.load_context(&ctx).await.unwrap();
    let texts: Vec<_> = snapshot.messages.iter().filter_map(|m| m.body.plain_text()).collect();
    assert_eq!(texts, vec!["first question"], "memory holds what is stored, not the unsaved answer");

    // The disk takes writes again: Retry asks the model again.
    lock.rollback().unwrap();
    drop(locker);
    rt.retry(&ctx).await.unwrap();
    let again = within(fake.next_request()).await.unwrap();
    let last = again.request.messages.last().unwrap();
    assert!(matches!(&last.body, MessageType::Text { .. }));
    assert_eq!(last.body.plain_text().unwrap(), "first question");
    again.connect();
    again.text("saved now");
    again.finish(StopReason::EndTurn);
    within(async {
        loop {
            if rt.peek(&ctx).await.unwrap().summary.status == ContextStatus::Idle {
                break;
            }
            let _ = sub.recv().await;
        }
    })
    .await;
    rt.shutdown().await;
    drop(rt);

    // What was stored survives a restart.
    let (provider, _fake) = FakeProvider::manual();
    let (rt, _) = Runtime::open(config(dir.path()), Arc::new(provider)).unwrap();
    let snapshot = rt.load_context(&ctx).await.unwrap();
    let texts: Vec<_> = snapshot.messages.iter().filter_map(|m| m.body.plain_text()).collect();
    assert_eq!(texts, vec!["first question", "saved now"]);
}
