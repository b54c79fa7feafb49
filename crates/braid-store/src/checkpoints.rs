//! Checkpoints as stored: one row each, in the transaction of the step
//! that reported them; the file contents they name live in the
//! checkpoint store's folder.

use crate::{Store, StoreError};
use braid_protocol::{Checkpoint, ContextId, Timestamp};
use rusqlite::{params, Transaction};

pub(crate) fn write_checkpoint(
    tx: &Transaction<'_>,
    context: &ContextId,
    checkpoint: &Checkpoint,
    now: Timestamp,
) -> Result<(), StoreError> {
    let json = serde_json::to_string(checkpoint).map_err(|e| StoreError::Encode(e.to_string()))?;
    tx.prepare_cached("INSERT INTO checkpoints (context_id, message_id, json, created_at) VALUES (?1, ?2, ?3, ?4)")?
        .execute(params![context.0, checkpoint.message_id.0 as i64, json, now.0])?;
    Ok(())
}

impl Store {
    /// A conversation's checkpoints, oldest first, each with its row's id.
    /// A row that cannot be read is left out and logged, never an error.
    pub fn checkpoints(&self, context: &ContextId) -> Result<Vec<Checkpoint>, StoreError> {
        let mut stmt =
            self.conn.prepare_cached("SELECT id, json FROM checkpoints WHERE context_id = ?1 ORDER BY id")?;
        let rows = stmt.query_map(params![context.0], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))?;
        let mut out = Vec::new();
        for row in rows {
            let (id, json) = row?;
            match serde_json::from_str::<Checkpoint>(&json) {
                Ok(mut cp) => {
                    cp.id = id as u64;
                    out.push(cp);
                }
                Err(e) => tracing::warn!(context = %context, id, error = %e, "checkpoint left out"),
            }
        }
        Ok(out)
    }
}

/// A checkpoint as stored, with its conversation and when it was recorded.
pub struct StoredCheckpoint {
    pub context: ContextId,
    pub created_at: Timestamp,
    pub checkpoint: Checkpoint,
}

impl Store {
    /// Every conversation's checkpoints, oldest first (for pruning).
    pub fn all_checkpoints(&self) -> Result<Vec<StoredCheckpoint>, StoreError> {
        let mut stmt =
            self.conn.prepare_cached("SELECT id, context_id, created_at, json FROM checkpoints ORDER BY id")?;
        let rows = stmt.query_map([], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?, r.get::<_, i64>(2)?, r.get::<_, String>(3)?))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, context, at, json) = row?;
            if let Ok(mut checkpoint) = serde_json::from_str::<Checkpoint>(&json) {
                checkpoint.id = id as u64;
                out.push(StoredCheckpoint {
                    context: ContextId(context),
                    created_at: Timestamp(at.max(0) as u64),
                    checkpoint,
                });
            }
        }
        Ok(out)
    }

    /// Drops checkpoints by id, in one transaction.
    pub fn delete_checkpoints(&mut self, ids: &[u64]) -> Result<(), StoreError> {
        let tx = self.write()?;
        {
            let mut stmt = tx.prepare_cached("DELETE FROM checkpoints WHERE id = ?1")?;
            for id in ids {
                stmt.execute(params![*id as i64])?;
            }
        }
        tx.commit()?;
        Ok(())
    }
}
