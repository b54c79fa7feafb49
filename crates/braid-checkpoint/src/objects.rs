//! The content store: each content once, named by its SHA-256, deflated,
//! under `objects/ab/cdef…`. A content is written to a temporary name and
//! renamed into place, so a name always holds the whole content. Contents
//! are not flushed one by one (a first snapshot keeps thousands): what a
//! power cut spoils is found by its hash when read, and said.

use crate::CheckpointError;
use braid_protocol::ContentHash as Hash;
use braid_protocol::ContentHash;
use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;
use flate2::Compression;
use sha2::{Digest, Sha256};
use std::collections::HashSet;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The name of `bytes`: their SHA-256, in hex.
pub fn hash_of(bytes: &[u8]) -> Hash {
    let digest = Sha256::digest(bytes);
    let mut hex = String::with_capacity(64);
    for b in digest {
        hex.push(char::from_digit(u32::from(b >> 4), 16).unwrap_or('0'));
        hex.push(char::from_digit(u32::from(b & 15), 16).unwrap_or('0'));
    }
    ContentHash(hex)
}

#[derive(Debug, Clone)]
pub struct Objects {
    dir: PathBuf,
}

impl Objects {
    /// The store under `dir` (created when the first content is kept).
    pub fn new(dir: impl Into<PathBuf>) -> Objects {
        Objects { dir: dir.into() }
    }

    fn path(&self, hash: &Hash) -> PathBuf {
        let (head, rest) = hash.0.split_at(2.min(hash.0.len()));
        self.dir.join(head).join(rest)
    }

    pub fn has(&self, hash: &Hash) -> bool {
        self.path(hash).exists()
    }

    /// Keeps `bytes` (once) and returns their name.
    pub fn put(&self, bytes: &[u8]) -> Result<Hash, CheckpointError> {
        let hash = hash_of(bytes);
        let path = self.path(&hash);
        if path.exists() {
            return Ok(hash);
        }
        let parent = path.parent().unwrap_or(&self.dir);
        std::fs::create_dir_all(parent).map_err(|e| CheckpointError::io(parent.display(), e))?;
        let tmp = temporary(&path);
        let write = || -> std::io::Result<()> {
            let file = std::fs::File::create(&tmp)?;
            let mut encoder = DeflateEncoder::new(file, Compression::fast());
            encoder.write_all(bytes)?;
            encoder.finish()?;
            std::fs::rename(&tmp, &path)
        };
        write().map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            CheckpointError::io(path.display(), e)
        })?;
        Ok(hash)
    }

    pub fn get(&self, hash: &Hash) -> Result<Vec<u8>, CheckpointError> {
        let path = self.path(hash);
        let file = match std::fs::File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(CheckpointError::Missing(hash.clone())),
            Err(e) => return Err(CheckpointError::io(path.display(), e)),
        };
        let mut bytes = Vec::new();
        DeflateDecoder::new(file).read_to_end(&mut bytes).map_err(|e| CheckpointError::io(path.display(), e))?;
        if hash_of(&bytes) != *hash {
            return Err(CheckpointError::Invalid(format!("the checkpoint content {hash} is damaged")));
        }
        Ok(bytes)
    }

    /// The space the store takes on disk, in bytes.
    pub fn size_on_disk(&self) -> u64 {
        self.each().map(|(_, size)| size).sum()
    }

    /// Removes every content not in `live` and written before `before`
    /// (one written since may be for a look at a folder not yet saved);
    /// returns the bytes freed.
    pub fn sweep(&self, live: &HashSet<Hash>, before: std::time::SystemTime) -> u64 {
        let mut freed = 0;
        for (path, size) in self.each() {
            let written = std::fs::metadata(&path).and_then(|m| m.modified());
            if written.map_or(true, |t| t >= before) {
                continue;
            }
            let name = path
                .parent()
                .and_then(Path::file_name)
                .zip(path.file_name())
                .map(|(a, b)| format!("{}{}", a.to_string_lossy(), b.to_string_lossy()));
            if name.is_some_and(|n| !live.contains(&Hash(n))) && std::fs::remove_file(&path).is_ok() {
                freed += size;
            }
        }
        freed
    }

    fn each(&self) -> impl Iterator<Item = (PathBuf, u64)> {
        let heads = std::fs::read_dir(&self.dir).into_iter().flatten().flatten();
        heads.flat_map(|head| std::fs::read_dir(head.path()).into_iter().flatten().flatten()).filter_map(|f| {
            let meta = f.metadata().ok()?;
            let tmp = f.file_name().to_string_lossy().starts_with('.');
            (meta.is_file() && !tmp).then(|| (f.path(), meta.len()))
        })
    }
}

/// A temporary name beside `path` (same folder, so the rename is atomic).
pub(crate) fn temporary(path: &Path) -> PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    path.with_file_name(format!(".{name}.braid-{}-{n}", std::process::id()))
}
