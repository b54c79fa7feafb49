//! A workspace and a checkpoint store in temporary folders.

use braid_checkpoint::{Journal, Limits, Manifest, Objects};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub struct Place {
    _dir: Option<tempfile::TempDir>,
    pub base: PathBuf,
    pub root: PathBuf,
    pub objects: Objects,
    pub journal: Journal,
}

impl Place {
    pub fn new() -> Place {
        let dir = tempfile::tempdir().unwrap();
        let mut place = Place::open(dir.path());
        std::fs::create_dir_all(&place.root).unwrap();
        place._dir = Some(dir);
        place
    }

    /// The place another process made under `base`.
    pub fn open(base: &Path) -> Place {
        Place {
            _dir: None,
            base: base.to_owned(),
            root: base.join("work"),
            objects: Objects::new(base.join("data/objects")),
            journal: Journal::new(base.join("data/restore.json")),
        }
    }

    pub fn write(&self, rel: &str, text: &[u8]) {
        let path = self.root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    pub fn scan(&self, previous: &Manifest) -> Manifest {
        braid_checkpoint::scan(&self.root, previous, &self.objects, Limits::default()).unwrap()
    }

    /// As after a restart: the store opened again, the last snapshot read
    /// back from what was saved, no restore left to complete.
    pub fn restart(&mut self, last: &Manifest) -> Manifest {
        self.objects = Objects::new(self.base.join("data/objects"));
        assert_eq!(self.journal.recover(&self.objects, &|_, _| true).unwrap(), None);
        serde_json::from_str(&serde_json::to_string(last).unwrap()).unwrap()
    }

    /// Every file under the root, by relative path (what a person sees).
    pub fn files(&self) -> BTreeMap<String, Vec<u8>> {
        let mut out = BTreeMap::new();
        walk(&self.root, &self.root, &mut out);
        out
    }
}

fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(root, &path, out);
        } else {
            let rel = path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
            out.insert(rel, std::fs::read(&path).unwrap());
        }
    }
}
