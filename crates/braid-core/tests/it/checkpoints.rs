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
        .map(|(p, before, after)| FileDelta {
            path: (*p).into(),
            before: before.clone(),
            after: after.clone(),
            lines: None,
        })
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

fn sized(name: &str, size: u64) -> Option<FileVersion> {
    Some(FileVersion { hash: ContentHash(name.into()), kind: FileKind::File, size })
}

#[test]
fn a_turn_s_changes_are_its_model_s_net_of_the_undos_of_its_review() {
    let mut sim = Sim::new();
    answered(&mut sim, "q1", "a1");
    answered(&mut sim, "q2", "a2");
    let ids: Vec<MessageId> = sim.messages().iter().map(|m| m.id).collect();
    let (q1, a1, q2, a2) = (ids[0], ids[1], ids[2], ids[3]);
    let mut all = vec![
        cp(1, q1, ChangeAuthor::User, &[("mine.txt", v("m0"), v("m1"))]),
        cp(2, a1, ChangeAuthor::Model, &[("a.rs", v("a0"), v("a1")), ("new.txt", None, v("n1"))]),
        cp(3, a1, ChangeAuthor::Model, &[("a.rs", v("a1"), v("a2"))]),
        cp(4, a2, ChangeAuthor::Model, &[("b.rs", v("b0"), v("b1"))]),
    ];
    for (c, lines) in all.iter_mut().zip([(9, 9), (2, 1), (1, 0), (5, 5)]) {
        c.changes[0].lines = Some(braid_protocol::LineCount { added: lines.0, removed: lines.1 });
    }

    // The turns, each counted from its model's checkpoints (the user's own
    // edit before q1 is not the turn's).
    let turns = braid_core::checkpoint::changed_turns(&sim.conversation, &all);
    let counted: Vec<(MessageId, MessageId, u32, u32, u32)> =
        turns.iter().map(|t| (t.question, t.last, t.count.files, t.count.added, t.count.removed)).collect();
    assert_eq!(counted, [(q1, a1, 2, 3, 1), (q2, a2, 1, 5, 5)]);

    // Asked from any message of the turn: from before its first change to
    // after its last, per file.
    let (question, net) = braid_core::checkpoint::turn_changes(&sim.conversation, a1, &all).unwrap();
    assert_eq!(question, q1);
    let shown: Vec<(&str, Option<&str>, Option<&str>)> = net
        .iter()
        .map(|d| {
            (d.path.as_str(), d.before.as_ref().map(|v| v.hash.0.as_str()), d.after.as_ref().map(|v| v.hash.0.as_str()))
        })
        .collect();
    assert_eq!(shown, [("a.rs", Some("a0"), Some("a2")), ("new.txt", None, Some("n1"))]);

    // An undo from the review counts in the turn: new.txt, undone, leaves it.
    let undo = braid_core::context::Restored { changes_of: Some(q1), ..braid_core::context::Restored::to(q1) };
    let now = sim.now;
    let step = sim.files_restored(undo, now);
    sim.took(step);
    let note = sim.messages().last().unwrap().id;
    all.push(cp(5, note, ChangeAuthor::Restore, &[("new.txt", v("n1"), None)]));
    let (_, net) = braid_core::checkpoint::turn_changes(&sim.conversation, q1, &all).unwrap();
    assert_eq!(net.iter().map(|d| d.path.as_str()).collect::<Vec<_>>(), ["a.rs"]);
    assert_eq!(braid_core::checkpoint::turn_changes(&sim.conversation, MessageId(999), &all), None);
}

#[test]
fn pruning_drops_the_old_and_the_over_budget_oldest_first_never_a_file_s_newest() {
    use braid_core::checkpoint::{prunable, Aged};
    use braid_protocol::{ContextId, Timestamp};
    let ctx = ContextId("c".into());
    let day = 24 * 60 * 60 * 1000;
    let all = [
        cp(1, MessageId(1), ChangeAuthor::Model, &[("a", sized("a0", 100), sized("a1", 100))]),
        cp(2, MessageId(2), ChangeAuthor::Model, &[("b", sized("b0", 100), sized("b1", 100))]),
        cp(3, MessageId(3), ChangeAuthor::Model, &[("a", sized("a1", 100), sized("a2", 100))]),
        cp(4, MessageId(4), ChangeAuthor::Model, &[("c", sized("c0", 100), sized("c1", 100))]),
        cp(5, MessageId(5), ChangeAuthor::Model, &[("c", sized("c1", 100), sized("c2", 100))]),
    ];
    let at = [0, 1, 2, 40, 41];
    let aged: Vec<Aged> = all
        .iter()
        .zip(at)
        .map(|(c, d)| Aged { context: &ctx, created_at: Timestamp(d * day), checkpoint: c })
        .collect();
    let now = Timestamp(45 * day);
    // 30 days kept, room for all: the old ones go but 2 (b's newest) and 3 (a's newest).
    assert_eq!(prunable(&aged, now, 30 * day, 10_000), [1]);
    // A budget of 500 bytes: beyond the old, the oldest young one goes too (4),
    // never 5, the newest of c.
    assert_eq!(prunable(&aged, now, 30 * day, 500), [1, 4]);
    assert_eq!(prunable(&aged, now, 100 * day, 10_000), Vec::<u64>::new());
}

#[test]
fn the_files_have_one_history_whatever_the_branches() {
    let mut sim = Sim::new();
    answered(&mut sim, "q1", "a1");
    answered(&mut sim, "q2", "a2");
    let ids: Vec<MessageId> = sim.messages().iter().map(|m| m.id).collect();
    let (q1, a1, a2) = (ids[0], ids[1], ids[3]);
    // The conversation alone goes back to after a1; the files stay as a2 left them.
    sim.fork(a1, "again", true).unwrap();
    answered(&mut sim, "q3", "a3");
    let ids: Vec<MessageId> = sim.messages().iter().map(|m| m.id).collect();
    let (q3, a3) = (ids[2], ids[3]);
    let all = vec![
        cp(1, a1, ChangeAuthor::Model, &[("a", None, v("a1"))]),
        cp(2, a2, ChangeAuthor::Model, &[("a", v("a1"), v("a2"))]),
        cp(3, a3, ChangeAuthor::Model, &[("b", None, v("b1"))]),
    ];
    // To q3: only its own turn (a2 was written before q3 was sent).
    let after = after_message(&sim.conversation, q3, &all).unwrap();
    assert_eq!(after.iter().map(|c| c.id).collect::<Vec<_>>(), [3]);
    // To q1: the turns of both branches, expected as the disk holds them.
    let plan = rewind(after_message(&sim.conversation, q1, &all).unwrap());
    let targets: Vec<(&str, Option<&str>)> =
        plan.targets.iter().map(|t| (t.path.as_str(), t.expected.as_ref().map(|h| h.0.as_str()))).collect();
    assert_eq!(targets, [("a", Some("a2")), ("b", Some("b1"))]);
    assert_eq!(after_message(&sim.conversation, a2, &all), None, "a2 is not on the branch in use");
}
