//! The registry of loaded contexts: each context's mailbox by id, loaded
//! from the store on first use. Every part of the runtime reaches other
//! contexts through it (a sub-agent's parent, a team's members), and a
//! change to the tool catalogue reaches every loaded context from here.

use crate::mailbox::{Input, Mailbox};
use crate::RuntimeError;
use braid_core::machine::Event;
use braid_protocol::{ContextId, ToolSpec};
use std::collections::HashMap;
use tokio::sync::{oneshot, Mutex};

#[derive(Default)]
pub(crate) struct Contexts {
    loaded: Mutex<HashMap<ContextId, Mailbox>>,
}

impl Contexts {
    /// The context's mailbox; on first use (and again if its task ended)
    /// `load` starts its task, once however many ask at the same time.
    /// The registry does not know how a context is loaded: the runtime
    /// says (so this stays below the actor).
    pub(crate) async fn get_or_load(
        &self,
        id: &ContextId,
        load: impl FnOnce() -> Result<Mailbox, RuntimeError>,
    ) -> Result<Mailbox, RuntimeError> {
        let mut loaded = self.loaded.lock().await;
        if let Some(tx) = loaded.get(id).filter(|tx| !tx.is_closed()) {
            return Ok(tx.clone());
        }
        let tx = load()?;
        loaded.insert(id.clone(), tx.clone());
        Ok(tx)
    }

    /// A context just created (its task already running).
    pub(crate) async fn insert(&self, id: ContextId, tx: Mailbox) {
        self.loaded.lock().await.insert(id, tx);
    }

    /// Ends the context's task (stopping all its work) if it is loaded.
    pub(crate) async fn close(&self, id: &ContextId) {
        let tx = self.loaded.lock().await.remove(id);
        if let Some(tx) = tx {
            shut_down(tx).await;
        }
    }

    /// Ends every context's task.
    pub(crate) async fn close_all(&self) {
        let all: Vec<_> = self.loaded.lock().await.drain().collect();
        for (_, tx) in all {
            shut_down(tx).await;
        }
    }

    /// Tells every loaded context about the tools registered now.
    /// Every loaded context tells its subscribers.
    pub(crate) async fn notify_all(&self, notice: braid_protocol::Notice) {
        for tx in self.loaded.lock().await.values() {
            let _ = tx.send(Input::Notice(notice.clone()));
        }
    }

    pub(crate) async fn catalogue_changed(&self, tools: Vec<ToolSpec>) {
        for tx in self.loaded.lock().await.values() {
            let _ = tx.send(Input::Event(Event::CatalogueChanged { tools: tools.clone() }));
        }
    }
}

async fn shut_down(tx: Mailbox) {
    let (answer, done) = oneshot::channel();
    if tx.send(Input::Shutdown { answer }).is_ok() {
        let _ = done.await;
    }
}
