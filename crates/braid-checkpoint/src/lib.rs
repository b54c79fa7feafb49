//! Checkpoints of a workspace, without git: what a turn changed, as the
//! content before and after of each file, kept once by content in the
//! app's data folder, and put back atomically.
//!
//! - [`objects`]: the content store (SHA-256 named, deflated, written once).
//! - [`scan`]: a snapshot of the workspace (`.gitignore` honoured, a size
//!   limit per file); a file whose size, time and inode are those of the
//!   previous snapshot is not read again.
//! - [`changes`]: what differs between two snapshots, in files and lines.
//! - [`hunks`]: a text change cut into hunks, and taken back hunk by hunk.
//! - [`merge`]: two lines of work's files merged three-way against their
//!   base, with what cannot be merged said as a conflict.
//! - [`isolate`]: a copy of the working files for a line of work of its
//!   own (reflinked where the file system can).
//! - [`restore`]: writing a set of files back to chosen contents, each
//!   file replaced by a rename and the whole set journaled, so that a
//!   restore cut short by a crash is completed on the next start.

pub mod changes;
pub mod hunks;
pub mod isolate;
pub mod merge;
pub mod objects;
pub mod restore;
pub mod scan;

pub use changes::{changes, count_lines};
pub use objects::{hash_of, Objects};
pub use restore::{conflicts, current, version, Commit, Conflict, Journal, Recovered};
pub use scan::{scan, Limits, Manifest, Scanned, Skipped};

#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("the checkpoint store has no content {0}; it may have been pruned")]
    Missing(braid_protocol::ContentHash),
    #[error("{0}")]
    Invalid(String),
}

impl CheckpointError {
    pub(crate) fn io(path: impl std::fmt::Display, source: std::io::Error) -> CheckpointError {
        CheckpointError::Io { path: path.to_string(), source }
    }
}
