//! Confinement: a path from the model resolves inside the workspace or is
//! refused. `..` may not climb out, absolute paths must lie inside, and a
//! symlink anywhere on the way may not lead out (checked on the real,
//! canonical path, so `ln -s /etc x` then `x/passwd` is refused).

use std::path::{Component, Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outside(pub String);

impl std::fmt::Display for Outside {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The real path `user` names inside `workspace` (which must be canonical).
/// The target may not exist yet (a file to write): then its nearest
/// existing ancestor is checked, and the rest may not hold `..`.
pub fn confine(workspace: &Path, user: &str) -> Result<PathBuf, Outside> {
    let user = user.trim();
    if user.is_empty() {
        return Err(Outside("the path is empty".to_owned()));
    }
    if user.contains('\0') {
        return Err(Outside("the path contains a NUL byte".to_owned()));
    }
    let given = Path::new(user);
    let joined = if given.is_absolute() { given.to_path_buf() } else { workspace.join(given) };
    // Lexical first: `a/../../x` is refused even when `a` does not exist.
    let mut lexical = PathBuf::new();
    for c in joined.components() {
        match c {
            Component::ParentDir => {
                if !lexical.pop() || !lexical.starts_with(workspace) {
                    return Err(escape(user, workspace));
                }
            }
            Component::CurDir => {}
            other => lexical.push(other),
        }
    }
    if !lexical.starts_with(workspace) {
        return Err(escape(user, workspace));
    }
    // Then the real path of what exists, through every symlink.
    let mut existing = lexical.as_path();
    let mut rest = Vec::new();
    while !existing.exists() && existing.symlink_metadata().is_err() {
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_owned());
                existing = parent;
            }
            _ => return Err(escape(user, workspace)),
        }
    }
    let real = existing.canonicalize().map_err(|_| {
        // A dangling symlink: where it points cannot be checked.
        Outside(format!("{user} is a link that points nowhere"))
    })?;
    if !real.starts_with(workspace) {
        return Err(Outside(format!("{user} leads outside the workspace through a symbolic link")));
    }
    Ok(rest.into_iter().rev().fold(real, |p, name| p.join(name)))
}

fn escape(user: &str, workspace: &Path) -> Outside {
    Outside(format!("{user} is outside the workspace {}", workspace.display()))
}

/// `path` relative to the workspace, for messages to the model.
pub fn shown(workspace: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(workspace).unwrap_or(path);
    if rel.as_os_str().is_empty() {
        ".".to_owned()
    } else {
        rel.display().to_string()
    }
}
