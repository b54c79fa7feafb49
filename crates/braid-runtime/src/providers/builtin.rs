//! The built-in model where this build runs one: it answers while no
//! provider is set up (the shelf's default, followed as the user changes
//! it). It loads when a conversation it answers is written in (`warm_up`),
//! not at start: a window only read in keeps its memory.

use super::{Fallback, Providers};
use braid_llm::local::LocalModels;
use std::sync::{Arc, PoisonError};

impl Providers {
    /// The built-in model answers while no provider is configured: the
    /// shelf's default, followed as the user changes it.
    pub fn with_local_models(mut self, shelf: Arc<dyn LocalModels>) -> Providers {
        self.local = Some(shelf);
        self.reopen_local();
        self
    }

    pub(crate) fn local(&self) -> Option<&Arc<dyn LocalModels>> {
        self.local.as_ref()
    }

    /// The fallback follows the shelf's default (none when it is empty).
    pub(crate) fn reopen_local(&self) {
        if let Some(shelf) = &self.local {
            *self.fallback.write().unwrap_or_else(PoisonError::into_inner) = shelf.open().map(Fallback::built_in);
        }
    }
}
