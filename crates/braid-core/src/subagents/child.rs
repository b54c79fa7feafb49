//! What a sub-agent inherits: a conversation of its own in the parent's
//! folder (or in a copy of it made for the child), with the parent's tool
//! policy, mode, role, sandbox and generation settings, the parent's model
//! unless its task names an available one, a title that names both, and
//! the turn limit in place of the loop's depth. The runtime hands over the
//! facts (a new id, the time, the defaults, the models available, the
//! copy it made) and creates what this returns.

use crate::context::{Context, ContextMeta};
use crate::machine::{ContextState, MachineConfig};
use crate::Conversation;
use braid_protocol::{
    CallId, ChildOf, ContextId, GenerationSettings, ModelChoice, SubAgentLimits, SubTask, Timestamp, ToolSettings,
};

/// What a child takes from its parent, read when `spawn_agents` starts.
#[derive(Debug, Clone, PartialEq)]
pub struct Parent {
    pub id: ContextId,
    pub title: String,
    pub working_dir: String,
    /// The model answering the parent now (its branch's, else its own).
    pub model: Option<ModelChoice>,
    pub tools: ToolSettings,
    pub generation: GenerationSettings,
}

impl Parent {
    pub fn of(ctx: &Context) -> Parent {
        Parent {
            id: ctx.meta.id.clone(),
            title: ctx.meta.title.clone(),
            working_dir: ctx.folder().to_owned(),
            model: ctx.model_choice().cloned(),
            tools: ctx.state.config.tools.clone(),
            generation: ctx.state.config.generation,
        }
    }

    /// The child's model and, when the task named one that is not among
    /// `available` (`provider/model`), the note that says so: the tool
    /// offers only available models, but a model sampled without a
    /// grammar may still write any name, and that child runs on the
    /// parent's model rather than failing.
    pub fn model_for(&self, task: &SubTask, available: &[String]) -> (Option<ModelChoice>, Option<String>) {
        let Some(name) = task.model.as_deref() else { return (self.model.clone(), None) };
        match available_model(available, name) {
            Some(choice) => (Some(choice), None),
            None => {
                let offered = if available.is_empty() { "none".to_owned() } else { available.join(", ") };
                let note = format!(
                    "model {name:?} is not available (available: {offered}), so it ran on this conversation's model"
                );
                (self.model.clone(), Some(note))
            }
        }
    }

    /// The child's conversation, new: `defaults` are the machine's
    /// settings for any new conversation; `copy`, the copy of the
    /// parent's folder made for it, when its task works in its own.
    #[allow(clippy::too_many_arguments)] // each is one fact the runtime hands over
    pub fn child(
        &self,
        task: &SubTask,
        seat: (&CallId, u32),
        limits: SubAgentLimits,
        model: Option<ModelChoice>,
        defaults: &MachineConfig,
        id: ContextId,
        now: Timestamp,
        copy: Option<String>,
    ) -> Context {
        let (call_id, index) = seat;
        let meta = ContextMeta {
            id: id.clone(),
            title: format!("{} · sub-agent of {}", task.name, self.title),
            working_dir: copy.clone().unwrap_or_else(|| self.working_dir.clone()),
            created_at: now,
            updated_at: now,
            model,
            pinned: false,
        };
        let mut state = ContextState::new(id);
        state.config = defaults.clone();
        state.config.tools = self.tools.clone();
        state.config.generation = self.generation;
        // The turn limit governs, not the loop's depth.
        state.config.max_loop_depth = limits.turn_limit + 1;
        state.config.child = Some(ChildOf {
            parent: self.id.clone(),
            call_id: call_id.clone(),
            index,
            name: task.name.clone(),
            turn_limit: limits.turn_limit,
            workspace: copy,
        });
        Context::new(meta, state, Conversation::new(now))
    }
}

/// `name` among the available `provider/model`s: the whole of one, or
/// the model part of exactly one.
fn available_model(available: &[String], name: &str) -> Option<ModelChoice> {
    let split = |m: &String| m.split_once('/').map(|(p, m)| ModelChoice { provider_id: p.into(), model: m.into() });
    if let Some(exact) = available.iter().find(|m| *m == name) {
        return split(exact);
    }
    let mut by_model = available.iter().filter_map(split).filter(|c| c.model == name);
    match (by_model.next(), by_model.next()) {
        (Some(only), None) => Some(only),
        _ => None,
    }
}
