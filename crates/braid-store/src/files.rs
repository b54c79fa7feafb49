//! File freshness records: what the agent read or wrote in a conversation,
//! so a change made while Braid was closed is seen at the next start. They
//! are written in the transaction of the transition that follows the read
//! or write (the tool's result), and loaded with the conversation.

use crate::{Store, StoreError};
use braid_protocol::ContextId;
use rusqlite::{params, Transaction};

/// One file's record, as stored; `braid-workspace` has the live one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileRow {
    /// The real path (absolute).
    pub path: String,
    /// Milliseconds since the epoch.
    pub read_at: Option<i64>,
    pub edit_at: Option<i64>,
    /// Nanoseconds since the epoch, as the file system gave them.
    pub mtime_ns: Option<i64>,
    pub size: u64,
    pub hash: u64,
    pub ctime_ns: Option<i64>,
    pub last_access: i64,
}

pub(crate) fn write_files(tx: &Transaction<'_>, context: &ContextId, rows: &[FileRow]) -> Result<(), StoreError> {
    let mut stmt = tx.prepare_cached(
        "INSERT OR REPLACE INTO file_records
         (context_id, path, read_at, edit_at, mtime_ns, size, hash, ctime_ns, last_access)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?;
    for r in rows {
        // SQLite integers are i64: the u64s are stored as their bits.
        stmt.execute(params![
            context.0,
            r.path,
            r.read_at,
            r.edit_at,
            r.mtime_ns,
            r.size as i64,
            r.hash as i64,
            r.ctime_ns,
            r.last_access
        ])?;
    }
    Ok(())
}

impl Store {
    /// A conversation's file records, in path order.
    pub fn load_files(&self, context: &ContextId) -> Result<Vec<FileRow>, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT path, read_at, edit_at, mtime_ns, size, hash, ctime_ns, last_access
             FROM file_records WHERE context_id = ?1 ORDER BY path",
        )?;
        let rows = stmt.query_map(params![context.0], |r| {
            Ok(FileRow {
                path: r.get(0)?,
                read_at: r.get(1)?,
                edit_at: r.get(2)?,
                mtime_ns: r.get(3)?,
                size: r.get::<_, i64>(4)? as u64,
                hash: r.get::<_, i64>(5)? as u64,
                ctime_ns: r.get(6)?,
                last_access: r.get(7)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}
