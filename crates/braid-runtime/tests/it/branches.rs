//! Branch edits through the runtime's commands, persisted: renaming, a
//! branch's own system prompt reaching the model, and deleting a branch
//! (not main, not the one in use) with only the messages it alone held.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_llm::fake::FakeProvider;
use braid_protocol::{BranchId, Command, ContextId, ErrorCode, MessageId, NewMessage};
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

async fn run(rt: &Runtime, c: Command) -> Result<serde_json::Value, braid_protocol::WireError> {
    rt.execute(c).await
}

/// The conversation list's picture of a conversation's branches: their
/// names, oldest first, and the one in use.
async fn listed(rt: &Runtime, id: &ContextId) -> (Vec<String>, BranchId) {
    let all = rt.list_contexts().await.unwrap();
    let c = all.into_iter().find(|c| &c.id == id).unwrap();
    (c.branches.into_iter().map(|b| b.name).collect(), c.active_branch)
}

#[tokio::test]
async fn branches_are_renamed_prompted_and_deleted_and_it_lasts() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open(dir.path(), fake.clone());
    let ctx = rt.create_context(None, None).await.unwrap();
    let id = ctx.id.clone();
    say(&rt, &id, "one").await;
    let first = rt.load_context(&id).await.unwrap().messages[0].id;
    let idea = rt.create_branch(&id, first, "idea".into(), None).await.unwrap();
    rt.switch_branch(&id, idea.clone()).await.unwrap();
    say(&rt, &id, "two").await;
    let snap = rt.load_context(&id).await.unwrap();
    let two = snap.messages.iter().find(|m| m.body.plain_text().as_deref() == Some("two")).unwrap().id;
    let deeper = rt.create_branch(&id, two, "deeper".into(), None).await.unwrap();

    let rename = |b: &BranchId, name: &str| Command::RenameBranch {
        context_id: id.clone(),
        branch_id: b.clone(),
        name: name.into(),
    };
    assert_eq!(run(&rt, rename(&idea, "")).await.unwrap_err().code, ErrorCode::InvalidInput);
    assert_eq!(run(&rt, rename(&BranchId("b99".into()), "x")).await.unwrap_err().code, ErrorCode::NotFound);
    run(&rt, rename(&idea, "first idea")).await.unwrap();
    let prompt = Command::SetBranchPrompt {
        context_id: id.clone(),
        branch_id: deeper.clone(),
        system_prompt: Some("Answer in French.".into()),
    };
    run(&rt, prompt).await.unwrap();
    assert_eq!(listed(&rt, &id).await, (vec!["main".into(), "first idea".into(), "deeper".into()], idea.clone()));

    // The branch in use cannot go; from main it can.
    let delete = |b: &BranchId| Command::DeleteBranch { context_id: id.clone(), branch_id: b.clone() };
    let told = run(&rt, delete(&idea)).await.unwrap_err();
    assert!(told.message.contains("switch to another branch"), "{told:?}");
    rt.switch_branch(&id, BranchId::main()).await.unwrap();
    run(&rt, delete(&idea)).await.unwrap();
    assert!(run(&rt, delete(&BranchId::main())).await.unwrap_err().message.contains("main cannot be deleted"));

    // After a restart: idea is gone, deeper hangs from main with its
    // messages and prompt, which reaches the model.
    rt.shutdown().await;
    drop(rt);
    let rt = open(dir.path(), fake.clone());
    let snap = rt.load_context(&id).await.unwrap();
    let mut names: Vec<(&str, Option<&BranchId>)> =
        snap.branches.iter().map(|b| (b.name.as_str(), b.parent.as_ref())).collect();
    names.sort();
    assert_eq!(names, [("deeper", Some(&BranchId::main())), ("main", None)]);
    let after = (vec!["main".to_owned(), "deeper".to_owned()], BranchId::main());
    assert_eq!(listed(&rt, &id).await, after, "the list names the branches left, oldest first");
    rt.switch_branch(&id, deeper.clone()).await.unwrap();
    let texts: Vec<String> =
        rt.load_context(&id).await.unwrap().messages.iter().filter_map(|m| m.body.plain_text()).collect();
    assert!(texts.contains(&"two".to_owned()), "deeper keeps what it shared with idea: {texts:?}");
    assert!(!texts.iter().any(|t| t == "You said: two"), "the answer only idea held is gone: {texts:?}");
    say(&rt, &id, "three").await;
    let sent = fake.requests().pop().unwrap();
    assert!(sent.system.as_deref().unwrap_or_default().starts_with("Answer in French."), "{:?}", sent.system);
}

#[tokio::test]
async fn an_edited_question_and_an_answer_written_again_go_to_new_branches() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open(dir.path(), fake);
    let id = rt.create_context(None, None).await.unwrap().id;
    say(&rt, &id, "one").await;
    say(&rt, &id, "two").await;
    let snap = rt.load_context(&id).await.unwrap();
    let (two, answer) = (snap.messages[2].id, snap.messages[3].id);

    let edited =
        run(&rt, Command::ForkBefore { context_id: id.clone(), message: two, name: "edit".into() }).await.unwrap();
    let edited: BranchId = serde_json::from_value(edited).unwrap();
    let edited_id = edited.clone();
    rt.switch_branch(&id, edited).await.unwrap();
    say(&rt, &id, "two, said better").await;
    let texts: Vec<String> =
        rt.load_context(&id).await.unwrap().messages.iter().filter_map(|m| m.body.plain_text()).collect();
    assert_eq!(texts, ["one", "You said: one", "two, said better", "You said: two, said better"]);

    rt.switch_branch(&id, BranchId::main()).await.unwrap();
    // Unnamed: a version, shown on the answer, named by its id elsewhere.
    let again = rt.fork_before(&id, answer, String::new()).await.unwrap();
    rt.switch_branch(&id, again.clone()).await.unwrap();
    rt.retry(&id).await.unwrap();
    Watch::new(&rt, &id).await.settled().await;
    let texts: Vec<String> =
        rt.load_context(&id).await.unwrap().messages.iter().filter_map(|m| m.body.plain_text()).collect();
    assert_eq!(texts, ["one", "You said: one", "two", "You said: two"], "the answer is written again on the fork");
    rt.switch_branch(&id, BranchId::main()).await.unwrap();
    let main: Vec<String> =
        rt.load_context(&id).await.unwrap().messages.iter().filter_map(|m| m.body.plain_text()).collect();
    assert_eq!(main, ["one", "You said: one", "two", "You said: two"], "main is as it was");
    // Versions where they happened: the question has two (main's and the
    // edit), the answer two (main's and the one written again), however
    // many switches were recorded on the way.
    let snap = rt.load_context(&id).await.unwrap();
    let versions: Vec<(MessageId, Vec<BranchId>)> =
        snap.versions.iter().map(|v| (v.message, v.versions.iter().map(|x| x.branch.clone()).collect())).collect();
    assert_eq!(
        versions,
        [(two, vec![BranchId::main(), edited_id.clone()]), (answer, vec![BranchId::main(), again.clone()])]
    );
    let unnamed = snap.branches.iter().find(|b| b.id == again).unwrap();
    assert_eq!((unnamed.name.as_str(), unnamed.label()), ("", format!("unnamed {again}")));
    let bad = run(&rt, Command::ForkBefore { context_id: id.clone(), message: MessageId(999), name: "x".into() }).await;
    assert_eq!(bad.unwrap_err().code, ErrorCode::NotFound);
}
