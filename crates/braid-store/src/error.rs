//! Store errors. Each says which context (and message) it concerns, so one
//! bad context can be reported without hiding the others.

use braid_protocol::{ContextId, MessageId};
use std::path::Path;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("could not open the database at {path}: {reason} (if the file is damaged, move it aside and Braid starts a new one)")]
    Open { path: String, reason: String },
    #[error("context {0} does not exist")]
    NotFound(ContextId),
    #[error("context {context}: message {message} is corrupted: {reason}")]
    CorruptMessage { context: ContextId, message: MessageId, reason: String },
    #[error("context {context} is corrupted: {reason}")]
    CorruptContext { context: ContextId, reason: String },
    #[error("the database was written by a newer Braid (schema {found}, this build knows {known})")]
    FutureSchema { found: u32, known: u32 },
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("could not encode: {0}")]
    Encode(String),
}

impl StoreError {
    pub(crate) fn open(path: &Path, reason: String) -> StoreError {
        StoreError::Open { path: path.display().to_string(), reason }
    }
    pub(crate) fn corrupt(context: &ContextId, reason: impl ToString) -> StoreError {
        StoreError::CorruptContext { context: context.clone(), reason: reason.to_string() }
    }
}
