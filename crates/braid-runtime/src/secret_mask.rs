//! Secrets kept from every model (see [`braid_core::secrets`]): what
//! the filter knows, learned here from the world — Braid's stored keys,
//! this process's variables named like secrets, the `.env` files of the
//! workspaces conversations work in — and the placeholders handed out,
//! so a tool call that uses one gets the real value back when it runs.
//! The local key placeholders are derived from lives in the data folder
//! (0600). A workspace listed in settings.json's `show_secrets_in` is
//! sent as it is.

use braid_core::secrets::{dotenv_entries, reveal, secret_name, SecretFilter};
use braid_protocol::Message;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError, RwLock};
use std::time::SystemTime;

pub(crate) struct SecretMask {
    filter: RwLock<SecretFilter>,
    /// Every placeholder handed out, and its value.
    found: Mutex<BTreeMap<String, String>>,
    /// `.env` files read, by when they were last changed.
    read: Mutex<HashMap<PathBuf, SystemTime>>,
    off_in: Vec<PathBuf>,
}

impl SecretMask {
    /// `keys`: Braid's stored keys, by provider.
    pub(crate) fn open(data_dir: &Path, keys: Vec<(String, String)>, off_in: Vec<PathBuf>) -> SecretMask {
        let mut filter = SecretFilter::new(local_key(&data_dir.join("secret-filter.key")));
        for (provider, key) in keys {
            filter.learn(&key, &format!("{provider}-key"));
        }
        for (name, value) in std::env::vars() {
            if secret_name(&name) {
                filter.learn(&value, &name);
            }
        }
        SecretMask { filter: RwLock::new(filter), found: Mutex::default(), read: Mutex::default(), off_in }
    }

    /// Whether text for a conversation in `workspace` is filtered; its
    /// `.env` files are learned (again when changed) first.
    pub(crate) fn on_for(&self, workspace: &Path) -> bool {
        if self.off_in.iter().any(|p| workspace.starts_with(p)) {
            return false;
        }
        let Ok(dir) = std::fs::read_dir(workspace) else { return true };
        for entry in dir.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if !(name == ".env" || name.starts_with(".env.")) || name.ends_with(".example") {
                continue;
            }
            let path = entry.path();
            let changed = entry.metadata().and_then(|m| m.modified()).unwrap_or(SystemTime::UNIX_EPOCH);
            let mut read = self.read.lock().unwrap_or_else(PoisonError::into_inner);
            if read.get(&path) == Some(&changed) {
                continue;
            }
            read.insert(path.clone(), changed);
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let mut filter = self.filter.write().unwrap_or_else(PoisonError::into_inner);
            for (name, value) in dotenv_entries(&text) {
                filter.learn(&value, &name);
            }
        }
        true
    }

    /// Hides the secrets in `text`; how many values were hidden.
    pub(crate) fn hide(&self, text: &mut String) -> usize {
        let hidden = self.filter.read().unwrap_or_else(PoisonError::into_inner).hide(text);
        let count = hidden.found.len();
        if count > 0 {
            *text = hidden.text;
            self.found.lock().unwrap_or_else(PoisonError::into_inner).extend(hidden.found);
        }
        count
    }

    /// Hides the secrets in every string of the messages (text, tool
    /// calls and their results, file contents); the distinct values hidden.
    pub(crate) fn hide_messages(&self, messages: &mut [Message]) -> BTreeSet<String> {
        let mut placeholders = BTreeSet::new();
        for message in messages {
            let Ok(mut body) = serde_json::to_value(&message.body) else { continue };
            if self.hide_strings(&mut body, &mut placeholders) {
                if let Ok(hidden) = serde_json::from_value(body) {
                    message.body = hidden;
                }
            }
        }
        placeholders
    }

    /// Hides the secrets in every string of a JSON value (an export).
    pub(crate) fn hide_value(&self, value: &mut serde_json::Value) -> usize {
        let mut placeholders = BTreeSet::new();
        self.hide_strings(value, &mut placeholders);
        placeholders.len()
    }

    fn hide_strings(&self, value: &mut serde_json::Value, seen: &mut BTreeSet<String>) -> bool {
        match value {
            serde_json::Value::String(s) => {
                let hidden = self.filter.read().unwrap_or_else(PoisonError::into_inner).hide(s);
                if hidden.found.is_empty() {
                    return false;
                }
                seen.extend(hidden.found.keys().cloned());
                self.found.lock().unwrap_or_else(PoisonError::into_inner).extend(hidden.found);
                *s = hidden.text;
                true
            }
            // Every item is looked at: not `any`, which stops at the first.
            serde_json::Value::Array(items) => {
                items.iter_mut().map(|v| self.hide_strings(v, seen)).filter(|c| *c).count() > 0
            }
            serde_json::Value::Object(map) => {
                map.values_mut().map(|v| self.hide_strings(v, seen)).filter(|c| *c).count() > 0
            }
            _ => false,
        }
    }

    /// `text` with the placeholders handed out replaced by their values.
    pub(crate) fn reveal(&self, text: &str) -> String {
        reveal(text, &self.found.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

/// The local key, made on first use: 32 random bytes, readable by the
/// user only. Without one (an unwritable folder) a key for this run only.
fn local_key(path: &Path) -> [u8; 32] {
    if let Ok(bytes) = std::fs::read(path) {
        if let Ok(key) = <[u8; 32]>::try_from(bytes.as_slice()) {
            return key;
        }
    }
    let mut key = [0u8; 32];
    if let Ok(mut random) = std::fs::File::open("/dev/urandom") {
        let _ = std::io::Read::read_exact(&mut random, &mut key);
    }
    use std::os::unix::fs::OpenOptionsExt;
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
        .and_then(|mut f| std::io::Write::write_all(&mut f, &key));
    if let Err(e) = written {
        tracing::warn!(path = %path.display(), error = %e, "the secret filter's key could not be kept; placeholders change at restart");
    }
    key
}
