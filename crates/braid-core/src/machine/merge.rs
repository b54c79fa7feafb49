//! Applying a merge and taking it back. What a merge does was computed
//! from the conversation (`crate::merge`); here it is checked against the
//! state (only while idle), given ids, and persisted before anything else:
//! the target's new list, the card, the copies, then the settings the
//! resolutions changed. "Answer again" queues the replayed user turns.

use super::step::Step;
use super::{Effect, QueuedMessage, Reply};
use crate::merge::{MergeApply, MergeUndo};
use braid_protocol::{ChangeAuthor, Checkpoint, ControlKind, MessageType};

impl Step<'_> {
    pub(super) fn merge(&mut self, apply: MergeApply) {
        if self.refuse_if_busy("merging") {
            return;
        }
        let MergeApply { mut record, rewrite, copies, authors, prompt, model, mode, replay, files } = apply;
        let target = record.target.clone();
        if let Some(ids) = rewrite {
            self.durable.push(Effect::SetBranchMessages { branch: target.clone(), ids });
        }
        // Ids in the order the messages stand on the branch: the card, the
        // copies, a mode change, then the replayed turns as they are sent.
        let card = self.alloc_message_id();
        let copies: Vec<_> = copies.into_iter().map(|(origin, body)| (self.alloc_message_id(), origin, body)).collect();
        if !copies.is_empty() {
            record.brought = copies.iter().map(|(id, _, _)| *id).collect();
        }
        let mode = mode.filter(|m| *m != self.s.config.tools.mode).map(|m| (self.alloc_message_id(), m));
        let replay: Vec<_> = replay.into_iter().map(|body| (self.alloc_message_id(), body)).collect();
        record.replayed = replay.len() as u32;
        record.replay_ids = replay.iter().map(|(id, _)| *id).collect();
        let control = ControlKind::Merge { record: Box::new(record) };
        self.reply(Ok(Reply::Message(card)));
        let message = self.message(card, MessageType::SystemControl { control });
        self.append(message);
        self.record_files(card, files);
        for (id, origin, body) in copies {
            let mut message = self.message(id, body);
            message.meta.copied_from = Some(origin);
            message.meta.author = authors.get(&origin).cloned();
            self.append(message);
        }
        if let Some(model) = model {
            self.durable.push(Effect::SetBranchModel { branch: target.clone(), model });
        }
        if let Some(system_prompt) = prompt {
            self.durable.push(Effect::SetBranchPrompt { branch: target, system_prompt });
        }
        if let Some((id, mode)) = mode {
            self.s.config.tools.mode = mode;
            let control = ControlKind::ModeChange { mode: mode.as_str().to_owned() };
            let message = self.message(id, MessageType::SystemControl { control });
            self.append(message);
        }
        for (id, body) in replay {
            self.s.queue.push_back(QueuedMessage { id, body, force_tool: None, images: Vec::new() });
        }
        self.start_queued_if_idle();
    }

    /// What a merge, or its undo, wrote in the workspace: the checkpoint
    /// of its card, stored with it.
    fn record_files(&mut self, message_id: braid_protocol::MessageId, changes: Vec<braid_protocol::FileDelta>) {
        if !changes.is_empty() {
            let checkpoint =
                Checkpoint { id: 0, message_id, author: ChangeAuthor::Merge, changes, left_out: Vec::new() };
            self.durable.push(Effect::RecordCheckpoint(Box::new(checkpoint)));
        }
    }

    pub(super) fn undo_merge(&mut self, undo: MergeUndo) {
        if self.refuse_if_busy("undoing a merge") {
            return;
        }
        let MergeUndo { merge, target, ids, prompt, model, unqueue, files } = undo;
        self.s.queue.retain(|q| !unqueue.contains(&q.id));
        self.durable.push(Effect::SetBranchMessages { branch: target.clone(), ids });
        if let Some(model) = model {
            self.durable.push(Effect::SetBranchModel { branch: target.clone(), model });
        }
        if let Some(system_prompt) = prompt {
            self.durable.push(Effect::SetBranchPrompt { branch: target, system_prompt });
        }
        self.reply(Ok(Reply::Done));
        let id = self.alloc_message_id();
        let message = self.message(id, MessageType::SystemControl { control: ControlKind::MergeUndone { merge } });
        self.append(message);
        self.record_files(id, files);
    }
}
