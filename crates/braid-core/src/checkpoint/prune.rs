//! Keeping checkpoints in bounds: which to drop, oldest first — those
//! older than the time kept, then more while what the rest name is beyond
//! the space budget — never the newest change of a file in a conversation
//! (what the branch head holds, and where a rewind starts from).

use braid_protocol::{Checkpoint, ContentHash, ContextId, Timestamp};
use std::collections::{HashMap, HashSet};

/// A stored checkpoint, with its conversation and when it was recorded.
pub struct Aged<'a> {
    pub context: &'a ContextId,
    pub created_at: Timestamp,
    pub checkpoint: &'a Checkpoint,
}

/// The ids of the checkpoints to drop. `budget`: bytes that the contents
/// the kept checkpoints name may come to (each content counted once, at
/// its size).
pub fn prunable(all: &[Aged], now: Timestamp, keep_ms: u64, budget: u64) -> Vec<u64> {
    let mut newest: HashMap<(&ContextId, &str), u64> = HashMap::new();
    for a in all {
        for delta in &a.checkpoint.changes {
            let id = newest.entry((a.context, &delta.path)).or_default();
            *id = (*id).max(a.checkpoint.id);
        }
    }
    let needed: HashSet<u64> = newest.into_values().collect();
    let mut order: Vec<&Aged> = all.iter().collect();
    order.sort_by_key(|a| (a.created_at, a.checkpoint.id));
    let mut sizes: HashMap<&ContentHash, (u64, u32)> = HashMap::new();
    for a in &order {
        for v in a.checkpoint.changes.iter().flat_map(|d| d.before.iter().chain(d.after.iter())) {
            sizes.entry(&v.hash).or_insert((v.size, 0)).1 += 1;
        }
    }
    let mut total: u64 = sizes.values().map(|(size, _)| size).sum();
    let mut dropped = Vec::new();
    for a in order.into_iter().filter(|a| !needed.contains(&a.checkpoint.id)) {
        let old = now.0.saturating_sub(a.created_at.0) > keep_ms;
        if !old && total <= budget {
            continue;
        }
        dropped.push(a.checkpoint.id);
        for v in a.checkpoint.changes.iter().flat_map(|d| d.before.iter().chain(d.after.iter())) {
            if let Some((size, uses)) = sizes.get_mut(&v.hash) {
                *uses -= 1;
                if *uses == 0 {
                    total -= *size;
                }
            }
        }
    }
    dropped
}
