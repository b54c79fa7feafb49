//! A file restore, recorded: its note in the conversation (only at rest:
//! a note in the middle of a turn would split it), and what it changed
//! as the note's checkpoint, so the restore can itself be undone.

use super::step::Step;
use super::{Effect, Reply};
use braid_protocol::{ChangeAuthor, Checkpoint, ControlKind, FileDelta, MessageId, MessageType};

impl Step<'_> {
    pub(super) fn files_restored(
        &mut self,
        to: MessageId,
        changes: Vec<FileDelta>,
        kept: Vec<String>,
        undoes: Option<MessageId>,
        changes_of: Option<MessageId>,
    ) {
        if self.refuse_if_busy("restoring files") {
            return;
        }

        let note = self.alloc_message_id();
        let files = changes.len() as u32;
        self.reply(Ok(Reply::Message(note)));
        let control = ControlKind::FilesRestored { to, files, kept, undoes, changes_of };
        let message = self.message(note, MessageType::SystemControl { control });
        self.append(message);
        if !changes.is_empty() {
            let checkpoint =
                Checkpoint { id: 0, message_id: note, author: ChangeAuthor::Restore, changes, left_out: Vec::new() };
            self.durable.push(Effect::RecordCheckpoint(Box::new(checkpoint)));
        }
    }
}
