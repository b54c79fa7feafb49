//! The core's `Context` decides about the whole conversation, not only the
//! machine's state: branches, merges, the title, the pin, the model and the
//! folder, event by event on the simulated clock, each with the record that
//! takes it back when the store refuses the write.

use crate::merging::{answered, options};
use braid_core::context::{BranchEdit, MetaChange};
use braid_core::machine::{Effect, Event, Reply};
use braid_core::sim::Sim;
use braid_core::title;
use braid_protocol::{BranchId, ErrorCode, MergeStrategy, ModelChoice, StatusKind, Timestamp};

fn model(name: &str) -> ModelChoice {
    ModelChoice { provider_id: "p".into(), model: name.into() }
}

fn refusal(effects: &[Effect]) -> ErrorCode {
    match braid_core::sim::reply_of(effects) {
        Some(Err(e)) => e.code,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn a_title_is_wanted_at_rest_once_and_the_user_s_own_name_wins() {
    let mut sim = Sim::new();
    assert_eq!(sim.title_input(), None, "nothing to name it after yet");
    sim.start("Which cache should the API use?");
    assert_eq!(sim.title_input(), None, "not while the question is in flight");
    let rid = sim.request_id();
    sim.advance(1_000);
    let step = sim.ctx.handle(
        Event::LlmCompleted { request_id: rid, response: braid_core::llm::LlmResponse::text("Redis.") },
        sim.now,
    );
    assert!(sim.rested(&step), "the answer brings the context to rest: the moment to name it");
    sim.took(step);
    assert!(sim.title_input().unwrap().starts_with("User: Which cache"));

    // The model's proposal is taken while the conversation is untitled,
    // stored with the step, and moves the change time.
    sim.advance(1_000);
    let step = sim.ctx.auto_title("  API cache choice ".into(), sim.now).unwrap();
    let fx = sim.took(step);
    assert!(matches!(&fx[0], Effect::SaveMeta(m) if m.title == "API cache choice"), "saved first: {fx:?}");
    assert_eq!((sim.meta.title.as_str(), sim.meta.updated_at), ("API cache choice", sim.now));
    assert_eq!(sim.title_input(), None, "named: no more asking");

    // A proposal that arrives after the user named it changes nothing.
    let step = sim.ctx.edit_meta(MetaChange { title: Some("Caching".into()), ..MetaChange::default() }, sim.now);
    sim.took(step);
    assert!(sim.ctx.auto_title("Late proposal".into(), sim.now).is_none());
    assert_eq!(sim.meta.title, "Caching");
}

#[test]
fn a_bad_title_is_refused_and_changes_nothing() {
    let mut sim = Sim::new();
    let before = sim.ctx.clone();
    for bad in ["   ", &"x".repeat(201)] {
        let step = sim.ctx.edit_meta(MetaChange { title: Some(bad.to_owned()), ..MetaChange::default() }, sim.now);
        assert!(!step.stores());
        assert_eq!(refusal(&sim.took(step)), ErrorCode::InvalidInput);
    }
    assert_eq!((sim.meta.clone(), sim.state.clone()), (before.meta, before.state));
    assert_eq!(sim.meta.title, title::DEFAULT_TITLE);
}

#[test]
fn a_pin_is_stored_but_is_not_a_change_to_the_conversation() {
    let mut sim = Sim::new();
    answered(&mut sim, "q1", "a1");
    let changed = sim.meta.updated_at;
    sim.advance(60_000);
    let step = sim.ctx.edit_meta(MetaChange { pinned: Some(true), ..MetaChange::default() }, sim.now);
    let fx = sim.took(step);
    assert!(matches!(&fx[0], Effect::SaveMeta(m) if m.pinned && m.updated_at == changed), "{fx:?}");
    assert_eq!(braid_core::sim::reply_of(&fx), Some(&Ok(Reply::Done)));
    assert!(sim.meta.pinned);
    assert_eq!(sim.meta.updated_at, changed, "the list keeps its order by change");
}

#[test]
fn every_stored_step_moves_the_change_time_and_a_chunk_does_not() {
    let mut sim = Sim::new();
    let created = sim.meta.updated_at;
    sim.advance(5_000);
    sim.start("q");
    assert_eq!(sim.meta.updated_at, sim.now, "the question is stored");
    let rid = sim.request_id();
    sim.send(Event::LlmDelta { request_id: rid, text: "first".into() });
    let stored = sim.meta.updated_at;
    sim.advance(5_000);
    let step = sim.ctx.handle(Event::LlmDelta { request_id: rid, text: " token".into() }, sim.now);
    assert!(!step.stores());
    sim.took(step);
    assert!(sim.meta.updated_at > created, "the question was");
    assert_eq!(sim.meta.updated_at, stored, "a streamed token is not stored");
}

#[test]
fn the_model_follows_the_branch_then_the_conversation() {
    let mut sim = Sim::new();
    answered(&mut sim, "q1", "a1");
    assert_eq!(sim.model_choice(), None, "the default provider's");
    let step = sim.ctx.edit_meta(MetaChange { model: Some(Some(model("big"))), ..MetaChange::default() }, sim.now);
    sim.took(step);
    assert_eq!(sim.model_choice(), Some(&model("big")));

    let at = sim.messages()[1].id;
    let step = sim.ctx.create_branch(at, false, "try small", None, sim.now);
    let fx = sim.took(step);
    let Some(Ok(Reply::Branch(side))) = braid_core::sim::reply_of(&fx).cloned() else { panic!("{fx:?}") };
    let step = sim.ctx.edit_branch(side.clone(), BranchEdit::Model(Some(model("small"))), sim.now);
    sim.took(step);
    assert_eq!(sim.model_choice(), Some(&model("big")), "main is still in use");
    let step = sim.ctx.switch_branch(side.clone(), sim.now);
    sim.took(step);
    assert_eq!(sim.model_choice(), Some(&model("small")), "the branch's own model answers on it");

    let step = sim.ctx.edit_branch(side.clone(), BranchEdit::Model(Some(model("  "))), sim.now);
    assert_eq!(refusal(&sim.took(step)), ErrorCode::InvalidInput, "a choice must name a model");
    let step = sim.ctx.edit_meta(MetaChange { model: Some(None), ..MetaChange::default() }, sim.now);
    sim.took(step);
    assert_eq!(sim.meta.model, None);
    assert_eq!(sim.model_choice(), Some(&model("small")));
}

/// A fork may work in its own copy of the workspace: the tools work
/// there while it is in use. Main never has one, and the folder of the
/// branch in use does not change under a running turn.
#[test]
fn the_folder_follows_the_branch_with_a_copy_of_its_own() {
    let mut sim = Sim::new();
    answered(&mut sim, "q1", "a1");
    let step = sim.ctx.edit_branch(BranchId::main(), BranchEdit::Folder(Some("/copies/main".into())), sim.now);
    assert_eq!(refusal(&sim.took(step)), ErrorCode::InvalidInput, "main works in the conversation's folder");
    let at = sim.messages()[1].id;
    let step = sim.ctx.create_branch(at, false, "idea", None, sim.now);
    let fx = sim.took(step);
    let Some(Ok(Reply::Branch(idea))) = braid_core::sim::reply_of(&fx).cloned() else { panic!("{fx:?}") };
    let step = sim.ctx.edit_branch(idea.clone(), BranchEdit::Folder(Some("/copies/idea".into())), sim.now);
    sim.took(step);
    assert_eq!(sim.ctx.folder(), "/sim", "main is in use");
    let step = sim.ctx.switch_branch(idea.clone(), sim.now);
    sim.took(step);
    assert_eq!(sim.ctx.folder(), "/copies/idea", "the branch's copy while it is in use");

    sim.start("busy now");
    let step = sim.ctx.edit_branch(idea.clone(), BranchEdit::Folder(None), sim.now);
    assert_eq!(refusal(&sim.took(step)), ErrorCode::InvalidState, "not under a running turn");
    assert_eq!(sim.ctx.folder(), "/copies/idea");
}

#[test]
fn branches_are_checked_against_the_conversation_before_the_machine_sees_them() {
    let mut sim = Sim::new();
    answered(&mut sim, "q1", "a1");
    let ghost = BranchId("b99".into());
    let step = sim.ctx.switch_branch(ghost.clone(), sim.now);
    assert_eq!(refusal(&sim.took(step)), ErrorCode::InvalidInput);
    let step = sim.ctx.edit_branch(ghost, BranchEdit::Rename("x".into()), sim.now);
    assert_eq!(refusal(&sim.took(step)), ErrorCode::NotFound);
    let step = sim.ctx.create_branch(braid_protocol::MessageId(999), false, "x", None, sim.now);
    assert_eq!(refusal(&sim.took(step)), ErrorCode::NotFound);

    let at = sim.messages()[0].id;
    let step = sim.ctx.create_branch(at, true, "ask again", None, sim.now);
    let fx = sim.took(step);
    let Some(Ok(Reply::Branch(again))) = braid_core::sim::reply_of(&fx).cloned() else { panic!("{fx:?}") };
    assert!(sim.conversation.branch(&again).unwrap().message_ids.is_empty(), "forked ahead of the question");
    let step = sim.ctx.edit_branch(again.clone(), BranchEdit::Rename("Second try".into()), sim.now);
    sim.took(step);
    assert_eq!(sim.conversation.branch(&again).unwrap().name, "Second try");

    // Busy: the switch waits, the branch is still there; idle again, it
    // can be deleted.
    sim.start("q2");
    let step = sim.ctx.switch_branch(again.clone(), sim.now);
    assert_eq!(refusal(&sim.took(step)), ErrorCode::AgentBusy);
    assert_eq!(sim.conversation.active_branch(), &BranchId::main());
    sim.send(Event::Cancel);
    let step = sim.ctx.edit_branch(again.clone(), BranchEdit::Delete, sim.now);
    sim.took(step);
    assert!(sim.conversation.branch(&again).is_none());
}

#[test]
fn a_merge_and_its_undo_are_steps_of_the_context() {
    let (mut sim, side) = crate::merging::forked();
    answered(&mut sim, "side q", "side a");
    crate::merging::switch(&mut sim, &BranchId::main());
    let before = sim.conversation.clone();
    let preview = sim.merge_preview(&options(&side, MergeStrategy::Append)).unwrap();
    assert_eq!(sim.conversation, before, "a preview changes nothing");
    assert!(!preview.items.is_empty());

    let step = sim.ctx.merge(&options(&side, MergeStrategy::Append), Vec::new(), sim.now);
    let fx = sim.took(step);
    let Some(Ok(Reply::Message(card))) = braid_core::sim::reply_of(&fx).cloned() else { panic!("{fx:?}") };
    assert!(sim.messages().iter().any(|m| m.id == card));
    let step = sim.ctx.undo_merge(card, Vec::new(), sim.now);
    sim.took(step);
    let main = |c: &braid_core::Conversation| c.branch(&BranchId::main()).unwrap().message_ids.clone();
    let undone = main(&sim.conversation);
    assert!(main(&before).iter().all(|m| undone.contains(m)), "what main held before is still there");
    let step = sim.ctx.merge(&options(&BranchId::main(), MergeStrategy::Append), Vec::new(), sim.now);
    assert_eq!(refusal(&sim.took(step)), ErrorCode::InvalidInput, "a branch cannot merge into itself");
}

#[test]
fn the_folder_moves_only_at_rest_and_a_broad_one_asks_before_reads() {
    let mut sim = Sim::new();
    sim.start("q");
    let home = MetaChange { working_dir: Some(("/home/me".into(), true)), ..MetaChange::default() };
    let step = sim.ctx.edit_meta(home.clone(), sim.now);
    assert_eq!(refusal(&sim.took(step)), ErrorCode::AgentBusy);
    assert_eq!(sim.meta.working_dir, "/sim");
    sim.send(Event::Cancel);
    sim.advance(1_000);
    let step = sim.ctx.edit_meta(home, sim.now);
    let fx = sim.took(step);
    assert_eq!(braid_core::sim::reply_of(&fx), Some(&Ok(Reply::Done)));
    let saves: Vec<usize> = fx.iter().enumerate().filter(|(_, e)| e.is_persistence()).map(|(i, _)| i).collect();
    assert_eq!(saves, (0..saves.len()).collect::<Vec<_>>(), "stored first: {fx:?}");
    assert_eq!((sim.meta.working_dir.as_str(), sim.meta.updated_at), ("/home/me", sim.now));
    assert!(sim.state.config.tools.confirm_reads);
}

#[test]
fn a_refused_write_takes_the_whole_step_back() {
    let mut sim = Sim::new();
    answered(&mut sim, "q1", "a1");
    let before = sim.ctx.clone();
    sim.advance(1_000);
    // A fork, a title and a question: each undone as if never taken.
    let at = sim.messages()[1].id;
    let steps = [
        sim.ctx.create_branch(at, false, "side", None, sim.now),
        sim.ctx.edit_meta(MetaChange { title: Some("T".into()), pinned: Some(true), ..MetaChange::default() }, sim.now),
    ];
    for step in steps.into_iter().rev() {
        sim.ctx.undo(step);
    }
    assert_eq!((&sim.meta, &sim.state, &sim.conversation), (&before.meta, &before.state, &before.conversation));

    let step = sim.ctx.handle(
        Event::UserMessage {
            body: braid_protocol::MessageType::text(braid_protocol::Role::User, "q2"),
            queue_if_busy: false,
            force_tool: None,
            images: Vec::new(),
        },
        sim.now,
    );
    assert!(step.stores());
    sim.ctx.undo(step);
    assert_eq!((&sim.meta, &sim.state, &sim.conversation), (&before.meta, &before.state, &before.conversation));
}

#[test]
fn a_failed_write_stops_the_context_and_says_why() {
    let mut sim = Sim::new();
    sim.start("q");
    let busy = sim.state.status.kind();
    assert!(sim.state.status.is_busy());
    let event = sim.ctx.stop_for_storage("disk full".into(), Timestamp(sim.now.0 + 1));
    assert_eq!(sim.state.status.kind(), StatusKind::Failed);
    assert!(sim.state.request.is_none(), "nothing in flight carries on");
    let braid_protocol::BraidEvent::ContextUpdate(update) = event else { panic!("{event:?}") };
    assert_eq!(update.previous_state.map(|p| p.kind()), Some(busy));
    assert_eq!(update.metadata.notice.map(|n| n.message), Some("disk full".to_owned()));
}

#[test]
fn the_core_says_which_waiting_calls_write_which_file() {
    let mut sim = Sim::new();
    sim.start("write it");
    let write = r#"{"path":"notes.txt","content":"x"}"#;
    sim.model_calls(&[("w1", "write_file", write), ("r1", "run_command", r#"{"command":"ls"}"#)]);
    assert_eq!(sim.state.status.kind(), StatusKind::AwaitingToolApproval);
    let writes: Vec<(String, String)> = braid_core::approval::pending_file_writes(&sim.state)
        .into_iter()
        .map(|(c, path)| (c.id.to_string(), path))
        .collect();
    assert_eq!(writes, [("w1".to_owned(), "notes.txt".to_owned())], "a command is not a file write");
}

#[test]
fn only_a_request_moving_on_may_be_stored_after_it_is_carried_out() {
    let mut sim = Sim::new();
    let step = sim.ctx.handle(
        Event::UserMessage {
            body: braid_protocol::MessageType::text(braid_protocol::Role::User, "Hello?"),
            queue_if_busy: false,
            force_tool: None,
            images: Vec::new(),
        },
        sim.now,
    );
    assert!(step.stores() && !sim.ctx.status_only(&step), "the question is stored before anything runs");
    let fx = sim.took(step);
    let fx = sim.pipeline_ok(&fx);
    assert!(fx.iter().any(|e| matches!(e, Effect::StartLlmRequest { .. })));
    let rid = sim.request_id();
    let step =
        sim.ctx.handle(Event::RequestPrepared { request_id: rid, prepared: Box::new(sim.prepared(4096)) }, sim.now);
    assert!(step.effects.iter().any(|e| matches!(e, Effect::SendLlmRequest { .. })));
    assert!(sim.ctx.status_only(&step), "prepared → sending: only the status moves");
    sim.took(step);
    for event in [Event::LlmRequestStarted { request_id: rid }, Event::LlmConnected { request_id: rid }] {
        let step = sim.ctx.handle(event, sim.now);
        assert!(!step.stores() || sim.ctx.status_only(&step));
        sim.took(step);
    }
    let step = sim.ctx.handle(Event::LlmDelta { request_id: rid, text: "Hi".into() }, sim.now);
    assert_eq!(sim.ctx.state.status.kind(), StatusKind::StreamingLlmResponse);
    assert!(step.stores() && sim.ctx.status_only(&step), "the first chunk: shown first, its status stored next");
    sim.took(step);
    let step = sim
        .ctx
        .handle(Event::LlmCompleted { request_id: rid, response: braid_core::llm::LlmResponse::text("Hi") }, sim.now);
    assert!(step.stores() && !sim.ctx.status_only(&step), "the answer is stored before it is shown");
}
