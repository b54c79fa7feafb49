//! Rewinding files, as the core plans it: which checkpoints a rewind to a
//! message undoes, and what each file goes back to.

use crate::merging::answered;
use braid_core::checkpoint::{after_message, rewind};
use braid_core::sim::Sim;
use braid_protocol::{ChangeAuthor, Checkpoint, ContentHash, FileDelta, FileKind, FileVersion, MessageId};

fn v(name: &str) -> Option<FileVersion> {
    Some(FileVersion { hash: ContentHash(name.into()), kind: FileKind::File, size: 1 })
}

fn cp(
    id: u64,
    message: MessageId,
    author: ChangeAuthor,
    deltas: &[(&str, Option<FileVersion>, Option<FileVersion>)],
) -> Checkpoint {
    let changes = deltas
        .iter()
        .map(|(p, before, after)| FileDelta { path: (*p).into(), before: before.clone(), after: after.clone() })
        .collect();
    Checkpoint { id, message_id: message, author, changes, left_out: Vec::new() }
}

#[test]
fn a_rewind_undoes_what_came_after_the_message_and_names_the_user_s_files() {
    let mut sim = Sim::new();
    answered(&mut sim, "q1", "a1");
    answered(&mut sim, "q2", "a2");
    answered(&mut sim, "q3", "a3");
    let ids: Vec<MessageId> = sim.messages().iter().map(|m| m.id).collect();
    let (q1, a1, q2, a2, q3) = (ids[0], ids[1], ids[2], ids[3], ids[4]);
    let all = vec![
        cp(1, a1, ChangeAuthor::Model, &[("a.rs", None, v("a1"))]),
        // The user edited b.txt before asking q2: it belongs to q2.
        cp(2, q2, ChangeAuthor::User, &[("b.txt", v("b0"), v("b-user"))]),
        cp(3, a2, ChangeAuthor::Model, &[("a.rs", v("a1"), v("a2")), ("gone.txt", v("g"), None)]),
        cp(4, q3, ChangeAuthor::User, &[("a.rs", v("a2"), v("a-user"))]),
    ];

    // Back to when q2 was sent: the user's edit before it stays; the
    // model's turn after it and the user's later edit are undone.
    let after = after_message(&sim.conversation, q2, &all).unwrap();
    assert_eq!(after.iter().map(|c| c.id).collect::<Vec<_>>(), [3, 4]);
    let plan = rewind(after);
    let targets: Vec<(&str, Option<&str>, Option<&str>)> = plan
        .targets
        .iter()
        .map(|t| (t.path.as_str(), t.to.as_ref().map(|v| v.hash.0.as_str()), t.expected.as_ref().map(|h| h.0.as_str())))
        .collect();
    assert_eq!(targets, [("a.rs", Some("a1"), Some("a-user")), ("gone.txt", Some("g"), None)]);
    assert_eq!(plan.changed_by_user, ["a.rs"], "never overwritten without the user's say");

    // Back to the start: everything the model made goes; a file that ends
    // where it began is not written.
    let plan = rewind(after_message(&sim.conversation, q1, &all).unwrap());
    let paths: Vec<&str> = plan.targets.iter().map(|t| t.path.as_str()).collect();
    assert_eq!(paths, ["a.rs", "b.txt", "gone.txt"]);
    assert_eq!(plan.targets[0].to, None, "a.rs did not exist when q1 was sent");

    // Undoing a restore is the same plan over the restore's checkpoint.
    let restore = cp(5, q3, ChangeAuthor::Restore, &[("a.rs", v("a-user"), v("a1"))]);
    let undo = rewind([&restore]);
    assert_eq!(undo.targets[0].to, v("a-user"));
    assert!(undo.changed_by_user.is_empty());

    assert_eq!(after_message(&sim.conversation, MessageId(999), &all), None, "not on the branch");
}
