//! What the store tests share: a context's descriptive fields, and a
//! simulator whose every transition is written as the runtime writes it.

#![allow(dead_code)] // each test file uses some of these

use braid_core::llm::LlmResponse;
use braid_core::machine::Event;
use braid_core::sim::Sim;
use braid_core::ContextState;
use braid_protocol::{ContextId, MessageType, Role, Timestamp};
use braid_store::{ContextMeta, Store};

pub fn meta(id: &str) -> ContextMeta {
    ContextMeta {
        id: ContextId(id.into()),
        title: format!("title {id}"),
        working_dir: "/tmp".into(),
        created_at: Timestamp(1),
        updated_at: Timestamp(1),
        model: None,
        pinned: false,
    }
}

/// Drives a simulator and writes every transition to the store, as the
/// runtime does.
pub struct Persisted {
    pub sim: Sim,
    pub id: ContextId,
}

impl Persisted {
    pub fn new(store: &mut Store, id: &str) -> Persisted {
        let mut sim = Sim::new();
        sim.state = ContextState::new(ContextId(id.into()));
        store.create_context(&meta(id), &sim.state, &sim.conversation).unwrap();
        Persisted { sim, id: ContextId(id.into()) }
    }

    pub fn send(&mut self, store: &mut Store, event: Event) -> Vec<braid_core::Effect> {
        let fx = self.sim.send(event);
        store.persist(&self.id, &self.sim.state, &self.sim.conversation, &fx, self.sim.now).unwrap();
        fx
    }

    /// The user asks `question` and the pipeline passes it: the request
    /// is in flight, nothing answered yet.
    pub fn ask(&mut self, store: &mut Store, question: &str) {
        let fx = self.send(
            store,
            Event::UserMessage {
                body: MessageType::text(Role::User, question),
                queue_if_busy: false,
                force_tool: None,
                images: Vec::new(),
            },
        );
        let msg = fx.iter().find_map(|e| match e {
            braid_core::Effect::RunPipeline(m) => Some(m.clone()),
            _ => None,
        });
        self.send(store, Event::PipelineSucceeded { message: msg.unwrap(), attachments: Vec::new() });
    }

    pub fn exchange(&mut self, store: &mut Store, question: &str, answer: &str) {
        self.ask(store, question);
        let rid = self.sim.request_id();
        self.send(store, Event::LlmDelta { request_id: rid, text: answer.into() });
        self.send(store, Event::LlmCompleted { request_id: rid, response: LlmResponse::text(answer) });
    }
}
