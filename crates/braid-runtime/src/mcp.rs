//! MCP servers at run time: the settings file read and saved, one
//! supervised task per server (`braid_tools::mcp::Supervisor`), and what
//! each tells applied here: its tools join or leave the catalogue (every
//! loaded context is told), its state is kept for the settings.

use crate::mcp_servers::{Running, Servers};
use crate::mcp_workspace::{wanted, Wanted};
use crate::shared::Shared;
use crate::{Runtime, RuntimeError};
use braid_protocol::{McpServerStatus, McpSettings, McpState, ToolSource};
use braid_tools::mcp::{McpConfig, Phase, ReadMcpResult, ResultStore, Supervisor, Update};
use std::path::PathBuf;
use std::sync::{Arc, Weak};
use tokio::sync::{mpsc, watch};

/// The catalogue name of [`ReadMcpResult`].
const READ_RESULT: &str = "read_mcp_result";

impl Runtime {
    /// Reads the MCP settings at `path` (none there: no servers) and starts
    /// every enabled server in the background; nothing waits for them.
    /// Needs a tokio runtime.
    pub fn start_mcp(&self, path: PathBuf) {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(apply_updates(Arc::downgrade(&self.shared), rx));
        {
            let mut s = self.shared.mcp.lock();
            s.path = Some(path);
            s.updates = Some(tx);
            // Kept even when it cannot be used: the settings show it to mend.
            s.text = text.clone();
        }
        if let Err(e) = self.apply_mcp_settings(text) {
            tracing::warn!("MCP settings not used: {e}");
            self.shared.mcp.lock().error = Some(e);
        }
    }

    /// Changes whenever a server's state or tools change.
    pub fn mcp_changes(&self) -> watch::Receiver<u64> {
        self.shared.mcp.changed.subscribe()
    }

    pub fn mcp_settings(&self) -> McpSettings {
        let (mut settings, names) = {
            let s = self.shared.mcp.lock();
            let mut names: Vec<String> =
                s.running.values().flat_map(|r| r.wanted.config.transport.secret_names()).collect();
            names.sort();
            names.dedup();
            let settings = McpSettings {
                path: s.path.as_ref().map(|p| p.display().to_string()).unwrap_or_default(),
                text: s.text.clone(),
                servers: s.running.values().map(|r| r.status.clone()).collect(),
                error: s.error.clone(),
                workspace: s.workspace.as_ref().map(|(file, error)| file.view(error.clone())),
                secrets: Vec::new(),
            };
            (settings, names)
        };
        // Looked up with the lock let go: a keychain may take its time.
        settings.secrets = self.mcp_secrets(names);
        settings
    }

    /// Checks `text`, saves it (whole, or not at all), and starts, stops
    /// or restarts the servers that changed.
    pub async fn save_mcp_settings(&self, text: String) -> Result<McpSettings, RuntimeError> {
        McpConfig::parse(&text).map_err(RuntimeError::InvalidInput)?;
        let path = self.shared.mcp.lock().path.clone();
        let path = path.ok_or_else(|| RuntimeError::InvalidInput("MCP servers are not available here".into()))?;
        let tmp = path.with_extension("json.tmp");
        std::fs::write(&tmp, &text)
            .and_then(|()| std::fs::rename(&tmp, &path))
            .map_err(|e| RuntimeError::InvalidInput(format!("could not save {}: {e}", path.display())))?;
        self.apply_mcp_settings(text).map_err(RuntimeError::InvalidInput)?;
        self.shared.mcp.lock().error = None;
        Ok(self.mcp_settings())
    }

    pub async fn restart_mcp_server(&self, name: &str) -> Result<(), RuntimeError> {
        let mut s = self.shared.mcp.lock();
        let Some(r) = s.running.get(name) else {
            return Err(RuntimeError::InvalidInput(format!("there is no MCP server named {name:?}")));
        };
        let wanted = r.wanted.clone();
        self.start_server(&mut s, name, wanted);
        Ok(())
    }

    /// The user saw a held tool's new definition and accepts it: it is
    /// pinned, and the server starts again so the tool joins the catalogue.
    pub async fn accept_tool_definition(&self, server: &str, tool: &str) -> Result<McpSettings, RuntimeError> {
        let held = {
            let s = self.shared.mcp.lock();
            let r = s
                .running
                .get(server)
                .ok_or_else(|| RuntimeError::InvalidInput(format!("there is no MCP server named {server:?}")))?;
            r.status.held.iter().find(|h| h.name == tool).cloned().ok_or_else(|| {
                RuntimeError::InvalidInput(format!("the MCP server {server} holds no changed tool named {tool:?}"))
            })?
        };
        self.shared.pins.accept(server, &held).map_err(RuntimeError::InvalidInput)?;
        self.restart_mcp_server(server).await?;
        Ok(self.mcp_settings())
    }

