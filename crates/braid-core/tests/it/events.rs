//! A lifecycle event carries its message when a client can put it in
//! place: stored, on the branch in use, and small.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::events::{attach_message, INLINE_LIMIT};
use braid_core::machine::{Effect, Event};
use braid_core::sim::Sim;
use braid_protocol::{BraidEvent, ContextUpdate, MessageChange};

/// The updates about a message being created, from these effects.
fn created(effects: &[Effect]) -> Vec<ContextUpdate> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Emit(BraidEvent::ContextUpdate(u))
                if u.message.as_ref().is_some_and(|m| m.change == MessageChange::Created) =>
            {
                Some(u.clone())
            }
            _ => None,
        })
        .collect()
}

fn text_of(update: &ContextUpdate) -> Option<String> {
    update.message.as_ref()?.message.as_ref()?.body.plain_text()
}

#[test]
fn a_small_message_on_the_branch_in_use_travels_with_its_event() {
    let mut sim = Sim::new();
    let effects = sim.start("What is in notes.txt?");
    let mut updates = created(&sim.effects);
    assert!(!updates.is_empty(), "no Created update in {effects:?}");
    for u in &mut updates {
        attach_message(u, &sim.conversation);
    }
    let texts: Vec<String> = updates.iter().filter_map(text_of).collect();
    assert!(texts.iter().any(|t| t.contains("What is in notes.txt?")), "{texts:?}");
    // The core itself leaves it out: it is the conversation's to add.
    assert!(created(&sim.effects).iter().all(|u| u.message.as_ref().unwrap().message.is_none()));
}

#[test]
fn a_large_message_goes_without_so_the_event_stays_small() {
    let mut sim = Sim::new();
    let long = "word ".repeat(INLINE_LIMIT / 4);
    sim.start(&long);
    let mut updates = created(&sim.effects);
    for u in &mut updates {
        attach_message(u, &sim.conversation);
    }
    assert!(updates.iter().all(|u| text_of(u).is_none()), "a {}-byte message travelled", long.len());
    assert!(updates.iter().any(|u| u.message.as_ref().unwrap().withheld), "a client is not told to load it");
    let json = serde_json::to_vec(&updates).unwrap();
    assert!(json.len() < INLINE_LIMIT, "the events weigh {} bytes", json.len());
}

#[test]
fn a_message_off_the_branch_in_use_goes_without() {
    let mut sim = Sim::new();
    sim.start("first question");
    let mut updates = created(&sim.effects);
    let asked = sim.messages().iter().find(|m| m.body.plain_text().is_some_and(|t| t == "first question")).unwrap().id;
    // Idle again, then a branch holding everything before the question,
    // switched to.
    sim.send(Event::Cancel);
    let source = sim.conversation.active_branch().clone();
    let draft = sim.conversation.fork_before(&source, asked, "before", sim.now).unwrap();
    sim.send(Event::CreateBranch { draft: Box::new(draft), switch: true });
    assert_ne!(sim.conversation.active_branch(), &source, "the fork is not in use");
    for u in &mut updates {
        attach_message(u, &sim.conversation);
    }
    let about_question: Vec<_> = updates.iter().filter(|u| u.message.as_ref().unwrap().message_id == asked).collect();
    assert!(!about_question.is_empty());
    assert!(about_question.iter().all(|u| text_of(u).is_none()), "a message of another branch travelled");
    assert!(about_question.iter().all(|u| !u.message.as_ref().unwrap().withheld), "nothing for a client to load");
}
