//! The user's preferences kept with the providers in settings.json: what
//! new conversations start with, the standing instructions every request
//! carries, and the file to take them to another machine. Each is checked
//! whole before it is saved; a refused change leaves the file as it was.

use super::Providers;
use crate::RuntimeError;
use braid_llm::settings::{Settings, SettingsError};
use braid_protocol::{ConversationDefaults, SettingsView, StandingInstructions, MAX_STANDING_INSTRUCTIONS};

impl Providers {
    /// What new conversations start with, checked and saved.
    pub fn set_conversation_defaults(&self, defaults: ConversationDefaults) -> Result<SettingsView, RuntimeError> {
        braid_core::machine::check_defaults(&defaults).map_err(RuntimeError::InvalidInput)?;
        self.check_model(&defaults)?;
        self.save_with(|s| s.conversations = defaults)
    }

    pub fn conversation_defaults(&self) -> ConversationDefaults {
        self.read().settings.conversations.clone()
    }

    /// What every conversation is told from its next request on.
    pub fn set_standing_instructions(&self, instructions: StandingInstructions) -> Result<SettingsView, RuntimeError> {
        check_instructions(&instructions)?;
        self.save_with(|s| s.instructions = instructions)
    }

    pub fn standing_instructions(&self) -> StandingInstructions {
        self.read().settings.instructions.clone()
    }

    /// settings.json as it is: it holds no key (keys live in the keychain
    /// or the private key file).
    pub fn export_settings(&self) -> Result<String, RuntimeError> {
        let settings = self.read().settings.clone();
        serde_json::to_string_pretty(&settings).map_err(|e| SettingsError::Invalid(e.to_string()).into())
    }

    /// An exported file in place of the settings, after every part of it
    /// is checked. Keys stay where they are: a provider with the same id
    /// keeps its key; one new here has none until the user gives it.
    pub fn import_settings(&self, text: &str) -> Result<SettingsView, RuntimeError> {
        let imported: Settings = serde_json::from_str(text)
            .map_err(|e| RuntimeError::InvalidInput(format!("this is not a Braid settings file: {e}")))?;
        let mut checked = Settings { providers: Vec::new(), default_provider: None, ..imported.clone() };
        for p in imported.providers {
            let id = p.id.clone();
            checked.upsert_provider(p).map_err(|e| RuntimeError::InvalidInput(format!("provider {id:?}: {e}")))?;
        }
        // Without one named, the first provider is the default.
        if let Some(id) = imported.default_provider {
            checked.provider(&id).map_err(|_| {
                RuntimeError::InvalidInput(format!("the default provider {id:?} is not among the file's providers"))
            })?;
            checked.default_provider = Some(id);
        }
        braid_core::machine::check_defaults(&checked.conversations).map_err(RuntimeError::InvalidInput)?;
        check_instructions(&checked.instructions)?;
        if let Some(m) = &checked.conversations.model {
            checked.provider(&m.provider_id).map_err(|_| {
                RuntimeError::InvalidInput(format!(
                    "the default model's provider {:?} is not in the file",
                    m.provider_id
                ))
            })?;
        }
        self.save_with(|s| *s = checked)
    }

    /// The default model's provider must be one the settings hold, the
    /// default folder one that exists.
    fn check_model(&self, defaults: &ConversationDefaults) -> Result<(), RuntimeError> {
        if let Some(dir) = &defaults.working_dir {
            if !std::path::Path::new(dir).is_absolute() || !std::path::Path::new(dir).is_dir() {
                return Err(RuntimeError::InvalidInput(format!("{dir} is not a folder (give its whole path)")));
            }
        }
        match &defaults.model {
            Some(m) if !self.has(&m.provider_id) => {
                Err(RuntimeError::InvalidInput(format!("there is no provider {:?} in the settings", m.provider_id)))
            }
            Some(m) if m.model.trim().is_empty() => Err(RuntimeError::InvalidInput("name the default model".into())),
            _ => Ok(()),
        }
    }

    /// Saved first, then in force: what runs is what is on disk.
    fn save_with(&self, edit: impl FnOnce(&mut Settings)) -> Result<SettingsView, RuntimeError> {
        let mut inner = self.write();
        let mut settings = inner.settings.clone();
        edit(&mut settings);
        self.persist(&settings)?;
        // Providers may have changed (an import): built again on next use.
        inner.live.clear();
        inner.settings = settings;
        drop(inner);
        Ok(self.view())
    }
}

fn check_instructions(i: &StandingInstructions) -> Result<(), RuntimeError> {
    for (what, text) in [("About you", &i.about_me), ("How to answer", &i.how_to_answer)] {
        let n = text.chars().count();
        if n > MAX_STANDING_INSTRUCTIONS {
            return Err(RuntimeError::InvalidInput(format!(
                "{what} has {n} characters; at most {MAX_STANDING_INSTRUCTIONS} go with every request"
            )));
        }
    }
    Ok(())
}
