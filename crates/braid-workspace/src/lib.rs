//! The conversation's workspace on disk: every path confined to it
//! ([`paths`]), `@file` references resolved with line ranges ([`refs`]),
//! and the freshness of the files the agent has read or written
//! ([`freshness`]): changed outside Braid, when and by how much.

pub mod files;
pub mod freshness;
pub mod paths;
pub mod refs;
