//! Merges carry files, through the runtime with the scripted provider
//! (the content matters, so the model's writes are forced) and the real
//! tools on a real folder: two branches edit one file, one clean hunk
//! each and one overlapping; the preview shows the conflict and writes
//! nothing; settled, the merge writes the file; the undo after a restart
//! gives the bytes back, and is refused while the file holds someone's
//! later edit. A rebase answered again is undone with its replayed turns
//! and what they wrote.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports
use braid_llm::fake::FakeProvider;
use braid_protocol::{
    BranchId, ConflictChoice, ContextId, FileChoice, FileTake, MergeOptions, MergeStrategy, MessageType, NewMessage,
    Resolution, Role, ToolApprovalPolicy,
};
use braid_runtime::Runtime;
use braid_testkit::harness::{open_in, Watch};
use braid_testkit::script::{answer, calls};
use serde_json::json;
use std::path::Path;
use std::sync::Arc;

pub(crate) const BASE: &str = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n";

pub(crate) fn open(dir: &Path, fake: Arc<FakeProvider>) -> Runtime {
    open_in(dir, fake, |c| c.machine.tools.policy = ToolApprovalPolicy::AutoAll)
}

pub(crate) fn read(dir: &Path, name: &str) -> Option<String> {
    std::fs::read_to_string(dir.join(name)).ok()
}

/// The model writes `content` to `path` when asked `question` (reading
/// it first: Braid refuses to overwrite a file the model has not read).
pub(crate) async fn write(
    rt: &Runtime,
    fake: &FakeProvider,
    id: &ContextId,
    question: &str,
    path: &str,
    content: &str,
) {
    fake.push_reply(calls(&[
        ("r", "read_file", json!({"path": path})),
        ("w", "write_file", json!({"path": path, "content": content})),
    ]));
    fake.push_reply(answer("Written."));
    rt.send_message(id, NewMessage::user_text(question), false).await.unwrap();
    Watch::new(rt, id).await.settled().await;
}

/// main: a first answer; idea forks after it. Returns the context and idea.
pub(crate) async fn fork(rt: &Runtime, fake: &FakeProvider) -> (ContextId, BranchId) {
    let id = rt.create_context(None, None).await.unwrap().id;
    fake.push_reply(answer("Ready."));
    rt.send_message(&id, NewMessage::user_text("start"), false).await.unwrap();
    Watch::new(rt, &id).await.settled().await;
    let answer = rt.load_context(&id).await.unwrap().messages[1].id;
    let idea = rt.create_branch(&id, answer, "idea".into(), None).await.unwrap();
    (id, idea)
}

/// A folder with notes.txt; main answered once, idea forked after it.
pub(crate) async fn forked() -> (tempfile::TempDir, Arc<FakeProvider>, Runtime, ContextId, BranchId) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), BASE).unwrap();
    let fake = Arc::new(FakeProvider::echo(std::time::Duration::ZERO));
    let rt = open(dir.path(), fake.clone());
    let (id, idea) = fork(&rt, &fake).await;
    (dir, fake, rt, id, idea)
}

pub(crate) fn edit(pairs: &[(&str, &str)]) -> String {
    pairs.iter().fold(BASE.to_owned(), |text, (from, to)| text.replace(&format!("{from}\n"), &format!("{to}\n")))
}

