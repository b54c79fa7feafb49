//! The tray icon: how many conversations wait for the user (an approval,
//! a failure, an answer not read yet) beside it, as the window's title
//! says (the page counts them and tells the shell, `set_waiting`); its
//! menu brings the window back or quits. On Linux it is an AppIndicator
//! (StatusNotifierItem over D-Bus; the count is its label).

use tauri::menu::{Menu, MenuItem};
use tauri::tray::TrayIconBuilder;
use tauri::{AppHandle, Manager};

const TRAY: &str = "main";

pub fn install(app: &AppHandle) -> tauri::Result<()> {
    // An AppIndicator lives on the session bus; with none (a bare X
    // server) it would only try to start one and complain.
    if cfg!(target_os = "linux") && !session_bus() {
        tracing::info!("no session bus: no tray icon");
        return Ok(());
    }
    let show = MenuItem::with_id(app, "show", "Show Braid", true, None::<&str>)?;
    let quit = MenuItem::with_id(app, "quit", "Quit Braid", true, None::<&str>)?;
    let menu = Menu::with_items(app, &[&show, &quit])?;
    let mut tray = TrayIconBuilder::with_id(TRAY).tooltip("Braid").menu(&menu).on_menu_event(|app, event| match event
        .id
        .as_ref()
    {
        "show" => {
            if let Some(window) = app.get_webview_window("main") {
                let _ = window.unminimize();
                let _ = window.show();
                let _ = window.set_focus();
            }
        }
        "quit" => app.exit(0),
        _ => {}
    });
    if let Some(icon) = app.default_window_icon() {
        tray = tray.icon(icon.clone());
    }
    tray.build(app)?;
    Ok(())
}

/// The page's count of conversations waiting for the user.
#[tauri::command]
pub fn set_waiting(app: AppHandle, count: u32) {
    if let Some(tray) = app.tray_by_id(TRAY) {
        let label = (count > 0).then(|| count.to_string());
        let said = if count == 0 { "Braid".to_owned() } else { format!("Braid: {count} waiting for you") };
        let _ = tray.set_title(label);
        let _ = tray.set_tooltip(Some(said));
    }
}

/// Whether there is a D-Bus session bus to find (as libdbus finds it).
fn session_bus() -> bool {
    std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some()
        || std::env::var_os("XDG_RUNTIME_DIR").is_some_and(|d| std::path::Path::new(&d).join("bus").exists())
}
