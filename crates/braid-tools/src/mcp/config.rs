//! The `mcpServers` file, in the form Claude Desktop and Claude Code use:
//! `{"mcpServers": {NAME: {command, args, env, cwd} | {type: "http", url,
//! headers}}}`, plus Braid's own optional keys per server (`disabled`,
//! `startupTimeoutMs`, `callTimeoutMs`). Unknown keys are kept out of the
//! way, not refused, so a file shared with another app loads.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::time::Duration;

/// How long a server may take to start before it is shown as failed.
pub const STARTUP_TIMEOUT: Duration = Duration::from_secs(30);
/// How long one tool call may take.
pub const CALL_TIMEOUT: Duration = Duration::from_secs(300);
/// The largest message a stdio server may send (`maxResultMb`): rmcp's
/// own default, which keeps a server that never ends a line from
/// filling memory.
pub const MAX_MESSAGE_MB: u64 = 16;

#[derive(Debug, Clone, PartialEq)]
pub struct McpConfig {
    /// By name, in name order.
    pub servers: BTreeMap<String, ServerConfig>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ServerConfig {
    pub transport: Transport,
    pub disabled: bool,
    pub startup_timeout: Duration,
    pub call_timeout: Duration,
    /// The largest message, in bytes, a stdio server may send.
    pub max_message_bytes: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Transport {
    /// A child process speaking MCP on its stdin and stdout.
    Stdio { command: String, args: Vec<String>, env: BTreeMap<String, String>, cwd: Option<String> },
    /// Streamable HTTP.
    Http { url: String, headers: BTreeMap<String, String> },
}

impl Transport {
    /// One line for the settings: the command or the URL.
    pub fn describe(&self) -> String {
        match self {
            Transport::Stdio { command, args, .. } => {
                std::iter::once(command.as_str()).chain(args.iter().map(String::as_str)).collect::<Vec<_>>().join(" ")
            }
            Transport::Http { url, .. } => url.clone(),
        }
    }

    /// The secrets its `env` or `headers` name as `${secret:NAME}`.
    pub fn secret_names(&self) -> Vec<String> {
        let values = match self {
            Transport::Stdio { env, .. } => env.values(),
            Transport::Http { headers, .. } => headers.values(),
        };
        let mut names: Vec<String> = values.flat_map(|v| secrets_in(v).into_iter().map(|(_, n)| n)).collect();
        names.sort();
        names.dedup();
        names
    }

    /// The transport with every `${secret:NAME}` replaced by the secret's
    /// value; a secret not set is an error that names it.
    pub fn with_secrets(&self, lookup: &dyn Fn(&str) -> Option<String>) -> Result<Transport, String> {
        let fill = |map: &BTreeMap<String, String>| -> Result<BTreeMap<String, String>, String> {
            map.iter()
                .map(|(k, v)| {
                    let mut out = v.clone();
                    for (token, name) in secrets_in(v) {
                        let value = lookup(&name).ok_or_else(|| {
                            format!("the secret {name:?} ({k}) is not set; set it under Settings → MCP servers")
                        })?;
                        out = out.replace(&token, &value);
                    }
                    Ok((k.clone(), out))
                })
                .collect()
        };
        Ok(match self {
            Transport::Stdio { command, args, env, cwd } => {
                Transport::Stdio { command: command.clone(), args: args.clone(), env: fill(env)?, cwd: cwd.clone() }
            }
            Transport::Http { url, headers } => Transport::Http { url: url.clone(), headers: fill(headers)? },
        })
    }
}

/// The `${secret:NAME}` tokens in `value`: (token, NAME).
fn secrets_in(value: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = value;
    while let Some(start) = rest.find("${secret:") {
        let after = &rest[start + "${secret:".len()..];
        let Some(end) = after.find('}') else { break };
        let name = &after[..end];
        if !name.is_empty() {
            out.push((format!("${{secret:{name}}}"), name.to_owned()));
        }
        rest = &after[end + 1..];
    }
    out
}

#[derive(Deserialize)]
struct File {
    #[serde(rename = "mcpServers", default)]
    servers: BTreeMap<String, Entry>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Entry {
    #[serde(rename = "type")]
    kind: Option<String>,
    command: Option<String>,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    cwd: Option<String>,
    url: Option<String>,
    #[serde(default)]
    headers: BTreeMap<String, String>,
    #[serde(default)]
    disabled: bool,
    startup_timeout_ms: Option<u64>,
    call_timeout_ms: Option<u64>,
    max_result_mb: Option<u64>,
}

impl McpConfig {
    pub fn empty() -> McpConfig {
        McpConfig { servers: BTreeMap::new() }
    }

    /// Reads the file's text; every error names the server it is about.
    pub fn parse(text: &str) -> Result<McpConfig, String> {
        if text.trim().is_empty() {
            return Ok(McpConfig::empty());
        }
        let file: File = serde_json::from_str(text).map_err(|e| format!("the MCP settings are not valid: {e}"))?;
        let mut servers = BTreeMap::new();
        for (name, e) in file.servers {
            check_name(&name)?;
            let transport = match (e.kind.as_deref(), e.command, e.url) {
                (None | Some("stdio"), Some(command), None) if !command.trim().is_empty() => {
                    Transport::Stdio { command, args: e.args, env: e.env, cwd: e.cwd }
                }
                (None | Some("http" | "streamable-http" | "streamableHttp"), None, Some(url)) => {
                    if !(url.starts_with("http://") || url.starts_with("https://")) {
                        return Err(format!(
                            "MCP server {name:?}: the url must start with http:// or https:// ({url})"
                        ));
                    }
                    Transport::Http { url, headers: e.headers }
                }
                (Some("sse"), ..) => {
                    return Err(format!(
                        "MCP server {name:?}: the old SSE transport is not supported; use the server's streamable HTTP \
                         endpoint (type \"http\")"
                    ))
                }
                (Some(other), ..) if !matches!(other, "stdio" | "http" | "streamable-http" | "streamableHttp") => {
                    return Err(format!("MCP server {name:?}: unknown type {other:?} (use \"stdio\" or \"http\")"))
                }
                _ => {
                    return Err(format!(
                        "MCP server {name:?} needs either a command (a program that speaks MCP on stdio) or a url \
                         (streamable HTTP), and not both"
                    ))
                }
            };
            let ms = |v: Option<u64>, default: Duration| v.map_or(default, Duration::from_millis);
            let mb = match e.max_result_mb.unwrap_or(MAX_MESSAGE_MB) {
                0 => return Err(format!("MCP server {name:?}: maxResultMb must be at least 1")),
                mb => usize::try_from(mb.saturating_mul(1024 * 1024)).unwrap_or(usize::MAX),
            };
            servers.insert(
                name,
                ServerConfig {
                    transport,
                    disabled: e.disabled,
                    startup_timeout: ms(e.startup_timeout_ms, STARTUP_TIMEOUT),
                    call_timeout: ms(e.call_timeout_ms, CALL_TIMEOUT),
                    max_message_bytes: mb,
                },
            );
        }
        Ok(McpConfig { servers })
    }
}

/// A server's name goes into its tools' names: letters, digits, `_` and
/// `-` (no `__`), at most 32 bytes.
pub fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.len() > 32 {
        return Err(format!("the MCP server name {name:?} must be 1 to 32 characters long"));
    }
    if let Some(c) = name.chars().find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-')) {
        return Err(format!("the MCP server name {name:?} contains {c:?}; use only letters, digits, '_' and '-'"));
    }
    // `mcp__<server>__<tool>` is read back by the first `__` after the
    // server's name: a name holding one would be misread.
    if name.contains("__") {
        return Err(format!("the MCP server name {name:?} contains \"__\", which tool names use to set it apart"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn reads_the_claude_desktop_form_with_braids_own_keys() {
        let c = McpConfig::parse(
            r#"{"mcpServers": {
                "files": {"command": "npx", "args": ["-y", "fs", "/tmp"], "env": {"A": "1"}},
                "web": {"type": "http", "url": "http://127.0.0.1:3001/mcp", "headers": {"Authorization": "Bearer x"},
                        "callTimeoutMs": 5000, "disabled": true},
                "other": {"command": "x", "someoneElsesKey": 1}
            }, "globalShortcut": "Ctrl+Space"}"#,
        )
        .unwrap();
        let files = &c.servers["files"];
        assert_eq!(files.transport.describe(), "npx -y fs /tmp");
        assert_eq!(files.startup_timeout, STARTUP_TIMEOUT);
        let web = &c.servers["web"];
        assert!(web.disabled);
        assert_eq!(web.call_timeout, Duration::from_millis(5000));
        assert!(matches!(&web.transport, Transport::Http { headers, .. } if headers["Authorization"] == "Bearer x"));
        assert_eq!(McpConfig::parse("").unwrap(), McpConfig::empty());
    }

    #[test]
    fn secrets_are_named_and_filled_in_only_where_the_settings_say() {
        let c = McpConfig::parse(
            r#"{"mcpServers": {
                "gh": {"command": "gh-mcp", "args": ["${secret:ARG}"], "env": {"TOKEN": "${secret:GH}", "N": "1"}},
                "web": {"url": "https://h/mcp", "headers": {"Authorization": "Bearer ${secret:WEB}${secret:GH}"}}
            }}"#,
        )
        .unwrap();
        let (gh, web) = (&c.servers["gh"].transport, &c.servers["web"].transport);
        assert_eq!(gh.secret_names(), ["GH"], "args are not filled in: they show in the settings");
        assert_eq!(web.secret_names(), ["GH", "WEB"]);
        let lookup = |n: &str| (n != "WEB").then(|| format!("<{n}>"));
        let Transport::Stdio { env, args, .. } = gh.with_secrets(&lookup).unwrap() else { panic!() };
        assert_eq!((env["TOKEN"].as_str(), env["N"].as_str(), args[0].as_str()), ("<GH>", "1", "${secret:ARG}"));
        let err = web.with_secrets(&lookup).unwrap_err();
        assert!(err.contains("\"WEB\" (Authorization) is not set"), "{err}");
        assert!(!gh.describe().contains("<GH>"));
    }

    #[test]
    fn says_which_server_is_wrong_and_why() {
        let err = |text: &str| McpConfig::parse(text).unwrap_err();
        assert!(err(r#"{"mcpServers": {"a": {}}}"#).contains("\"a\" needs either a command"));
        assert!(err(r#"{"mcpServers": {"a": {"command": "x", "url": "http://h"}}}"#).contains("not both"));
        assert!(err(r#"{"mcpServers": {"a": {"type": "sse", "url": "http://h"}}}"#).contains("SSE transport"));
        assert!(err(r#"{"mcpServers": {"a": {"url": "ftp://h"}}}"#).contains("http:// or https://"));
        assert!(err(r#"{"mcpServers": {"a b": {"command": "x"}}}"#).contains("contains ' '"));
        assert!(err(r#"{"mcpServers": {"a__b": {"command": "x"}}}"#).contains("contains \"__\""));
        assert!(err(r#"{"mcpServers": {"a": {"type": "ws", "url": "http://h"}}}"#).contains("unknown type"));
        assert!(err("{not json").contains("not valid"));
    }
}
