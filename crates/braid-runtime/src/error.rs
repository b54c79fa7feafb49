//! Runtime errors and their one mapping to the wire `{code, message}`.

use braid_llm::settings::SettingsError;
use braid_protocol::{ContextId, ErrorCode, WireError};
use braid_store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum RuntimeError {
    /// The context does not exist. Maps to `not_found`.
    #[error("context {0} does not exist")]
    NotFound(ContextId),
    /// Bad input from the caller. Maps to `invalid_input`.
    #[error("{0}")]
    InvalidInput(String),
    /// The state machine refused (busy, nothing to retry, …): its own code.
    #[error("{}", .0.message)]
    Rejected(WireError),
    /// The database failed; the message names the context. Maps to `storage`.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The context's task stopped (the runtime is shutting down).
    #[error("context {0} is shutting down")]
    Closed(ContextId),
    #[error(transparent)]
    Settings(#[from] SettingsError),
}

impl RuntimeError {
    pub fn to_wire(&self) -> WireError {
        let code = match self {
            RuntimeError::NotFound(_) => ErrorCode::NotFound,
            RuntimeError::InvalidInput(_) => ErrorCode::InvalidInput,
            RuntimeError::Rejected(w) => return w.clone(),
            RuntimeError::Store(StoreError::NotFound(_)) => ErrorCode::NotFound,
            RuntimeError::Store(_) => ErrorCode::Storage,
            RuntimeError::Closed(_) => ErrorCode::Internal,
            RuntimeError::Settings(SettingsError::Invalid(_)) => ErrorCode::InvalidInput,
            RuntimeError::Settings(SettingsError::NoSuchProvider(_)) => ErrorCode::NotFound,
            RuntimeError::Settings(SettingsError::Provider(_)) => ErrorCode::Provider,
            RuntimeError::Settings(_) => ErrorCode::Storage,
        };
        WireError::new(code, self.to_string())
    }
}
