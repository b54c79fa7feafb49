//! Every turn is a checkpoint, through the runtime with the scripted
//! provider (the content matters here, so the model's calls are forced)
//! and the real tools on a real folder: a write tool and a shell `sed -i`
//! in one turn, a shell `rm` in the next, the user's edit by hand in
//! between; the rewind preview flags the user's file, the rewind keeps it
//! unless asked, and the restore is itself undone.

use braid_llm::fake::FakeProvider;
use braid_protocol::{
    ChangeAuthor, ControlKind, MessageId, MessageType, NewMessage, RewindAction, Role, StatusKind, ToolApprovalPolicy,
};
use braid_testkit::harness::{limit, Harness};
use braid_testkit::script::{answer, calls};
use serde_json::json;
use std::sync::Arc;

fn read(h: &Harness, name: &str) -> Option<String> {
    std::fs::read_to_string(h.dir.path().join(name)).ok()
}

#[tokio::test]
async fn a_rewind_brings_back_what_tools_and_commands_changed_and_can_be_undone() {
    let fake = Arc::new(FakeProvider::echo(std::time::Duration::ZERO));
    fake.push_reply(calls(&[
        ("w", "write_file", json!({"path": "new.txt", "content": "made by the model\n"})),
        ("s", "run_command", json!({"command": "sed -i s/beta/BETA/ b.txt"})),
    ]));
    fake.push_reply(answer("Done."));
    fake.push_reply(calls(&[("r", "run_command", json!({"command": "rm c.txt"}))]));
    fake.push_reply(answer("Removed."));
    let h = Harness::open(fake.clone(), |c| c.machine.tools.policy = ToolApprovalPolicy::AutoAll);
    std::fs::write(h.dir.path().join("b.txt"), "alpha\nbeta\n").unwrap();
    std::fs::write(h.dir.path().join("c.txt"), "keep me\n").unwrap();
    let (id, mut watch) = h.context().await;

    h.rt.send_message(&id, NewMessage::user_text("make a file and shout beta"), false).await.unwrap();
    tokio::time::timeout(limit(), watch.state(StatusKind::ExecutingTool)).await.unwrap();
    tokio::time::timeout(limit(), watch.state(StatusKind::Idle)).await.unwrap();
    h.rt.send_message(&id, NewMessage::user_text("remove c"), false).await.unwrap();
    tokio::time::timeout(limit(), watch.state(StatusKind::ExecutingTool)).await.unwrap();
    tokio::time::timeout(limit(), watch.state(StatusKind::Idle)).await.unwrap();
    assert_eq!(read(&h, "new.txt").as_deref(), Some("made by the model\n"));
    assert_eq!(read(&h, "b.txt").as_deref(), Some("alpha\nBETA\n"));
    assert_eq!(read(&h, "c.txt"), None);

    // What was recorded: the model's changes, each on the message that made the call.
    let snap = h.rt.load_context(&id).await.unwrap();
    let questions: Vec<MessageId> = snap
        .messages
        .iter()
        .filter(|m| matches!(m.body, MessageType::Text { role: Role::User, .. }))
        .map(|m| m.id)
        .collect();
    let q1 = questions[0];

    // The user edits b.txt by hand after the turns.
    std::fs::write(h.dir.path().join("b.txt"), "alpha\nBETA\nmine\n").unwrap();
    let preview = h.rt.preview_rewind(&id, q1).await.unwrap();
    let files: Vec<(&str, RewindAction, bool)> =
        preview.files.iter().map(|f| (f.path.as_str(), f.action, f.changed_by_user)).collect();
    assert_eq!(
        files,
        [
            ("b.txt", RewindAction::Restore, true),
            ("c.txt", RewindAction::Recreate, false),
            ("new.txt", RewindAction::Remove, false)
        ]
    );
    assert!(
        preview.files[0].diff.contains("-mine") && preview.files[0].diff.contains("+beta"),
        "{}",
        preview.files[0].diff
    );
    assert_eq!(read(&h, "new.txt").as_deref(), Some("made by the model\n"), "a preview writes nothing");

    // Rewind without overwriting the user's file: it is kept, the rest go back.
    let done = h.rt.rewind_files(&id, q1, Vec::new()).await.unwrap();
    assert_eq!((done.files, done.kept.as_slice()), (2, ["b.txt".to_owned()].as_slice()));
    assert_eq!(read(&h, "new.txt"), None);
    assert_eq!(read(&h, "c.txt").as_deref(), Some("keep me\n"));
    assert_eq!(read(&h, "b.txt").as_deref(), Some("alpha\nBETA\nmine\n"), "the user's edit stays");
    let snap = h.rt.load_context(&id).await.unwrap();
    let note = snap.messages.iter().find(|m| m.id == done.note).unwrap();
    assert!(
        matches!(&note.body, MessageType::SystemControl { control: ControlKind::FilesRestored { to, files: 2, .. } } if *to == q1)
    );

    // The restore is undone: the files it wrote are as they were before it.
    let undone = h.rt.undo_rewind(&id, done.note).await.unwrap();
    assert_eq!(undone.files, 2);
    assert_eq!(read(&h, "new.txt").as_deref(), Some("made by the model\n"));
    assert_eq!(read(&h, "c.txt"), None);
    let again = h.rt.undo_rewind(&id, done.note).await.unwrap_err();
    assert!(again.to_string().contains("already undone"), "{again}");

    // With the user's say, their file is overwritten too.
    let all = h.rt.rewind_files(&id, q1, vec!["b.txt".into()]).await.unwrap();
    assert!(all.kept.is_empty());
    assert_eq!(read(&h, "b.txt").as_deref(), Some("alpha\nbeta\n"));

    // Stored, with who made each change.
    let authors: Vec<ChangeAuthor> = h.rt.checkpoints_of(&id).unwrap().iter().map(|c| c.author).collect();
    assert!(authors.contains(&ChangeAuthor::Model) && authors.contains(&ChangeAuthor::User), "{authors:?}");
    assert!(authors.contains(&ChangeAuthor::Restore), "{authors:?}");
}

#[tokio::test]
async fn a_folder_as_broad_as_the_root_keeps_no_checkpoints_and_says_so() {
    let fake = Arc::new(FakeProvider::echo(std::time::Duration::ZERO));
    let h = Harness::open(fake, |_| {});
    let ctx = h.rt.create_context(None, Some("/".into())).await.unwrap();
    let err = h.rt.preview_rewind(&ctx.id, MessageId(1)).await.unwrap_err();
    assert!(err.to_string().contains("no checkpoints in a folder as broad as /"), "{err}");
}
