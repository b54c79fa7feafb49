//! Secrets the MCP settings name as `${secret:NAME}` in a server's `env`
//! or `headers`: kept where API keys are (the keychain, or the private
//! key file), filled in only when the server starts, never sent to the UI.

use crate::{Runtime, RuntimeError};
use braid_llm::http::ApiKey;
use braid_protocol::mcp::McpSecret;
use braid_protocol::McpSettings;

/// The key a secret is kept under, apart from the providers' keys; its
/// environment variable is `BRAID_MCP_<NAME>_API_KEY`.
fn key_of(name: &str) -> String {
    format!("mcp-{name}")
}

impl Runtime {
    /// The secret's value, if it is set.
    pub(crate) fn mcp_secret(&self, name: &str) -> Option<String> {
        match self.shared.providers.secrets().get(&key_of(name)) {
            Ok(found) => found.map(|(key, _)| key.expose().to_owned()),
            Err(e) => {
                tracing::warn!(secret = name, error = %e, "an MCP secret could not be read");
                None
            }
        }
    }

    /// Each secret `names` holds, and whether it is set.
    pub(crate) fn mcp_secrets(&self, names: Vec<String>) -> Vec<McpSecret> {
        names.into_iter().map(|name| McpSecret { set: self.mcp_secret(&name).is_some(), name }).collect()
    }

    /// Sets (or with `None`, removes) a secret; the servers using it start
    /// again with it.
    pub async fn set_mcp_secret(&self, name: &str, value: Option<String>) -> Result<McpSettings, RuntimeError> {
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            return Err(RuntimeError::InvalidInput(format!(
                "the secret name {name:?} may hold only letters, digits, '_' and '-'"
            )));
        }
        let secrets = self.shared.providers.secrets();
        let stored = match value.map(ApiKey::new) {
            Some(Some(key)) => secrets.set(&key_of(name), &key).map(drop),
            Some(None) => return Err(RuntimeError::InvalidInput("the secret's value is empty".into())),
            None => secrets.delete(&key_of(name)),
        };
        stored.map_err(|e| RuntimeError::InvalidInput(e.to_string()))?;
        self.restart_servers_using(name);
        Ok(self.mcp_settings())
    }
}
