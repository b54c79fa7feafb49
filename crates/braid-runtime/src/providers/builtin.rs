//! The built-in model where this build runs one: it answers while no
//! provider is set up (the shelf's default, followed as the user changes
//! it), and gets ready (loaded, Braid's base prompt read) before the first
//! question rather than at it — at once, or when told (the desktop window,
//! after its first paint).

use super::{Fallback, Providers};
use braid_llm::local::LocalModels;
use std::sync::atomic::Ordering;
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

    /// The built-in model waits for [`Providers::warm_now`] before it gets
    /// ready (the desktop window: after its first paint).
    pub fn warm_later(self) -> Providers {
        self.warm_held.store(true, Ordering::Relaxed);
        self
    }

    /// The built-in model, while it is what answers, gets ready now (once).
    pub fn warm_now(&self) {
        self.warm_held.store(false, Ordering::Relaxed);
        self.warm();
    }

    /// The fallback follows the shelf's default (none when it is empty).
    pub(crate) fn reopen_local(&self) {
        if let Some(shelf) = &self.local {
            *self.fallback.write().unwrap_or_else(PoisonError::into_inner) = shelf.open().map(Fallback::built_in);
            self.warm();
        }
    }

    /// While it is what answers, the built-in model gets ready (loaded,
    /// Braid's base prompt read) before the first question, not at it.
    fn warm(&self) {
        if self.warm_held.load(Ordering::Relaxed) || self.read().settings.default_provider.is_some() {
            return;
        }
        // Warming is the built-in model's own (a no-op for other providers).
        if let Some(f) = self.fallback().as_ref().filter(|_| self.local.is_some()) {
            f.provider.warm(braid_core::prompt::BASE_PROMPT);
        }
    }
}
