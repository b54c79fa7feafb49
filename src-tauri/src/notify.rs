//! Desktop notifications through the session's notification service
//! (`org.freedesktop.Notifications` over D-Bus, which every Linux desktop
//! runs). The window decides when to notify; a click on a notification
//! opens its conversation: the window is told (`open-context`) and brought
//! to the front.

use futures_util::StreamExt;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use tauri::{AppHandle, Emitter, Manager, State};
use zbus::zvariant::Value;
use zbus::{Connection, Proxy};

const SERVICE: &str = "org.freedesktop.Notifications";
const PATH: &str = "/org/freedesktop/Notifications";

/// The session connection, made on the first notification, and which
/// conversation each notification shown stands for.
#[derive(Default)]
pub struct Notifier {
    connection: Mutex<Option<Connection>>,
    shown: Arc<Mutex<HashMap<u32, String>>>,
}

async fn proxy(connection: &Connection) -> zbus::Result<Proxy<'static>> {
    Proxy::new(connection, SERVICE, PATH, SERVICE).await
}

impl Notifier {
    async fn connection(&self, app: &AppHandle) -> Result<Connection, String> {
        if let Some(c) = self.connection.lock().unwrap_or_else(PoisonError::into_inner).clone() {
            return Ok(c);
        }
        let c = Connection::session().await.map_err(|e| format!("no desktop session bus: {e}"))?;
        // Clicks come back as ActionInvoked signals, for as long as the
        // connection lives.
        let signals = proxy(&c).await.map_err(|e| e.to_string())?;
        let mut clicks = signals.receive_signal("ActionInvoked").await.map_err(|e| e.to_string())?;
        let (shown, app) = (self.shown.clone(), app.clone());
        tauri::async_runtime::spawn(async move {
            while let Some(signal) = clicks.next().await {
                let Ok((id, _action)) = signal.body().deserialize::<(u32, String)>() else { continue };
                let context = shown.lock().unwrap_or_else(PoisonError::into_inner).remove(&id);
                if let Some(context) = context {
                    if let Some(window) = app.get_webview_window("main") {
                        let _ = window.unminimize();
                        let _ = window.set_focus();
                    }
                    let _ = app.emit("open-context", context);
                }
            }
        });
        *self.connection.lock().unwrap_or_else(PoisonError::into_inner) = Some(c.clone());
        Ok(c)
    }
}

/// Shows a notification for `context_id`; a click on it opens it.
#[tauri::command]
pub async fn notify(
    app: AppHandle,
    notifier: State<'_, Notifier>,
    title: String,
    body: String,
    context_id: String,
) -> Result<(), String> {
    let connection = notifier.connection(&app).await?;
    let proxy = proxy(&connection).await.map_err(|e| e.to_string())?;
    let hints: HashMap<&str, Value> = HashMap::from([("desktop-entry", Value::from("braid"))]);
    let actions = vec!["default", "Open"];
    let id: u32 = proxy
        .call("Notify", &("Braid", 0u32, "braid", title.as_str(), body.as_str(), actions, hints, -1i32))
        .await
        .map_err(|e| format!("the notification service refused: {e}"))?;
    notifier.shown.lock().unwrap_or_else(PoisonError::into_inner).insert(id, context_id);
    Ok(())
}
