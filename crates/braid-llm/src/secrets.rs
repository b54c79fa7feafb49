//! API keys: an environment variable (`BRAID_<PROVIDER>_API_KEY`) wins;
//! otherwise the OS keychain (keyring); where no keychain service runs (a
//! headless Linux box), a file readable only by the user (0600). A key is
//! never logged, never put in an error, never sent to the UI.

use crate::http::ApiKey;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const SERVICE: &str = "braid";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeySource {
    Env,
    Keychain,
    File,
}

#[derive(Debug, thiserror::Error)]
pub enum SecretError {
    #[error("could not read or write the key file {path}: {reason}")]
    File { path: String, reason: String },
}

pub struct Secrets {
    file: PathBuf,
    use_keychain: bool,
}

/// `openai-main` → `BRAID_OPENAI_MAIN_API_KEY`.
pub fn env_var(provider_id: &str) -> String {
    let id: String =
        provider_id.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_uppercase() } else { '_' }).collect();
    format!("BRAID_{id}_API_KEY")
}

impl Secrets {
    /// Keys of the fallback file live in `dir/secrets.json`.
    pub fn new(dir: &Path) -> Secrets {
        Secrets { file: dir.join("secrets.json"), use_keychain: std::env::var_os("BRAID_NO_KEYCHAIN").is_none() }
    }

    /// A store that never touches the OS keychain (tests, portable setups).
    pub fn file_only(dir: &Path) -> Secrets {
        Secrets { file: dir.join("secrets.json"), use_keychain: false }
    }

    fn keychain(&self, provider_id: &str) -> Option<keyring::Entry> {
        if !self.use_keychain {
            return None;
        }
        keyring::Entry::new(SERVICE, provider_id).ok()
    }

    pub fn get(&self, provider_id: &str) -> Result<Option<(ApiKey, KeySource)>, SecretError> {
        if let Some(key) = std::env::var(env_var(provider_id)).ok().and_then(ApiKey::new) {
            return Ok(Some((key, KeySource::Env)));
        }
        if let Some(key) = self.keychain(provider_id).and_then(|e| e.get_password().ok()).and_then(ApiKey::new) {
            return Ok(Some((key, KeySource::Keychain)));
        }
        Ok(self.read_file()?.remove(provider_id).and_then(ApiKey::new).map(|k| (k, KeySource::File)))
    }

    /// Stores a key: in the keychain when one works, else in the file.
    pub fn set(&self, provider_id: &str, key: &ApiKey) -> Result<KeySource, SecretError> {
        if let Some(entry) = self.keychain(provider_id) {
            if entry.set_password(key.expose()).is_ok() {
                self.remove_from_file(provider_id)?;
                return Ok(KeySource::Keychain);
            }
        }
        let mut all = self.read_file()?;
        all.insert(provider_id.to_owned(), key.expose().to_owned());
        self.write_file(&all)?;
        Ok(KeySource::File)
    }

    pub fn delete(&self, provider_id: &str) -> Result<(), SecretError> {
        if let Some(entry) = self.keychain(provider_id) {
            let _ = entry.delete_credential();
        }
        self.remove_from_file(provider_id)
    }

    fn remove_from_file(&self, provider_id: &str) -> Result<(), SecretError> {
        let mut all = self.read_file()?;
        if all.remove(provider_id).is_some() {
            self.write_file(&all)?;
        }
        Ok(())
    }

    fn err(&self, e: impl ToString) -> SecretError {
        SecretError::File { path: self.file.display().to_string(), reason: e.to_string() }
    }

    fn read_file(&self) -> Result<BTreeMap<String, String>, SecretError> {
        match std::fs::read_to_string(&self.file) {
            Ok(text) => serde_json::from_str(&text).map_err(|e| self.err(format!("not valid JSON ({e})"))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(BTreeMap::new()),
            Err(e) => Err(self.err(e)),
        }
    }

    /// Written to a 0600 temporary file, then renamed: never readable by
    /// others, never half-written.
    fn write_file(&self, all: &BTreeMap<String, String>) -> Result<(), SecretError> {
        use std::io::Write;
        #[cfg(unix)]
        use std::os::unix::fs::OpenOptionsExt;
        if let Some(dir) = self.file.parent() {
            std::fs::create_dir_all(dir).map_err(|e| self.err(e))?;
        }
        let tmp = self.file.with_extension("json.tmp");
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        options.mode(0o600);
        let mut f = options.open(&tmp).map_err(|e| self.err(e))?;
        let text = serde_json::to_string_pretty(all).map_err(|e| self.err(e))?;
        f.write_all(text.as_bytes()).and_then(|()| f.sync_all()).map_err(|e| self.err(e))?;
        std::fs::rename(&tmp, &self.file).map_err(|e| self.err(e))
    }
}
