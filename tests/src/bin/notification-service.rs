//! A stand-in for the desktop's notification service
//! (`org.freedesktop.Notifications`) on a test's own session bus: each
//! notification shown is printed as a JSON line (`{"id", "app",
//! "summary", "body", "actions"}`); a line `click ID` on stdin clicks it
//! (the `ActionInvoked` signal a desktop sends). What the real window's
//! end-to-end test reads instead of a screen.

use std::collections::HashMap;
use std::io::BufRead;
use std::sync::atomic::{AtomicU32, Ordering};
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

fn main() -> zbus::Result<()> {
    let connection = zbus::blocking::connection::Builder::session()?
        .name("org.freedesktop.Notifications")?
        .serve_at("/org/freedesktop/Notifications", Service { next: AtomicU32::new(0) })?
        .build()?;
    println!("{{\"ready\": true}}");
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if let Some(id) = line.strip_prefix("click ").and_then(|n| n.trim().parse::<u32>().ok()) {
            let iface = connection.object_server().interface::<_, Service>("/org/freedesktop/Notifications")?;
            zbus::block_on(Service::action_invoked(iface.signal_emitter(), id, "default"))?;
        }
    }
    Ok(())
}
