//! A copy of a workspace for a line of work of its own (a branch, a
//! sub-agent, a team member), so parallel lines never write over each
//! other. In a git repository, a `git worktree` — the user keeps git
//! there — with the working changes (modified, added, untracked, deleted
//! files) carried over, so the copy starts where the folder is, not at its
//! last commit ([`workspace_copy`]). Elsewhere, or when git cannot, the
//! working files as they are now ([`isolate`]) — what git would leave out
//! (`.gitignore`) and `.git` itself are not copied, so a build folder does
//! not cost the copy. Each file is copied with `std::fs::copy`, which the
//! kernel turns into a reflink (shared extents, copy on write) on a file
//! system that has them and a plain copy elsewhere. Hard links are never
//! used: a tool that appends to a file in place would write into both.

use crate::CheckpointError;
use braid_protocol::IsolationKind;
use std::path::{Path, PathBuf};
use std::process::Command;
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

/// A copy of `root` at `to`: a git worktree when `root` is a repository
/// with a commit, its working files copied otherwise (or when git fails;
/// what git half made is taken away first). `exclude` as for [`isolate`].
pub fn workspace_copy(root: &Path, to: &Path, exclude: &[PathBuf]) -> Result<IsolationKind, CheckpointError> {
    if root.join(".git").is_dir() {
        match worktree(root, to, exclude) {
            Ok(()) => return Ok(IsolationKind::GitWorktree),
            Err(_) => {
                // Why is not the user's concern: the copy below stands in.
                let _ = git(root, &["worktree", "remove", "--force"], Some(to));
                let _ = std::fs::remove_dir_all(to);
                let _ = git(root, &["worktree", "prune"], None);
            }
        }
    }
    isolate(root, to, exclude).map(|_| IsolationKind::Copy)
}

/// Removes a copy made by [`workspace_copy`] (and a worktree's entry in
/// the repository it came from).
pub fn remove_copy(root: &Path, copy: &Path, kind: IsolationKind) -> Result<(), CheckpointError> {
    if kind == IsolationKind::GitWorktree && git(root, &["worktree", "remove", "--force"], Some(copy)).is_ok() {
        return Ok(());
    }
    let removed = std::fs::remove_dir_all(copy).map_err(|e| CheckpointError::io(copy.display(), e));
    if kind == IsolationKind::GitWorktree {
        let _ = git(root, &["worktree", "prune"], None);
    }
    removed
}

fn worktree(root: &Path, to: &Path, exclude: &[PathBuf]) -> Result<(), CheckpointError> {
    git(root, &["worktree", "add", "--detach", "--quiet"], Some(to))?;
    let status = git(root, &["status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames"], None)?;
    // Each entry: two status letters, a space, the path.
    for entry in status.split('\0').filter(|e| e.len() > 3) {
        let (code, path) = entry.split_at(3);
        let (src, dest) = (root.join(path), to.join(path));
        if exclude.iter().any(|x| src.starts_with(x)) {
            continue;
        }
        let done = if code.contains('D') || std::fs::symlink_metadata(&src).is_err() {
            std::fs::remove_file(&dest).or_else(|e| if dest.exists() { Err(e) } else { Ok(()) })
        } else {
            copy_one(&src, &dest)
        };
        done.map_err(|e| CheckpointError::io(path, e))?;
    }
    Ok(())
}

fn copy_one(src: &Path, dest: &Path) -> std::io::Result<()> {
    make_parent(dest)?;
    if std::fs::symlink_metadata(dest).is_ok() {
        std::fs::remove_file(dest)?;
    }
    if std::fs::symlink_metadata(src)?.file_type().is_symlink() {
        return std::os::unix::fs::symlink(std::fs::read_link(src)?, dest);
    }
    std::fs::copy(src, dest).map(drop)
}

/// Runs git in `dir` (a worktree's path last): its output, or why not.
fn git(dir: &Path, args: &[&str], path: Option<&Path>) -> Result<String, CheckpointError> {
    let mut command = Command::new("git");
    command.arg("-C").arg(dir).args(args);
    if let Some(path) = path {
        command.arg(path);
    }
    let out = command.output().map_err(|e| CheckpointError::io("git", e))?;
    if !out.status.success() {
        let why = String::from_utf8_lossy(&out.stderr).trim().to_owned();
        return Err(CheckpointError::Invalid(format!("git {}: {why}", args.join(" "))));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
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

    #[test]
    fn in_a_repository_the_copy_is_a_worktree_that_starts_from_the_working_changes() {
        let base = tempfile::tempdir().unwrap();
        let root = base.path().join("repo");
        std::fs::create_dir_all(root.join("src")).unwrap();
        let git = |args: &[&str]| {
            let out = Command::new("git").arg("-C").arg(&root).args(args).output().unwrap();
            assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        };
        git(&["init", "-q"]);
        std::fs::write(root.join("src/kept.txt"), "committed\n").unwrap();
        std::fs::write(root.join("gone.txt"), "committed\n").unwrap();
        git(&["add", "."]);
        git(&["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "first"]);
        std::fs::write(root.join("src/kept.txt"), "changed, not committed\n").unwrap();
        std::fs::remove_file(root.join("gone.txt")).unwrap();
        std::fs::write(root.join("new.txt"), "untracked\n").unwrap();

        let to = base.path().join("copy");
        assert_eq!(workspace_copy(&root, &to, &[]).unwrap(), IsolationKind::GitWorktree);
        assert_eq!(std::fs::read_to_string(to.join("src/kept.txt")).unwrap(), "changed, not committed\n");
        assert_eq!(std::fs::read_to_string(to.join("new.txt")).unwrap(), "untracked\n");
        assert!(!to.join("gone.txt").exists(), "deleted here, deleted there");
        assert!(to.join(".git").is_file(), "a worktree: git works in it");

        remove_copy(&root, &to, IsolationKind::GitWorktree).unwrap();
        assert!(!to.exists());
        let list = Command::new("git").arg("-C").arg(&root).args(["worktree", "list"]).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&list.stdout).lines().count(), 1, "its entry is gone too");

        // Not a repository: a copy of the working files.
        let plain = base.path().join("plain");
        std::fs::create_dir_all(&plain).unwrap();
        std::fs::write(plain.join("a.txt"), "a\n").unwrap();
        let to = base.path().join("plain-copy");
        assert_eq!(workspace_copy(&plain, &to, &[]).unwrap(), IsolationKind::Copy);
        remove_copy(&plain, &to, IsolationKind::Copy).unwrap();
        assert!(!to.exists());
    }
}
