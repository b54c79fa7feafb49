//! Random conversations against a reference model of every file: turns in
//! which the model edits lines of files (each edit far from the others, so
//! each is a hunk of its own), the user's edits between turns, rewinds of
//! the files, of the conversation (a branch from before the question) or
//! both, per-hunk undos from the latest turn's review, and restarts. The
//! core decides as in the app (a simulated conversation with its real
//! branches and notes: `after_message`, `rewind`, `turn_changes`); the
//! store scans, cuts hunks and restores on a real folder.

use crate::support::Place;
use braid_checkpoint::{changes, conflicts, hunks, Manifest};
use braid_core::checkpoint::{after_message, rewind, turn_changes};
use braid_core::context::Restored;
use braid_core::llm::LlmResponse;
use braid_core::machine::Event;
use braid_core::sim::Sim;
use braid_protocol::{ChangeAuthor, Checkpoint, FileKind, FileVersion, MessageId, MessageType, RestoreTarget, Role};
use proptest::prelude::*;
use std::collections::{BTreeMap, HashMap};

const FILES: [&str; 3] = ["a.txt", "src/b.rs", "notes/c.md"];
const LINES: usize = 30;
/// Where the model edits: ten lines apart, more than two contexts.
const SLOTS: [usize; 3] = [2, 12, 22];

#[derive(Debug, Clone)]
enum Op {
    /// A question, and an answer whose tools set these (file, slot) lines.
    Turn(Vec<(usize, usize)>),
    /// Outside Braid: a line of a file.
    UserEdit(usize, usize, u8),
    /// Back to question `k % n` of the branch in use: the files, the
    /// conversation, or both; `overwrite`: the user's changes too.
    Rewind {
        k: usize,
        files: bool,
        conversation: bool,
        overwrite: bool,
    },
    /// Undo hunk `pick % n` of a file the latest turn changed.
    UndoHunk(usize, usize),
    Restart,
}

fn op() -> impl Strategy<Value = Op> {
    let edits = prop::collection::btree_set((0..FILES.len(), 0..SLOTS.len()), 1..4)
        .prop_map(|s| Op::Turn(s.into_iter().collect()));
    prop_oneof![
        4 => edits,
        2 => (0..FILES.len(), 0..LINES, any::<u8>()).prop_map(|(f, l, v)| Op::UserEdit(f, l, v)),
        3 => (any::<usize>(), any::<bool>(), any::<bool>(), any::<bool>()).prop_map(|(k, files, conversation, overwrite)| {
            Op::Rewind { k, files: files || !conversation, conversation, overwrite }
        }),
        2 => (any::<usize>(), any::<usize>()).prop_map(|(f, h)| Op::UndoHunk(f, h)),
        1 => Just(Op::Restart),
    ]
}

type Files = BTreeMap<String, Vec<u8>>;

struct Session {
    sim: Sim,
    place: Place,
    last: Manifest,
    checkpoints: Vec<Checkpoint>,
    /// What every file must hold now.
    model: Files,
    /// What they held when each question was sent, and when that was.
    at_question: HashMap<MessageId, (Files, u64)>,
    /// When the user edited each file (a step number).
    user_edits: Vec<(u64, String)>,
    step: u64,
}

fn lines(bytes: &[u8]) -> Vec<String> {
    String::from_utf8(bytes.to_vec()).unwrap().lines().map(|l| format!("{l}\n")).collect()
}

impl Session {
    fn new() -> Session {
        let place = Place::new();
        let mut model = Files::new();
        for (i, f) in FILES.iter().enumerate() {
            let text: String = (0..LINES).map(|l| format!("file {i} line {l}\n")).collect();
            place.write(f, text.as_bytes());
            model.insert((*f).to_owned(), text.into_bytes());
        }
        let last = place.scan(&Manifest::default());
        Session {
            sim: Sim::new(),
            place,
            last,
            checkpoints: Vec::new(),
            model,
            at_question: HashMap::new(),
            user_edits: Vec::new(),
            step: 0,
        }
    }

    /// Looks at the folder: what changed since is `author`'s, on `message`.
    fn settle(&mut self, message: MessageId, author: ChangeAuthor) -> Vec<braid_protocol::FileDelta> {
        let now = self.place.scan(&self.last);
        let found = changes(&self.last, &now);
        self.last = now;
        if !found.is_empty() {
            let id = self.checkpoints.len() as u64 + 1;
            let cp = Checkpoint { id, message_id: message, author, changes: found.clone(), left_out: Vec::new() };
            self.checkpoints.push(cp);
        }
        found
    }

    /// A line of a file, in the reference only.
    fn expect_line(&mut self, file: usize, line: usize, text: String) {
        let path = FILES[file];
        let mut all = lines(&self.model[path]);
        all[line] = text;
        self.model.insert(path.to_owned(), all.concat().into_bytes());
    }

    /// A line of a file, on disk and in the reference.
    fn set_line(&mut self, file: usize, line: usize, text: String) {
        self.expect_line(file, line, text);
        self.place.write(FILES[file], &self.model[FILES[file]]);
    }

    fn questions(&self) -> Vec<MessageId> {
        let user = |m: &&braid_protocol::Message| matches!(m.body, MessageType::Text { role: Role::User, .. });
        self.sim.conversation.active_messages().filter(user).map(|m| m.id).collect()
    }

    fn latest(&self) -> MessageId {
        self.sim.conversation.active_messages().last().map_or(MessageId(0), |m| m.id)
    }

