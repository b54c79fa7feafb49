//! The live indexes of every workspace in use, one per folder, each
//! stored under the app's data folder by a hash of its path.

use crate::live::{LiveIndex, OnStatus};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

pub struct Codebases {
    store: PathBuf,
    /// Folders never indexed on their own (`/`, the home folder): too
    /// broad to walk without being asked.
    broad: Vec<PathBuf>,
    open: Mutex<HashMap<PathBuf, Arc<LiveIndex>>>,
    on_status: OnStatus,
}

/// Why a workspace has no index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotIndexed {
    Broad(PathBuf),
    Missing(PathBuf),
}

impl std::fmt::Display for NotIndexed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotIndexed::Broad(p) => write!(
                f,
                "the workspace {} is too broad to index (the whole disk or the home folder); move the conversation to a project folder",
                p.display()
            ),
            NotIndexed::Missing(p) => write!(f, "the workspace {} is not a folder that exists", p.display()),
        }
    }
}

impl Codebases {
    pub fn new(store: PathBuf, broad: Vec<PathBuf>, on_status: OnStatus) -> Codebases {
        Codebases { store, broad, open: Mutex::new(HashMap::new()), on_status }
    }

    /// The live index of `root`, started (in the background) if it was not.
    pub fn open(&self, root: &Path) -> Result<Arc<LiveIndex>, NotIndexed> {
        let root = std::fs::canonicalize(root).map_err(|_| NotIndexed::Missing(root.to_path_buf()))?;
        if !root.is_dir() {
            return Err(NotIndexed::Missing(root));
        }
        // `/home` holds the home folder: as broad as it.
        if self.broad.iter().any(|b| b.starts_with(&root)) {
            return Err(NotIndexed::Broad(root));
        }
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(live) = open.get(&root) {
            return Ok(live.clone());
        }
        let live = LiveIndex::open(root.clone(), self.store_file(&root), self.on_status.clone());
        open.insert(root, live.clone());
        Ok(live)
    }

    /// Where `root`'s index is kept between runs.
    pub fn store_file(&self, root: &Path) -> PathBuf {
        // FNV-1a: stable across runs and builds (std's hasher is not).
        let hash = root
            .as_os_str()
            .as_encoded_bytes()
            .iter()
            .fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
        self.store.join(format!("{hash:016x}.json"))
    }
}
