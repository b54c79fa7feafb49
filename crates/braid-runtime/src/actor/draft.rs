//! The answer being written, as streamed so far. A client that opens the
//! conversation mid-answer (or watches a sub-agent) gets it whole in its
//! snapshot and adds the deltas after it; without it, it showed only what
//! arrived after it looked.

use super::ContextActor;
use braid_protocol::{BraidEvent, Draft};

impl ContextActor {
    /// Follows what is emitted: a delta grows the draft; the answer's end,
    /// or a change of state with no request in flight, clears it.
    pub(super) fn follow_draft(&mut self, event: &BraidEvent) {
        match event {
            BraidEvent::ContentDelta(d) => match &mut self.draft {
                Some(draft) if draft.message_id == d.message_id => draft.text.push_str(&d.delta),
                _ => self.draft = Some(Draft { message_id: d.message_id, text: d.delta.clone() }),
            },
            BraidEvent::ContentFinal(_) => self.draft = None,
            BraidEvent::ContextUpdate(_) if self.ctx.state.request.is_none() => self.draft = None,
            _ => {}
        }
    }

    /// The draft of the request still in flight.
    pub(super) fn draft(&self) -> Option<Draft> {
        let request = self.ctx.state.request.as_ref()?;
        self.draft.clone().filter(|d| d.message_id == request.response_id)
    }
}
