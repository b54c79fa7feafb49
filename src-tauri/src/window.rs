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

/// Without a GPU (no DRM render node: a virtual machine, Xvfb) WebKit
/// composites its layers with Mesa's llvmpipe, in software: its GL threads
/// took CPU from the first paint, and the web process held ~95 MB more
/// (idle, app and WebKit: 362 → 268 MB PSS; docs/PERFORMANCE.md). There
/// the page is drawn without compositing, as WebKit advises for software
/// GL. The user's own `WEBKIT_DISABLE_COMPOSITING_MODE` wins (`0` keeps
/// compositing). Called first thing in `main`, before any thread reads the
/// environment.
pub fn composite_only_on_a_gpu() {
    const VAR: &str = "WEBKIT_DISABLE_COMPOSITING_MODE";
    if std::env::var_os(VAR).is_some() {
        return;
    }
    let render_node = std::fs::read_dir("/dev/dri")
        .map(|nodes| nodes.flatten().any(|n| n.file_name().to_string_lossy().starts_with("renderD")))
        .unwrap_or(false);
    if !render_node {
        std::env::set_var(VAR, "1");
    }
}
