//! What a pending `write_file` or `edit_file` call would change, for the
//! approval dialog: a unified diff against the file on disk (a new file is
//! said to be one), or why the tool would refuse. Nothing is written.

use crate::input::{EditFileInput, WriteFileInput};
use braid_protocol::{ToolCall, WritePreview};
use braid_workspace::paths::{confine, shown};
use similar::TextDiff;
use std::path::Path;

/// Longest diff shown, in lines; the rest is counted.
const MAX_LINES: usize = 400;
/// Larger files are not diffed (the tools refuse to read them too).
const MAX_BYTES: u64 = 1024 * 1024;

/// `None` for a call that is not a write, or whose arguments do not parse
/// (the tool reports those itself).
pub fn preview(call: &ToolCall, workspace: &Path) -> Option<WritePreview> {
    let args: serde_json::Value = serde_json::from_str(&call.arguments).ok()?;
    let (path, change) = match call.name.as_str() {
        "write_file" => {
            let WriteFileInput { path, content } = serde_json::from_value(args).ok()?;
            (path, Change::Write(content))
        }
        "edit_file" => {
            let EditFileInput { path, old_string, new_string } = serde_json::from_value(args).ok()?;
            (path, Change::Edit(old_string, new_string))
        }
        _ => return None,
    };
    let real = confine(workspace, &path).ok()?;
    let before = match std::fs::metadata(&real) {
        Ok(m) if m.len() > MAX_BYTES => return Some(problem(call, &path, "the file is larger than 1 MB; no diff")),
        Ok(_) => Some(std::fs::read_to_string(&real).ok()?),
        Err(_) => None,
    };
    let shown_path = shown(workspace, &real);
    let after = match (&change, &before) {
        (Change::Write(content), _) => content.clone(),
        (Change::Edit(..), None) => return Some(problem(call, &shown_path, "the file does not exist")),
        (Change::Edit(old, new), Some(text)) => match text.matches(old.as_str()).count() {
            1 if !old.is_empty() => text.replacen(old.as_str(), new, 1),
            0 => return Some(problem(call, &shown_path, "old_string is not in the file; the tool will refuse")),
            n => {
                return Some(problem(call, &shown_path, &format!("old_string occurs {n} times; the tool will refuse")))
            }
        },
    };
    let old = before.as_deref().unwrap_or("");
    let diff = TextDiff::from_lines(old, &after).unified_diff().context_radius(3).to_string();
    Some(WritePreview {
        call_id: call.id.clone(),
        path: shown_path,
        new_file: before.is_none(),
        diff: cap(&diff),
        problem: None,
    })
}

enum Change {
    Write(String),
    Edit(String, String),
}

fn problem(call: &ToolCall, path: &str, why: &str) -> WritePreview {
    WritePreview {
        call_id: call.id.clone(),
        path: path.to_owned(),
        new_file: false,
        diff: String::new(),
        problem: Some(why.to_owned()),
    }
}

fn cap(diff: &str) -> String {
    let lines: Vec<&str> = diff.lines().collect();
    if lines.len() <= MAX_LINES {
        return diff.to_owned();
    }
    format!("{}\n… {} more lines", lines[..MAX_LINES].join("\n"), lines.len() - MAX_LINES)
}
