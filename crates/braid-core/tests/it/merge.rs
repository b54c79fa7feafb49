//! Merging branches through the state machine: every strategy, every
//! dependency case and every conflict kind, each previewed before it is
//! applied, each undoable, and none changing a stored message.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use crate::merging::*;
use braid_core::llm::LlmResponse;
use braid_core::machine::Event;
use braid_core::merge::{plan, sequence};
use braid_core::sim::Sim;
use braid_core::tokens::TokenEncoding;
use braid_protocol::{
    BranchId, ControlKind, ErrorCode, MergeItemFate, MergeStrategy, MessageId, MessageType, MissingDependencies, Role,
    StatusKind,
};

#[test]
fn a_summary_merge_appends_the_edited_summary_and_undo_takes_it_back() {
    let (mut sim, side) = forked();
    answered(&mut sim, "try redis", "redis works: 3 ms");
    switch(&mut sim, &BranchId::main());
    answered(&mut sim, "try memcached", "too slow");
    let before = pool(&sim);
    let mut o = options(&side, MergeStrategy::Summary);
    let p = preview(&sim, &o);
    assert_eq!(p.base, Some(sim.messages()[1].id));
    assert!(p.items.iter().all(|i| i.fate == MergeItemFate::LeftOut), "a summary brings no message");
    assert!(p.blocked.as_deref().unwrap().contains("write the summary"));
    assert_eq!(sim.merge(&o).unwrap_err().code, ErrorCode::InvalidInput);

    o.summary = Some("Redis works (3 ms).".into());
    assert!(preview(&sim, &o).added_tokens > 0);
    let card = sim.merge(&o).unwrap();
    let sent = braid_core::prompt::request_messages(&sim.conversation);
    let last = sent.last().unwrap().body.plain_text().unwrap();
    assert!(last.contains("side") && last.contains("Redis works (3 ms)."), "{last}");
    unchanged(&before, &sim);

    sim.undo_merge(card).unwrap();
    let sent = braid_core::prompt::request_messages(&sim.conversation);
    assert!(!sent.iter().any(|m| m.body.plain_text().unwrap_or_default().contains("Redis works")));
    assert!(sim.conversation.message(card).is_some(), "the merge stays in the history as undone");
    assert_eq!(sim.undo_merge(card).unwrap_err().to_string(), "invalid_input: that merge was undone already");
    unchanged(&before, &sim);
}

#[test]
fn a_fast_forward_takes_the_source_when_the_target_has_not_moved() {
    let (mut sim, side) = forked();
    answered(&mut sim, "q2", "a2");
    switch(&mut sim, &BranchId::main());
    let main_before = sim.conversation.branch(&BranchId::main()).unwrap().message_ids.clone();
    let o = options(&side, MergeStrategy::FastForward);
    let p = preview(&sim, &o);
    assert!(p.fast_forward_possible, "a branch switch is not a move");
    assert_eq!(p.items.len(), 2);
    let card = sim.merge(&o).unwrap();
    assert_eq!(texts(&sim), ["q1", "a1", "q2", "a2"]);
    let side_ids = &sim.conversation.branch(&side).unwrap().message_ids;
    let main_ids = &sim.conversation.branch(&BranchId::main()).unwrap().message_ids;
    assert_eq!(main_ids[..side_ids.len()], side_ids[..], "the very same messages, not copies");

    sim.undo_merge(card).unwrap();
    let now = &sim.conversation.branch(&BranchId::main()).unwrap().message_ids;
    assert_eq!(now[..main_before.len()], main_before[..]);
    assert_eq!(texts(&sim), ["q1", "a1"]);
}

#[test]
fn a_fast_forward_is_refused_once_the_target_moved() {
    let (mut sim, side) = forked();
    answered(&mut sim, "q2", "a2");
    switch(&mut sim, &BranchId::main());
    answered(&mut sim, "q3", "a3");
    let o = options(&side, MergeStrategy::FastForward);
    assert!(!preview(&sim, &o).fast_forward_possible);
    let e = sim.merge(&o).unwrap_err();
    assert!(e.message.contains("has not moved") && e.message.contains("2 messages"), "{e}");
}

#[test]
fn append_copies_in_order_and_skips_duplicates() {
    let (mut sim, side) = forked();
    answered(&mut sim, "q2", "same answer");
    switch(&mut sim, &BranchId::main());
    answered(&mut sim, "q3", "same answer");
    let before = pool(&sim);
    let o = options(&side, MergeStrategy::Append);
    let p = preview(&sim, &o);
    let fates: Vec<_> = p.items.iter().map(|i| (i.preview.as_str(), i.fate)).collect();
    assert_eq!(fates, [("q2", MergeItemFate::Brought), ("same answer", MergeItemFate::Duplicate)]);
    assert_eq!(p.target_tokens_after, p.target_tokens_before + p.added_tokens);
    sim.merge(&o).unwrap();
    assert_eq!(texts(&sim), ["q1", "a1", "q3", "same answer", "q2"]);
    let copy = sim.messages().last().unwrap().meta.copied_from;
    assert_eq!(copy, Some(sim.conversation.branch(&side).unwrap().message_ids[3]), "a copy names its original");
    let again = sim.merge(&o).unwrap_err();
    assert!(again.message.contains("every one"), "merging twice brings nothing: {again}");
    unchanged(&before, &sim);
}

