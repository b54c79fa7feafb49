//! The one narrow way back from an executor (an LLM stream, a tool call, an
//! image read, a summary, an agent CLI, the file watcher) to its context:
//! a core event, a notice for the user, or a file to look at again.
//! Defined below the actor, so that no executor imports the actor; the
//! actor makes one from its mailbox.

use braid_core::machine::Event;
use braid_protocol::Notice;
use std::sync::Arc;

/// What an executor sends back. Not boxed: a report is moved once, into
/// the mailbox, and a box would cost an allocation per streamed chunk.
#[allow(clippy::large_enum_variant)]
pub enum Report {
    /// A fact for the core's state machine.
    Event(Event),
    /// Something to tell the user about the context (not a state change).
    Notice(Notice),
    /// A file the watcher saw change, to be checked for freshness.
    CheckFile(std::path::PathBuf),
}

/// Where an executor's reports go. Cheap to clone; sending never blocks,
/// and fails only when the context is gone (then there is nobody to tell).
#[derive(Clone)]
pub struct Reports(Arc<dyn Fn(Report) -> bool + Send + Sync>);

impl Reports {
    pub fn new(send: impl Fn(Report) -> bool + Send + Sync + 'static) -> Reports {
        Reports(Arc::new(send))
    }

    /// False when the context has gone away.
    pub fn event(&self, event: Event) -> bool {
        (self.0)(Report::Event(event))
    }

    pub fn notice(&self, notice: Notice) -> bool {
        (self.0)(Report::Notice(notice))
    }

    pub fn check_file(&self, path: std::path::PathBuf) -> bool {
        (self.0)(Report::CheckFile(path))
    }
}
