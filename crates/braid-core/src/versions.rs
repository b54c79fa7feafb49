//! Versions of a message: where another branch holds everything the
//! branch in use holds before a message, then a different message in its
//! place (a question edited and sent again, an answer written again), the
//! two are versions of one place in the conversation, switched between
//! on the message itself as chat apps do. The branches stay branches.
//!
//! Switch records (`BranchSwitch`) are not content: a branch that was
//! switched to still shares what it shared. Linear in the branches'
//! lengths: each branch is compared once with the branch in use.

use crate::conversation::{Branch, Conversation};
use braid_protocol::{MessageId, MessageVersion, MessageVersions, Role};
use std::collections::BTreeMap;

/// The messages of the branch in use that have other versions, in the
/// branch's order; each with its versions oldest first.
pub fn of(conversation: &Conversation) -> Vec<MessageVersions> {
    let Some(active) = conversation.branch(conversation.active_branch()) else { return Vec::new() };
    let own = content(conversation, active);
    // Per place on the branch in use: the other versions, each with the
    // branch that shows it.
    let mut places: BTreeMap<usize, BTreeMap<MessageId, &Branch>> = BTreeMap::new();
    for other in conversation.branches().filter(|b| b.id != active.id) {
        let theirs = content(conversation, other);
        let shared = own.iter().zip(&theirs).take_while(|(a, b)| a == b).count();
        let (Some(&mine), Some(&alt)) = (own.get(shared), theirs.get(shared)) else { continue };
        if !alike(conversation, mine, alt) {
            continue;
        }
        let shown = places.entry(shared).or_default().entry(alt).or_insert(other);
        // Several branches going on from one version: the one worked on
        // last shows it.
        if tip(other) > tip(shown) {
            *shown = other;
        }
    }
    places
        .into_iter()
        .map(|(place, others)| {
            let message = own[place];
            let mut versions: Vec<MessageVersion> = others
                .into_iter()
                .map(|(message, b)| MessageVersion { message, branch: b.id.clone() })
                .chain([MessageVersion { message, branch: active.id.clone() }])
                .collect();
            versions.sort_by_key(|v| v.message);
            MessageVersions { message, versions }
        })
        .collect()
}

/// A branch's messages without its switch records.
fn content(conversation: &Conversation, branch: &Branch) -> Vec<MessageId> {
    branch.message_ids.iter().copied().filter(|id| !conversation.is_switch(*id)).collect()
}

/// Two messages are versions of one place when both are the user's or
/// both the model's; a system record in their place is not a version.
fn alike(conversation: &Conversation, a: MessageId, b: MessageId) -> bool {
    let side = |id: MessageId| conversation.message(id).and_then(|m| m.body.role()).map(|r| r == Role::User);
    matches!((side(a), side(b)), (Some(x), Some(y)) if x == y)
}

fn tip(branch: &Branch) -> MessageId {
    branch.message_ids.last().copied().unwrap_or(MessageId(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use braid_protocol::{BranchId, ControlKind, Message, MessageType, Timestamp};

    fn text(id: u64, role: Role, t: &str) -> Message {
        Message::new(MessageId(id), Timestamp(id), MessageType::text(role, t))
    }

    fn switch(id: u64, to: &str) -> Message {
        let control = ControlKind::BranchSwitch { from: BranchId::main(), to: BranchId(to.into()) };
        Message::new(MessageId(id), Timestamp(id), MessageType::SystemControl { control })
    }

    /// main: q1 a1 q2 a2; an edit of q2 (b2: q1 a1 ⇄ q2' a2') and an
    /// answer again of a2 (b3: q1 a1 q2 ⇄ a2'').
    fn conversation() -> Conversation {
        let mut c = Conversation::new(Timestamp(0));
        for m in [text(1, Role::User, "q1"), text(2, Role::Assistant, "a1"), text(3, Role::User, "q2")] {
            c.append(m).unwrap();
        }
        c.append(text(4, Role::Assistant, "a2")).unwrap();
        let mut edit = c.fork_before(&BranchId::main(), MessageId(3), "", Timestamp(1)).unwrap();
        edit.id = BranchId("b2".into());
        c.add_branch(edit).unwrap();
        let mut again = c.fork_before(&BranchId::main(), MessageId(4), "", Timestamp(2)).unwrap();
        again.id = BranchId("b3".into());
        c.add_branch(again).unwrap();
        for (branch, ms) in [
            ("b2", vec![switch(5, "b2"), text(6, Role::User, "q2'"), text(7, Role::Assistant, "a2'")]),
            ("b3", vec![switch(8, "b3"), text(9, Role::Assistant, "a2''")]),
        ] {
            c.set_active(&BranchId(branch.into())).unwrap();
            for m in ms {
                c.append(m).unwrap();
            }
        }
        c
    }

    fn pairs(v: &MessageVersions) -> Vec<(u64, &str)> {
        v.versions.iter().map(|x| (x.message.0, x.branch.0.as_str())).collect()
    }

    #[test]
    fn an_edit_and_an_answer_again_are_versions_where_they_happened() {
        let mut c = conversation();
        c.set_active(&BranchId::main()).unwrap();
        let v = of(&c);
        assert_eq!(v.len(), 2);
        assert_eq!((v[0].message, pairs(&v[0])), (MessageId(3), vec![(3, "main"), (6, "b2")]));
        assert_eq!((v[1].message, pairs(&v[1])), (MessageId(4), vec![(4, "main"), (9, "b3")]));
        // On the edit, only the question has versions: its answer is the
        // only one after that question. The original question is shown by
        // the branch worked on last of the two holding it (b3, answered
        // again after main's answer).
        c.set_active(&BranchId("b2".into())).unwrap();
        let v = of(&c);
        assert_eq!(v.len(), 1);
        assert_eq!((v[0].message, pairs(&v[0])), (MessageId(6), vec![(3, "b3"), (6, "b2")]));
        // From the answer written again: its question is shown by the
        // branch in use, the edit's by the edit.
        c.set_active(&BranchId("b3".into())).unwrap();
        let v = of(&c);
        assert_eq!(pairs(&v[0]), vec![(3, "b3"), (6, "b2")]);
        assert_eq!(pairs(&v[1]), vec![(4, "main"), (9, "b3")]);
    }

    #[test]
    fn a_branch_going_on_or_a_new_turn_after_a_fork_is_not_a_version_of_a_different_side() {
        let mut c = Conversation::new(Timestamp(0));
        c.append(text(1, Role::User, "q1")).unwrap();
        c.append(text(2, Role::Assistant, "a1")).unwrap();
        // A fork at q1 that the user goes on with a question: main has an
        // answer there, the fork a question — not versions.
        let mut fork = c.fork(&BranchId::main(), MessageId(1), "side", None, Timestamp(1)).unwrap();
        fork.id = BranchId("b2".into());
        c.add_branch(fork).unwrap();
        c.set_active(&BranchId("b2".into())).unwrap();
        c.append(text(3, Role::User, "another")).unwrap();
        assert!(of(&c).is_empty());
        // A branch that only goes further than the one in use.
        c.set_active(&BranchId::main()).unwrap();
        let mut longer = c.fork(&BranchId::main(), MessageId(2), "longer", None, Timestamp(2)).unwrap();
        longer.id = BranchId("b3".into());
        c.add_branch(longer).unwrap();
        c.set_active(&BranchId("b3".into())).unwrap();
        c.append(text(4, Role::User, "more")).unwrap();
        c.set_active(&BranchId::main()).unwrap();
        assert!(of(&c).is_empty());
    }
}
