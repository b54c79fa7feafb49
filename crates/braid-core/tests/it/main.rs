//! braid-core's tests: the pure machine, messages, merges and budgets, with no runtime.
//! One test binary, so a cold build links once instead of once per file.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

// Shared by several test modules: declared once (a file loaded as two
// modules is refused by clippy).
#[path = "support/merging.rs"]
mod merging;
#[path = "support/tool_calls.rs"]
mod tool_calls;

mod approval_properties;
mod branches;
mod call_checks;
mod catalogue;
mod checkpoints;
mod context_flows;
mod continuation;
mod events;
mod flows;
mod graph;
mod injection;
mod kept;
mod merge;
mod merge_conflicts;
mod merge_properties;
mod messages;
mod optimize;
mod payload;
mod pipeline;
mod prepare;
mod properties;
mod sandbox_approval;
mod secret_calls;
mod secret_transforms;
mod secrets;
mod speed;
mod subagents;
mod system_prompt;
mod team_context;
mod team_routing;
mod team_streams;
mod title;
mod tokens;
mod tool_approvals;
mod tool_loop;
mod transfer;
mod vision;
mod window;
mod workflow;
mod workspace;
