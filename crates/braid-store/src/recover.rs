//! Crash recovery on start-up: every context that was not Idle when the
//! process died comes back Idle, with its full history, a Recovery message
//! saying what was interrupted, and a log line. A context that cannot be
//! recovered is reported and the others still are.

use crate::{Store, StoreError};
use braid_core::machine::Effect;
use braid_core::recovery::recover;
use braid_protocol::{ContextId, StatusKind, Timestamp};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecoveredContext {
    pub context: ContextId,
    pub interrupted: StatusKind,
}

#[derive(Debug, Default)]
pub struct RecoveryReport {
    pub recovered: Vec<RecoveredContext>,
    pub failed: Vec<(ContextId, StoreError)>,
    /// Process groups of commands the last session left running, stopped
    /// (filled in by the runtime).
    pub stopped_process_groups: Vec<i32>,
    /// File restores a crash cut short, completed at start (filled in by
    /// the runtime), one sentence each.
    pub completed_restores: Vec<String>,
}

impl Store {
    pub fn recover_interrupted(&mut self, now: Timestamp) -> Result<RecoveryReport, StoreError> {
        let mut report = RecoveryReport::default();
        for id in self.busy_contexts()? {
            match self.recover_one(&id, now) {
                Ok(Some(interrupted)) => {
                    tracing::warn!(context = %id, ?interrupted, "recovered a context interrupted by a crash or kill; it is Idle again");
                    report.recovered.push(RecoveredContext { context: id, interrupted });
                }
                Ok(None) => {}
                Err(e) => {
                    tracing::error!(context = %id, error = %e, "could not recover context");
                    report.failed.push((id, e));
                }
            }
        }
        Ok(report)
    }

    fn recover_one(&mut self, id: &ContextId, now: Timestamp) -> Result<Option<StatusKind>, StoreError> {
        let mut loaded = self.load_context(id)?;
        let interrupted = loaded.state.status.kind();
        let Some((state, added)) = recover(&loaded.state, &loaded.conversation, now) else { return Ok(None) };
        for m in &added {
            loaded.conversation.apply(&Effect::AppendMessage(m.clone())).map_err(|e| StoreError::corrupt(id, e))?;
        }
        self.append_and_save(id, &state, &loaded.conversation, &added, now)?;
        Ok(Some(interrupted))
    }
}
