//! The tool catalogue at run time: tools join (an MCP server's, an
//! agent's) and leave, and every loaded context is told at once.

use crate::{Runtime, RuntimeError};
use braid_tools::ToolRegistry;
use std::sync::{Arc, PoisonError};

impl Runtime {
    /// Every loaded context gets the catalogue again: its tools, and the
    /// models a sub-agent's task may name (they follow the providers).
    pub(crate) async fn send_catalogue(&self) {
        self.shared.contexts.catalogue_changed(self.shared.catalogue()).await;
    }

    /// What `changed` answered, once every loaded context has the
    /// catalogue again (a change to the providers).
    pub(crate) async fn then_catalogue<T>(&self, changed: Result<T, RuntimeError>) -> Result<T, RuntimeError> {
        let answer = changed?;
        self.send_catalogue().await;
        Ok(answer)
    }

    /// The tool catalogue: every registered tool, and the sub-agent tools.
    pub fn tools(&self) -> Vec<braid_protocol::ToolSpec> {
        self.shared.catalogue()
    }

    /// Adds a tool (an MCP server's, an agent's) to the catalogue of every
    /// context, loaded or not. The approval policy judges its calls like
    /// any other's, by its permission.
    pub async fn register_tool(&self, tool: Arc<dyn braid_tools::Tool>) -> Result<(), RuntimeError> {
        self.swap_catalogue(|next| next.register(tool)).map_err(|e| RuntimeError::InvalidInput(e.to_string()))?;
        self.send_catalogue().await;
        Ok(())
    }

    /// Removes a tool from the catalogue; false if there was none.
    pub async fn unregister_tool(&self, name: &str) -> bool {
        let removed = self.swap_catalogue(|next| next.unregister(name));
        if removed {
            self.send_catalogue().await;
        }
        removed
    }

    /// Takes `remove` out of the catalogue and puts `add` in, then tells
    /// every loaded context once (a server's tools change together). A
    /// tool whose name another source holds, or looks like, is left out:
    /// those are answered, each with why.
    pub(crate) async fn replace_tools(
        &self,
        remove: &[String],
        add: Vec<Arc<dyn braid_tools::Tool>>,
    ) -> Vec<(String, String)> {
        let refused = self.swap_catalogue(|next| {
            for name in remove {
                next.unregister(name);
            }
            let mut refused = Vec::new();
            for tool in add {
                let name = tool.name().to_owned();
                if let Err(e) = next.register(tool) {
                    tracing::warn!("MCP tool left out: {e}");
                    refused.push((name, e.to_string()));
                }
            }
            refused
        });
        self.send_catalogue().await;
        refused
    }

    /// Changes the catalogue at once (what comes after must see the
    /// change); the loaded contexts are told in the background.
    pub(crate) fn edit_catalogue(&self, edit: impl FnOnce(&mut ToolRegistry)) {
        self.swap_catalogue(edit);
        let rt = self.clone();
        tokio::spawn(async move { rt.shared.contexts.catalogue_changed(rt.shared.catalogue()).await });
    }

    /// The one place the catalogue changes: a copy is edited and replaces
    /// it whole, so a running call keeps the registry it started with.
    fn swap_catalogue<T>(&self, edit: impl FnOnce(&mut ToolRegistry) -> T) -> T {
        let mut tools = self.shared.tools.write().unwrap_or_else(PoisonError::into_inner);
        let mut next = (**tools).clone();
        let out = edit(&mut next);
        *tools = Arc::new(next);
        out
    }
}
