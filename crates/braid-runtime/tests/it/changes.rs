//! A turn's review through the runtime, with the scripted provider (the
//! content matters, so the model's calls are forced) and the real tools
//! on a real folder: a turn changes two far-apart lines of one file with
//! `sed` and writes another; the review lists both files with their
//! hunks; one hunk is undone (the other stays), the undo is itself
//! undone, a hunk whose lines the user changed since is refused, and a
//! whole file undone after the user's edit elsewhere in it keeps the edit.

use braid_llm::fake::FakeProvider;
use braid_protocol::{
    ControlKind, FileChange, MessageType, NewMessage, Role, StatusKind, ToolApprovalPolicy, UndoSelection,
};
use braid_testkit::harness::{limit, Harness};
use braid_testkit::script::{answer, calls};
use serde_json::json;
use std::sync::Arc;

const TEXT: &str = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n";

fn read(h: &Harness, name: &str) -> Option<String> {
    std::fs::read_to_string(h.dir.path().join(name)).ok()
}

fn undo(path: &str, hunks: Option<Vec<u32>>) -> Vec<UndoSelection> {
    vec![UndoSelection { path: path.into(), hunks }]
}

#[tokio::test]
async fn a_turn_is_reviewed_hunk_by_hunk_and_each_undo_can_be_undone() {
    let fake = Arc::new(FakeProvider::echo(std::time::Duration::ZERO));
    fake.push_reply(calls(&[
        ("s", "run_command", json!({"command": "sed -i -e s/two/TWO/ -e s/eleven/ELEVEN/ n.txt"})),
        ("w", "write_file", json!({"path": "new.txt", "content": "made\n"})),
    ]));
    fake.push_reply(answer("Done."));
    let h = Harness::open(fake.clone(), |c| c.machine.tools.policy = ToolApprovalPolicy::AutoAll);
    std::fs::write(h.dir.path().join("n.txt"), TEXT).unwrap();
    let (id, mut watch) = h.context().await;
    h.rt.send_message(&id, NewMessage::user_text("shout two and eleven"), false).await.unwrap();
    tokio::time::timeout(limit(), watch.state(StatusKind::ExecutingTool)).await.unwrap();
    tokio::time::timeout(limit(), watch.state(StatusKind::Idle)).await.unwrap();
    let snap = h.rt.load_context(&id).await.unwrap();
    let question =
        snap.messages.iter().find(|m| matches!(m.body, MessageType::Text { role: Role::User, .. })).unwrap().id;
    let last = snap.messages.last().unwrap().id;

    // The turn's count, for the chip after it and the graph.
    let turns = h.rt.changed_turns(&id).await.unwrap();
    assert_eq!(turns.len(), 1);
    assert_eq!((turns[0].question, turns[0].last), (question, last));
    assert_eq!((turns[0].count.files, turns[0].count.added, turns[0].count.removed), (2, 3, 2));
    let graph = h.rt.branch_graph(&id).await.unwrap();
    let counted: u32 = graph.rows.iter().filter_map(|r| r.changes).map(|c| c.files).sum();
    assert_eq!(counted, 2, "the node that made the calls shows its files");

    // The review, asked from the turn's last message.
    let review = h.rt.turn_changes(&id, last).await.unwrap();
    assert_eq!(review.question, question);
    let files: Vec<(&str, FileChange, usize)> =
        review.files.iter().map(|f| (f.path.as_str(), f.change, f.hunks.len())).collect();
    assert_eq!(files, [("n.txt", FileChange::Modified, 2), ("new.txt", FileChange::Created, 1)]);
    assert!(review.files[0].hunks[1].diff.contains("+ELEVEN"), "{:?}", review.files[0].hunks);

    // Undo the second hunk only: the first stays.
    let done = h.rt.undo_changes(&id, last, undo("n.txt", Some(vec![1]))).await.unwrap();
    assert_eq!(done.files, 1);
    assert_eq!(read(&h, "n.txt").unwrap(), TEXT.replace("two", "TWO"));
    let review = h.rt.turn_changes(&id, question).await.unwrap();
    assert_eq!(review.files[0].hunks.len(), 1, "the undone hunk is gone from the review");
    assert!(review.files[0].hunks[0].diff.contains("+TWO"));
    let snap = h.rt.load_context(&id).await.unwrap();
    let note = snap.messages.iter().find(|m| m.id == done.note).unwrap();
    assert!(matches!(&note.body,
        MessageType::SystemControl { control: ControlKind::FilesRestored { changes_of: Some(q), .. } } if *q == question));

    // The undo undone: the hunk is back, in the file and in the review.
    h.rt.undo_rewind(&id, done.note).await.unwrap();
    assert_eq!(read(&h, "n.txt").unwrap(), TEXT.replace("two", "TWO").replace("eleven", "ELEVEN"));
    assert_eq!(h.rt.turn_changes(&id, question).await.unwrap().files[0].hunks.len(), 2);

    // The user edits the line of the first hunk by hand: that hunk's undo
    // is refused with why, and nothing is written.
    let edited = TEXT.replace("two", "TWO!").replace("eleven", "ELEVEN");
    std::fs::write(h.dir.path().join("n.txt"), &edited).unwrap();
    let err = h.rt.undo_changes(&id, question, undo("n.txt", Some(vec![0]))).await.unwrap_err();
    assert!(err.to_string().contains("changed since this turn in the same lines"), "{err}");
    assert_eq!(read(&h, "n.txt").unwrap(), edited);
    assert!(h.rt.turn_changes(&id, question).await.unwrap().files[0].changed_since);

    // The other hunk, away from the user's edit, is undone around it.
    h.rt.undo_changes(&id, question, undo("n.txt", Some(vec![1]))).await.unwrap();
    assert_eq!(read(&h, "n.txt").unwrap(), TEXT.replace("two", "TWO!"), "the user's edit stays");

    // A created file undone as a whole is removed; a bad hunk is refused.
    let err = h.rt.undo_changes(&id, question, undo("new.txt", Some(vec![7]))).await.unwrap_err();
    assert!(err.to_string().contains("has no hunk 7"), "{err}");
    h.rt.undo_changes(&id, question, undo("new.txt", None)).await.unwrap();
    assert_eq!(read(&h, "new.txt"), None);
    let err = h.rt.undo_changes(&id, question, undo("new.txt", None)).await.unwrap_err();
    assert!(err.to_string().contains("no changes of this turn left"), "{err}");
}

