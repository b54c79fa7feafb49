//! braid-runtime's tests: the runtime on a real SQLite file and real tasks, with fake providers.
//! One test binary, so a cold build links once instead of once per file.

mod branch_copies;
mod branches;
mod changes;
mod checkpoints;
mod codebase;
mod context;
mod freshness;
mod guarantees;
mod instructions;
mod library;
mod mcp;
mod mcp_workspace;
mod merge;
mod merge_files;
mod merge_killed;
mod merge_properties;
mod payloads;
mod references;
mod runtime;
mod sandbox;
mod secret_leaks;
mod secrets;
mod settings;
mod titles;
mod tools;
mod workspace;
