//! The store against real SQLite files: per-transition persistence matches
//! the in-memory result exactly, recovery, corruption isolation.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::machine::Event;
use braid_core::{ContextState, Conversation};
use braid_protocol::{BranchId, ContextStatus, ControlKind, MessageType, StatusKind, Timestamp};
use braid_store::{FileRow, Store, StoreError};

mod support;
use support::{meta, Persisted};

#[test]
fn per_transition_writes_load_back_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("braid.db");
    let mut store = Store::open(&path).unwrap();
    let mut p = Persisted::new(&mut store, "c1");
    p.exchange(&mut store, "q1", "a1");
    p.exchange(&mut store, "q2", "a2");
    let at = p.sim.messages()[1].id;
    let draft =
        p.sim.conversation.fork(&BranchId::main(), at, "try again", Some("Be terse.".into()), p.sim.now).unwrap();
    // Created and switched to in one transition, persisted with it.
    let fx = p.send(&mut store, Event::CreateBranch { draft: Box::new(draft), switch: true });
    let Some(Ok(braid_core::Reply::Branch(b))) = braid_core::sim::reply_of(&fx).cloned() else { panic!("{fx:?}") };
    p.exchange(&mut store, "q2'", "a2'");
    drop(store);

    let store = Store::open(&path).unwrap();
    let loaded = store.load_context(&p.id).unwrap();
    assert_eq!(loaded.conversation, p.sim.conversation, "conversation after reopening");
    assert_eq!(loaded.state, p.sim.state, "state after reopening");
    assert_eq!(loaded.conversation.active_branch(), &b);
    let listing = store.list_contexts().unwrap();
    assert_eq!(listing.len(), 1);
    assert_eq!(listing[0].message_count, loaded.conversation.len() as u64);
    assert_eq!(listing[0].status, ContextStatus::Idle);
}

#[test]
fn wal_and_schema_version_are_set_and_reopening_is_idempotent() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested/dir/braid.db");
    let store = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), 8);
    drop(store);
    let store = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), 8);
    let conn = rusqlite::Connection::open(&path).unwrap();
    let mode: String = conn.pragma_query_value(None, "journal_mode", |r| r.get(0)).unwrap();
    assert_eq!(mode, "wal");
}

#[test]
fn interrupted_context_is_restored_idle_with_history_and_a_recovery_message() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("braid.db");
    let mut store = Store::open(&path).unwrap();
    let mut p = Persisted::new(&mut store, "c1");
    p.exchange(&mut store, "q1", "a1");
    p.ask(&mut store, "q2");
    let rid = p.sim.request_id();
    p.send(&mut store, Event::LlmDelta { request_id: rid, text: "half an ans".into() });
    // An idle context beside it is left alone.
    let mut q = Persisted::new(&mut store, "c2");
    q.exchange(&mut store, "other", "fine");
    drop(store); // the process dies here

    let mut store = Store::open(&path).unwrap();
    let report = store.recover_interrupted(Timestamp(99)).unwrap();
    assert_eq!(report.recovered.len(), 1);
    assert_eq!(report.recovered[0].interrupted, StatusKind::StreamingLlmResponse);
    let loaded = store.load_context(&p.id).unwrap();
    assert_eq!(loaded.state.status, ContextStatus::Idle);
    let texts: Vec<String> =
        loaded.conversation.active_messages().map(|m| braid_core::conversation::describe(&m.body)).collect();
    assert_eq!(texts, ["q1", "a1", "q2", "[system_control]"], "full history, no partial answer, a Recovery message");
    let last = loaded.conversation.active_messages().last().unwrap();
    assert!(matches!(&last.body, MessageType::SystemControl { control: ControlKind::Recovery { .. } }));
    assert_eq!(store.load_context(&q.id).unwrap().conversation, q.sim.conversation, "the idle context is untouched");
    assert!(store.recover_interrupted(Timestamp(100)).unwrap().recovered.is_empty(), "recovery runs once");
}

