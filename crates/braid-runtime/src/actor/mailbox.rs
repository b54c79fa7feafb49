//! The way into a context's task, with its own lane for what must never
//! wait behind stream chunks (Cancel, Interrupt, Shutdown).

use super::Input;
use braid_core::machine::Event;
use tokio::sync::mpsc;

/// The context's task has ended.
#[derive(Debug)]
pub struct Closed;

/// The way into a context's task. Cancel, Interrupt and Shutdown go to a
/// mailbox of their own that the task reads first.
#[derive(Clone)]
pub struct Mailbox {
    pub(super) normal: mpsc::UnboundedSender<Input>,
    pub(super) urgent: mpsc::UnboundedSender<Input>,
}

impl Mailbox {
    /// `Err` when the context's task has ended.
    pub fn send(&self, input: Input) -> Result<(), Closed> {
        let urgent = matches!(input, Input::Command(Event::Cancel | Event::Interrupt, _) | Input::Shutdown { .. });
        let sent = if urgent { self.urgent.send(input) } else { self.normal.send(input) };
        sent.map_err(|_| Closed)
    }

    pub fn is_closed(&self) -> bool {
        self.normal.is_closed()
    }
}
