//! Images kept once, by the SHA-256 of their bytes, in the app's data
//! directory. Messages hold the id; the same screenshot pasted twice is
//! stored once. Files are written atomically and never changed.

use crate::decode::decode;
use crate::VisionError;
use braid_protocol::StoredImage;
use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Larger uploads are refused before decoding.
pub const MAX_IMAGE_BYTES: u64 = 40 * 1024 * 1024;

#[derive(Debug, Clone)]
pub struct ImageStore {
    dir: PathBuf,
}

impl ImageStore {
    pub fn open(dir: impl Into<PathBuf>) -> Result<ImageStore, VisionError> {
        let dir = dir.into();
        std::fs::create_dir_all(&dir)?;
        Ok(ImageStore { dir })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Checks that the bytes are an image Braid reads, then keeps them.
    pub fn put(&self, bytes: &[u8], name: Option<String>) -> Result<StoredImage, VisionError> {
        if bytes.len() as u64 > MAX_IMAGE_BYTES {
            let mb = bytes.len() / (1024 * 1024);
            return Err(VisionError::TooLarge(format!("{mb} MB (at most {} MB)", MAX_IMAGE_BYTES / (1024 * 1024))));
        }
        let decoded = decode(bytes)?;
        let id = hex(&Sha256::digest(bytes));
        let path = self.dir.join(&id);
        if !path.exists() {
            let mut tmp = tempfile_in(&self.dir, &id)?;
            tmp.1.write_all(bytes)?;
            tmp.1.sync_all()?;
            std::fs::rename(&tmp.0, &path)?;
        }
        let name = name.map(|n| n.chars().filter(|c| !c.is_control()).take(200).collect::<String>());
        Ok(StoredImage {
            id,
            media_type: decoded.media_type().to_owned(),
            width: decoded.image.width(),
            height: decoded.image.height(),
            bytes: bytes.len() as u64,
            name: name.filter(|n| !n.trim().is_empty()),
        })
    }

    pub fn get(&self, id: &str) -> Result<Vec<u8>, VisionError> {
        if !is_id(id) {
            return Err(VisionError::NotFound(id.chars().take(80).collect()));
        }
        match std::fs::read(self.dir.join(id.to_ascii_lowercase())) {
            Ok(b) => Ok(b),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(VisionError::NotFound(id.to_owned())),
            Err(e) => Err(e.into()),
        }
    }
}

impl ImageStore {
    /// Images stored longer ago than `age` (candidates for a sweep of
    /// those no message refers to).
    pub fn older_than(&self, age: std::time::Duration) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else { return Vec::new() };
        let now = std::time::SystemTime::now();
        entries
            .flatten()
            .filter(|e| {
                let modified = e.metadata().and_then(|m| m.modified()).ok();
                modified.and_then(|m| now.duration_since(m).ok()).is_some_and(|d| d > age)
            })
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| is_id(n))
            .collect()
    }

    /// Deletes a stored image (no other message refers to it any more).
    /// An id that is not one, or a file already gone, is not an error.
    pub fn remove(&self, id: &str) -> Result<(), VisionError> {
        if !is_id(id) {
            return Ok(());
        }
        match std::fs::remove_file(self.dir.join(id.to_ascii_lowercase())) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e.into()),
            _ => Ok(()),
        }
    }
}

/// A SHA-256 in hex: the only names in the store, so no id reaches
/// outside it.
fn is_id(id: &str) -> bool {
    id.len() == 64 && id.bytes().all(|b| b.is_ascii_hexdigit())
}

fn tempfile_in(dir: &Path, id: &str) -> std::io::Result<(PathBuf, std::fs::File)> {
    let path = dir.join(format!(".{id}.{}.tmp", std::process::id()));
    let file = std::fs::File::create(&path)?;
    Ok((path, file))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
