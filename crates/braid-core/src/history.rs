//! Transition history: what happened to a context, most recent last. Pure
//! data; the runtime keeps one per context, the simulator one per test.

use braid_protocol::{StatusKind, Timestamp};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TransitionRecord {
    pub at: Timestamp,
    // Borrowed when made here (a name the core gives, one per streamed
    // chunk): only a record read back from JSON owns its name.
    pub event: std::borrow::Cow<'static, str>,
    pub from: StatusKind,
    pub to: StatusKind,
    pub effects: usize,
}

/// A bounded log: the oldest records go first.
#[derive(Debug, Clone)]
pub struct TransitionLog {
    capacity: usize,
    records: VecDeque<TransitionRecord>,
}

impl TransitionLog {
    pub fn new(capacity: usize) -> TransitionLog {
        TransitionLog { capacity: capacity.max(1), records: VecDeque::new() }
    }

    pub fn push(&mut self, record: TransitionRecord) {
        if self.records.len() == self.capacity {
            self.records.pop_front();
        }
        self.records.push_back(record);
    }

    pub fn records(&self) -> impl ExactSizeIterator<Item = &TransitionRecord> {
        self.records.iter()
    }
}
