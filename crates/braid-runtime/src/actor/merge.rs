//! Merges as the context's task carries them out: each is planned and
//! made by the core (`braid_core::context`), then stored and carried out
//! here. The summary a merge card carries is written
//! by the conversation's model outside the task, so the task never waits
//! on it.

use super::ContextActor;
use crate::mailbox::{MergeAnswer, MergeOp};
use braid_core::fit::SUMMARY_OUTPUT;
use braid_core::machine::Reply;
use braid_protocol::{ErrorCode, WireError};

impl ContextActor {
    pub(super) fn merge_op(&mut self, op: MergeOp) -> Result<MergeAnswer, WireError> {
        let now = crate::clock::now();
        match op {
            MergeOp::Preview(options) => Ok(MergeAnswer::Preview(Box::new(self.ctx.merge_preview(&options)?))),
            MergeOp::Files { options, user, checkpoints } => {
                let mut checkpoints = self.adopted(checkpoints);
                checkpoints.extend(self.user_changes(user)?);
                Ok(MergeAnswer::Files(self.ctx.merge_files(&options, &checkpoints)?))
            }
            MergeOp::UndoFiles { card, user, checkpoints } => {
                let mut checkpoints = self.adopted(checkpoints);
                checkpoints.extend(self.user_changes(user)?);
                Ok(MergeAnswer::Plan(self.ctx.merge_undo_files(card, &checkpoints)?))
            }
            MergeOp::Apply(options, files) => {
                let step = self.ctx.merge(&options, files, now);
                match self.carry_out(step) {
                    Some(Ok(Reply::Message(card))) => Ok(MergeAnswer::Card(card)),
                    Some(Err(e)) => Err(e),
                    _ => Err(WireError::new(ErrorCode::Internal, "the merge was not applied")),
                }
            }
            MergeOp::Undo(card, files) => {
                let step = self.ctx.undo_merge(card, files, now);
                self.carry_out(step).unwrap_or(Ok(Reply::Done)).map(|_| MergeAnswer::Done)
            }
            MergeOp::Graph(checkpoints) => {
                let checkpoints = self.adopted(checkpoints);
                Ok(MergeAnswer::Graph(Box::new(braid_core::graph::view(&self.ctx.conversation, &checkpoints))))
            }
            MergeOp::SummaryJob(source) => {
                let messages = braid_core::merge::parted(&self.ctx.conversation, &source)?;
                if messages.is_empty() {
                    let text = "the source has nothing the branch in use lacks: there is nothing to summarise";
                    return Err(WireError::new(ErrorCode::InvalidInput, text));
                }
                let resolved = self
                    .shared
                    .providers
                    .resolve(self.ctx.model_choice())
                    .map_err(|e| WireError::new(ErrorCode::InvalidInput, e))?;
                let reads = braid_core::fit::summariser_reads(resolved.view.context_window);
                let input = braid_core::prompt::summary_input(None, &messages, reads);
                Ok(MergeAnswer::Summarise {
                    provider: resolved.provider,
                    model: resolved.model,
                    input,
                    filter: self.filter(),
                    max_tokens: SUMMARY_OUTPUT.min(resolved.max_output_tokens),
                })
            }
        }
    }
}