    /// Writes the targets (journaled), records the restore's note and its
    /// checkpoint, as the runtime does.
    fn restore(&mut self, targets: &[RestoreTarget], restored: Restored) {
        self.place.journal.restore(&self.place.root, &self.place.objects, targets).unwrap();
        let now = self.sim.now;
        let step = self.sim.files_restored(restored, now);
        self.sim.took(step);
        let note = self.latest();
        self.settle(note, ChangeAuthor::Restore);
    }

    fn apply(&mut self, op: Op) {
        self.step += 1;
        match op {
            Op::Turn(edits) => {
                self.sim.start("change some lines");
                let q = self.latest();
                self.settle(q, ChangeAuthor::User);
                self.at_question.insert(q, (self.model.clone(), self.step));
                for (f, s) in edits {
                    self.set_line(f, SLOTS[s], format!("turn {} slot {s}\n", self.step));
                }
                let rid = self.sim.request_id();
                self.sim.send(Event::LlmCompleted { request_id: rid, response: LlmResponse::text("done") });
                let a = self.latest();
                self.settle(a, ChangeAuthor::Model);
            }
            Op::UserEdit(f, l, v) => {
                self.set_line(f, l, format!("user {v}\n"));
                self.user_edits.push((self.step, FILES[f].to_owned()));
            }
            Op::Rewind { k, files, conversation, overwrite } => {
                let questions = self.questions();
                if questions.is_empty() {
                    return;
                }
                let q = questions[k % questions.len()];
                let latest = self.latest();
                self.settle(latest, ChangeAuthor::User);
                if files {
                    let plan = rewind(after_message(&self.sim.conversation, q, &self.checkpoints).unwrap());
                    assert!(conflicts(&self.place.root, &plan.targets).unwrap().is_empty(), "every change is recorded");
                    let (targets, kept): (Vec<_>, Vec<_>) =
                        plan.targets.into_iter().partition(|t| overwrite || !plan.changed_by_user.contains(&t.path));
                    let kept = kept.into_iter().map(|t| t.path).collect();
                    self.restore(&targets, Restored { kept, ..Restored::to(q) });
                    // The reference: as when q was sent, but for the files
                    // the user changed since (unless they said overwrite).
                    let (then, sent) = self.at_question[&q].clone();
                    for path in FILES {
                        let theirs = self.user_edits.iter().any(|(at, p)| *at > sent && p == path);
                        if overwrite || !theirs {
                            self.model.insert(path.to_owned(), then[path].clone());
                        }
                    }
                }
                if conversation {
                    let source = self.sim.conversation.active_branch().clone();
                    let now = self.sim.now;
                    if let Ok(draft) = self.sim.conversation.fork_before(&source, q, "Rewind", now) {
                        self.sim.send(Event::CreateBranch { draft: Box::new(draft), switch: true });
                    }
                }
            }
            Op::UndoHunk(f, pick) => {
                let Some(&q) = self.questions().last() else { return };
                let latest = self.latest();
                self.settle(latest, ChangeAuthor::User);
                let (_, net) = turn_changes(&self.sim.conversation, q, &self.checkpoints).unwrap();
                let Some(delta) = net.iter().find(|d| d.path == FILES[f % FILES.len()]).cloned() else { return };
                let text = |v: &Option<FileVersion>| {
                    String::from_utf8(self.place.objects.get(&v.as_ref().unwrap().hash).unwrap()).unwrap()
                };
                let (before, after) = (text(&delta.before), text(&delta.after));
                // Only while the file holds what the turn left (a merge with
                // later changes is the runtime's test).
                if self.model[&delta.path] != after.as_bytes() {
                    return;
                }
                let cut = hunks::hunks(&before, &after);
                let pick = (pick % cut.len()) as u32;
                let reverted = hunks::revert(&before, &after, &[pick]);
                let hash = self.place.objects.put(reverted.as_bytes()).unwrap();
                let to = Some(FileVersion { hash, kind: FileKind::File, size: reverted.len() as u64 });
                let expected = delta.after.as_ref().map(|v| v.hash.clone());
                let target = RestoreTarget { path: delta.path.clone(), to, expected };
                self.restore(&[target], Restored { changes_of: Some(q), ..Restored::to(q) });
                // The reference: the pick-th changed line, in file order, as
                // it was before the turn; every other line as the turn left it.
                let (old, new) = (lines(before.as_bytes()), lines(after.as_bytes()));
                let changed: Vec<usize> = (0..LINES).filter(|l| old[*l] != new[*l]).collect();
                let line = changed[pick as usize];
                let file = FILES.iter().position(|p| *p == delta.path).unwrap();
                self.expect_line(file, line, old[line].clone());
            }
            Op::Restart => self.last = self.place.restart(&self.last),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn every_file_holds_what_the_reference_says_through_forks_rewinds_and_hunk_undos(
        ops in prop::collection::vec(op(), 1..30)
    ) {
        let mut s = Session::new();
        for op in ops {
            let exact = match &op {
                Op::Rewind { files: true, overwrite: true, k, .. } => {
                    let q = s.questions();
                    (!q.is_empty()).then(|| q[k % q.len()])
                }
                _ => None,
            };
            s.apply(op.clone());
            prop_assert_eq!(&s.place.files(), &s.model, "after {:?}", op);
            // Overwriting everything, a rewind is exactly the moment the question was sent.
            if let Some(q) = exact {
                prop_assert_eq!(&s.place.files(), &s.at_question[&q].0);
            }
        }
    }
}
