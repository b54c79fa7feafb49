//! Merging through the runtime's commands, persisted: a preview changes
//! nothing, a merge and its undo survive a restart, the model drafts the
//! summary a merge card carries, and the graph shows the merge as a node
//! with two parents.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_llm::fake::FakeProvider;
use braid_protocol::{
    BranchId, Command, ContextId, ErrorCode, GraphView, MergeOptions, MergePreview, MergeStrategy, MessageId,
    NewMessage,
};
use braid_runtime::Runtime;
use braid_testkit::harness::open_in;
use braid_testkit::harness::Watch;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

fn open(dir: &Path, fake: Arc<FakeProvider>) -> Runtime {
    open_in(dir, fake, |_| {})
}

async fn say(rt: &Runtime, id: &ContextId, text: &str) {
    rt.send_message(id, NewMessage::user_text(text), false).await.unwrap();
    Watch::new(rt, id).await.settled().await;
}

async fn texts(rt: &Runtime, id: &ContextId) -> Vec<String> {
    rt.load_context(id).await.unwrap().messages.iter().filter_map(|m| m.body.plain_text()).collect()
}

fn options(source: &BranchId, strategy: MergeStrategy) -> MergeOptions {
    MergeOptions::new(source.clone(), strategy)
}

/// main: one; idea (forked after one's answer): two; main again: three.
async fn two_lines(rt: &Runtime) -> (ContextId, BranchId) {
    let id = rt.create_context(None, None).await.unwrap().id;
    say(rt, &id, "one").await;
    let answer = rt.load_context(&id).await.unwrap().messages[1].id;
    let idea = rt.create_branch(&id, answer, "idea".into(), None).await.unwrap();
    rt.switch_branch(&id, idea.clone()).await.unwrap();
    say(rt, &id, "two").await;
    rt.switch_branch(&id, BranchId::main()).await.unwrap();
    say(rt, &id, "three").await;
    (id, idea)
}

#[tokio::test]
async fn a_merge_and_its_undo_last_across_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open(dir.path(), fake.clone());
    let (id, idea) = two_lines(&rt).await;
    let before = texts(&rt, &id).await;

    let preview: MergePreview = serde_json::from_value(
        rt.execute(Command::PreviewMerge {
            context_id: id.clone(),
            options: Box::new(options(&idea, MergeStrategy::Append)),
        })
        .await
        .unwrap(),
    )
    .unwrap();
    assert_eq!(preview.items.len(), 2, "two and its answer");
    assert!(preview.blocked.is_none());
    assert_eq!(texts(&rt, &id).await, before, "a preview changes nothing");

    let ff = rt.merge(&id, options(&idea, MergeStrategy::FastForward)).await.unwrap_err();
    assert!(ff.to_wire().message.contains("fast-forward"), "{ff}");
    let card: MessageId = serde_json::from_value(
        rt.execute(Command::Merge { context_id: id.clone(), options: Box::new(options(&idea, MergeStrategy::Append)) })
            .await
            .unwrap(),
    )
    .unwrap();
    let merged = texts(&rt, &id).await;
    assert_eq!(merged.len(), before.len() + 2);
    assert_eq!(merged[merged.len() - 2], "two");

    rt.shutdown().await;
    drop(rt);
    let rt = open(dir.path(), fake.clone());
    assert_eq!(texts(&rt, &id).await, merged, "the merge was stored");
    let graph: GraphView =
        serde_json::from_value(rt.execute(Command::BranchGraph { context_id: id.clone() }).await.unwrap()).unwrap();
    let row = graph.rows.iter().find(|r| r.id == card).unwrap();
    assert!(row.merge && row.merges.len() == 1, "{row:?}");
    assert_eq!(graph.branches.len(), 2);

    rt.execute(Command::UndoMerge { context_id: id.clone(), merge: card }).await.unwrap();
    let again = rt.execute(Command::UndoMerge { context_id: id.clone(), merge: card }).await.unwrap_err();
    assert_eq!(again.code, ErrorCode::InvalidInput);
    rt.shutdown().await;
    drop(rt);
    let rt = open(dir.path(), fake);
    assert_eq!(texts(&rt, &id).await, before, "the undo was stored");
    let bad = rt.execute(Command::UndoMerge { context_id: id.clone(), merge: MessageId(1) }).await.unwrap_err();
    assert_eq!(bad.code, ErrorCode::NotFound);
}

#[tokio::test]
async fn the_model_drafts_the_summary_and_the_card_carries_the_edit() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open(dir.path(), fake.clone());
    let (id, idea) = two_lines(&rt).await;
    let draft = rt.draft_merge_summary(&id, idea.clone()).await.unwrap();
    assert!(draft.contains("two"), "the echo model repeats the transcript it was given: {draft}");
    let mut o = options(&idea, MergeStrategy::Summary);
    o.summary = Some(format!("{draft}\nEdited by the user."));
    rt.merge(&id, o).await.unwrap();
    say(&rt, &id, "four").await;
    let sent = fake.requests();
    let last = sent.last().unwrap();
    let seen: Vec<String> = last.messages.iter().filter_map(|m| m.body.plain_text()).collect();
    assert!(seen.iter().any(|t| t.contains("Edited by the user.") && t.contains("idea")), "{seen:?}");
    let same = rt.draft_merge_summary(&id, BranchId::main()).await.unwrap_err();
    assert_eq!(same.to_wire().code, ErrorCode::InvalidInput);
}
