//! Finding conversations again: full-text search (FTS5) over titles and
//! the text of questions and answers, kept by the store's own triggers;
//! pins; and the index filled for a database made before it existed.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

mod support;
use braid_protocol::{ContextId, Timestamp};
use braid_store::{Store, HIT_END, HIT_START};
use support::Persisted;

fn marked(s: &str) -> String {
    s.replace(HIT_START, "[").replace(HIT_END, "]")
}

/// Two conversations with a few exchanges each.
fn library() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("braid.db")).unwrap();
    let mut a = Persisted::new(&mut store, "a");
    a.exchange(&mut store, "Which cache should the API use?", "Redis answered in 3 ms at the 99th percentile.");
    a.exchange(&mut store, "And memcached?", "Slower under load.");
    let mut b = Persisted::new(&mut store, "b");
    b.exchange(&mut store, "Parse JSON in Rust", "Use serde_json; café and naïve parse fine.");
    (dir, store)
}

#[test]
fn a_word_inside_an_old_answer_is_found_with_its_line() {
    let (_dir, store) = library();
    let hits = store.search("percentile", 20).unwrap();
    assert_eq!(hits.len(), 1, "{hits:?}");
    let h = &hits[0];
    assert_eq!((h.context_id.0.as_str(), h.title.as_str()), ("a", "title a"));
    assert_eq!(marked(&h.snippet), "Redis answered in 3 ms at the 99th [percentile].");
    assert_eq!(h.branch.as_ref().map(|b| b.0.as_str()), Some("main"), "the branch to open it on");
    let message = h.message_id.unwrap();
    let loaded = store.load_context(&h.context_id).unwrap();
    assert!(loaded.conversation.message(message).unwrap().body.plain_text().unwrap().contains("percentile"));
}

#[test]
fn every_word_must_match_the_last_may_be_a_prefix_and_accents_do_not_matter() {
    let (_dir, store) = library();
    let ids = |q: &str| store.search(q, 20).unwrap().into_iter().map(|h| h.context_id.0).collect::<Vec<_>>();
    assert_eq!(ids("redis perc"), ["a"]);
    assert!(ids("redis json").is_empty());
    assert_eq!(ids("cafe naive"), ["b"]);
    // Operators and quotes are words, never syntax errors.
    assert!(ids("\"unbalanced AND (").is_empty());
    assert!(ids("   ").is_empty());
}

#[test]
fn titles_match_first_and_a_deleted_conversation_leaves_the_index() {
    let (_dir, mut store) = library();
    let hits = store.search("title b", 20).unwrap();
    assert_eq!((hits[0].message_id, marked(&hits[0].snippet)), (None, "[title b]".to_owned()));
    assert_eq!(store.search("memcached", 20).unwrap().len(), 1);
    store.delete_context(&ContextId("a".into())).unwrap();
    assert!(store.search("memcached", 20).unwrap().is_empty());
    assert_eq!(store.search("serde_json", 20).unwrap().len(), 1);
}

#[test]
fn a_pin_lasts_and_leaves_the_time_alone() {
    let (dir, mut store) = library();
    let before = store.list_contexts().unwrap();
    let mut pinned = store.load_context(&ContextId("a".into())).unwrap();
    pinned.meta.pinned = true;
    let (meta, state, conversation) = (&pinned.meta, &pinned.state, &pinned.conversation);
    let pin = [braid_core::Effect::SaveMeta(Box::new(meta.clone()))];
    store.persist(&meta.id, state, conversation, &pin, Timestamp(meta.updated_at.0 + 60_000)).unwrap();
    drop(store);
    let store = Store::open(&dir.path().join("braid.db")).unwrap();
    let after = store.list_contexts().unwrap();
    let a = after.iter().find(|l| l.meta.id.0 == "a").unwrap();
    assert!(a.meta.pinned);
    assert_eq!(a.meta.updated_at, before.iter().find(|l| l.meta.id.0 == "a").unwrap().meta.updated_at);
    assert!(store.load_context(&ContextId("a".into())).unwrap().meta.pinned);
    let mut store = store;
    pinned.meta.id = ContextId("nope".into());
    let (meta, state, conversation) = (&pinned.meta, &pinned.state, &pinned.conversation);
    let pin = [braid_core::Effect::SaveMeta(Box::new(meta.clone()))];
    assert!(store.persist(&meta.id, state, conversation, &pin, Timestamp(1)).is_err());
}

#[test]
fn a_database_from_before_search_is_indexed_when_it_is_migrated() {
    let (dir, store) = library();
    drop(store);
    let path = dir.path().join("braid.db");
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch(
        "DROP TABLE model_counts; DROP TABLE checkpoints; DROP TRIGGER message_added; DROP TRIGGER message_changed; DROP TRIGGER message_removed;
         DROP TABLE message_search; DROP TABLE message_text; ALTER TABLE contexts DROP COLUMN pinned;
         ALTER TABLE branches DROP COLUMN folder;
         UPDATE messages SET json = 'not json' WHERE context_id = 'b' AND id = 1;
         PRAGMA user_version = 4;",
    )
    .unwrap();
    drop(conn);
    let store = Store::open(&path).unwrap();
    assert_eq!(store.search("percentile", 20).unwrap().len(), 1);
    assert_eq!(store.search("serde_json", 20).unwrap().len(), 1, "an unreadable row is left out, not an error");
}
