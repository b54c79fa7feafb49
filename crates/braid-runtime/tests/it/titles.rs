//! A new conversation is named after its first exchange by its model,
//! with no tools and a short answer; a model that gives no title leaves
//! the question's first words; a conversation the user named keeps its
//! name; and the title lasts.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_llm::fake::FakeProvider;
use braid_protocol::{BraidEvent, ContextId, NewMessage, NoticeCode};
use braid_runtime::Runtime;
use braid_testkit::harness::open_in;
use braid_testkit::harness::Watch;
use braid_testkit::script::answer;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

fn open(dir: &Path, fake: Arc<FakeProvider>) -> Runtime {
    open_in(dir, fake, |c| c.model_titles = true)
}

/// Sends `text` and waits for the conversation's title notice.
async fn named_after(rt: &Runtime, id: &ContextId, text: &str) -> String {
    let (_, mut events) = rt.subscribe(id).await.unwrap();
    rt.send_message(id, NewMessage::user_text(text), false).await.unwrap();
    let wait = async {
        loop {
            if let Some(Ok(BraidEvent::ContextUpdate(u))) = events.recv().await {
                if let Some(n) = u.metadata.notice.filter(|n| n.code == NoticeCode::Titled) {
                    return n.message;
                }
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(10), wait).await.expect("no title came")
}

async fn title_of(rt: &Runtime, id: &ContextId) -> String {
    rt.list_contexts().await.unwrap().into_iter().find(|c| &c.id == id).unwrap().title
}

#[tokio::test]
async fn the_model_names_a_new_conversation_after_its_first_exchange() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    fake.push_reply(answer("Redis: 3 ms at p99."));
    fake.push_reply(answer("\"Choosing an API cache.\""));
    let rt = open(dir.path(), fake.clone());
    let id = rt.create_context(None, None).await.unwrap().id;
    let notice = named_after(&rt, &id, "Which cache should the API use?").await;
    assert_eq!(notice, "Named “Choosing an API cache”");
    assert_eq!(title_of(&rt, &id).await, "Choosing an API cache");
    let asked = fake.requests().pop().unwrap();
    assert!(asked.tools.is_empty() && asked.max_tokens == Some(braid_core::title::MAX_TOKENS), "{asked:?}");
    assert_eq!(asked.system.as_deref(), Some(braid_core::title::INSTRUCTIONS));
    // Asked once: a second exchange leaves the title alone.
    rt.send_message(&id, NewMessage::user_text("And for sessions?"), false).await.unwrap();
    Watch::new(&rt, &id).await.settled().await;
    assert_eq!(fake.requests().len(), 3);
    drop(rt);
    let rt = open(dir.path(), fake);
    assert_eq!(title_of(&rt, &id).await, "Choosing an API cache", "the title lasts");
}

#[tokio::test]
async fn without_a_title_from_the_model_the_question_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    fake.push_reply(answer("Fine."));
    fake.push_reply(answer("  "));
    let rt = open(dir.path(), fake);
    let id = rt.create_context(None, None).await.unwrap().id;
    named_after(&rt, &id, "how do   I parse JSON\nin Rust?").await;
    assert_eq!(title_of(&rt, &id).await, "how do I parse JSON in Rust?");
}

#[tokio::test]
async fn a_conversation_the_user_named_keeps_its_name() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open(dir.path(), fake.clone());
    let id = rt.create_context(Some("Release notes".into()), None).await.unwrap().id;
    rt.send_message(&id, NewMessage::user_text("draft them"), false).await.unwrap();
    Watch::new(&rt, &id).await.settled().await;
    assert_eq!(fake.requests().len(), 1, "no title asked for");
    assert_eq!(title_of(&rt, &id).await, "Release notes");
}
