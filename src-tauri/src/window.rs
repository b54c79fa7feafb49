//! The main window starts hidden (`visible: false` in tauri.conf.json) and
//! shows once the page's script runs (`show_window`), in the page's
//! colours: never WebKit's white page, which flashed before a dark theme.
//! If the page never says so (it failed to load), the window shows
//! anyway, with whatever it has.

use std::time::Duration;
use tauri::{AppHandle, Manager, WebviewWindow};

/// Well past the page's first paint on a loaded machine (about 1.5 s).
const AT_THE_LATEST: Duration = Duration::from_secs(4);

#[tauri::command]
pub fn show_window(window: WebviewWindow) {
    show(&window);
}

/// Shows the main window after [`AT_THE_LATEST`], whatever the page did.
pub fn show_at_the_latest(app: &AppHandle) {
    let app = app.clone();
    std::thread::spawn(move || {
        std::thread::sleep(AT_THE_LATEST);
        if let Some(window) = app.get_webview_window("main") {
            show(&window);
        }
    });
}

fn show(window: &WebviewWindow) {
    if window.is_visible().unwrap_or(false) {
        return;
    }
    if let Err(e) = window.show().and_then(|()| window.set_focus()) {
        tracing::warn!("could not show the window: {e}");
    }
}