#[tokio::test]
async fn two_branches_edits_merge_three_way_settled_as_chosen_and_undone_after_a_restart() {
    let (dir, fake, rt, id, idea) = forked().await;
    rt.switch_branch(&id, idea.clone()).await.unwrap();
    let theirs = edit(&[("two", "two (idea)"), ("eleven", "ELEVEN")]);
    write(&rt, &fake, &id, "idea's edit", "notes.txt", &theirs).await;
    rt.switch_branch(&id, BranchId::main()).await.unwrap();
    // One folder: main writes its own version over idea's.
    let ours = edit(&[("two", "two (main)"), ("five", "FIVE")]);
    write(&rt, &fake, &id, "main's edit", "notes.txt", &ours).await;

    // The preview: one file, one conflict to settle; nothing written.
    let mut options = MergeOptions::new(idea.clone(), MergeStrategy::Append);
    options.resolutions = vec![ConflictChoice { conflict: "file:notes.txt".into(), resolution: Resolution::KeepBoth }];
    let preview = rt.preview_merge(&id, options.clone()).await.unwrap();
    assert_eq!(preview.files.len(), 1, "{:?}", preview.files);
    let conflict = preview.files[0].conflict.as_ref().expect("the overlapping hunk is a conflict");
    assert!(conflict.marked.as_deref().unwrap().contains("two (main)\n=======\ntwo (idea)\n"), "{conflict:?}");
    assert!(preview.blocked.as_deref().unwrap_or_default().contains("notes.txt"), "{:?}", preview.blocked);
    assert!(rt.merge(&id, options.clone()).await.is_err(), "an unsettled file refuses the merge");
    assert_eq!(read(dir.path(), "notes.txt").unwrap(), ours, "nothing written before the merge");

    // Settled: the source's side of the overlap; both clean hunks come along.
    options.files = vec![FileChoice { path: "notes.txt".into(), take: FileTake::Theirs }];
    let preview = rt.preview_merge(&id, options.clone()).await.unwrap();
    assert_eq!((preview.blocked.as_deref(), preview.files[0].action.as_str()), (None, "changed"));
    assert!(preview.files[0].diff.contains("+two (idea)") && preview.files[0].diff.contains("+ELEVEN"));
    let card = rt.merge(&id, options).await.unwrap();
    let merged = edit(&[("two", "two (idea)"), ("five", "FIVE"), ("eleven", "ELEVEN")]);
    assert_eq!(read(dir.path(), "notes.txt").unwrap(), merged);
    let graph = rt.branch_graph(&id).await.unwrap();
    let row = graph.rows.iter().find(|r| r.id == card).unwrap();
    assert_eq!(row.changes.map(|c| c.files), Some(1), "the merge node shows the file it wrote");

    // Someone's later edit is never overwritten by the undo.
    std::fs::write(dir.path().join("notes.txt"), format!("{merged}mine\n")).unwrap();
    let refused = rt.undo_merge(&id, card).await.unwrap_err().to_string();
    assert!(refused.contains("notes.txt changed since the merge"), "{refused}");
    assert_eq!(read(dir.path(), "notes.txt").unwrap(), format!("{merged}mine\n"));
    std::fs::write(dir.path().join("notes.txt"), &merged).unwrap();

    // After a restart the undo gives main's bytes back.
    drop(rt);
    let rt = open(dir.path(), fake.clone());
    rt.undo_merge(&id, card).await.unwrap();
    assert_eq!(read(dir.path(), "notes.txt").unwrap(), ours);
    let snap = rt.load_context(&id).await.unwrap();
    assert!(snap.messages.iter().all(|m| m.meta.copied_from.is_none()), "the copies are off the branch");
}

