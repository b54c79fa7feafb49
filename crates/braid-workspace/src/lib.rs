//! The conversation's workspace on disk: every path confined to it
//! ([`paths`]), `@file` references resolved with line ranges ([`refs`]),
//! and the freshness of the files the agent has read or written
//! ([`freshness`]): changed outside Braid, when and by how much. Files
//! someone else put there are opened as [`plain`] files only.

pub mod files;
pub mod freshness;
pub mod paths;
pub mod plain;
pub mod refs;
