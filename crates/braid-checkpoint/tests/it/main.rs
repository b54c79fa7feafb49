//! The checkpoint store against real folders: scans, restores, a restore
//! killed part way, and random sessions against a reference model.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

mod conversation;
mod killed;
mod properties;
mod scan;
mod support;
