//! Braid's desktop shell. Commands are one line each: validate (serde does),
//! call the runtime, return its answer or its `{code, message}` error.
//! Events reach the window through a Channel per subscription.
//!
//! `tauri.conf.json` turns Tauri's own drag-and-drop handler off
//! (`dragDropEnabled: false`): with it on, files dropped on the window
//! become Tauri events with paths and never reach the page; off, they
//! arrive as HTML5 drops with their bytes, as in a browser, and the page
//! still has no file-system access.

// No console window on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

mod clipboard;
mod export;
#[cfg(feature = "ipc-bench")]
mod ipc_bench;
#[cfg(target_os = "linux")]
mod notify;
mod subscriptions;
mod tray;
mod window;

use braid_llm::secrets::Secrets;
use braid_protocol::{Command, ContextId, WireError};
use braid_runtime::{Fallback, Providers, Runtime, RuntimeConfig};
use serde_json::Value;
use std::time::Duration;
use subscriptions::Subscriptions;
use tauri::ipc::Channel;
use tauri::{Manager, State};

#[tauri::command]
async fn execute(runtime: State<'_, Runtime>, command: Command) -> Result<Value, WireError> {
    runtime.execute(command).await
}

#[tauri::command]
async fn subscribe(
    runtime: State<'_, Runtime>,
    subs: State<'_, Subscriptions>,
    context_id: ContextId,
    on_event: Channel<Value>,
) -> Result<u64, WireError> {
    let (snapshot, sub) = runtime.subscribe(&context_id).await.map_err(|e| e.to_wire())?;
    Ok(subs.start(snapshot, sub, on_event))
}

/// Every conversation's changes of state, for the list.
#[tauri::command]
fn subscribe_states(runtime: State<'_, Runtime>, subs: State<'_, Subscriptions>, on_event: Channel<Value>) -> u64 {
    subs.start_states(runtime.subscribe_states(), on_event)
}

#[tauri::command]
fn unsubscribe(subs: State<'_, Subscriptions>, id: u64) {
    subs.stop(id);
}

#[cfg(not(feature = "ipc-bench"))]
fn handlers() -> impl Fn(tauri::ipc::Invoke) -> bool + Send + Sync + 'static {
    tauri::generate_handler![
        execute,
        subscribe,
        subscribe_states,
        unsubscribe,
        clipboard::clipboard_image,
        clipboard::copy_text,
        export::save_export,
        export::open_import,
        notify::notify,
        window::show_window,
        tray::set_waiting
    ]
}

#[cfg(feature = "ipc-bench")]
fn handlers() -> impl Fn(tauri::ipc::Invoke) -> bool + Send + Sync + 'static {
    tauri::generate_handler![
        execute,
        subscribe,
        subscribe_states,
        unsubscribe,
        clipboard::clipboard_image,
        clipboard::copy_text,
        export::save_export,
        export::open_import,
        notify::notify,
        window::show_window,
        tray::set_waiting,
        ipc_bench::ipc_bench
    ]
}

fn main() {
    // Before anything else: may restart the process once (see there).
    braid_runtime::limit_ocr_threads();
    window::composite_only_on_a_gpu();
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_env("BRAID_LOG").unwrap_or_else(|_| "warn".into()))
        .with_writer(std::io::stderr)
        .init();
    // Startup's steps, timed by their log lines (BRAID_LOG=braid_desktop=debug;
    // docs/PERFORMANCE.md).
    tracing::debug!("startup: main");
    let app = tauri::Builder::default()
        .plugin(tauri_plugin_dialog::init())
        .setup(|app| {
            tracing::debug!("startup: the window is built");
            let data = app.path().app_data_dir()?;
            let home = app.path().home_dir().unwrap_or_else(|_| data.clone());
            let mut config = RuntimeConfig::new(data.join("braid.db"), home);
            config.model_titles = true;
            let mut providers = Providers::from_settings(data.join("settings.json"), Secrets::new(&data))?;
            config.sub_agents = providers.sub_agent_limits();
            config.sandbox_paths = providers.sandbox_paths();
            config.show_secrets_in = providers.show_secrets_in();
            // Demos and tests: an echo answers until a provider is added.
            if std::env::var_os("BRAID_ECHO").is_some() {
                providers = providers.with_fallback(Fallback::builtin_echo(Duration::from_millis(30)));
            } else {
                // The installed package ships the starter among its resources.
                // A development build has none: it would find an installed
                // Braid's in /usr/lib/Braid and not start as a fresh one.
                let shipped = match app.path().resource_dir() {
                    Ok(r) if !cfg!(debug_assertions) => vec![r.join("models")],
                    _ => Vec::new(),
                };
                let shelf = braid_local::Shelf::new(data.join("models"), shipped);
                providers = providers.with_local_models(std::sync::Arc::new(shelf));
            }
            // Opened inside the app's tokio runtime: what it starts in the
            // background (downloads going on after a restart) runs there.
            tracing::debug!("startup: settings and models read");
            let handle = tauri::async_runtime::handle();
            let entered = handle.inner().enter();
            let (runtime, report) = Runtime::open_with(config, providers)?;
            drop(entered);
            // MCP servers start in the background, on the app's tokio runtime.
            let mcp = runtime.clone();
            tauri::async_runtime::spawn(async move { mcp.start_mcp(data.join("mcp.json")) });
            for r in &report.recovered {
                tracing::warn!(context = %r.context, ?r.interrupted, "recovered an interrupted conversation");
            }
            for said in &report.completed_restores {
                tracing::warn!("{said}");
            }
            #[cfg(feature = "ipc-bench")]
            app.add_capability(include_str!("../bench/ipc-bench.json"))?;
            app.manage(runtime);
            app.manage(Subscriptions::default());
            #[cfg(target_os = "linux")]
            app.manage(notify::Notifier::default());
            window::show_at_the_latest(app.handle());
            // No tray is no reason not to start (a desktop without one).
            if let Err(e) = tray::install(app.handle()) {
                tracing::warn!("no tray icon: {e}");
            }
            tracing::debug!("startup: setup done");
            Ok(())
        })
        .invoke_handler(handlers())
        .build(tauri::generate_context!());
    match app {
        Ok(app) => app.run(|_, _| {}),
        Err(e) => {
            eprintln!("braid-desktop: {e}");
            std::process::exit(1);
        }
    }
}