#[tokio::test]
async fn a_rebase_answered_again_is_undone_with_its_replayed_turns_and_their_writes() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(std::time::Duration::ZERO));
    let rt = open(dir.path(), fake.clone());
    let (id, idea) = fork(&rt, &fake).await;
    rt.switch_branch(&id, idea.clone()).await.unwrap();
    write(&rt, &fake, &id, "make a.txt", "a.txt", "first\n").await;
    rt.switch_branch(&id, BranchId::main()).await.unwrap();
    std::fs::remove_file(dir.path().join("a.txt")).unwrap();
    let before = rt.load_context(&id).await.unwrap().messages.len();

    // Answered again: the question is sent anew and its tool writes again.
    fake.push_reply(calls(&[("w2", "write_file", json!({"path": "a.txt", "content": "again\n"}))]));
    fake.push_reply(answer("Written again."));
    let options = MergeOptions { answer_again: true, ..MergeOptions::new(idea, MergeStrategy::Rebase) };
    let preview = rt.preview_merge(&id, options.clone()).await.unwrap();
    assert!(preview.files.is_empty(), "the replayed turns change the files themselves: {:?}", preview.files);
    let card = rt.merge(&id, options).await.unwrap();
    Watch::new(&rt, &id).await.settled().await;
    assert_eq!(read(dir.path(), "a.txt").as_deref(), Some("again\n"));
    let replayed = rt.load_context(&id).await.unwrap().messages;
    let asked = |m: &braid_protocol::Message| matches!(&m.body, MessageType::Text { role: Role::User, .. });
    assert!(replayed.iter().skip(before).any(asked), "the question was sent again");

    rt.undo_merge(&id, card).await.unwrap();
    let after = rt.load_context(&id).await.unwrap().messages;
    assert_eq!(
        after.len(),
        before + 2,
        "only the card and its undo stay: {:?}",
        after.iter().map(|m| &m.body).collect::<Vec<_>>()
    );
    assert_eq!(read(dir.path(), "a.txt"), None, "what the replay wrote is taken back");
}

#[tokio::test]
async fn switching_with_files_puts_the_branch_s_files_back_and_is_undone() {
    let (dir, fake, rt, id, idea) = forked().await;
    rt.switch_branch(&id, idea.clone()).await.unwrap();
    let theirs = edit(&[("two", "two (idea)")]);
    write(&rt, &fake, &id, "idea's edit", "notes.txt", &theirs).await;
    write(&rt, &fake, &id, "idea's new file", "idea.txt", "only on idea\n").await;
    // Plain switch: the working files stay as they are.
    rt.switch_branch(&id, BranchId::main()).await.unwrap();
    assert_eq!(read(dir.path(), "notes.txt").unwrap(), theirs);

    // Back to main's files: as they were at main's last message.
    let preview = rt.preview_switch_files(&id, BranchId::main()).await.unwrap();
    let paths: Vec<&str> = preview.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["idea.txt", "notes.txt"], "{:?}", preview.files);
    assert_eq!(read(dir.path(), "notes.txt").unwrap(), theirs, "the preview writes nothing");
    let done = rt.switch_branch_with_files(&id, BranchId::main(), Vec::new()).await.unwrap();
    assert_eq!((read(dir.path(), "notes.txt").unwrap(), read(dir.path(), "idea.txt")), (BASE.to_owned(), None));

    // To idea with its files; a file the user changed meanwhile is kept.
    std::fs::write(dir.path().join("mine.txt"), "mine\n").unwrap();
    std::fs::write(dir.path().join("notes.txt"), format!("{BASE}mine\n")).unwrap();
    let preview = rt.preview_switch_files(&id, idea.clone()).await.unwrap();
    let flagged: Vec<&str> = preview.files.iter().filter(|f| f.changed_by_user).map(|f| f.path.as_str()).collect();
    assert!(flagged.contains(&"notes.txt"), "{:?}", preview.files);
    let outcome = rt.switch_branch_with_files(&id, idea.clone(), Vec::new()).await.unwrap();
    assert!(outcome.kept.contains(&"notes.txt".to_owned()), "{outcome:?}");
    assert_eq!(read(dir.path(), "notes.txt").unwrap(), format!("{BASE}mine\n"), "the user's edit is kept");
    assert_eq!(read(dir.path(), "idea.txt").as_deref(), Some("only on idea\n"));
    assert_eq!(rt.load_context(&id).await.unwrap().active_branch, idea);

    // The switch of files is a restore: undone from its note.
    rt.undo_rewind(&id, outcome.note).await.unwrap();
    assert_eq!(read(dir.path(), "idea.txt"), None);
    let _ = done;
}