#[test]
fn a_corrupted_row_fails_only_its_own_context() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("braid.db");
    let mut store = Store::open(&path).unwrap();
    let mut a = Persisted::new(&mut store, "aaa");
    a.exchange(&mut store, "q", "a");
    let mut b = Persisted::new(&mut store, "bbb");
    b.exchange(&mut store, "q", "a");
    // Make both look interrupted, then damage one.
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute(
        "UPDATE contexts SET status = '\"summarizing\"', state_json = json_set(state_json, '$.status', json('{\"state\":\"summarizing\"}'))",
        [],
    )
    .unwrap();
    conn.execute(
        "UPDATE messages SET json = '{\"schema_version\":1,\"body\":{' WHERE context_id = 'aaa' AND id = 2",
        [],
    )
    .unwrap();
    drop(conn);

    match store.load_context(&a.id) {
        Err(e @ StoreError::CorruptMessage { .. }) => {
            let text = e.to_string();
            assert!(text.contains("context aaa") && text.contains("message 2"), "{text}");
        }
        other => panic!("expected a corrupt-message error, got {other:?}"),
    }
    assert_eq!(store.load_context(&b.id).unwrap().conversation, b.sim.conversation);
    assert_eq!(store.list_contexts().unwrap().len(), 2, "listing still works");
    let report = store.recover_interrupted(Timestamp(5)).unwrap();
    assert_eq!(report.failed.len(), 1);
    assert_eq!(report.failed[0].0, a.id);
    assert_eq!(report.recovered.len(), 1, "the healthy context is still recovered");
    store.delete_context(&a.id).unwrap();
    assert!(matches!(store.load_context(&a.id), Err(StoreError::NotFound(_))));
    assert_eq!(store.list_contexts().unwrap().len(), 1);
}

#[test]
fn a_corrupted_file_gives_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("braid.db");
    std::fs::write(&path, b"this is not a database, just some bytes that are long enough to be a header....").unwrap();
    let err = Store::open(&path).err().expect("open must fail").to_string();
    assert!(err.contains(&path.display().to_string()), "names the file: {err}");
    assert!(err.contains("not a database"), "{err}");
    assert!(err.contains("move it aside"), "says what to do: {err}");
}

#[test]
fn unknown_messages_survive_a_save_and_load() {
    let mut store = Store::open_in_memory().unwrap();
    let mut p = Persisted::new(&mut store, "c");
    p.exchange(&mut store, "q", "a");
    let raw = serde_json::json!({"type": "hologram", "beam": 3});
    let m = braid_protocol::Message {
        id: braid_protocol::MessageId(50),
        created_at: Timestamp(3),
        schema_version: 1,
        body: MessageType::Unknown { raw },
        meta: Default::default(),
    };
    p.sim.conversation.append(m.clone()).unwrap();
    store.save_context(&meta("c"), &p.sim.state, &p.sim.conversation).unwrap();
    let loaded = store.load_context(&p.id).unwrap();
    assert_eq!(loaded.conversation.message(m.id), Some(&m));
}

#[test]
fn a_version_1_database_is_migrated_and_keeps_its_contexts() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("braid.db");
    let mut store = Store::open(&path).unwrap();
    let m = meta("old");
    store.create_context(&m, &ContextState::new(m.id.clone()), &Conversation::new(Timestamp(1))).unwrap();
    drop(store);
    // Back to what version 1 wrote.
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch(
        "DROP TABLE model_counts; DROP TABLE checkpoints; DROP TRIGGER message_added; DROP TRIGGER message_changed; DROP TRIGGER message_removed;
         DROP TABLE message_search; DROP TABLE message_text; ALTER TABLE contexts DROP COLUMN pinned;
         DROP TABLE file_records; ALTER TABLE branches DROP COLUMN model_json; ALTER TABLE branches DROP COLUMN folder; ALTER TABLE contexts DROP COLUMN model_json;
         PRAGMA user_version = 1;",
    )
    .unwrap();
    drop(conn);
    let mut store = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), 8);
    let loaded = store.load_context(&m.id).unwrap();
    assert_eq!((loaded.meta.title.as_str(), loaded.meta.model.as_ref()), ("title old", None));
    let choice = braid_protocol::ModelChoice { provider_id: "p".into(), model: "m".into() };
    let mut c = store.load_context(&m.id).unwrap();
    c.meta.model = Some(choice.clone());
    let save = [braid_core::Effect::SaveMeta(Box::new(c.meta.clone()))];
    store.persist(&m.id, &c.state, &c.conversation, &save, Timestamp(2)).unwrap();
    assert_eq!(store.list_contexts().unwrap()[0].meta.model, Some(choice));
}

