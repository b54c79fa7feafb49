//! Checkpoints kept in bounds: the time they are kept and the space they
//! may take (a setting, with the space used shown beside it), pruned at
//! start and whenever the setting changes — the core says which go, the
//! store drops them, and the contents nothing names any more are removed.

use crate::checkpoints::Checkpoints;
use crate::{Runtime, RuntimeError};
use braid_core::checkpoint::{prunable, Aged};
use braid_protocol::{CheckpointStorage, ContentHash};
use braid_store::Store;
use std::collections::HashSet;
use std::sync::{Mutex, PoisonError};

const DAY_MS: u64 = 24 * 60 * 60 * 1000;
const MB: u64 = 1024 * 1024;

/// Drops what falls outside the setting; answers the setting with the
/// space used and the checkpoints kept afterwards.
pub(crate) fn prune(checkpoints: &Checkpoints, store: &Mutex<Store>) -> Result<CheckpointStorage, RuntimeError> {
    let lock = || store.lock().unwrap_or_else(PoisonError::into_inner);
    let mut storage = checkpoints.storage();
    let all = lock().all_checkpoints()?;
    let aged: Vec<Aged> =
        all.iter().map(|s| Aged { context: &s.context, created_at: s.created_at, checkpoint: &s.checkpoint }).collect();
    let keep_ms = u64::from(storage.keep_days) * DAY_MS;
    let dropped = prunable(&aged, crate::clock::now(), keep_ms, u64::from(storage.budget_mb) * MB);
    if !dropped.is_empty() {
        lock().delete_checkpoints(&dropped)?;
    }
    let gone: HashSet<u64> = dropped.iter().copied().collect();
    let kept = all.iter().filter(|s| !gone.contains(&s.checkpoint.id));
    let named: HashSet<ContentHash> = kept
        .clone()
        .flat_map(|s| s.checkpoint.changes.iter())
        .flat_map(|d| d.before.iter().chain(d.after.iter()))
        .map(|v| v.hash.clone())
        .collect();
    let freed = checkpoints.sweep(named);
    if !dropped.is_empty() || freed > 0 {
        tracing::info!(checkpoints = dropped.len(), freed, "old checkpoints pruned");
    }
    storage.checkpoints = kept.count() as u32;
    storage.used_bytes = checkpoints.size_on_disk();
    Ok(storage)
}

impl Runtime {
    pub async fn checkpoint_storage(&self) -> Result<CheckpointStorage, RuntimeError> {
        let shared = self.shared.clone();
        tokio::task::spawn_blocking(move || {
            let mut storage = shared.checkpoints.storage();
            storage.checkpoints = shared.lock_store().all_checkpoints()?.len() as u32;
            storage.used_bytes = shared.checkpoints.size_on_disk();
            Ok(storage)
        })
        .await
        .map_err(|e| RuntimeError::InvalidInput(e.to_string()))?
    }

    pub async fn set_checkpoint_storage(
        &self,
        keep_days: u32,
        budget_mb: u32,
    ) -> Result<CheckpointStorage, RuntimeError> {
        if keep_days == 0 || budget_mb == 0 {
            return Err(RuntimeError::InvalidInput(
                "checkpoints are kept at least one day, within at least 1 MB".into(),
            ));
        }
        let storage = CheckpointStorage { keep_days, budget_mb, ..CheckpointStorage::default() };
        self.shared.checkpoints.save_storage(&storage).map_err(RuntimeError::InvalidInput)?;
        let shared = self.shared.clone();
        tokio::task::spawn_blocking(move || prune(&shared.checkpoints, &shared.store))
            .await
            .map_err(|e| RuntimeError::InvalidInput(e.to_string()))?
    }
}
