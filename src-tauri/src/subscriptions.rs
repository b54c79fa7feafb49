//! Live event streams to the window, one task per subscription, stopped by
//! `unsubscribe` or when the window is gone (a send fails).

use braid_protocol::ContextSnapshot;
use braid_runtime::Subscription;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use tauri::async_runtime::JoinHandle;
use tauri::ipc::Channel;

#[derive(Default)]
pub struct Subscriptions {
    next: AtomicU64,
    tasks: Mutex<HashMap<u64, JoinHandle<()>>>,
}

impl Subscriptions {
    /// Sends the snapshot, then every event, as `{kind, …}` messages.
    pub fn start(&self, snapshot: ContextSnapshot, mut sub: Subscription, channel: Channel<Value>) -> u64 {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let task = tauri::async_runtime::spawn(async move {
            if channel.send(json!({ "kind": "snapshot", "snapshot": snapshot })).is_err() {
                return;
            }
            while let Some(item) = sub.recv().await {
                if channel.send(message(item)).is_err() {
                    return;
                }
            }
        });
        self.tasks.lock().unwrap_or_else(PoisonError::into_inner).insert(id, task);
        id
    }

    /// Every conversation's changes of state, as `{kind: "event", …}`
    /// messages, for the conversation list.
    pub fn start_states(&self, mut sub: Subscription, channel: Channel<Value>) -> u64 {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let task = tauri::async_runtime::spawn(async move {
            while let Some(item) = sub.recv().await {
                if channel.send(message(item)).is_err() {
                    return;
                }
            }
        });
        self.tasks.lock().unwrap_or_else(PoisonError::into_inner).insert(id, task);
        id
    }

    pub fn stop(&self, id: u64) {
        if let Some(task) = self.tasks.lock().unwrap_or_else(PoisonError::into_inner).remove(&id) {
            task.abort();
        }
    }
}

fn message(item: Result<braid_protocol::BraidEvent, u64>) -> Value {
    match item {
        Ok(event) => json!({ "kind": "event", "event": event }),
        Err(missed) => json!({ "kind": "lagged", "missed": missed }),
    }
}
