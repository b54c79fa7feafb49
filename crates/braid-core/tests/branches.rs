//! Branch creation and switching go through the state machine like every
//! other change: the machine hands out the ids, the new branch is a
//! persistence effect (written before anything else runs), and switching
//! is refused while the context is busy.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::llm::LlmResponse;
use braid_core::machine::{Effect, Event};
use braid_core::sim::Sim;
use braid_core::Conversation;
use braid_protocol::{BranchId, ErrorCode, StatusKind};

fn answered(sim: &mut Sim, q: &str) {
    sim.start(q);
    let rid = sim.request_id();
    sim.send(Event::LlmCompleted { request_id: rid, response: LlmResponse::text("a") });
}

#[test]
fn the_machine_hands_out_branch_ids_and_persists_the_branch_first() {
    let mut sim = Sim::new();
    answered(&mut sim, "q1");
    let at = sim.messages()[0].id;
    let b1 = sim.fork(at, "one", false).unwrap();
    let b2 = sim.fork(at, "two", false).unwrap();
    assert_eq!((b1.0.as_str(), b2.0.as_str()), ("b1", "b2"));
    assert_eq!(sim.state.next_branch_id, 3);
    let created = sim.effects.iter().position(|e| matches!(e, Effect::CreateBranch(_))).unwrap();
    assert_eq!(sim.effects[created - 1], Effect::PersistState, "the state with the new counter is saved with it");
    assert_eq!(sim.conversation.active_branch(), &BranchId::main(), "forking alone does not switch");
    assert_eq!(sim.conversation.branch(&b1).unwrap().message_ids, [at]);
}

#[test]
fn forking_works_while_busy_but_switching_to_the_fork_waits() {
    let mut sim = Sim::new();
    answered(&mut sim, "q1");
    let at = sim.messages()[1].id;
    sim.start("q2");
    assert!(sim.state.status.is_busy());
    let quiet = sim.fork(at, "side", false).unwrap();
    assert!(sim.conversation.branch(&quiet).is_some());
    let refused = sim.fork(at, "jump", true).unwrap_err();
    assert_eq!(refused.code, ErrorCode::AgentBusy);
    assert_eq!(sim.conversation.branches().count(), 2, "nothing created by a refused fork");
    let rid = sim.request_id();
    sim.send(Event::LlmCompleted { request_id: rid, response: LlmResponse::text("a2") });
    let jumped = sim.fork(at, "jump", true).unwrap();
    assert_eq!(sim.conversation.active_branch(), &jumped);
    assert_eq!(sim.state.status.kind(), StatusKind::Idle);
    let last = sim.messages().last().map(|m| braid_core::conversation::describe(&m.body)).unwrap();
    assert_eq!(last, "[system_control]", "the switch is recorded on the new branch");
}

#[test]
fn an_old_conversation_gets_ids_past_its_branches() {
    let mut sim = Sim::new();
    answered(&mut sim, "q1");
    let at = sim.messages()[0].id;
    for _ in 0..3 {
        sim.fork(at, "x", false).unwrap();
    }
    let parts = Conversation::from_parts(
        sim.conversation.pool().cloned().collect(),
        sim.conversation.branches().cloned().collect(),
        BranchId::main(),
    );
    assert_eq!(parts.free_branch_number(), 4);
}
