//! Merge conflicts through the state machine: files both branches wrote,
//! system prompts, models, modes and summaries, each resolved every way
//! it can be, and undone.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use crate::merging::*;
use braid_core::machine::Event;
use braid_protocol::{
    BranchId, ConflictChoice, ConflictKind, ControlKind, MergeItemFate, MergeStrategy, Message, MessageId, MessageType,
    Resolution,
};

#[test]
fn a_file_both_branches_wrote_must_be_resolved() {
    let (mut sim, side) = forked();
    writes(&mut sim, "write side", "a.txt", "side");
    switch(&mut sim, &BranchId::main());
    writes(&mut sim, "write main", "a.txt", "main");
    let before = pool(&sim);
    let mut o = options(&side, MergeStrategy::Append);
    let p = preview(&sim, &o);
    assert_eq!(p.conflicts.len(), 1);
    let c = &p.conflicts[0];
    assert_eq!((c.kind, c.id.as_str()), (ConflictKind::File, "file:a.txt"));
    assert_eq!((c.source_messages.len(), c.target_messages.len()), (1, 1));
    assert!(p.blocked.as_deref().unwrap().contains("Both branches wrote a.txt"));

    // Keep the target's account: the source's write round stays behind.
    o.resolutions = vec![ConflictChoice { conflict: c.id.clone(), resolution: Resolution::KeepTarget }];
    let p = preview(&sim, &o);
    assert_eq!(p.items.iter().filter(|i| i.fate == MergeItemFate::Resolved).count(), 2);
    assert!(p.blocked.is_none(), "{:?}", p.blocked);

    // Keep the source's: the target's round comes off, and undo puts it back.
    o.resolutions[0].resolution = Resolution::KeepSource;
    let main_before = sim.conversation.branch(&BranchId::main()).unwrap().message_ids.clone();
    let card = sim.merge(&o).unwrap();
    let writes_now: Vec<String> = sim
        .messages()
        .iter()
        .filter_map(|m| match &m.body {
            MessageType::ToolRequest { calls, .. } => Some(calls[0].arguments.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(writes_now.len(), 1);
    assert!(writes_now[0].contains("side"));
    sim.undo_merge(card).unwrap();
    let now = &sim.conversation.branch(&BranchId::main()).unwrap().message_ids;
    assert_eq!(now[..main_before.len()], main_before[..], "the target's round is back");
    unchanged(&before, &sim);
}

#[test]
fn equal_writes_are_no_conflict() {
    let (mut sim, side) = forked();
    writes(&mut sim, "write side", "a.txt", "same");
    switch(&mut sim, &BranchId::main());
    writes(&mut sim, "write main", "a.txt", "same");
    assert!(preview(&sim, &options(&side, MergeStrategy::Append)).conflicts.is_empty());
}

#[test]
fn files_are_compared_by_what_the_writes_left() {
    // The same edit made on both sides, over different content: the files
    // differ although the calls match.
    let (mut sim, side) = forked();
    edits(&mut sim, "rename on side", "a.rs", ("old", "new"), 1);
    switch(&mut sim, &BranchId::main());
    edits(&mut sim, "rename on main", "a.rs", ("old", "new"), 2);
    let p = preview(&sim, &options(&side, MergeStrategy::Append));
    assert_eq!(p.conflicts.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(), ["file:a.rs"]);

    // Different edits that leave the very same content agree.
    let (mut sim, side) = forked();
    edits(&mut sim, "one way", "a.rs", ("old", "new"), 7);
    switch(&mut sim, &BranchId::main());
    edits(&mut sim, "another way", "a.rs", ("ol", "ne"), 7);
    assert!(preview(&sim, &options(&side, MergeStrategy::Append)).conflicts.is_empty());
}

#[test]
fn different_system_prompts_and_modes_are_conflicts() {
    let (mut sim, side) = forked();
    sim.send(Event::SetBranchPrompt { branch: side.clone(), system_prompt: Some("be terse".into()) });
    sim.send(Event::SetMode { mode: braid_protocol::AgentMode::Plan });
    answered(&mut sim, "q2", "a2");
    switch(&mut sim, &BranchId::main());
    sim.send(Event::SetMode { mode: braid_protocol::AgentMode::Act });
    let mut o = options(&side, MergeStrategy::Summary);
    o.summary = Some("s".into());
    let p = preview(&sim, &o);
    let kinds: Vec<_> = p.conflicts.iter().map(|c| c.kind).collect();
    assert_eq!(kinds, [ConflictKind::SystemPrompt, ConflictKind::Mode]);
    o.resolutions = p
        .conflicts
        .iter()
        .map(|c| ConflictChoice { conflict: c.id.clone(), resolution: Resolution::KeepSource })
        .collect();
    let card = sim.merge(&o).unwrap();
    assert_eq!(sim.conversation.branch(&BranchId::main()).unwrap().system_prompt.as_deref(), Some("be terse"));
    assert_eq!(sim.state.config.tools.mode, braid_protocol::AgentMode::Plan);
    sim.undo_merge(card).unwrap();
    assert_eq!(sim.conversation.branch(&BranchId::main()).unwrap().system_prompt, None, "the prompt is back");
}

#[test]
fn keep_both_prompts_joins_them() {
    let (mut sim, side) = forked();
    sim.send(Event::SetBranchPrompt { branch: side.clone(), system_prompt: Some("source rules".into()) });
    sim.send(Event::SetBranchPrompt { branch: BranchId::main(), system_prompt: Some("target rules".into()) });
    answered(&mut sim, "q2", "a2");
    switch(&mut sim, &BranchId::main());
    let mut o = options(&side, MergeStrategy::Append);
    o.resolutions = vec![ConflictChoice { conflict: "system_prompt".into(), resolution: Resolution::KeepBoth }];
    sim.merge(&o).unwrap();
    let prompt = sim.conversation.branch(&BranchId::main()).unwrap().system_prompt.clone();
    assert_eq!(prompt.as_deref(), Some("target rules\n\nsource rules"));
}

#[test]
fn a_summary_covering_target_messages_is_a_conflict() {
    let (mut sim, side) = forked();
    let covered = sim.conversation.branch(&side).unwrap().message_ids[..2].to_vec();
    let rid = braid_protocol::RequestId(77);
    // A summary as the optimiser writes it, on the source.
    let summary =
        MessageType::SystemControl { control: ControlKind::Summary { text: "earlier".into(), replaces: covered } };
    let id = MessageId(sim.state.next_message_id);
    sim.state.next_message_id += 1;
    let now = sim.now;
    sim.conversation.append(Message::new(id, now, summary)).unwrap();
    let _ = rid;
    answered(&mut sim, "q2", "a2");
    switch(&mut sim, &BranchId::main());
    let mut o = options(&side, MergeStrategy::Append);
    let p = preview(&sim, &o);
    assert_eq!(p.conflicts.len(), 1);
    assert_eq!(p.conflicts[0].kind, ConflictKind::Summary);
    assert_eq!(p.conflicts[0].suggested, Resolution::KeepTarget);
    o.resolutions = vec![ConflictChoice { conflict: p.conflicts[0].id.clone(), resolution: Resolution::KeepTarget }];
    sim.merge(&o).unwrap();
    assert!(!sim
        .messages()
        .iter()
        .any(|m| matches!(&m.body, MessageType::SystemControl { control: ControlKind::Summary { .. } })));
}

#[test]
fn different_models_are_a_conflict_and_undo_puts_the_model_back() {
    let (mut sim, side) = forked();
    let mini = braid_protocol::ModelChoice { provider_id: "work".into(), model: "mini".into() };
    sim.send(Event::SetBranchModel { branch: side.clone(), model: Some(mini.clone()) });
    answered(&mut sim, "q2", "a2");
    switch(&mut sim, &BranchId::main());
    let mut o = options(&side, MergeStrategy::Append);
    let p = preview(&sim, &o);
    assert_eq!(p.conflicts.iter().map(|c| c.kind).collect::<Vec<_>>(), [ConflictKind::Model]);
    o.resolutions = vec![ConflictChoice { conflict: "model".into(), resolution: Resolution::KeepSource }];
    let card = sim.merge(&o).unwrap();
    assert_eq!(sim.conversation.branch(&BranchId::main()).unwrap().model.as_ref(), Some(&mini));
    sim.undo_merge(card).unwrap();
    assert_eq!(sim.conversation.branch(&BranchId::main()).unwrap().model, None);
}
