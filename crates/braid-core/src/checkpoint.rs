//! Rewinding files, decided: given the checkpoints recorded after the
//! point to go back to, which file gets which version, what it must hold
//! now to be written without asking, and which files the user changed
//! outside Braid in between (never overwritten without their say); and
//! what each turn changed, for its review.

use crate::conversation::Conversation;
use braid_protocol::{
    ChangeAuthor, ChangeCount, Checkpoint, ControlKind, FileDelta, MessageId, MessageType, RestoreTarget, Role,
    TurnChangeCount,
};
use std::collections::{BTreeMap, BTreeSet};

mod prune;
pub use prune::{prunable, Aged};

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RewindPlan {
    /// By path: each file any of the checkpoints touched, back to its
    /// version before the first of them, expected to hold its version
    /// after the last.
    pub targets: Vec<RestoreTarget>,
    /// Paths among the targets that a `User` checkpoint touched.
    pub changed_by_user: Vec<String>,
    /// How many checkpoints it undoes.
    pub undoes: u32,
    /// The message the files go back to, when the plan chose it (a
    /// branch's last message).
    pub at: Option<MessageId>,
}

/// The plan that undoes `after` (oldest first). Undoing a restore is the
/// same plan over the restore's own checkpoint.
pub fn rewind<'a>(after: impl IntoIterator<Item = &'a Checkpoint>) -> RewindPlan {
    let mut targets: BTreeMap<&str, RestoreTarget> = BTreeMap::new();
    let mut by_user = Vec::new();
    let mut undoes = 0;
    for cp in after {
        undoes += 1;
        for delta in &cp.changes {
            let target = targets.entry(&delta.path).or_insert_with(|| RestoreTarget {
                path: delta.path.clone(),
                to: delta.before.clone(),
                expected: None,
            });
            target.expected = delta.after.as_ref().map(|v| v.hash.clone());
            if cp.author == ChangeAuthor::User && !by_user.contains(&delta.path) {
                by_user.push(delta.path.clone());
            }
        }
    }
    // A file back where it was already is not written.
    let targets: Vec<RestoreTarget> =
        targets.into_values().filter(|t| t.to.as_ref().map(|v| &v.hash) != t.expected.as_ref()).collect();
    by_user.retain(|p| targets.iter().any(|t| &t.path == p));
    by_user.sort();
    RewindPlan { targets, changed_by_user: by_user, undoes, at: None }
}

/// The checkpoints recorded after `at` was sent, oldest first: what
/// rewinding the files to that moment undoes. The files have one history,
/// whatever the branches: a turn on another branch after `at` changed
/// them too (messages are numbered in the order they are made, so
/// "after" is a later message). The user's changes attached to `at`
/// itself came before it was sent, and stay. `None` when `at` is not on
/// the active branch.
pub fn after_message<'a>(
    conversation: &Conversation,
    at: MessageId,
    checkpoints: &'a [Checkpoint],
) -> Option<Vec<&'a Checkpoint>> {
    conversation.active_messages().find(|m| m.id == at)?;
    let mut found: Vec<&Checkpoint> = checkpoints.iter().filter(|cp| cp.message_id > at).collect();
    found.sort_by_key(|cp| cp.id);
    Some(found)
}

fn is_question(m: &braid_protocol::Message) -> bool {
    matches!(m.body, MessageType::Text { role: Role::User, .. })
}

/// The active branch cut into turns: each question with the messages
/// that follow it up to the next question (the question first).
fn turns(conversation: &Conversation) -> Vec<Vec<MessageId>> {
    let mut out: Vec<Vec<MessageId>> = Vec::new();
    for m in conversation.active_messages() {
        match out.last_mut() {
            Some(turn) if !is_question(m) => turn.push(m.id),
            _ if is_question(m) => out.push(vec![m.id]),
            // Before the first question: no turn.
            _ => {}
        }
    }
    out
}

