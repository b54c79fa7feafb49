//! `cargo bench -p braid-store`: persisted add, saving a 100-message
//! context, loading a 10,000-message context. On a real file (WAL) in a
//! temporary directory, as users run it.

use braid_core::machine::Effect;
use braid_core::{ContextState, Conversation};
use braid_protocol::{ContextId, Message, MessageId, MessageType, Role, Timestamp, SCHEMA_VERSION};
use braid_store::{ContextMeta, Store};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};

fn text_2kb(i: u64) -> Message {
    let role = if i.is_multiple_of(2) { Role::User } else { Role::Assistant };
    let body = MessageType::text(role, format!("message {i}: {}", "lorem ipsum dolor sit amet ".repeat(75)));
    Message {
        id: MessageId(i),
        created_at: Timestamp(1_700_000_000_000 + i),
        schema_version: SCHEMA_VERSION,
        body,
        meta: Default::default(),
    }
}

fn context(store: &mut Store, id: &str, n: u64) -> (ContextMeta, ContextState, Conversation) {
    let meta = ContextMeta {
        id: ContextId(id.into()),
        title: id.into(),
        working_dir: "/tmp".into(),
        created_at: Timestamp(1),
        updated_at: Timestamp(1),
        model: None,
        pinned: false,
    };
    let mut state = ContextState::new(meta.id.clone());
    let mut conv = Conversation::new(Timestamp(1));
    for i in 1..=n {
        conv.append(text_2kb(i)).unwrap_or_else(|e| panic!("{e}"));
    }
    state.next_message_id = n + 1;
    store.create_context(&meta, &state, &conv).unwrap_or_else(|e| panic!("{e}"));
    (meta, state, conv)
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut store = Store::open(&dir.path().join("bench.db")).unwrap_or_else(|e| panic!("{e}"));

    let (_, mut state, mut conv) = context(&mut store, "add", 0);
    let id = ContextId("add".into());
    c.bench_function("store: add a 2 KB message, persisted", |b| {
        b.iter(|| {
            let m = text_2kb(state.next_message_id);
            state.next_message_id += 1;
            let effects = [Effect::PersistState, Effect::AppendMessage(m.clone())];
            conv.append(m).unwrap_or_else(|e| panic!("{e}"));
            store.persist(&id, &state, &conv, &effects, Timestamp(2)).unwrap_or_else(|e| panic!("{e}"));
        })
    });

    let (meta, state100, conv100) = context(&mut store, "save100", 100);
    c.bench_function("store: save a 100-message context", |b| {
        b.iter(|| store.save_context(&meta, &state100, &conv100).unwrap_or_else(|e| panic!("{e}")))
    });

    context(&mut store, "load10k", 10_000);
    let id10k = ContextId("load10k".into());
    let mut group = c.benchmark_group("store");
    group.sample_size(20);
    group.bench_function("load a 10,000-message context", |b| {
        b.iter_batched(|| (), |_| store.load_context(&id10k).unwrap_or_else(|e| panic!("{e}")), BatchSize::PerIteration)
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
