//! Property test for branches and merges: after any random sequence of
//! chats (with tool rounds), forks, switches, renames, deletes, merges of
//! every strategy and undos, every invariant holds (the simulator checks
//! them after each step), every branch is a sequence every provider
//! accepts, and no stored message ever changed.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::llm::LlmResponse;
use braid_core::machine::Event;
use braid_core::sim::Sim;
use braid_protocol::{
    BranchId, ConflictChoice, ControlKind, MergeOptions, Message, MessageId, MessageType, MissingDependencies,
    StatusKind, ToolApprovalPolicy,
};
use proptest::prelude::*;
use std::collections::BTreeMap;

#[derive(Debug, Clone)]
enum Action {
    Chat { write: Option<u8> },
    Fork { at: u8, switch: bool },
    Switch(u8),
    Rename(u8),
    Prompt(u8),
    Delete(u8),
    Merge { source: u8, strategy: u8, picks: u64, without: bool, again: bool, resolution: u8 },
    Undo(u8),
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        4 => prop::option::of(0u8..3).prop_map(|write| Action::Chat { write }),
        2 => (any::<u8>(), any::<bool>()).prop_map(|(at, switch)| Action::Fork { at, switch }),
        2 => any::<u8>().prop_map(Action::Switch),
        1 => any::<u8>().prop_map(Action::Rename),
        1 => any::<u8>().prop_map(Action::Prompt),
        1 => any::<u8>().prop_map(Action::Delete),
        3 => (any::<u8>(), 0u8..5, any::<u64>(), any::<bool>(), any::<bool>(), 0u8..4).prop_map(
            |(source, strategy, picks, without, again, resolution)| Action::Merge {
                source, strategy, picks, without, again, resolution
            }
        ),
        1 => any::<u8>().prop_map(Action::Undo),
    ]
}

fn nth_branch(sim: &Sim, i: u8) -> BranchId {
    let all: Vec<_> = sim.conversation.branches().map(|b| b.id.clone()).collect();
    all[usize::from(i) % all.len()].clone()
}

/// Runs whatever is under way (a chat, replayed turns) to its end.
fn settle(sim: &mut Sim) {
    for _ in 0..50 {
        if sim.state.pending.is_some() {
            let last = sim.effects.iter().rev().find(|e| matches!(e, braid_core::Effect::RunPipeline(_))).cloned();
            sim.pipeline_ok(&last.into_iter().collect::<Vec<_>>());
        } else if sim.state.request.is_some() {
            let rid = sim.request_id();
            sim.send(Event::LlmCompleted { request_id: rid, response: LlmResponse::text("answer") });
        } else {
            return;
        }
    }
    panic!("did not settle: {:?}", sim.state.status);
}

fn chat(sim: &mut Sim, write: Option<u8>) {
    sim.start("question");
    if let Some(n) = write {
        let id = format!("w{}", sim.state.next_message_id);
        let args = serde_json::json!({ "path": format!("f{n}.txt"), "content": id }).to_string();
        sim.model_calls(&[(&id, "write_file", &args)]);
        sim.tool_done(&id, "ok");
    }
    settle(sim);
}

fn merge(sim: &mut Sim, a: &Action) {
    let Action::Merge { source, strategy, picks, without, again, resolution } = *a else { return };
    let source = nth_branch(sim, source);
    let strategy = braid_protocol::MergeStrategy::ALL[usize::from(strategy)];
    let mut o = MergeOptions {
        missing: if without { MissingDependencies::Without } else { MissingDependencies::Bring },
        summary: Some("what the source found".into()),
        answer_again: again,
        ..MergeOptions::new(source, strategy)
    };
    let Ok(plan) = braid_core::merge::plan(&sim.conversation, &o, braid_core::tokens::TokenEncoding::O200k) else {
        return;
    };
    o.picks =
        plan.preview.items.iter().enumerate().filter(|(i, _)| picks >> (i % 64) & 1 == 1).map(|(_, m)| m.id).collect();
    o.resolutions = plan
        .preview
        .conflicts
        .iter()
        .map(|c| ConflictChoice {
            conflict: c.id.clone(),
            resolution: c.options[usize::from(resolution) % c.options.len()],
        })
        .collect();
    let _ = sim.merge(&o);
    settle(sim);
}

