//! Test support shared by every crate's tests, kept once: a mock HTTP
//! server on 127.0.0.1 that replays scripted replies and records what it
//! receives ([`mock`]), the three provider families' stream formats
//! ([`sse`]), a runtime harness that waits on a context's events rather
//! than polling ([`harness`]), scripts for the fake provider ([`script`]),
//! a fake model for sub-agents ([`children`]), a stand-in model hub
//! ([`hub`]) and workspace fixtures ([`fixtures`]).
//! The cross-crate end-to-end tests live beside it in `tests/tests/`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test support: a panic is how a test reports

/// Hostile model files (issue #65), written by the GGUF reader's crate.
pub use braid_local::crafted;
pub mod children;
pub mod counting;
pub mod fixtures;
pub mod harness;
pub mod hostile_hub;
pub mod hub;
pub mod local;
pub mod loopback;
pub mod mcp;
pub mod mock;
pub mod script;
pub mod sse;