/// How many files, and lines, `checkpoints` changed.
pub fn count<'a>(checkpoints: impl IntoIterator<Item = &'a Checkpoint>) -> ChangeCount {
    let mut paths = BTreeSet::new();
    let mut n = ChangeCount::default();
    for delta in checkpoints.into_iter().flat_map(|cp| &cp.changes) {
        paths.insert(delta.path.as_str());
        let lines = delta.lines.unwrap_or_default();
        n.added += lines.added;
        n.removed += lines.removed;
    }
    n.files = paths.len() as u32;
    n
}

/// Every turn on the active branch whose tools changed files, oldest first.
pub fn changed_turns(conversation: &Conversation, checkpoints: &[Checkpoint]) -> Vec<TurnChangeCount> {
    turns(conversation)
        .into_iter()
        .filter_map(|turn| {
            let own: Vec<&Checkpoint> = checkpoints
                .iter()
                .filter(|cp| cp.author == ChangeAuthor::Model && turn.contains(&cp.message_id))
                .collect();
            let count = count(own);
            let last = *turn.last()?;
            (count.files > 0).then_some(TurnChangeCount { question: turn[0], last, count })
        })
        .collect()
}

/// What the turn holding `at` changed in the files, as it stands: by
/// path, from before the turn's first change to after its last — or after
/// the last undo of its changes since, when nothing else changed the file
/// in between. Files whose changes are all undone are left out. Answered
/// with the turn's question; `None` when `at` is in no turn of the active
/// branch.
pub fn turn_changes(
    conversation: &Conversation,
    at: MessageId,
    checkpoints: &[Checkpoint],
) -> Option<(MessageId, Vec<FileDelta>)> {
    let turn = turns(conversation).into_iter().find(|t| t.contains(&at))?;
    let question = turn[0];
    let undos: BTreeSet<MessageId> = conversation
        .active_messages()
        .filter(|m| {
            matches!(&m.body, MessageType::SystemControl { control: ControlKind::FilesRestored { changes_of: Some(q), .. } } if *q == question)
        })
        .map(|m| m.id)
        .collect();
    let mut by_path: BTreeMap<&str, (Vec<&FileDelta>, Vec<&FileDelta>)> = BTreeMap::new();
    for cp in checkpoints {
        let own = cp.author == ChangeAuthor::Model && turn.contains(&cp.message_id);
        let undo = cp.author == ChangeAuthor::Restore && undos.contains(&cp.message_id);
        for delta in cp.changes.iter().filter(|_| own || undo) {
            let (mine, all) = by_path.entry(delta.path.as_str()).or_default();
            if own {
                mine.push(delta);
            }
            all.push(delta);
        }
    }
    let net = by_path.into_iter().filter_map(|(path, (mine, all))| {
        let unbroken =
            all.windows(2).all(|w| w[0].after.as_ref().map(|v| &v.hash) == w[1].before.as_ref().map(|v| &v.hash));
        let chain = if unbroken { &all } else { &mine };
        let (first, last) = (chain.first()?, chain.last()?);
        let delta =
            FileDelta { path: path.to_owned(), before: first.before.clone(), after: last.after.clone(), lines: None };
        (delta.before.as_ref().map(|v| &v.hash) != delta.after.as_ref().map(|v| &v.hash)).then_some(delta)
    });
    Some((question, net.collect()))
}

/// The conversation's checkpoints with its sub-agents' (each child's,
/// its own children's included), these taken as made by the message that
/// started the child: the folder is the same, so a rewind or a turn's
/// review covers what the sub-agents changed. Oldest first.
pub fn adopt(
    conversation: &Conversation,
    own: Vec<Checkpoint>,
    children: Vec<(braid_protocol::CallId, Vec<Checkpoint>)>,
) -> Vec<Checkpoint> {
    let spawned_by = |call: &braid_protocol::CallId| {
        conversation.pool().find_map(|m| match &m.body {
            MessageType::ToolRequest { calls, .. } if calls.iter().any(|c| &c.id == call) => Some(m.id),
            _ => None,
        })
    };
    let mut all = own;
    for (call, checkpoints) in children {
        let Some(at) = spawned_by(&call) else { continue };
        all.extend(checkpoints.into_iter().map(|cp| Checkpoint { message_id: at, ..cp }));
    }
    all.sort_by_key(|cp| cp.id);
    all
}
