//! MCP resources and prompts as a conversation's context: listed from
//! every ready server, `@server:uri` mentions read into McpResource
//! messages stored before the text, prompts filled in for the composer.

use crate::{Runtime, RuntimeError};
use braid_core::resources::{self, ResourceKey};
use braid_protocol::mcp::{McpPromptInfo, McpResourceInfo, McpResourceTemplate};
use braid_protocol::{Message, MessageType, Timestamp};
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

/// What the pipeline needs to read the resources of a message.
#[derive(Clone)]
pub(crate) struct ResourceReader {
    peers: Vec<(String, McpPeer, Duration)>,
    updated: BTreeMap<ResourceKey, Timestamp>,
}

/// What to read for one message.
pub(crate) struct Reads {
    /// Its `@server:uri` mentions of ready servers: each must be read.
    pub mentions: Vec<ResourceKey>,
    /// Those and the resources in play gone stale, as the core decides.
    pub all: Vec<ResourceKey>,
}

impl ResourceReader {
    pub(crate) fn new(rt: &crate::shared::Shared) -> ResourceReader {
        ResourceReader { peers: rt.mcp.peers(), updated: rt.mcp.updated() }
    }

    /// The resources to read for a message with `text` on a branch that
    /// holds `messages`; resources of servers not ready are left as held.
    pub(crate) fn plan<'a>(
        &self,
        text: &str,
        messages: impl IntoIterator<Item = &'a Message>,
        now: Timestamp,
    ) -> Reads {
        let names: Vec<String> = self.peers.iter().map(|(n, ..)| n.clone()).collect();
        let mentions = context::mentions(text, &names);
        let all = resources::to_read(messages, &mentions, &self.updated, now, resources::FRESH_FOR_MS);
        let all = all.into_iter().filter(|(server, _)| names.contains(server)).collect();
        Reads { mentions, all }
    }

    /// Reads each into an McpResource message, and asks its server to say
    /// when it changes. A mention that cannot be read is the error; a
    /// resource only read again keeps its older copy.
    pub(crate) async fn read(&self, reads: &Reads, now: Timestamp) -> Result<Vec<MessageType>, String> {
        let mut out = Vec::new();
        for key @ (server, uri) in &reads.all {
            let Some((_, peer, limit)) = self.peers.iter().find(|(n, ..)| n == server) else { continue };
            match context::read_text(peer, server, uri, *limit).await {
                Ok((content, mime_type)) => {
                    context::subscribe(peer, uri, *limit).await;
                    out.push(MessageType::McpResource {
                        server_name: server.clone(),
                        resource_uri: uri.clone(),
                        content,
                        mime_type,
                        retrieved_at: now,
                    });
                }
                Err(e) if reads.mentions.contains(key) => return Err(e),
                Err(e) => tracing::warn!(server, uri, error = %e, "a resource in play was not read again"),
            }
        }
        Ok(out)
    }
}
