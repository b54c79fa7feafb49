//! An MCP server's resources and prompts, as context for a conversation:
//! `@server:uri` mentions, resources read as text, prompts listed and
//! filled in.

use braid_protocol::mcp::{McpPromptArgument, McpPromptInfo, McpResourceInfo, McpResourceTemplate};
use rmcp::model::{GetPromptRequestParams, ReadResourceRequestParams};
use rmcp::service::Peer;
use rmcp::RoleClient;
use serde_json::Value;
use std::time::Duration;

/// The longest resource inserted whole (about 25,000 tokens).
pub const MAX_RESOURCE_CHARS: usize = 100_000;

/// The `@server:scheme://…` mentions in `text` of servers in `servers`,
/// in order: (server, uri). Trailing punctuation is not part of the URI.
pub fn mentions(text: &str, servers: &[String]) -> Vec<(String, String)> {
    braid_workspace::refs::tokens(text)
        .into_iter()
        .filter_map(|token| token.split_once(':'))
        .filter(|(server, uri)| uri.contains("://") && servers.iter().any(|s| s == server))
        .map(|(server, uri)| (server.to_owned(), uri.to_owned()))
        .collect()
}

/// The server's resources (none when it offers none or cannot list them).
pub async fn resources(peer: &Peer<RoleClient>, server: &str, limit: Duration) -> Vec<McpResourceInfo> {
    let Ok(Ok(listed)) = tokio::time::timeout(limit, peer.list_all_resources()).await else { return Vec::new() };
    listed
        .into_iter()
        .map(|r| McpResourceInfo {
            server: server.to_owned(),
            uri: r.uri.clone(),
            name: r.title.clone().unwrap_or_else(|| r.name.clone()),
            description: r.description.clone(),
            mime_type: r.mime_type.clone(),
        })
        .collect()
}

/// The server's resource templates (none when it offers none or cannot
/// list them).
pub async fn templates(peer: &Peer<RoleClient>, server: &str, limit: Duration) -> Vec<McpResourceTemplate> {
    let Ok(Ok(listed)) = tokio::time::timeout(limit, peer.list_all_resource_templates()).await else {
        return Vec::new();
    };
    listed
        .into_iter()
        .map(|t| McpResourceTemplate {
            server: server.to_owned(),
            variables: variables(&t.uri_template),
            uri_template: t.uri_template.clone(),
            name: t.title.clone().unwrap_or_else(|| t.name.clone()),
            description: t.description.clone(),
            mime_type: t.mime_type.clone(),
        })
        .collect()
}

/// The variables of an RFC 6570 URI template, in order, once each:
/// `a://{x}/{+y}{?p,q*}` → x, y, p, q.
pub fn variables(template: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else { break };
        let expr = rest[open + 1..open + close].trim_start_matches(['+', '#', '.', '/', ';', '?', '&']);
        for var in expr.split(',') {
            let name = var.split(':').next().unwrap_or_default().trim_end_matches('*');
            if !name.is_empty() && !out.iter().any(|v| v == name) {
                out.push(name.to_owned());
            }
        }
        rest = &rest[open + close + 1..];
    }
    out
}

/// The server's prompts (none when it offers none or cannot list them).
pub async fn prompts(peer: &Peer<RoleClient>, server: &str, limit: Duration) -> Vec<McpPromptInfo> {
    let Ok(Ok(listed)) = tokio::time::timeout(limit, peer.list_all_prompts()).await else { return Vec::new() };
    listed
        .into_iter()
        .map(|p| McpPromptInfo {
            server: server.to_owned(),
            name: p.name.clone(),
            description: p.description.clone(),
            arguments: p
                .arguments
                .unwrap_or_default()
                .into_iter()
                .map(|a| McpPromptArgument {
                    name: a.name,
                    description: a.description,
                    required: a.required == Some(true),
                })
                .collect(),
        })
        .collect()
}