    /// Every open conversation hears that a server changed tools it
    /// offered: they are held until the user accepts them.
    async fn tell_held(&self, server: &str, tools: &[String]) {
        let text = format!(
            "The MCP server {server} changed the definition of {}: {} held (not offered to the model) until you \
             accept the new definition in Settings → MCP, where the difference is shown.",
            tools.join(", "),
            if tools.len() == 1 { "it is" } else { "they are" }
        );
        let notice = braid_protocol::Notice::new(braid_protocol::NoticeCode::ToolHeld, text);
        self.shared.contexts.notify_all(notice).await;
    }

    /// Restarts the servers whose settings name the secret `name`.
    pub(crate) fn restart_servers_using(&self, name: &str) {
        let mut s = self.shared.mcp.lock();
        let using: Vec<(String, Wanted)> = s
            .running
            .iter()
            .filter(|(_, r)| r.wanted.config.transport.secret_names().iter().any(|n| n == name))
            .map(|(n, r)| (n.clone(), r.wanted.clone()))
            .collect();
        for (server, wanted) in using {
            self.start_server(&mut s, &server, wanted);
        }
    }

    /// Runs what the settings `text` and the workspace's `.mcp.json` (read
    /// again) ask for: servers gone are stopped, new or changed ones
    /// started, the others left running.
    pub(crate) fn apply_mcp_settings(&self, text: String) -> Result<(), String> {
        let config = McpConfig::parse(&text)?;
        let workspace = self.read_workspace_mcp();
        let (servers, note) = wanted(config, workspace.as_ref());
        let mut s = self.shared.mcp.lock();
        s.text = text;
        s.workspace = workspace.map(|w| (w, note));
        let gone: Vec<String> = s.running.keys().filter(|n| !servers.contains_key(*n)).cloned().collect();
        for name in gone {
            if let Some(mut r) = s.running.remove(&name) {
                stop(&mut r);
                self.forget_tools(&r.status.tools);
            }
        }
        for (name, server) in servers {
            if s.running.get(&name).is_some_and(|r| r.wanted == server) {
                continue;
            }
            self.start_server(&mut s, &name, server);
        }
        // Reading a cut result is offered while there are servers to cut one.
        if s.running.is_empty() {
            self.forget_tools(&[READ_RESULT.to_owned()]);
        } else {
            let store = ResultStore::new(self.results_dir(), braid_tools::mcp::results::DEFAULT_CAP_CHARS);
            self.edit_catalogue(|tools| {
                if let Err(e) = tools.register(Arc::new(ReadMcpResult(store))) {
                    tracing::warn!("{READ_RESULT} not offered: {e}");
                }
            });
        }
        Ok(())
    }

    /// (Re)starts one server: its old task (and process) stop first. One
    /// not trusted or turned off is shown, not started.
    fn start_server(&self, s: &mut Servers, name: &str, wanted: Wanted) {
        if let Some(mut old) = s.running.remove(name) {
            stop(&mut old);
            self.forget_tools(&old.status.tools);
        }
        let config = &wanted.config;
        let mut status = McpServerStatus {
            name: name.to_owned(),
            transport: config.transport.describe(),
            state: McpState::Disabled,
            reason: None,
            retrying: false,
            stderr: Vec::new(),
            tools: Vec::new(),
            ready_count: 0,
            origin: wanted.origin,
            protocol: None,
            startup_timeout_ms: config.startup_timeout.as_millis() as u64,
            call_timeout_ms: config.call_timeout.as_millis() as u64,
            held: Vec::new(),
            refused: Vec::new(),
        };
        let mut task = None;
        s.generations += 1;
        let generation = s.generations;
        if !wanted.trusted {
            status.state = McpState::Untrusted;
            status.reason = Some("from the workspace's .mcp.json, which you have not trusted yet".into());
        } else if let (false, Some(updates)) = (config.disabled, s.updates.clone()) {
            status.state = McpState::Starting;
            let weak = Arc::downgrade(&self.shared);
            let me = name.to_owned();
            let secrets = weak.clone();
            let supervisor = Supervisor {
                name: name.to_owned(),
                generation,
                config: config.clone(),
                workspace: self.shared.config.default_working_dir.clone(),
                results: ResultStore::new(self.results_dir(), braid_tools::mcp::results::DEFAULT_CAP_CHARS),
                // A name another server's tool holds is not taken over.
                taken: Arc::new(move |n: &str| {
                    weak.upgrade()
                        .and_then(|sh| sh.tools().get(n).map(|t| t.source()))
                        .is_some_and(|src| src != ToolSource::Mcp { server: me.clone() })
                }),
                secret: Arc::new(move |n: &str| secrets.upgrade().and_then(|shared| Runtime { shared }.mcp_secret(n))),
                updates,
            };
            task = Some(tokio::spawn(supervisor.run()).abort_handle());
        }
        s.running.insert(name.to_owned(), Running { generation, wanted, status, task, peer: None });
    }

