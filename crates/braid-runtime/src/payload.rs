//! Typed payloads (`SendMessageRequest`): checked by the core, then sent as
//! a message, run as a workflow, or given as a tool call's result. A
//! refusal stores nothing.

use crate::{Runtime, RuntimeError};
use braid_core::machine::{Event, Reply};
use braid_core::payload::{self, Checked};
use braid_protocol::{Payload, PayloadReceipt, SendMessageRequest};

impl Runtime {
    pub async fn send_payload(&self, request: SendMessageRequest) -> Result<PayloadReceipt, RuntimeError> {
        let checked = payload::check(&request).map_err(RuntimeError::Rejected)?;
        let id = &request.context_id;
        let (message_id, queued) = match checked {
            Checked::Message(message) => {
                if let Payload::McpResource { server, .. } = &request.payload {
                    self.check_mcp_server(server)?;
                }
                let receipt = self.send_message(id, message, request.queue_if_busy).await?;
                (receipt.message_id, receipt.queued)
            }
            Checked::Workflow { name, arguments } => {
                let receipt = self.run_workflow(id, &name, arguments).await?;
                (receipt.message_id, receipt.queued)
            }
            Checked::ToolResult { call_id, outcome } => {
                // The receipt names the request the result answers.
                match self.command(id, Event::ToolResultSupplied { call_id, outcome }).await? {
                    Reply::Message(request) => (request, false),
                    _ => return Err(RuntimeError::InvalidInput("the tool result was not taken".to_owned())),
                }
            }
        };
        Ok(PayloadReceipt { message_id, queued, client_metadata: request.client_metadata })
    }

    /// A resource is read only from a server that is connected: a mention
    /// of another would go as plain text.
    fn check_mcp_server(&self, server: &str) -> Result<(), RuntimeError> {
        let peers = self.shared.mcp.peers();
        if peers.iter().any(|(name, ..)| name == server) {
            return Ok(());
        }
        let names: Vec<&str> = peers.iter().map(|(n, ..)| n.as_str()).collect();
        let known = if names.is_empty() { "none".to_owned() } else { names.join(", ") };
        Err(RuntimeError::InvalidInput(format!(
            "mcp_resource: no connected MCP server is named {server:?} (connected: {known})"
        )))
    }
}
