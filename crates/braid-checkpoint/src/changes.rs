//! What differs between two snapshots of the same workspace.

use crate::hunks::{count, text};
use crate::objects::Objects;
use crate::scan::Manifest;
use braid_protocol::{FileDelta, FileVersion};

/// Every file whose content or kind differs, by path.
pub fn changes(before: &Manifest, after: &Manifest) -> Vec<FileDelta> {
    let mut out = Vec::new();
    let same = |a: &FileVersion, b: &FileVersion| a.hash == b.hash && a.kind == b.kind;
    for (path, b) in &before.files {
        match after.files.get(path) {
            Some(a) if same(&a.version, &b.version) => {}
            a => out.push(FileDelta {
                path: path.clone(),
                before: Some(b.version.clone()),
                after: a.map(|a| a.version.clone()),
                lines: None,
            }),
        }
    }
    for (path, a) in &after.files {
        if !before.files.contains_key(path) {
            out.push(FileDelta { path: path.clone(), before: None, after: Some(a.version.clone()), lines: None });
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// Counts the lines each text file's change adds and removes (a binary
/// file, or one whose content is no longer kept, gets no count).
pub fn count_lines(objects: &Objects, deltas: &mut [FileDelta]) {
    for delta in deltas {
        let read = |v: &Option<FileVersion>| match v {
            None => Some(Vec::new()),
            Some(v) => objects.get(&v.hash).ok(),
        };
        let (Some(before), Some(after)) = (read(&delta.before), read(&delta.after)) else { continue };
        if let (Some(a), Some(b)) = (text(&before), text(&after)) {
            delta.lines = Some(count(a, b));
        }
    }
}
