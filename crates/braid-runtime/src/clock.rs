//! The runtime's clock and id source: the only place the time is read.

use braid_protocol::{ContextId, Timestamp};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

pub fn now() -> Timestamp {
    Timestamp(SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64))
}

/// Microseconds since an arbitrary origin, for measuring durations.
pub fn micros() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_micros() as u64)
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// A new context id: time-ordered, unique within a process and, by the
/// nanosecond part, across processes.
pub fn new_context_id() -> ContextId {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    ContextId(format!("ctx-{nanos:x}-{n:x}"))
}