#[test]
fn file_records_are_written_with_a_transition_and_go_with_their_context() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("braid.db");
    let mut store = Store::open(&path).unwrap();
    let mut p = Persisted::new(&mut store, "c1");
    let row = |path: &str, size: u64| FileRow {
        path: path.into(),
        read_at: Some(1_700_000_000_000),
        edit_at: None,
        mtime_ns: Some(1_700_000_000_123_456_789),
        size,
        // The high bit set: stored as an i64's bits, read back the same.
        hash: u64::MAX - 7,
        ctime_ns: None,
        last_access: 1_700_000_000_001,
    };
    // A transition with no persistence effect still writes its records.
    let fx = p.sim.send(Event::Cancel);
    let rows = [row("/w/a.rs", 10), row("/w/b.rs", 20)];
    store.persist_with_files(&p.id, &p.sim.state, &p.sim.conversation, &fx, &rows, p.sim.now).unwrap();
    // A later read of a.rs replaces its record.
    let again = [row("/w/a.rs", 11)];
    store.persist_with_files(&p.id, &p.sim.state, &p.sim.conversation, &fx, &again, p.sim.now).unwrap();
    drop(store);

    let mut store = Store::open(&path).unwrap();
    assert_eq!(store.load_files(&p.id).unwrap(), [row("/w/a.rs", 11), row("/w/b.rs", 20)]);
    store.delete_context(&p.id).unwrap();
    assert!(store.load_files(&p.id).unwrap().is_empty(), "the records go with their context");
}

#[test]
fn a_write_waits_for_another_process_holding_the_database() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("braid.db");
    let mut store = Store::open(&path).unwrap();
    let mut p = Persisted::new(&mut store, "c1");
    p.ask(&mut store, "q1");
    // Another process (the app beside the CLI, or a run that is ending)
    // holds the write lock for a moment; this one's writes wait for it.
    let (held, taken) = std::sync::mpsc::channel();
    let other = std::thread::spawn({
        let path = path.clone();
        move || {
            let mut conn = rusqlite::Connection::open(&path).unwrap();
            let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).unwrap();
            tx.execute("UPDATE contexts SET title = 'theirs'", []).unwrap();
            held.send(()).unwrap();
            std::thread::sleep(std::time::Duration::from_millis(300));
            tx.commit().unwrap();
        }
    });
    taken.recv().unwrap();
    let mut second = Store::open(&path).unwrap();
    let report = second.recover_interrupted(Timestamp(99)).unwrap();
    assert!(report.failed.is_empty(), "{:?}", report.failed);
    assert_eq!(report.recovered.len(), 1);
    other.join().unwrap();
    assert_eq!(second.load_context(&p.id).unwrap().state.status, ContextStatus::Idle);
}

#[test]
fn a_models_counts_are_kept_per_model_replaced_and_go_with_the_conversation() {
    use braid_protocol::MessageId;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("braid.db");
    let mut store = Store::open(&path).unwrap();
    let p = Persisted::new(&mut store, "c1");
    store.save_model_counts(&p.id, "qwen", &[(MessageId(1), 40, 12), (MessageId(2), 900, 310)]).unwrap();
    store.save_model_counts(&p.id, "llama", &[(MessageId(1), 40, 14)]).unwrap();
    // Counted again after the text changed: the newer count replaces it.
    store.save_model_counts(&p.id, "qwen", &[(MessageId(2), 950, 330)]).unwrap();
    drop(store);
    let mut store = Store::open(&path).unwrap();
    let qwen = store.model_counts(&p.id, "qwen").unwrap();
    assert_eq!((qwen[&MessageId(1)], qwen[&MessageId(2)], qwen.len()), ((40, 12), (950, 330), 2));
    assert_eq!(store.model_counts(&p.id, "llama").unwrap()[&MessageId(1)], (40, 14), "each model its own");
    store.delete_context(&p.id).unwrap();
    assert!(store.model_counts(&p.id, "qwen").unwrap().is_empty(), "deleted with the conversation");
}
