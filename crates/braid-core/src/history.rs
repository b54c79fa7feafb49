//! Transition history: what happened to a context, most recent last. Pure
//! data; the runtime keeps one per context, the simulator one per test.

use braid_protocol::{StatusKind, Timestamp};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TransitionRecord {
    pub at: Timestamp,
    pub event: String,
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
