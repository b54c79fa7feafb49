//! The settings file taken in from another machine, through the runtime:
//! checked and saved by the providers, then the conversations see what
//! providers it brought.

use crate::{Runtime, RuntimeError};
impl Runtime {
    /// Settings from an exported file; the conversations see the providers
    /// it brought at once.
    pub async fn import_settings(&self, text: &str) -> Result<braid_protocol::SettingsView, RuntimeError> {
        self.then_catalogue(self.providers().import_settings(text)).await
    }
}
