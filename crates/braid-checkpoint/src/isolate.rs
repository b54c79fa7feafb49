//! A copy of a workspace for a line of work of its own (a branch, a
//! sub-agent, a team member), so parallel lines never write over each
//! other: the working files as they are now — what git would leave out
//! (`.gitignore`) and `.git` itself are not copied, so a build folder does
//! not cost the copy. Each file is copied with `std::fs::copy`, which the
//! kernel turns into a reflink (shared extents, copy on write) on a file
//! system that has them and a plain copy elsewhere. Hard links are never
//! used: a tool that appends to a file in place would write into both.

use crate::CheckpointError;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// What a copy made: files and folders (symbolic links copied as links).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Copied {
    pub files: usize,
    pub links: usize,
}

/// Copies the working files of `root` into `to`, which must not exist
/// yet (it is made; its parent must exist). `exclude`: absolute paths
/// under `root` never copied (Braid's own data). On an error the partial
/// copy is removed.
pub fn isolate(root: &Path, to: &Path, exclude: &[PathBuf]) -> Result<Copied, CheckpointError> {
    if to.exists() {
        return Err(CheckpointError::Invalid(format!("{} exists already: choose a new folder", to.display())));
    }
    if to.starts_with(root) {
        return Err(CheckpointError::Invalid(format!("{} is inside the workspace it would copy", to.display())));
    }
    std::fs::create_dir(to).map_err(|e| CheckpointError::io(to.display(), e))?;
    let copied = copy_all(root, to, exclude);
    if copied.is_err() {
        let _ = std::fs::remove_dir_all(to);
    }
    copied
}

fn copy_all(root: &Path, to: &Path, exclude: &[PathBuf]) -> Result<Copied, CheckpointError> {
    let (files, links) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let failed: Mutex<Option<CheckpointError>> = Mutex::new(None);
    let walker = crate::scan::walker(root, exclude.to_vec());
    walker.run(|| {
        Box::new(|entry| {
            let Ok(entry) = entry else { return ignore::WalkState::Continue };
            let Ok(rel) = entry.path().strip_prefix(root) else { return ignore::WalkState::Continue };
            if rel.as_os_str().is_empty() {
                return ignore::WalkState::Continue;
            }
            let (from, dest) = (entry.path(), to.join(rel));
            let kind = entry.file_type();
            let done = match kind {
                Some(k) if k.is_dir() => std::fs::create_dir_all(&dest),
                Some(k) if k.is_symlink() => std::fs::read_link(from).and_then(|target| {
                    links.fetch_add(1, Ordering::Relaxed);
                    make_parent(&dest).and_then(|()| std::os::unix::fs::symlink(target, &dest))
                }),
                _ => make_parent(&dest).and_then(|()| std::fs::copy(from, &dest)).map(|_| {
                    files.fetch_add(1, Ordering::Relaxed);
                }),
            };
            match done {
                Ok(()) => ignore::WalkState::Continue,
                Err(e) => {
                    let mut f = failed.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                    f.get_or_insert(CheckpointError::io(from.display(), e));
                    ignore::WalkState::Quit
                }
            }
        })
    });
    if let Some(e) = failed.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner) {
        return Err(e);
    }
    Ok(Copied { files: files.into_inner(), links: links.into_inner() })
}

/// The walk is parallel: a file can come before its folder.
fn make_parent(path: &Path) -> std::io::Result<()> {
    match path.parent() {
        Some(dir) => std::fs::create_dir_all(dir),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_working_files_are_copied_without_what_git_ignores_and_the_copy_is_its_own() {
        let base = tempfile::tempdir().unwrap();
        let root = base.path().join("work");
        std::fs::create_dir_all(root.join("src/deep")).unwrap();
        std::fs::create_dir_all(root.join("target")).unwrap();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::write(root.join(".gitignore"), "target/\n").unwrap();
        std::fs::write(root.join("src/deep/a.txt"), "a\n").unwrap();
        std::fs::write(root.join("b.txt"), "b\n").unwrap();
        std::fs::write(root.join("target/big.bin"), "built").unwrap();
        std::fs::write(root.join(".git/HEAD"), "ref").unwrap();
        std::os::unix::fs::symlink("b.txt", root.join("link")).unwrap();
        let to = base.path().join("copy");
        let copied = isolate(&root, &to, &[]).unwrap();
        assert_eq!(copied, Copied { files: 3, links: 1 }, ".gitignore, a.txt and b.txt; the link as a link");
        assert_eq!(std::fs::read_to_string(to.join("src/deep/a.txt")).unwrap(), "a\n");
        assert!(!to.join("target").exists() && !to.join(".git").exists(), "ignored and .git are left out");
        assert_eq!(std::fs::read_link(to.join("link")).unwrap(), Path::new("b.txt"));

        // Appending in place to the copy leaves the original alone.
        use std::io::Write;
        std::fs::OpenOptions::new().append(true).open(to.join("b.txt")).unwrap().write_all(b"more\n").unwrap();
        assert_eq!(std::fs::read_to_string(root.join("b.txt")).unwrap(), "b\n");

        assert!(isolate(&root, &to, &[]).unwrap_err().to_string().contains("exists already"));
        assert!(isolate(&root, &root.join("inner"), &[]).unwrap_err().to_string().contains("inside the workspace"));
    }
}
