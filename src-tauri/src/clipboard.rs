//! The desktop clipboard. In WebKitGTK a paste event carries no
//! clipboard data (measured under Xvfb: its types and files are empty for
//! images and text alike; text still lands in the box by the default
//! action), so a pasted screenshot is read here from GTK and handed to the
//! page as PNG, Base64. Browsers deliver pasted files themselves. The
//! page's `navigator.clipboard.writeText` is refused in the window too
//! (measured: copy as Markdown left the clipboard empty), so copies are
//! written here.

/// Runs on the main thread (a command without `async`), where GTK's
/// clipboard lives. `None` when the clipboard holds no image.
#[tauri::command]
pub fn clipboard_image() -> Option<String> {
    read()
}

/// Puts `text` on the clipboard, on the main thread like the read. It
/// stays there after the window closes only while a clipboard manager
/// keeps it, as for any GTK app.
#[tauri::command]
pub fn copy_text(text: String) {
    write(&text);
}

#[cfg(target_os = "linux")]
fn write(text: &str) {
    gtk::Clipboard::get(&gtk::gdk::SELECTION_CLIPBOARD).set_text(text);
}

#[cfg(not(target_os = "linux"))]
fn write(_text: &str) {}

#[cfg(target_os = "linux")]
fn read() -> Option<String> {
    use base64::Engine as _;
    let clipboard = gtk::Clipboard::get(&gtk::gdk::SELECTION_CLIPBOARD);
    if !clipboard.wait_is_image_available() {
        return None;
    }
    let pixbuf = clipboard.wait_for_image()?;
    match pixbuf.save_to_bufferv("png", &[]) {
        Ok(png) => Some(base64::engine::general_purpose::STANDARD.encode(png)),
        Err(e) => {
            tracing::warn!(error = %e, "could not encode the clipboard image");
            None
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn read() -> Option<String> {
    None
}
