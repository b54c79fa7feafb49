//! Braid's pure domain: typed messages and their stored form, contexts with
//! branches, the state machine, the message pipeline, invariants and crash
//! recovery.
//!
//! Nothing here reads a clock, touches the file system or the network, or
//! knows tokio: time comes in as an argument (`now`), and everything that
//! must happen in the world leaves as an [`machine::Effect`] for the runtime
//! to carry out. That is what makes every flow testable step by step, with a
//! simulated clock ([`sim::Sim`]).

pub mod approval;
pub mod arguments;
pub mod checkpoint;
pub mod codec;
pub mod context;
pub mod conversation;
pub mod events;
pub mod fit;
pub mod graph;
pub mod history;
pub mod invariants;
pub mod llm;
pub mod machine;
pub mod merge;
pub mod optimize;
pub mod payload;
pub mod pipeline;
pub mod prompt;
pub mod recovery;
pub mod resources;
pub mod secrets;
#[cfg(any(test, feature = "sim"))]
pub mod sim;
pub mod subagents;
pub mod team;
pub mod title;
pub mod tokens;
pub mod tool_need;
pub mod transfer;
pub mod untrusted;
pub mod validate;
pub mod versions;
pub mod vision;
pub mod workflow;

pub use context::{Context, ContextMeta, Step};
pub use conversation::{Branch, BranchDeletion, Conversation, ConversationError, PipelineConfig};
pub use machine::{transition, ContextState, Effect, Event, MachineConfig, Reply};
