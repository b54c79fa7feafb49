//! The files the secret filter learns from: its own key (placeholders
//! are derived from it) and the workspace's `.env` files, at any depth.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

/// The local key, made on first use: 32 random bytes, readable by the
/// user only; and what went wrong with the one there was, if anything
/// (the user is told: placeholders from before no longer match). A key
/// that cannot be read or is not 32 bytes is moved aside, never written
/// over. Without a writable folder, a key for this run only.
/// `had_conversations` says whether a missing key is news (a data folder
/// that already holds conversations) or a first start.
pub(crate) fn local_key(path: &Path, had_conversations: impl FnOnce() -> bool) -> ([u8; 32], Option<String>) {
    let problem = match std::fs::read(path) {
        Ok(bytes) => match <[u8; 32]>::try_from(bytes.as_slice()) {
            Ok(key) => return (key, None),
            Err(_) => Some(format!("was {} bytes instead of 32", bytes.len())),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => had_conversations().then(|| "was missing".to_owned()),
        Err(e) => Some(format!("could not be read ({e})")),
    };
    let problem = problem.map(|why| match path.symlink_metadata() {
        // Kept, under a name that says what it is, for the user to look at.
        Ok(_) => {
            let aside = aside_name(path);
            match std::fs::rename(path, &aside) {
                Ok(()) => format!("{why}; it was kept as {}", aside.display()),
                Err(e) => format!("{why}; it could not be moved aside ({e})"),
            }
        }
        Err(_) => why,
    });
    let mut key = [0u8; 32];
    if let Ok(mut random) = std::fs::File::open("/dev/urandom") {
        let _ = std::io::Read::read_exact(&mut random, &mut key);
    }
    use std::os::unix::fs::OpenOptionsExt;
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .and_then(|mut f| std::io::Write::write_all(&mut f, &key));
    if let Err(e) = written {
        tracing::warn!(path = %path.display(), error = %e, "the secret filter's key could not be kept; placeholders change at restart");
    }
    if let Some(why) = &problem {
        tracing::warn!(path = %path.display(), "the secret filter's key {why}; a new one was made");
    }
    (key, problem)
}

fn aside_name(path: &Path) -> PathBuf {
    let stamp = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let name = path.file_name().map_or_else(|| "key".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!("{name}.unreadable-{stamp}"))
}

/// Whether a file name is a secret file's: `.env`, `.env.local`,
/// `.env.production`… but not the examples committed beside them.
pub(crate) fn is_dotenv(name: &str) -> bool {
    (name == ".env" || name.starts_with(".env.") || name.ends_with(".env"))
        && ![".example", ".sample", ".template", ".dist"].iter().any(|s| name.ends_with(s))
}

/// Folders not walked for `.env` files: a repository's object store and
/// the trees package managers and builds fill (thousands of files, none
/// the user's secrets).
const SKIPPED: [&str; 6] = [".git", "node_modules", "target", ".venv", "__pycache__", ".cache"];
/// Entries one walk looks at, at most (a home folder is large).
const MAX_ENTRIES: usize = 200_000;
/// A workspace is walked again at most this often; the files found are
/// looked at (one stat each) on every request.
const WALK_EVERY: Duration = Duration::from_secs(20);

/// The `.env` files of the workspaces seen, and when each was learned.
#[derive(Default)]
pub(crate) struct Dotenvs {
    walked: HashMap<PathBuf, Instant>,
    files: HashMap<PathBuf, SystemTime>,
}

impl Dotenvs {
    /// The `.env` files under `workspace` new or changed since last
    /// asked. Walks the workspace when it was not walked for a while (or
    /// `again` says a tool may have made one), without following links,
    /// skipping FIFOs, sockets and devices (never opened).
    pub(crate) fn changed(&mut self, workspace: &Path, again: bool) -> Vec<PathBuf> {
        let due = again || self.walked.get(workspace).is_none_or(|at| at.elapsed() >= WALK_EVERY);
        if due {
            self.walked.insert(workspace.to_owned(), Instant::now());
            for path in walk(workspace) {
                self.files.entry(path).or_insert(SystemTime::UNIX_EPOCH);
            }
        }
        let mut changed = Vec::new();
        for (path, seen) in self.files.iter_mut().filter(|(p, _)| p.starts_with(workspace)) {
            let Ok(meta) = std::fs::metadata(path) else { continue };
            let modified = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
            if meta.is_file() && modified != *seen {
                *seen = modified;
                changed.push(path.clone());
            }
        }
        changed
    }
}

fn walk(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![root.to_owned()];
    let mut entries = 0usize;
    while let Some(dir) = pending.pop() {
        let Ok(list) = std::fs::read_dir(&dir) else { continue };
        for entry in list.flatten() {
            entries += 1;
            if entries > MAX_ENTRIES {
                tracing::debug!(root = %root.display(), "the walk for .env files stopped at {MAX_ENTRIES} entries");
                return found;
            }
            // The entry's own type: a link is never followed (no loops,
            // nothing outside), a FIFO or device never opened.
            let Ok(kind) = entry.file_type() else { continue };
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if kind.is_dir() && !SKIPPED.contains(&name.as_ref()) {
                pending.push(entry.path());
            } else if kind.is_file() && is_dotenv(&name) {
                found.push(entry.path());
            }
        }
    }
    found
}

/// A `.env` file's text, at most 1 MB (a larger one is not a `.env`).
/// Read only if it is a plain file: a FIFO put in its place never holds
/// the walk.
pub(crate) fn read_dotenv(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut text = String::new();
    braid_workspace::plain::open(path).ok()?.take(1 << 20).read_to_string(&mut text).ok()?;
    Some(text)
}