/// side: q2, then a write_file round, then "written".
fn side_with_a_tool_round() -> (Sim, BranchId, Vec<MessageId>) {
    let (mut sim, side) = forked();
    writes(&mut sim, "write it", "a.txt", "side");
    switch(&mut sim, &BranchId::main());
    let ids = sim.conversation.branch(&side).unwrap().message_ids.clone();
    (sim, side, ids)
}

#[test]
fn cherry_pick_brings_what_a_pick_depends_on() {
    let (mut sim, side, ids) = side_with_a_tool_round();
    let (request, result) = (ids[ids.len() - 3], ids[ids.len() - 2]);
    let mut o = options(&side, MergeStrategy::CherryPick);
    o.picks = vec![result];
    let p = preview(&sim, &o);
    assert_eq!(p.dependencies.len(), 1);
    assert_eq!((p.dependencies[0].message, p.dependencies[0].needs), (result, request));
    assert!(p.dependencies[0].why.contains("needs its call"));
    sim.merge(&o).unwrap();
    let kinds: Vec<_> = sim.messages().iter().map(|m| m.body.kind().tag()).collect();
    assert_eq!(kinds[kinds.len() - 2..], ["tool_request", "tool_result"]);
    braid_core::invariants::check_tool_pairing(&sim.conversation, &BranchId::main()).unwrap();
}

#[test]
fn cherry_pick_without_dependencies_turns_orphans_into_text() {
    let (mut sim, side, ids) = side_with_a_tool_round();
    let result = ids[ids.len() - 2];
    let mut o = options(&side, MergeStrategy::CherryPick);
    o.picks = vec![result];
    o.missing = MissingDependencies::Without;
    let p = preview(&sim, &o);
    assert_eq!(p.items.iter().find(|i| i.id == result).unwrap().fate, MergeItemFate::AsText);
    sim.merge(&o).unwrap();
    let last = sim.messages().last().unwrap().body.clone();
    assert!(matches!(last, MessageType::Text { role: Role::User, .. }));
    assert!(last.plain_text().unwrap().contains("result of write_file"), "{last:?}");
}

#[test]
fn a_copy_of_a_copy_is_a_duplicate() {
    // side's tool round goes to `relay` by append, and from there to
    // `second`; picking it from side again must find it already there
    // (a tool call id used twice is a branch no provider accepts).
    let (mut sim, side, ids) = side_with_a_tool_round();
    let at = sim.messages()[1].id;
    let relay = sim.fork(at, "relay", true).unwrap();
    sim.merge(&options(&side, MergeStrategy::Append)).unwrap();
    sim.fork(at, "second", true).unwrap();
    sim.merge(&options(&relay, MergeStrategy::Append)).unwrap();
    let mut o = options(&side, MergeStrategy::CherryPick);
    o.picks = vec![ids[ids.len() - 3], ids[ids.len() - 2]];
    let p = preview(&sim, &o);
    let fates: Vec<_> = p.items.iter().filter(|i| o.picks.contains(&i.id)).map(|i| i.fate).collect();
    assert_eq!(fates, [MergeItemFate::Duplicate, MergeItemFate::Duplicate]);
    assert!(sim.merge(&o).is_err(), "nothing left to bring");
    braid_core::invariants::check_tool_pairing(&sim.conversation, sim.conversation.active_branch()).unwrap();
}

#[test]
fn cherry_pick_of_a_user_turn_brings_its_attached_files() {
    let (mut sim, side) = forked();
    let file = MessageType::FileReference {
        path: "a.txt".into(),
        range: None,
        content: Some("hello".into()),
        status: Default::default(),
        error: None,
    };
    sim.start_with("look at @a.txt", vec![file]);
    sim.send(Event::Cancel);
    switch(&mut sim, &BranchId::main());
    let ids = sim.conversation.branch(&side).unwrap().message_ids.clone();
    let turn = *ids
        .iter()
        .find(|id| sim.conversation.message(**id).unwrap().body.plain_text().as_deref() == Some("look at @a.txt"))
        .unwrap();
    let mut o = options(&side, MergeStrategy::CherryPick);
    o.picks = vec![turn];
    let p = preview(&sim, &o);
    assert_eq!(p.dependencies.len(), 1, "{:?}", p.dependencies);
    assert!(p.dependencies[0].why.contains("files and images"));
    sim.merge(&o).unwrap();
    let kinds: Vec<_> = sim.messages().iter().map(|m| m.body.kind().tag()).collect();
    assert_eq!(kinds[kinds.len() - 2..], ["file_reference", "text"]);
}

