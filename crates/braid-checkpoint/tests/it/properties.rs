//! Random sessions against a reference model of what every file must hold:
//! turns in which the model writes, edits through a shell and deletes;
//! the user's edits between turns; rewinds to the moment a question was
//! sent (overwriting the user's files or leaving them, as the user
//! chooses); undoing a rewind; restarts (the store and the last snapshot
//! read back from disk).
//!
//! Message ids: turn k's question is 2k, its tool results 2k+1. The user's
//! changes found at the start of turn k belong to 2k (they came before
//! the question was sent), the model's to 2k+1.

use crate::support::Place;
use braid_checkpoint::{changes, conflicts, Manifest};
use braid_core::checkpoint::rewind;
use braid_protocol::{ChangeAuthor, Checkpoint, MessageId};
use proptest::prelude::*;
use std::collections::BTreeMap;

const PATHS: [&str; 5] = ["a.txt", "src/b.rs", "src/deep/c.md", "run.sh", "notes/d.txt"];

#[derive(Debug, Clone)]
enum Op {
    /// The model's write tool.
    ModelWrite(usize, u8),
    /// The model's `run_command` (sed -i, rm): same files, another way in.
    ShellAppend(usize, u8),
    ModelDelete(usize),
    /// Outside Braid, between turns.
    UserWrite(usize, u8),
    /// A turn ends and the next begins.
    Turn,
    /// Files back to when question `k % turns` was sent; `overwrite`: the
    /// user also lets their own changes be overwritten.
    Rewind(usize, bool),
    UndoRewind,
    Restart,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0..PATHS.len(), any::<u8>()).prop_map(|(p, v)| Op::ModelWrite(p, v)),
        2 => (0..PATHS.len(), any::<u8>()).prop_map(|(p, v)| Op::ShellAppend(p, v)),
        1 => (0..PATHS.len()).prop_map(Op::ModelDelete),
        2 => (0..PATHS.len(), any::<u8>()).prop_map(|(p, v)| Op::UserWrite(p, v)),
        3 => Just(Op::Turn),
        2 => (any::<usize>(), any::<bool>()).prop_map(|(k, o)| Op::Rewind(k, o)),
        1 => Just(Op::UndoRewind),
        1 => Just(Op::Restart),
    ]
}

type Files = BTreeMap<String, Vec<u8>>;

struct Session {
    place: Place,
    /// What the files must hold now.
    model: Files,
    /// What they held when each question was sent.
    at_question: Vec<Files>,
    checkpoints: Vec<Checkpoint>,
    last: Manifest,
    turn: u64,
    /// Changes made in Braid since the last turn boundary (model or restore).
    user_pending: bool,
}

impl Session {
    fn new() -> Session {
        let place = Place::new();
        let last = place.scan(&Manifest::default());
        let mut s = Session {
            place,
            model: Files::new(),
            at_question: Vec::new(),
            checkpoints: Vec::new(),
            last,
            turn: 0,
            user_pending: false,
        };
        s.at_question.push(s.model.clone());
        s
    }

    fn record(&mut self, message: u64, author: ChangeAuthor) {
        let now = self.place.scan(&self.last);
        let delta = changes(&self.last, &now);
        self.last = now;
        if !delta.is_empty() {
            let id = self.checkpoints.len() as u64 + 1;
            let message_id = MessageId(message);
            self.checkpoints.push(Checkpoint { id, message_id, author, changes: delta, left_out: Vec::new() });
        }
    }

    fn write(&mut self, path: &str, bytes: Vec<u8>) {
        self.place.write(path, &bytes);
        self.model.insert(path.to_owned(), bytes);
    }

    /// The user's edits since the last scan become their checkpoint, on
    /// the question about to be sent or the restore about to be made.
    fn settle_user(&mut self, message: u64) {
        if self.user_pending {
            self.record(message, ChangeAuthor::User);
            self.user_pending = false;
        }
    }

    fn apply(&mut self, op: Op) {
        let q = 2 * self.turn;
        match op {
            Op::ModelWrite(p, v) => self.write(PATHS[p], format!("model {v}\n").into_bytes()),
            Op::ShellAppend(p, v) => {
                let mut bytes = self.model.get(PATHS[p]).cloned().unwrap_or_default();
                bytes.extend(format!("sed {v}\n").bytes());
                self.write(PATHS[p], bytes);
            }
            Op::ModelDelete(p) => {
                if self.model.remove(PATHS[p]).is_some() {
                    std::fs::remove_file(self.place.root.join(PATHS[p])).unwrap();
                }
            }
            Op::UserWrite(p, v) => {
                // Model edits of this turn are recorded first: they are the model's.
                self.record(q + 1, ChangeAuthor::Model);
                self.write(PATHS[p], format!("user {v}\n").into_bytes());
                self.user_pending = true;
            }
            Op::Turn => {
                self.record(q + 1, ChangeAuthor::Model);
                self.turn += 1;
                self.settle_user(2 * self.turn);
                self.at_question.push(self.model.clone());
            }
            Op::Rewind(k, overwrite) => {
                self.record(q + 1, ChangeAuthor::Model);
                self.settle_user(q + 1);
                let k = k % self.at_question.len();
                let after: Vec<&Checkpoint> =
                    self.checkpoints.iter().filter(|cp| cp.message_id.0 > 2 * k as u64).collect();
                let plan = rewind(after);
                assert!(conflicts(&self.place.root, &plan.targets).unwrap().is_empty(), "all recorded");
                let targets: Vec<_> =
                    plan.targets.into_iter().filter(|t| overwrite || !plan.changed_by_user.contains(&t.path)).collect();
                self.place.journal.restore(&self.place.root, &self.place.objects, &targets).unwrap();
                for t in &targets {
                    match self.at_question[k].get(&t.path) {
                        Some(bytes) => self.model.insert(t.path.clone(), bytes.clone()),
                        None => self.model.remove(&t.path),
                    };
                }
                self.record(q + 1, ChangeAuthor::Restore);
            }
            Op::UndoRewind => {
                self.record(q + 1, ChangeAuthor::Model);
                self.settle_user(q + 1);
                let Some(last) = self.checkpoints.last().filter(|cp| cp.author == ChangeAuthor::Restore).cloned()
                else {
                    return;
                };
                let plan = rewind([&last]);
                self.place.journal.restore(&self.place.root, &self.place.objects, &plan.targets).unwrap();
                for d in &last.changes {
                    let before = d.before.as_ref().map(|v| self.place.objects.get(&v.hash).unwrap());
                    match before {
                        Some(bytes) => self.model.insert(d.path.clone(), bytes),
                        None => self.model.remove(&d.path),
                    };
                }
                self.record(q + 1, ChangeAuthor::Restore);
            }
            Op::Restart => self.last = self.place.restart(&self.last),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn every_file_holds_what_the_reference_says_after_every_step(ops in prop::collection::vec(op(), 1..40)) {
        let mut s = Session::new();
        for op in ops {
            let rewound = match &op {
                Op::Rewind(k, true) => Some(k % s.at_question.len()),
                _ => None,
            };
            s.apply(op);
            prop_assert_eq!(&s.place.files(), &s.model);
            // Overwriting everything, a rewind is exactly the moment the question was sent.
            if let Some(k) = rewound {
                prop_assert_eq!(&s.place.files(), &s.at_question[k]);
            }
        }
    }
}
