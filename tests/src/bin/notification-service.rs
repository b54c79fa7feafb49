//! A stand-in for the desktop's notification service
//! (`org.freedesktop.Notifications`) and its tray
//! (`org.kde.StatusNotifierWatcher`) on a test's own session bus: each
//! notification shown is printed as a JSON line (`{"id", "app",
//! "summary", "body", "actions"}`); a line `click ID` on stdin clicks it
//! (the `ActionInvoked` signal a desktop sends); a line `tray` prints
//! what the tray icon registered shows (`{"tray": {"label", "status"}}`,
//! or `{"tray": null}` before one registered). What the real window's
//! end-to-end test reads instead of a screen.

use std::collections::HashMap;
use std::io::BufRead;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use zbus::object_server::SignalEmitter;
use zbus::zvariant::OwnedValue;

struct Service {
    next: AtomicU32,
}

#[zbus::interface(name = "org.freedesktop.Notifications")]
impl Service {
    #[allow(clippy::too_many_arguments)] // the D-Bus method's own signature
    fn notify(
        &self,
        app_name: String,
        _replaces_id: u32,
        _app_icon: String,
        summary: String,
        body: String,
        actions: Vec<String>,
        _hints: HashMap<String, OwnedValue>,
        _expire_timeout: i32,
    ) -> u32 {
        let id = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        let line =
            serde_json::json!({ "id": id, "app": app_name, "summary": summary, "body": body, "actions": actions });
        println!("{line}");
        id
    }

    fn close_notification(&self, _id: u32) {}

    fn get_capabilities(&self) -> Vec<String> {
        vec!["actions".into(), "body".into()]
    }

    fn get_server_information(&self) -> (String, String, String, String) {
        ("braid-test".into(), "braid".into(), "1".into(), "1.2".into())
    }

    #[zbus(signal)]
    async fn action_invoked(emitter: &SignalEmitter<'_>, id: u32, action_key: &str) -> zbus::Result<()>;
}

/// Tray icons (StatusNotifierItems) register here: by their bus name and
/// object path (AppIndicator passes its path; the name is the caller's).
struct Watcher {
    items: Arc<Mutex<Vec<(String, String)>>>,
}

#[zbus::interface(name = "org.kde.StatusNotifierWatcher")]
impl Watcher {
    fn register_status_notifier_item(&self, service: &str, #[zbus(header)] header: zbus::message::Header<'_>) {
        let sender = header.sender().map(|s| s.to_string()).unwrap_or_default();
        let item = match service.starts_with('/') {
            true => (sender, service.to_owned()),
            false => (service.to_owned(), "/StatusNotifierItem".to_owned()),
        };
        self.items.lock().unwrap_or_else(|e| e.into_inner()).push(item);
    }

    fn register_status_notifier_host(&self, _service: &str) {}

    #[zbus(property)]
    fn registered_status_notifier_items(&self) -> Vec<String> {
        self.items
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|(name, path)| format!("{name}{path}"))
            .collect()
    }

    #[zbus(property)]
    fn is_status_notifier_host_registered(&self) -> bool {
        true
    }

    #[zbus(property)]
    fn protocol_version(&self) -> i32 {
        0
    }
}

/// What the last tray icon registered shows: its label (AppIndicator's
/// text beside the icon) and status.
fn tray(connection: &zbus::blocking::Connection, items: &Mutex<Vec<(String, String)>>) -> serde_json::Value {
    let Some((name, path)) = items.lock().unwrap_or_else(|e| e.into_inner()).last().cloned() else {
        return serde_json::Value::Null;
    };
    let read = |property: &str| -> String {
        zbus::blocking::Proxy::new(connection, name.as_str(), path.as_str(), "org.kde.StatusNotifierItem")
            .and_then(|p| p.get_property::<String>(property))
            .unwrap_or_else(|e| format!("(unreadable: {e})"))
    };
    serde_json::json!({ "label": read("XAyatanaLabel"), "status": read("Status") })
}

fn main() -> zbus::Result<()> {
    let items = Arc::new(Mutex::new(Vec::new()));
    let connection = zbus::blocking::connection::Builder::session()?
        .name("org.freedesktop.Notifications")?
        .name("org.kde.StatusNotifierWatcher")?
        .serve_at("/org/freedesktop/Notifications", Service { next: AtomicU32::new(0) })?
        .serve_at("/StatusNotifierWatcher", Watcher { items: items.clone() })?
        .build()?;
    println!("{{\"ready\": true}}");
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if let Some(id) = line.strip_prefix("click ").and_then(|n| n.trim().parse::<u32>().ok()) {
            let iface = connection.object_server().interface::<_, Service>("/org/freedesktop/Notifications")?;
            zbus::block_on(Service::action_invoked(iface.signal_emitter(), id, "default"))?;
        } else if line.trim() == "tray" {
            println!("{}", serde_json::json!({ "tray": tray(&connection, &items) }));
        }
    }
    Ok(())
}
