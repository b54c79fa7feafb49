//! MCP resources and prompts as a conversation's context: listed from
//! every ready server, `@server:uri` mentions read into McpResource
//! messages stored before the text, prompts filled in for the composer.

use crate::{Runtime, RuntimeError};
use braid_protocol::mcp::{McpPromptInfo, McpResourceInfo, McpResourceTemplate};
use braid_protocol::{MessageType, Timestamp};
use braid_tools::mcp::{context, McpPeer};
use std::collections::BTreeMap;
use std::time::Duration;

/// Listing waits no longer than this for a server.
const LIST_LIMIT: Duration = Duration::from_secs(10);

impl Runtime {
    /// Every ready server's resources, server by server.
    pub async fn list_mcp_resources(&self) -> Vec<McpResourceInfo> {
        let peers = self.shared.mcp.peers();
        let lists = peers.iter().map(|(name, peer, _)| context::resources(peer, name, LIST_LIMIT));
        futures::future::join_all(lists).await.into_iter().flatten().collect()
    }

    /// Every ready server's resource templates, server by server.
    pub async fn list_mcp_templates(&self) -> Vec<McpResourceTemplate> {
        let peers = self.shared.mcp.peers();
        let lists = peers.iter().map(|(name, peer, _)| context::templates(peer, name, LIST_LIMIT));
        futures::future::join_all(lists).await.into_iter().flatten().collect()
    }

    /// Every ready server's prompts, server by server.
    pub async fn list_mcp_prompts(&self) -> Vec<McpPromptInfo> {
        let peers = self.shared.mcp.peers();
        let lists = peers.iter().map(|(name, peer, _)| context::prompts(peer, name, LIST_LIMIT));
        futures::future::join_all(lists).await.into_iter().flatten().collect()
    }

    /// The prompt `name` of `server` filled in with `arguments`.
    pub async fn get_mcp_prompt(
        &self,
        server: &str,
        name: &str,
        arguments: BTreeMap<String, String>,
    ) -> Result<String, RuntimeError> {
        let (peer, limit) = self.mcp_peer(server)?;
        let args = arguments.into_iter().map(|(k, v)| (k, serde_json::Value::String(v))).collect();
        context::prompt_text(&peer, server, name, args, limit).await.map_err(RuntimeError::InvalidInput)
    }

    fn mcp_peer(&self, server: &str) -> Result<(McpPeer, Duration), RuntimeError> {
        let peers = self.shared.mcp.peers();
        match peers.into_iter().find(|(n, ..)| n == server) {
            Some((_, peer, limit)) => Ok((peer, limit)),
            None => Err(RuntimeError::InvalidInput(format!("the MCP server {server} is not ready"))),
        }
    }
}

/// What the pipeline needs to read the resources a message mentions.
#[derive(Clone)]
pub(crate) struct ResourceReader {
    peers: Vec<(String, McpPeer, Duration)>,
}

impl ResourceReader {
    pub(crate) fn new(rt: &crate::shared::Shared) -> ResourceReader {
        ResourceReader { peers: rt.mcp.peers() }
    }

    /// The `@server:uri` mentions in `text` of ready servers.
    pub(crate) fn mentions(&self, text: &str) -> Vec<(String, String)> {
        let names: Vec<String> = self.peers.iter().map(|(n, ..)| n.clone()).collect();
        context::mentions(text, &names)
    }

    /// Reads each mention into an McpResource message, or the first error.
    pub(crate) async fn read(&self, mentions: &[(String, String)], now: Timestamp) -> Result<Vec<MessageType>, String> {
        let mut out = Vec::new();
        for (server, uri) in mentions {
            let Some((_, peer, limit)) = self.peers.iter().find(|(n, ..)| n == server) else {
                return Err(format!("@{server}:{uri}: the MCP server {server} is not ready"));
            };
            let (content, mime_type) = context::read_text(peer, server, uri, *limit).await?;
            out.push(MessageType::McpResource {
                server_name: server.clone(),
                resource_uri: uri.clone(),
                content,
                mime_type,
                retrieved_at: now,
            });
        }
        Ok(out)
    }
}
