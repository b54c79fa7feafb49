//! Saving an export to a file: the runtime writes the text, the user picks
//! where in GTK's own save dialog, opened from here, so the page never
//! names a path for Braid to write.

use braid_protocol::{ContextId, ErrorCode, ExportFormat, WireError};
use braid_runtime::Runtime;
use tauri::State;
use tauri_plugin_dialog::DialogExt;

/// The path written, or `None` when the user closed the dialog.
#[tauri::command]
pub async fn save_export(
    app: tauri::AppHandle,
    runtime: State<'_, Runtime>,
    context_id: ContextId,
    format: ExportFormat,
    with_secrets: Option<bool>,
) -> Result<Option<String>, WireError> {
    let with_secrets = with_secrets.unwrap_or(false);
    let file = runtime.export_context(&context_id, format, with_secrets).await.map_err(|e| e.to_wire())?;
    let name = file.file_name.clone();
    // The blocking dialog must not run on the main thread, nor hold a
    // runtime worker while the user looks for a folder.
    // It opens in the home folder, not wherever the app was started from.
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    let chosen = tauri::async_runtime::spawn_blocking(move || {
        let dialog = app.dialog().file().set_title("Export the conversation").set_file_name(name);
        match home {
            Some(home) => dialog.set_directory(home),
            None => dialog,
        }
        .blocking_save_file()
    })
    .await
    .map_err(|e| WireError::new(ErrorCode::Internal, format!("the save dialog failed: {e}")))?;
    let Some(chosen) = chosen else { return Ok(None) };
    let path = chosen.into_path().map_err(|e| WireError::new(ErrorCode::InvalidInput, e.to_string()))?;
    std::fs::write(&path, file.text)
        .map_err(|e| WireError::new(ErrorCode::InvalidInput, format!("could not write {}: {e}", path.display())))?;
    Ok(Some(path.display().to_string()))
}

/// The largest file offered for import (a big ChatGPT export).
const MAX_IMPORT_BYTES: u64 = 56 * 1024 * 1024;

/// A file chosen for import: its name (for errors) and its text.
#[derive(serde::Serialize)]
pub struct PickedFile {
    name: String,
    text: String,
}

/// GTK's open dialog, from here: WebKitGTK opens no chooser for the page's
/// hidden file input. `None` when the user closed the dialog.
#[tauri::command]
pub async fn open_import(app: tauri::AppHandle) -> Result<Option<PickedFile>, WireError> {
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    let chosen = tauri::async_runtime::spawn_blocking(move || {
        let dialog = app
            .dialog()
            .file()
            .set_title("Import conversations")
            .add_filter("Conversations (Braid, Claude Code, ChatGPT)", &["json", "jsonl"]);
        match home {
            Some(home) => dialog.set_directory(home),
            None => dialog,
        }
        .blocking_pick_file()
    })
    .await
    .map_err(|e| WireError::new(ErrorCode::Internal, format!("the open dialog failed: {e}")))?;
    let Some(chosen) = chosen else { return Ok(None) };
    let path = chosen.into_path().map_err(|e| WireError::new(ErrorCode::InvalidInput, e.to_string()))?;
    let name = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
    let bad = |why: String| WireError::new(ErrorCode::InvalidInput, format!("{name}: {why}"));
    let size = std::fs::metadata(&path).map_err(|e| bad(e.to_string()))?.len();
    if size > MAX_IMPORT_BYTES {
        return Err(bad(format!("{size} bytes; Braid imports files of at most {MAX_IMPORT_BYTES}")));
    }
    let text = std::fs::read_to_string(&path).map_err(|e| bad(format!("not readable as text: {e}")))?;
    Ok(Some(PickedFile { name, text }))
}