/// Reads a resource as text: its text contents joined; a binary one is
/// refused with the reason (it cannot be read as text).
pub async fn read_text(
    peer: &Peer<RoleClient>,
    server: &str,
    uri: &str,
    limit: Duration,
) -> Result<(String, Option<String>), String> {
    let read = tokio::time::timeout(limit, peer.read_resource(ReadResourceRequestParams::new(uri)))
        .await
        .map_err(|_| format!("@{server}:{uri}: the server did not answer within {} s", limit.as_secs()))?
        .map_err(|e| format!("@{server}:{uri}: {}", super::client::describe(server, &e)))?;
    let v = serde_json::to_value(&read).unwrap_or_default();
    let contents = v.get("contents").and_then(Value::as_array).cloned().unwrap_or_default();
    let mut texts = Vec::new();
    let mut mime = None;
    for c in &contents {
        mime = mime.or_else(|| c.get("mimeType").and_then(Value::as_str).map(str::to_owned));
        match c.get("text").and_then(Value::as_str) {
            Some(t) => texts.push(t.to_owned()),
            None => {
                return Err(format!(
                    "@{server}:{uri} is binary ({}); only text resources can be added to a conversation",
                    mime.as_deref().unwrap_or("no type given")
                ))
            }
        }
    }
    if texts.is_empty() {
        return Err(format!("@{server}:{uri}: the server returned nothing for it"));
    }
    let text = texts.join("\n");
    let chars = text.chars().count();
    if chars > MAX_RESOURCE_CHARS {
        return Err(format!(
            "@{server}:{uri} is {chars} characters, more than the {MAX_RESOURCE_CHARS} a resource may have in a conversation"
        ));
    }
    Ok((text, mime))
}

/// Asks the server to say when `uri` changes, if it can; a server that
/// cannot is read again when the resource goes stale instead.
pub async fn subscribe(peer: &Peer<RoleClient>, uri: &str, limit: Duration) {
    let can = peer.peer_info().and_then(|i| i.capabilities.resources.as_ref().and_then(|r| r.subscribe));
    if can == Some(true) {
        // The 2025-11-25 way; a server of the stateless protocol refuses it.
        #[allow(deprecated)]
        let asked = tokio::time::timeout(limit, peer.subscribe(rmcp::model::SubscribeRequestParams::new(uri))).await;
        if !matches!(asked, Ok(Ok(_))) {
            tracing::debug!(uri, "the MCP server did not take the subscription");
        }
    }
}

/// A prompt filled in with `arguments`: its messages' text, each under
/// its role when there are several.
pub async fn prompt_text(
    peer: &Peer<RoleClient>,
    server: &str,
    name: &str,
    arguments: serde_json::Map<String, Value>,
    limit: Duration,
) -> Result<String, String> {
    let mut params = GetPromptRequestParams::new(name);
    params.arguments = Some(arguments);
    let got = tokio::time::timeout(limit, peer.get_prompt(params))
        .await
        .map_err(|_| format!("the MCP server {server} did not answer within {} s", limit.as_secs()))?
        .map_err(|e| super::client::describe(server, &e))?;
    let v = serde_json::to_value(&got).unwrap_or_default();
    let messages = v.get("messages").and_then(Value::as_array).cloned().unwrap_or_default();
    let parts: Vec<(String, String)> = messages
        .iter()
        .map(|m| {
            let role = m.get("role").and_then(Value::as_str).unwrap_or("user").to_owned();
            let c = m.get("content").cloned().unwrap_or_default();
            let text = match c.get("text").and_then(Value::as_str) {
                Some(t) => t.to_owned(),
                None => match c.pointer("/resource/text").and_then(Value::as_str) {
                    Some(t) => t.to_owned(),
                    None => format!("[{} content]", c.get("type").and_then(Value::as_str).unwrap_or("other")),
                },
            };
            (role, text)
        })
        .collect();
    Ok(match parts.as_slice() {
        [(_, only)] => only.clone(),
        _ => parts.iter().map(|(r, t)| format!("{r}: {t}")).collect::<Vec<_>>().join("\n\n"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mentions_name_a_known_server_and_a_uri() {
        let servers = vec!["docs".to_owned(), "everything".to_owned()];
        assert_eq!(
            mentions(
                "read @docs:demo://a/b.md, then (@everything:file:///x.txt). Not @other:x://y nor @a.rs",
                &servers
            ),
            [("docs".to_owned(), "demo://a/b.md".to_owned()), ("everything".to_owned(), "file:///x.txt".to_owned())]
        );
        assert!(mentions("mail@docs:demo://a and @docs:nouri", &servers).is_empty());
    }

    #[test]
    fn a_templates_variables_are_found_in_every_form() {
        assert_eq!(variables("demo://resource/dynamic/text/{resourceId}"), ["resourceId"]);
        assert_eq!(variables("a://{x}/{+y}{/x}{?p,q*}{&r:3}"), ["x", "y", "p", "q", "r"]);
        assert!(variables("plain://no-variables").is_empty());
        assert_eq!(variables("broken://{x"), Vec::<String>::new());
    }
}
