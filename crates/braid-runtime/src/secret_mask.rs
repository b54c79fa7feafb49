//! Secrets kept from every model (see [`braid_core::secrets`]): what
//! the filter knows, learned here from the world — Braid's stored keys,
//! this process's variables named like secrets, the `.env` files of the
//! workspaces conversations work in (any depth) — and the placeholders
//! handed out, so a tool call that uses one gets the real value back when
//! it runs. A value given back is learned, so it is hidden wherever it
//! turns up later. The local key placeholders are derived from lives in
//! the data folder (0600; `secret_files`). A workspace listed in
//! settings.json's `show_secrets_in` is sent as it is.

use crate::secret_files::{self, Dotenvs};
use braid_core::secrets::{dotenv_entries, placeholders_in, secret_name, Exposure, SecretFilter};
use braid_protocol::Message;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError, RwLock};

pub(crate) struct SecretMask {
    filter: RwLock<SecretFilter>,
    /// Every placeholder handed out, and its value.
    found: Mutex<BTreeMap<String, String>>,
    dotenvs: Mutex<Dotenvs>,
    /// Workspaces whose next look walks them again (a tool named a
    /// `.env` file: it may have made one).
    walk_again: Mutex<BTreeSet<PathBuf>>,
    off_in: Vec<PathBuf>,
    /// What went wrong with the key found at start, if anything: the
    /// placeholders of earlier requests no longer match.
    key_problem: Option<String>,
}

/// A call's arguments with their placeholders replaced by the values.
pub(crate) struct Revealed {
    pub text: String,
    /// The placeholders given back.
    pub used: Vec<String>,
    /// Placeholders the filter never handed out (from before its key
    /// changed, or made up): the call must not run with them as text.
    pub unknown: Vec<String>,
}

impl SecretMask {
    /// `keys`: Braid's stored keys, by provider; `had_conversations`
    /// says whether a missing key file is news.
    pub(crate) fn open(
        data_dir: &Path,
        keys: Vec<(String, String)>,
        off_in: Vec<PathBuf>,
        had_conversations: impl FnOnce() -> bool,
    ) -> SecretMask {
        let (key, key_problem) = secret_files::local_key(&data_dir.join("secret-filter.key"), had_conversations);
        let mut filter = SecretFilter::new(key);
        for (provider, key) in keys {
            filter.learn(&key, &format!("{provider}-key"));
        }
        for (name, value) in std::env::vars() {
            if secret_name(&name) {
                filter.learn(&value, &name);
            }
        }
        SecretMask {
            filter: RwLock::new(filter),
            found: Mutex::default(),
            dotenvs: Mutex::default(),
            walk_again: Mutex::default(),
            off_in,
            key_problem,
        }
    }

    /// Why the placeholders of earlier requests no longer match, if
    /// they do not.
    pub(crate) fn key_problem(&self) -> Option<&str> {
        self.key_problem.as_deref()
    }

    /// Whether text for a conversation in `workspace` is filtered; its
    /// `.env` files (any depth) are learned, again when changed, first.
    pub(crate) fn on_for(&self, workspace: &Path) -> bool {
        if self.off_in.iter().any(|p| workspace.starts_with(p)) {
            return false;
        }
        let again = self.walk_again.lock().unwrap_or_else(PoisonError::into_inner).remove(workspace);
        let changed = self.dotenvs.lock().unwrap_or_else(PoisonError::into_inner).changed(workspace, again);
        for path in changed {
            let Some(text) = secret_files::read_dotenv(&path) else { continue };
            let mut filter = self.filter.write().unwrap_or_else(PoisonError::into_inner);
            for (name, value) in dotenv_entries(&text) {
                filter.learn_from_file(&name, &value);
            }
        }
        true
    }

    /// A tool call named a `.env` file in `workspace`: the next look walks
    /// the workspace again, so a file it made is learned before its output
    /// goes anywhere.
    pub(crate) fn look_again(&self, workspace: &Path, arguments: &str) {
        if arguments.contains(".env") {
            self.walk_again.lock().unwrap_or_else(PoisonError::into_inner).insert(workspace.to_owned());
        }
    }

    /// Hides the secrets in `text`; the placeholders that stand for them.
    pub(crate) fn hide(&self, text: &mut String) -> BTreeSet<String> {
        let hidden = self.filter.read().unwrap_or_else(PoisonError::into_inner).hide(text);
        let placeholders: BTreeSet<String> = hidden.found.keys().cloned().collect();
        if !placeholders.is_empty() {
            *text = hidden.text;
            self.found.lock().unwrap_or_else(PoisonError::into_inner).extend(hidden.found);
        }
        placeholders
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
    /// `earlier`: the conversation's messages, hidden again (into a copy)
    /// when a placeholder is not known yet — after a restart the filter
    /// knows only what it hid since. Values given back are learned.
    pub(crate) fn reveal(&self, text: &str, earlier: impl FnOnce() -> Vec<Message>) -> Revealed {
        let wanted = placeholders_in(text);
        if wanted.is_empty() {
            return Revealed { text: text.to_owned(), used: Vec::new(), unknown: Vec::new() };
        }
        let missing = |found: &BTreeMap<String, String>| wanted.iter().any(|p| !found.contains_key(p));
        if missing(&self.found.lock().unwrap_or_else(PoisonError::into_inner)) {
            self.hide_messages(&mut earlier());
        }
        let found = self.found.lock().unwrap_or_else(PoisonError::into_inner);
        let (used, unknown): (Vec<String>, Vec<String>) = wanted.into_iter().partition(|p| found.contains_key(p));
        let mut out = text.to_owned();
        let mut filter = self.filter.write().unwrap_or_else(PoisonError::into_inner);
        for p in &used {
            let value = &found[p];
            out = out.replace(p.as_str(), value);
            filter.learn(value, braid_core::secrets::kind_of(p));
        }
        Revealed { text: out, used, unknown }
    }

    /// What to look for in the output of calls made after these
    /// placeholders were used: their values in every form.
    pub(crate) fn exposure(&self, placeholders: &[String]) -> Exposure {
        let found = self.found.lock().unwrap_or_else(PoisonError::into_inner);
        Exposure::new(placeholders.iter().filter_map(|p| found.get(p).map(|v| (p.as_str(), v.as_str()))))
    }
}
