//! Model Context Protocol servers as a source of tools (rmcp): the
//! `mcpServers` settings, one supervised connection per server, and each
//! server tool in the catalogue as `mcp__<server>__<tool>`, judged by the
//! approval policy like any other.

pub mod client;
pub mod config;
pub mod context;
pub mod http;
pub mod names;
pub mod results;
pub mod server;
pub mod stdio;
pub mod tool;

pub use config::{McpConfig, ServerConfig, Transport};
pub use results::{ReadMcpResult, ResultStore};
pub use server::{Phase, Supervisor, Update};

/// A connection to a server, for requests beside tool calls (resources,
/// prompts); cheap to clone.
pub type McpPeer = rmcp::service::Peer<rmcp::RoleClient>;
