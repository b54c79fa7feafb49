//! Braid's SQLite store, the only crate that touches SQLite: the schema and
//! its migrations, saving and loading contexts (state, branches, messages),
//! the per-transition write that runs before any other effect, the file
//! freshness records, and crash recovery on open.
//!
//! One context's trouble stays its own: a corrupted row makes that context
//! fail to load with an error naming it, and every other context loads.

mod checkpoints;
mod counts;
mod error;
mod files;
mod images;
mod library;
mod load;
mod recover;
mod schema;
mod write;

pub use checkpoints::StoredCheckpoint;
pub use counts::ModelCounts;
pub use error::StoreError;
pub use files::FileRow;
pub use library::{SearchRow, HIT_END, HIT_START};
pub use recover::{RecoveredContext, RecoveryReport};

use braid_core::{ContextState, Conversation};
use braid_protocol::{BranchId, BranchLabel, ContextStatus};
use rusqlite::{Connection, Transaction, TransactionBehavior};
use std::path::{Path, PathBuf};

/// A context's descriptive fields (the core's).
pub use braid_core::ContextMeta;

/// A context as stored.
#[derive(Debug, Clone)]
pub struct LoadedContext {
    pub meta: ContextMeta,
    pub state: ContextState,
    pub conversation: Conversation,
}

/// A line of the context list: enough to draw it without loading messages.
#[derive(Debug, Clone, PartialEq)]
pub struct ContextListing {
    pub meta: ContextMeta,
    pub status: ContextStatus,
    pub message_count: u64,
    /// Oldest first.
    pub branches: Vec<BranchLabel>,
    pub active_branch: BranchId,
}

pub struct Store {
    conn: Connection,
    path: Option<PathBuf>,
}

impl Store {
    /// Opens (creating if needed) the database at `path` and migrates it.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| StoreError::open(path, e.to_string()))?;
        }
        let conn = Connection::open(path).map_err(|e| StoreError::open(path, e.to_string()))?;
        let mut store = Store { conn, path: Some(path.to_owned()) };
        store.prepare().map_err(|e| StoreError::open(path, e.to_string()))?;
        Ok(store)
    }

    /// A private in-memory database, for tests and benchmarks.
    pub fn open_in_memory() -> Result<Store, StoreError> {
        let conn = Connection::open_in_memory()?;
        let mut store = Store { conn, path: None };
        store.prepare()?;
        Ok(store)
    }

    fn prepare(&mut self) -> Result<(), StoreError> {
        // WAL with synchronous=NORMAL survives a crash or SIGKILL of the app
        // with every committed transaction; only an OS crash or power loss
        // can lose the last few.
        self.conn.pragma_update(None, "journal_mode", "WAL")?;
        self.conn.pragma_update(None, "synchronous", "NORMAL")?;
        self.conn.pragma_update(None, "foreign_keys", "ON")?;
        self.conn.busy_timeout(std::time::Duration::from_secs(5))?;
        schema::migrate(&mut self.conn)
    }

    /// A write transaction holding the write lock from its start. A
    /// deferred one that reads first cannot wait for another connection's
    /// write (WAL returns "database is locked" at once, past the busy
    /// timeout): a second process on the same data, such as the CLI beside
    /// the app, would lose its write.
    pub(crate) fn write(&mut self) -> rusqlite::Result<Transaction<'_>> {
        write_transaction(&mut self.conn)
    }

    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The schema version in force.
    pub fn schema_version(&self) -> Result<u32, StoreError> {
        Ok(self.conn.pragma_query_value(None, "user_version", |r| r.get(0))?)
    }
}

pub(crate) fn write_transaction(conn: &mut Connection) -> rusqlite::Result<Transaction<'_>> {
    conn.transaction_with_behavior(TransactionBehavior::Immediate)
}
