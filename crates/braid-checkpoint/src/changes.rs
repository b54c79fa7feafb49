//! What differs between two snapshots of the same workspace.

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
            }),
        }
    }
    for (path, a) in &after.files {
        if !before.files.contains_key(path) {
            out.push(FileDelta { path: path.clone(), before: None, after: Some(a.version.clone()) });
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}