    /// Takes a stopped server's tools out at once (a restarted server's
    /// new tools, which come later, must not be taken out with them); the
    /// loaded contexts are told in the background.
    fn forget_tools(&self, names: &[String]) {
        if !names.is_empty() {
            self.edit_catalogue(|tools| {
                for name in names {
                    tools.unregister(name);
                }
            });
        }
    }

    fn results_dir(&self) -> PathBuf {
        self.shared.config.db_path.parent().map(PathBuf::from).unwrap_or_default().join("mcp-results")
    }
}

fn stop(r: &mut Running) {
    if let Some(t) = r.task.take() {
        t.abort();
    }
}

/// Applies what the servers tell, in order, while the runtime lives.
async fn apply_updates(shared: Weak<Shared>, mut rx: mpsc::UnboundedReceiver<Update>) {
    while let Some(u) = rx.recv().await {
        let Some(shared) = shared.upgrade() else { return };
        let rt = Runtime { shared };
        let (old, new) = {
            let mut s = rt.shared.mcp.lock();
            // An update from a task already replaced (restarted, removed)
            // is dropped.
            let Some(r) = s.running.get_mut(&u.server).filter(|r| r.generation == u.generation) else { continue };
            if let Some(uri) = u.resource_updated {
                s.updated.insert((u.server, uri), crate::clock::now());
                drop(s);
                rt.shared.mcp.changed.send_modify(|n| *n += 1);
                continue;
            }
            // A changed definition is held until the user accepts it; the
            // server is known by the name it gives itself.
            let peer = u.peer.as_ref().or(r.peer.as_ref());
            let identity =
                peer.and_then(|p| p.peer_info()).and_then(|i| i.server_info.as_ref().map(|s| s.name.clone()));
            let checked = u.tools.map(|tools| rt.shared.pins.check(&u.server, identity.as_deref(), tools));
            let old = checked.as_ref().map(|_| r.status.tools.clone()).unwrap_or_default();
            let newly_held: Vec<String> = checked
                .iter()
                .flat_map(|(_, held)| held.iter().map(|h| h.name.clone()))
                .filter(|name| !r.status.held.iter().any(|h| &h.name == name))
                .collect();
            (old, checked.map(|c| (c, newly_held)))
        };
        // The catalogue first, then the status: whoever sees the server
        // ready finds its tools offered (a test calling one at once did not).
        let mut refused = Vec::new();
        if let Some(((tools, _), newly_held)) = &new {
            refused = rt.replace_tools(&old, tools.clone()).await;
            if !newly_held.is_empty() {
                rt.tell_held(&u.server, newly_held).await;
            }
        }
        {
            let mut s = rt.shared.mcp.lock();
            let Some(r) = s.running.get_mut(&u.server).filter(|r| r.generation == u.generation) else { continue };
            r.peer = u.peer;
            let st = &mut r.status;
            (st.state, st.reason, st.retrying) = match &u.phase {
                Phase::Starting { .. } => (McpState::Starting, st.reason.take(), false),
                Phase::Ready => {
                    if st.state != McpState::Ready {
                        st.ready_count += 1;
                    }
                    st.protocol = u.protocol.or(st.protocol.take());
                    (McpState::Ready, None, false)
                }
                Phase::Failed { reason, retrying } => (McpState::Failed, Some(reason.clone()), *retrying),
            };
            st.stderr = u.stderr;
            if let Some(((tools, held), _)) = new {
                st.held = held;
                // Listed as the catalogue has them: a look-alike it
                // refused is listed apart, with why.
                st.tools = tools
                    .iter()
                    .map(|t| t.name().to_owned())
                    .filter(|n| !refused.iter().any(|(r, _)| r == n))
                    .collect();
                st.refused = refused.into_iter().map(|(_, why)| why).collect();
            }
        }
        rt.shared.mcp.changed.send_modify(|n| *n += 1);
    }
}
