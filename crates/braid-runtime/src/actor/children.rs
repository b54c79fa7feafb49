//! A context's sub-agent effects: as a parent, its children started and
//! stopped (`subagents.rs` beside this runs them); as a child, its end told to the
//! supervisor that waits for it.

use super::subagents::{self, ParentFacts};
use super::ContextActor;
use braid_core::machine::Effect;

impl ContextActor {
    pub(super) fn sub_agent_effect(&mut self, effect: Effect) {
        match effect {
            Effect::SpawnAgents { call_id, tasks } => {
                // Children in copies come back as the call's own changes,
                // looked at as around any tool call.
                let isolated = tasks.iter().any(|t| t.isolated);
                let watch = isolated.then(|| self.turn_of(&call_id).and_then(|t| self.watch(t))).flatten();
                let parent = ParentFacts {
                    inherited: braid_core::subagents::Parent::of(&self.ctx),
                    mailbox: self.mailbox.clone(),
                    watch: watch.map(std::sync::Arc::new),
                };
                self.sub_agents = Some(subagents::spawn(self.shared.clone(), parent, call_id, tasks));
            }
            // Dropping the run cancels every child still going.
            Effect::StopSubAgents { call_id } if self.sub_agents.as_ref().is_some_and(|r| r.call_id == call_id) => {
                self.sub_agents = None;
            }
            Effect::ChildEnded { outcome, tokens } => self.shared.children.ended(&self.ctx.meta.id, outcome, tokens),
            _ => {}
        }
    }
}
