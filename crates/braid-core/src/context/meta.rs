//! A conversation's descriptive fields and the changes to them: a title
//! (the user's, or one the model proposed while none was given), its own
//! model, its folder, its pin. All are written with the step that makes
//! them ([`Effect::SaveMeta`]), so memory and the store never disagree.

use super::{Context, Step, Undo};
use crate::machine::{Effect, Event, Reply};
use crate::title;
use braid_protocol::{ContextId, ErrorCode, ModelChoice, StatusKind, Timestamp, WireError};

/// The longest title, in characters.
pub const TITLE_MAX_CHARS: usize = 200;

/// A context's descriptive fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextMeta {
    pub id: ContextId,
    pub title: String,
    /// The folder the tools work in.
    pub working_dir: String,
    pub created_at: Timestamp,
    /// The last stored change to the conversation (a pin is not one).
    pub updated_at: Timestamp,
    /// The conversation's own model; `None` follows the default provider.
    pub model: Option<ModelChoice>,
    /// Kept at the top of the conversation list.
    pub pinned: bool,
}

/// What changes in a conversation's descriptive fields (`None`: as it is).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct MetaChange {
    pub title: Option<String>,
    /// `Some(None)`: back to the default model.
    pub model: Option<Option<ModelChoice>>,
    pub pinned: Option<bool>,
    /// The folder (the runtime found it exists) and whether it is a broad
    /// one (the home folder, `/`), where reads are confirmed first.
    pub working_dir: Option<(String, bool)>,
}

fn invalid(text: impl Into<String>) -> WireError {
    WireError::new(ErrorCode::InvalidInput, text)
}

impl Context {
    /// Checks `change` and makes it, whole or not at all. The folder moves
    /// only while idle (the machine says so); a pin leaves the change
    /// time as it is.
    pub fn edit_meta(&mut self, change: MetaChange, now: Timestamp) -> Step {
        let from = self.state.status.kind();
        if let Err(e) = check(&change) {
            return Step::refused("edit_meta", from, e);
        }
        let mut step = Step {
            effects: Vec::new(),
            event: "edit_meta",
            from,
            unapplied: Vec::new(),
            undo: Undo { meta: Some(Box::new(self.meta.clone())), ..Undo::default() },
        };
        if let Some((_, broad)) = &change.working_dir {
            let workspace = self.handle(Event::SetWorkspace { confirm_reads: *broad }, now);
            if let Some(Err(e)) = workspace.reply() {
                let e = e.clone();
                self.undo(workspace);
                return Step::refused("edit_meta", from, e);
            }
            step = step.then(workspace);
            // Its reply is this step's, given below.
            step.effects.retain(|e| !matches!(e, Effect::Reply(_)));
        }
        let changes_conversation = change.title.is_some() || change.model.is_some() || change.working_dir.is_some();
        let meta = &mut self.meta;
        if let Some(title) = change.title {
            meta.title = title.trim().to_owned();
        }
        if let Some(model) = change.model {
            meta.model = model;
        }
        if let Some(pinned) = change.pinned {
            meta.pinned = pinned;
        }
        if let Some((dir, _)) = change.working_dir {
            meta.working_dir = dir;
        }
        if changes_conversation {
            meta.updated_at = now;
        }
        step.effects.insert(0, Effect::SaveMeta(Box::new(self.meta.clone())));
        step.effects.push(Effect::Reply(Ok(Reply::Done)));
        step
    }

    /// Names the conversation `name` (proposed by the model), unless the
    /// user named it meanwhile: then nothing happens.
    pub fn auto_title(&mut self, name: String, now: Timestamp) -> Option<Step> {
        if !self.untitled() {
            return None;
        }
        let name: String = name.trim().chars().take(TITLE_MAX_CHARS).collect();
        if name.is_empty() {
            return None;
        }
        Some(self.edit_meta(MetaChange { title: Some(name), ..MetaChange::default() }, now))
    }

    /// Whether the conversation still has the title it was created with.
    pub fn untitled(&self) -> bool {
        self.meta.title == title::DEFAULT_TITLE
    }

    /// What to ask a model to name the conversation after, when it should
    /// be named now: it is at rest, still untitled, and its first exchange
    /// is complete. The runtime makes the request (if titles are on) and
    /// hands the answer to [`Context::auto_title`].
    pub fn title_input(&self) -> Option<String> {
        if !self.untitled() || self.state.status.kind() != StatusKind::Idle {
            return None;
        }
        title::input(&self.conversation)
    }

    /// The model that answers from now: the active branch's own, else the
    /// conversation's (`None`: the default provider's).
    pub fn model_choice(&self) -> Option<&ModelChoice> {
        let branch = self.conversation.branch(self.conversation.active_branch());
        branch.and_then(|b| b.model.as_ref()).or(self.meta.model.as_ref())
    }

    /// Where the tools work from now: the active branch's own copy of the
    /// workspace, else the conversation's folder.
    pub fn folder(&self) -> &str {
        self.conversation.active_folder().unwrap_or(&self.meta.working_dir)
    }
}

/// A title is not empty and not too long; a model choice names a model.
fn check(change: &MetaChange) -> Result<(), WireError> {
    if let Some(title) = &change.title {
        let title = title.trim();
        if title.is_empty() {
            return Err(invalid("a conversation needs a title"));
        }
        if title.chars().count() > TITLE_MAX_CHARS {
            return Err(invalid(format!("a title is at most {TITLE_MAX_CHARS} characters")));
        }
    }
    if let Some(Some(choice)) = &change.model {
        check_model(choice)?;
    }
    if let Some((dir, _)) = &change.working_dir {
        if dir.trim().is_empty() {
            return Err(invalid("choose a folder"));
        }
    }
    Ok(())
}

pub(super) fn check_model(choice: &ModelChoice) -> Result<(), WireError> {
    if choice.model.trim().is_empty() {
        return Err(invalid("choose a model"));
    }
    Ok(())
}