#[tokio::test]
async fn old_checkpoints_are_pruned_but_never_a_file_s_newest() {
    let fake = Arc::new(FakeProvider::echo(std::time::Duration::ZERO));
    for (path, text) in [("a.txt", "first\n"), ("a.txt", "second\n"), ("b.txt", "only\n")] {
        fake.push_reply(calls(&[("w", "write_file", json!({"path": path, "content": text}))]));
        fake.push_reply(answer("Done."));
    }
    let h = Harness::open(fake.clone(), |c| c.machine.tools.policy = ToolApprovalPolicy::AutoAll);
    let (id, mut watch) = h.context().await;
    for n in 0..3 {
        h.rt.send_message(&id, NewMessage::user_text(&format!("write {n}")), false).await.unwrap();
        tokio::time::timeout(limit(), watch.state(StatusKind::ExecutingTool)).await.unwrap();
        tokio::time::timeout(limit(), watch.state(StatusKind::Idle)).await.unwrap();
    }
    let before = h.rt.checkpoint_storage().await.unwrap();
    assert_eq!((before.checkpoints, before.keep_days, before.budget_mb), (3, 30, 2048), "the defaults");
    assert!(before.used_bytes > 0);

    // Forty days pass.
    let db = rusqlite::Connection::open(h.dir.path().join("braid.db")).unwrap();
    db.execute("UPDATE checkpoints SET created_at = created_at - 40 * 86400000", []).unwrap();
    let err = h.rt.set_checkpoint_storage(0, 100).await.unwrap_err();
    assert!(err.to_string().contains("at least one day"), "{err}");
    let after = h.rt.set_checkpoint_storage(30, 100).await.unwrap();
    assert_eq!((after.checkpoints, after.keep_days, after.budget_mb), (2, 30, 100));
    let kept: Vec<Vec<String>> =
        h.rt.checkpoints_of(&id).unwrap().iter().map(|c| c.changes.iter().map(|d| d.path.clone()).collect()).collect();
    assert_eq!(kept, [vec!["a.txt".to_owned()], vec!["b.txt".to_owned()]], "each file's newest stays");
    assert_eq!(h.rt.checkpoint_storage().await.unwrap().budget_mb, 100, "the setting is kept");

    // What is kept still rewinds: the last turn's file goes.
    let snap = h.rt.load_context(&id).await.unwrap();
    let last_question =
        snap.messages.iter().rfind(|m| matches!(m.body, MessageType::Text { role: Role::User, .. })).unwrap().id;
    h.rt.rewind_files(&id, last_question, Vec::new()).await.unwrap();
    assert_eq!(read(&h, "b.txt"), None);
    assert_eq!(read(&h, "a.txt").as_deref(), Some("second\n"));
}
