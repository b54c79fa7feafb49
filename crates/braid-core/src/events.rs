//! What a message's lifecycle event carries besides the change: the
//! message itself, so that a client updates it in place rather than
//! loading the branch again after every change (issue #39). Only when it
//! is on the branch in use (what a client shows) and small: `context_update`
//! never carries large text (DESIGN.md §5), so a large one goes without
//! and a client loads it.

use crate::conversation::Conversation;
use braid_protocol::ContextUpdate;

/// The most a message may weigh, as JSON, to travel in its event.
pub const INLINE_LIMIT: usize = 8 * 1024;

/// Puts the message the update is about into it, when it is stored, on
/// the branch in use and within [`INLINE_LIMIT`]; a larger one is marked
/// `withheld`, for the client to load.
pub fn attach_message(update: &mut ContextUpdate, conversation: &Conversation) {
    let Some(lifecycle) = update.message.as_mut() else { return };
    if lifecycle.message.is_some() {
        return;
    }
    let Some(message) = conversation.message(lifecycle.message_id) else { return };
    let on_branch = conversation
        .branch(conversation.active_branch())
        .is_some_and(|b| b.message_ids.contains(&lifecycle.message_id));
    if !on_branch {
        return;
    }
    if serde_json::to_vec(message).is_ok_and(|json| json.len() <= INLINE_LIMIT) {
        lifecycle.message = Some(Box::new(message.clone()));
    } else {
        lifecycle.withheld = true;
    }
}