/// The merge cards on the branch in use, oldest first.
fn merge_cards(sim: &Sim) -> Vec<MessageId> {
    sim.messages()
        .iter()
        .filter(|m| matches!(m.body, MessageType::SystemControl { control: ControlKind::Merge { .. } }))
        .map(|m| m.id)
        .collect()
}

/// A fresh conversation where every tool runs, after `actions`.
fn replay(actions: &[Action]) -> Sim {
    let mut sim = Sim::new();
    sim.state.config.tools.policy = ToolApprovalPolicy::AutoAll;
    for a in actions {
        apply(&mut sim, a);
    }
    sim
}

fn undo(sim: &mut Sim, i: u8) {
    let cards = merge_cards(sim);
    if let Some(card) = cards.get(usize::from(i) % cards.len().max(1)) {
        let _ = sim.undo_merge(*card);
    }
}

fn apply(sim: &mut Sim, a: &Action) {
    match a {
        Action::Chat { write } => chat(sim, *write),
        Action::Fork { at, switch } => {
            let ids: Vec<MessageId> = sim.messages().iter().map(|m| m.id).collect();
            if let Some(at) = ids.get(usize::from(*at) % ids.len().max(1)) {
                let _ = sim.fork(*at, "fork", *switch);
            }
        }
        Action::Switch(i) => {
            let to = nth_branch(sim, *i);
            sim.send(Event::SwitchBranch { from: sim.conversation.active_branch().clone(), to });
        }
        Action::Rename(i) => {
            let branch = nth_branch(sim, *i);
            sim.send(Event::RenameBranch { branch, name: format!("renamed {i}") });
        }
        Action::Prompt(i) => {
            let branch = nth_branch(sim, *i);
            sim.send(Event::SetBranchPrompt { branch, system_prompt: Some(format!("prompt {}", i % 3)) });
        }
        Action::Delete(i) => {
            let branch = nth_branch(sim, *i);
            let deletion = sim.conversation.deletion(&branch).unwrap();
            sim.send(Event::DeleteBranch { deletion: Box::new(deletion) });
        }
        a @ Action::Merge { .. } => merge(sim, a),
        Action::Undo(i) => undo(sim, *i),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn merges_keep_every_invariant_and_change_no_stored_message(actions in prop::collection::vec(action(), 0..40)) {
        let mut sim = Sim::new();
        sim.state.config.tools.policy = ToolApprovalPolicy::AutoAll;
        let mut seen: BTreeMap<MessageId, Message> = BTreeMap::new();
        for a in &actions {
            apply(&mut sim, a);
            prop_assert_eq!(sim.state.status.kind(), StatusKind::Idle);
            for m in sim.conversation.pool() {
                let first = seen.entry(m.id).or_insert_with(|| m.clone());
                prop_assert_eq!(&*first, m, "message {} changed after {:?}", m.id, a);
            }
            for b in sim.conversation.branches() {
                braid_core::invariants::check_tool_pairing(&sim.conversation, &b.id)
                    .map_err(|v| TestCaseError::fail(format!("{} after {a:?}: {v}", b.id)))?;
                let bodies = sim.conversation.messages(&b.id).map(|m| &m.body);
                braid_core::merge::sequence::check(bodies)
                    .map_err(|v| TestCaseError::fail(format!("{} after {a:?}: {v}", b.id)))?;
            }
        }
    }
}

/// Found by the property test: undoing an older merge after a later one
/// copied what the older one had taken off would have put one tool call
/// on the branch twice. The undo is refused and the branch left as it is.
#[test]
fn undoing_a_merge_later_merges_build_on_is_refused() {
    use Action::*;
    let m = |source, strategy| Merge { source, strategy, picks: 0, without: false, again: false, resolution: 0 };
    let actions = [
        Chat { write: Some(0) },
        Fork { at: 104, switch: true },
        m(61, 1),
        Chat { write: None },
        Fork { at: 229, switch: false },
        Switch(184),
        Chat { write: None },
        Fork { at: 37, switch: true },
        m(61, 1),
        m(0, 0),
        Fork { at: 0, switch: false },
        Fork { at: 0, switch: false },
        Switch(188),
        Undo(3),
        m(5, 2),
    ];
    let mut sim = replay(&actions);
    let before: Vec<MessageId> = sim.messages().iter().map(|m| m.id).collect();
    let err = sim.undo_merge(merge_cards(&sim)[1]).unwrap_err();
    assert!(err.message.contains("later merges build on it") && err.message.contains("undo those first"), "{err:?}");
    assert_eq!(sim.messages().iter().map(|m| m.id).collect::<Vec<_>>(), before, "nothing changed");
}

/// Found by the property test: deleting the branch that alone held what a
/// merge had rewritten away took those messages from the store, and the
/// merge could no longer be undone. They are kept while a merge can
/// bring them back.
#[test]
fn a_merge_stays_undoable_after_a_branch_is_deleted() {
    use Action::*;
    let actions = [
        Chat { write: None },
        Fork { at: 116, switch: false },
        Chat { write: None },
        Switch(0),
        Fork { at: 0, switch: true },
        Chat { write: None },
        Chat { write: Some(2) },
        Fork { at: 0, switch: true },
        Chat { write: Some(2) },
        Fork { at: 21, switch: true },
        Merge { source: 106, strategy: 2, picks: 0, without: false, again: false, resolution: 1 },
        Delete(12),
    ];
    let mut sim = replay(&actions);
    let card = merge_cards(&sim)[0];
    sim.undo_merge(card).expect("the merge is undone");
}

/// Found by the property test: an append undone, the same append again,
/// a fork, a delete, then a cherry-pick from a branch holding the same
/// tool round — the round must not land on the branch twice.
#[test]
fn a_cherry_pick_never_puts_a_tool_call_on_the_branch_twice() {
    use Action::*;
    let m = |source, strategy, picks| Merge { source, strategy, picks, without: false, again: false, resolution: 0 };
    let actions = [
        Chat { write: None },
        Chat { write: None },
        Chat { write: Some(0) },
        Fork { at: 4, switch: false },
        Switch(20),
        m(55, 2, 0),
        Fork { at: 217, switch: false },
        Undo(0),
        m(136, 2, 0),
        Fork { at: 0, switch: false },
        Delete(41),
        m(53, 3, 2979290898812420897),
    ];
    replay(&actions);
}

/// Found by the property test on a fresh clone: a fork made after a
/// switch note, a fast-forward that puts a message before that note on
/// the fork's parent, then a fast-forward of the parent into the fork —
/// the note both hold must not land on the fork twice.
#[test]
fn fast_forwards_in_a_chain_store_no_message_twice() {
    use Action::*;
    let ff = |source| Merge { source, strategy: 1, picks: 0, without: false, again: false, resolution: 0 };
    let actions = [
        Chat { write: None },
        Fork { at: 32, switch: false },
        Switch(104),
        Fork { at: 19, switch: false },
        ff(8),
        Switch(190),
        ff(81),
    ];
    let sim = replay(&actions);
    assert_eq!(sim.state.status.kind(), StatusKind::Idle);
    let ids: Vec<MessageId> = sim.messages().iter().map(|m| m.id).collect();
    let unique: std::collections::BTreeSet<&MessageId> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "each message once: {ids:?}");
    assert_eq!(merge_cards(&sim).len(), 2, "both fast-forwards were made");
}
