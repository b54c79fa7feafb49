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
                let parent = ParentFacts {
                    inherited: braid_core::subagents::Parent::of(&self.ctx),
                    mailbox: self.mailbox.clone(),
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
