//! The cross-crate end-to-end tests against mock servers and real parts (llm_peer and local_model, which load the CPU with a real model, are binaries of their own).
//! One test binary, so a cold build links once instead of once per file.

mod codebase;
mod counting;
mod fuzz;
mod images;
mod mcp_pins;
mod mcp_protocols;
mod model_hub;
mod providers;
mod reads_together;
mod stable_requests;
mod subagent_copies;
mod subagents;
mod team;
mod transfer;
