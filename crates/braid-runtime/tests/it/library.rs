//! Finding conversations again through the runtime's commands: a word
//! inside an old message of any conversation (loaded or not) is found with
//! its line and the branch to open it on; a pin lasts and moves nothing.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_llm::fake::FakeProvider;
use braid_protocol::{Command, ContextId, NewMessage, SearchHit};
use braid_runtime::Runtime;
use braid_testkit::harness::open_in;
use braid_testkit::harness::Watch;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

fn open(dir: &Path) -> Runtime {
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    open_in(dir, fake, |_| {})
}

async fn say(rt: &Runtime, id: &ContextId, text: &str) {
    rt.send_message(id, NewMessage::user_text(text), false).await.unwrap();
    Watch::new(rt, id).await.settled().await;
}

async fn search(rt: &Runtime, query: &str) -> Vec<SearchHit> {
    let v = rt.execute(Command::SearchConversations { query: query.into(), limit: None }).await.unwrap();
    serde_json::from_value(v).unwrap()
}

#[tokio::test]
async fn a_word_in_an_old_message_is_found_after_a_restart_and_a_pin_lasts() {
    let dir = tempfile::tempdir().unwrap();
    let rt = open(dir.path());
    let a = rt.create_context(Some("Caching".into()), None).await.unwrap().id;
    say(&rt, &a, "we measured redis at three milliseconds").await;
    for i in 0..5 {
        say(&rt, &a, &format!("later question {i}")).await;
    }
    let b = rt.create_context(Some("Parsing".into()), None).await.unwrap().id;
    say(&rt, &b, "serde for JSON").await;
    drop(rt);

    let rt = open(dir.path());
    let hits = search(&rt, "millisec").await;
    let ids: Vec<_> = hits.iter().map(|h| (h.context_id.clone(), h.message_id.map(|m| m.0))).collect();
    // The question and the echo's answer both hold the word.
    assert_eq!(ids, [(a.clone(), Some(1)), (a.clone(), Some(2))], "{hits:?}");
    let line: Vec<_> =
        hits[0].snippet.iter().map(|p| if p.hit { format!("[{}]", p.text) } else { p.text.clone() }).collect();
    assert_eq!(line.concat(), "we measured redis at three [milliseconds]");
    assert_eq!(hits[0].branch_id.as_ref().map(|b| b.0.as_str()), Some("main"));
    assert_eq!(search(&rt, "parsing").await[0].message_id, None, "a title matches too");

    let before = rt.list_contexts().await.unwrap();
    rt.execute(Command::PinContext { context_id: a.clone(), pinned: true }).await.unwrap();
    let after = rt.list_contexts().await.unwrap();
    let pinned = after.iter().find(|c| c.id == a).unwrap();
    assert!(pinned.pinned);
    assert_eq!(pinned.updated_at, before.iter().find(|c| c.id == a).unwrap().updated_at, "a pin changes no time");
    assert!(rt.load_context(&a).await.unwrap().summary.pinned);
    drop(rt);
    let rt = open(dir.path());
    assert!(rt.list_contexts().await.unwrap().iter().find(|c| c.id == a).unwrap().pinned, "and lasts");
    let long = "x".repeat(501);
    assert!(rt.execute(Command::SearchConversations { query: long, limit: None }).await.is_err());
}
