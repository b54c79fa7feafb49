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

fn reply(fx: &[Effect]) -> Result<(), braid_protocol::WireError> {
    fx.iter()
        .find_map(|e| match e {
            Effect::Reply(r) => Some(r.clone().map(drop)),
            _ => None,
        })
        .expect("a reply")
}

#[test]
fn a_branch_is_renamed_and_given_its_own_prompt_through_the_machine() {
    let mut sim = Sim::new();
    answered(&mut sim, "q1");
    let b = sim.fork(sim.messages()[0].id, "idea", false).unwrap();
    for bad in ["   ", &"x".repeat(81)] {
        let fx = sim.send(Event::RenameBranch { branch: b.clone(), name: bad.to_owned() });
        assert_eq!(reply(&fx).unwrap_err().code, ErrorCode::InvalidInput, "{bad:?}");
    }
    let fx = sim.send(Event::RenameBranch { branch: b.clone(), name: "  the good idea ".into() });
    reply(&fx).unwrap();
    assert!(fx.iter().any(|e| matches!(e, Effect::RenameBranch { .. })), "persisted");
    assert_eq!(sim.conversation.branch(&b).unwrap().name, "the good idea");
    sim.send(Event::SetBranchPrompt { branch: b.clone(), system_prompt: Some("Be brief.".into()) });
    assert_eq!(sim.conversation.system_prompt(&b, Some("base")), Some("Be brief."));
    sim.send(Event::SetBranchPrompt { branch: b.clone(), system_prompt: Some("  ".into()) });
    assert_eq!(sim.conversation.system_prompt(&b, Some("base")), Some("base"), "empty is the conversation's");
}

#[test]
fn deleting_a_branch_keeps_what_other_branches_hold_and_never_main_or_the_one_in_use() {
    let mut sim = Sim::new();
    answered(&mut sim, "q1"); // main: q1 a
    let q1 = sim.messages()[0].id;
    let idea = sim.fork(q1, "idea", true).unwrap(); // idea: q1 [switch]
    answered(&mut sim, "q2"); // idea: q1 [switch] q2 a2
    let q2 = sim.messages()[2].id;
    let deeper = sim.fork(q2, "deeper", false).unwrap(); // deeper: q1 [switch] q2
    let own: Vec<_> = sim.conversation.branch(&idea).unwrap().message_ids[1..].to_vec();
    // Not the branch in use, not main.
    let d = sim.conversation.deletion(&idea).unwrap();
    assert_eq!(
        reply(&sim.send(Event::DeleteBranch { deletion: Box::new(d) })).unwrap_err().code,
        ErrorCode::InvalidInput
    );
    let main = sim.conversation.deletion(&BranchId::main()).unwrap();
    let told = reply(&sim.send(Event::DeleteBranch { deletion: Box::new(main) })).unwrap_err();
    assert!(told.message.contains("main cannot be deleted"), "{told:?}");
    // From main: idea goes; what deeper shares with it stays, its answer goes.
    sim.send(Event::SwitchBranch { from: idea.clone(), to: BranchId::main() });
    let d = sim.conversation.deletion(&idea).unwrap();
    assert_eq!(d.children, std::slice::from_ref(&deeper));
    let fx = sim.send(Event::DeleteBranch { deletion: Box::new(d) });
    reply(&fx).unwrap();
    assert!(sim.conversation.branch(&idea).is_none());
    let left: Vec<_> = own.iter().filter(|m| sim.conversation.message(**m).is_some()).copied().collect();
    assert_eq!(left, sim.conversation.branch(&deeper).unwrap().message_ids[1..], "deeper's messages stay");
    assert!(own.len() > left.len(), "the answer only idea held is gone");
    assert_eq!(sim.conversation.branch(&deeper).unwrap().parent, Some(BranchId::main()), "deeper hangs from main now");
    assert!(sim.conversation.message(q1).is_some());
}

#[test]
fn a_fork_before_a_message_holds_everything_before_it_and_keeps_rounds_whole() {
    let mut sim = Sim::new();
    answered(&mut sim, "q1");
    answered(&mut sim, "q2");
    let ids: Vec<_> = sim.messages().iter().map(|m| m.id).collect();
    let before_q2 = sim.conversation.fork_before(&BranchId::main(), ids[2], "edit", sim.now).unwrap();
    assert_eq!(before_q2.message_ids, ids[..2], "an edited q2 goes after q1's answer");
    assert_eq!(before_q2.fork_point, Some(ids[1]));
    let before_first = sim.conversation.fork_before(&BranchId::main(), ids[0], "edit", sim.now).unwrap();
    assert!(
        before_first.message_ids.is_empty() && before_first.fork_point.is_none(),
        "the first message can be edited too"
    );
    let again = sim.conversation.fork_before(&BranchId::main(), ids[3], "again", sim.now).unwrap();
    assert_eq!(again.message_ids, ids[..3], "answering again keeps the question");
    let fx = sim.send(Event::CreateBranch { draft: Box::new(again), switch: true });
    assert!(matches!(braid_core::sim::reply_of(&fx), Some(Ok(_))));
    sim.send(Event::Retry);
    let rid = sim.request_id();
    sim.send(Event::LlmCompleted { request_id: rid, response: LlmResponse::text("a2, again") });
    let texts: Vec<String> = sim.messages().iter().filter_map(|m| m.body.plain_text()).collect();
    assert_eq!(texts, ["q1", "a", "q2", "a2, again"]);
}