#[test]
fn a_pick_outside_the_source_is_refused() {
    let (mut sim, side) = forked();
    answered(&mut sim, "q2", "a2");
    switch(&mut sim, &BranchId::main());
    let mut o = options(&side, MergeStrategy::CherryPick);
    o.picks = vec![MessageId(999)];
    let e = plan(&sim.conversation, &o, TokenEncoding::O200k).unwrap_err();
    assert_eq!(e.to_string(), "message 999 is not among the source's messages since the fork");
    o.picks.clear();
    assert!(preview(&sim, &o).blocked.is_some());
    let same = options(&BranchId::main(), MergeStrategy::Append);
    assert!(plan(&sim.conversation, &same, TokenEncoding::O200k).is_err(), "not into itself");
}

fn last_pipeline(sim: &Sim) -> Vec<braid_core::Effect> {
    sim.effects.iter().rev().find(|e| matches!(e, braid_core::Effect::RunPipeline(_))).cloned().into_iter().collect()
}

#[test]
fn rebase_replays_as_is_or_answers_again() {
    let (mut sim, side) = forked();
    answered(&mut sim, "q2", "a2");
    answered(&mut sim, "q3", "a3");
    switch(&mut sim, &BranchId::main());
    answered(&mut sim, "q4", "a4");
    let mut o = options(&side, MergeStrategy::Rebase);
    assert_eq!(preview(&sim, &o).items.iter().filter(|i| i.fate == MergeItemFate::Brought).count(), 4);
    o.answer_again = true;
    let p = preview(&sim, &o);
    let replayed: Vec<_> = p.items.iter().filter(|i| i.fate == MergeItemFate::Replayed).map(|i| &i.preview).collect();
    assert_eq!(replayed, ["q2", "q3"]);
    let card = sim.merge(&o).unwrap();
    assert_eq!(sim.state.status.kind(), StatusKind::ProcessingUserMessage, "the first replayed turn is sent at once");
    assert_eq!(sim.state.queue.len(), 1, "the second waits in the queue");
    sim.pipeline_ok(&last_pipeline(&sim));
    let rid = sim.request_id();
    sim.send(Event::LlmCompleted { request_id: rid, response: LlmResponse::text("a2 again") });
    sim.pipeline_ok(&last_pipeline(&sim));
    let rid = sim.request_id();
    sim.send(Event::LlmCompleted { request_id: rid, response: LlmResponse::text("a3 again") });
    assert_eq!(texts(&sim)[4..], ["q2", "a2 again", "q3", "a3 again"]);
    let MessageType::SystemControl { control: ControlKind::Merge { record } } =
        &sim.conversation.message(card).unwrap().body
    else {
        panic!("no card")
    };
    assert_eq!(record.replayed, 2);
}

#[test]
fn a_merge_waits_until_the_context_is_idle() {
    let (mut sim, side) = forked();
    answered(&mut sim, "q2", "a2");
    switch(&mut sim, &BranchId::main());
    sim.start("busy");
    let e = sim.merge(&options(&side, MergeStrategy::Append)).unwrap_err();
    assert_eq!(e.code, ErrorCode::AgentBusy);
}

#[test]
fn the_merge_card_is_a_node_with_two_parents() {
    let (mut sim, side) = forked();
    answered(&mut sim, "q2", "a2");
    switch(&mut sim, &BranchId::main());
    answered(&mut sim, "q3", "a3");
    let card = sim.merge(&options(&side, MergeStrategy::Append)).unwrap();
    let nodes = braid_core::graph::nodes(&sim.conversation);
    let node = nodes.iter().find(|n| n.id == card).unwrap();
    let tip = *sim.conversation.branch(&side).unwrap().message_ids.last().unwrap();
    assert_eq!(node.parents.len(), 2);
    assert_eq!(node.parents[1], tip);
    let layout = braid_core::graph::layout(&nodes);
    let row = layout.rows.iter().find(|r| r.id == card).unwrap();
    assert_eq!(row.merges.len(), 1, "the source's line ends in the card");
}

#[test]
fn the_sequence_check_names_what_a_provider_would_refuse() {
    let call = braid_protocol::ToolCall {
        id: "c".into(),
        name: "x".into(),
        arguments: "{}".into(),
        approval: braid_protocol::Approval::Approved,
    };
    let request = MessageType::ToolRequest { text: None, calls: vec![call] };
    let user = MessageType::text(Role::User, "hi");
    assert!(sequence::check([&request, &user].into_iter()).unwrap_err().contains("not answered"));
    assert!(sequence::check([&request].into_iter()).unwrap_err().contains("never answered"));
}
