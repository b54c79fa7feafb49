//! What a member is given besides its instructions: the messages before
//! the one it answers, trimmed to its window and the byte budget. One
//! function owns it, [`context_for`], for every agent type.

use super::routing::strip_markers;
use braid_protocol::{Message, MessageId, MessageType, Role};

/// Who said a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Speaker {
    User,
    Member(String),
}

impl Speaker {
    pub fn label(&self) -> &str {
        match self {
            Speaker::User => "user",
            Speaker::Member(name) => name,
        }
    }
}

/// A message of the conversation as the team sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said {
    pub id: MessageId,
    /// The message this is a merge's copy of, if any: the same message.
    pub copy_of: Option<MessageId>,
    pub speaker: Speaker,
    pub text: String,
}

impl Said {
    /// A text message of the conversation; other kinds (tool calls,
    /// images, controls) are not part of the team's talk.
    pub fn of(message: &Message) -> Option<Said> {
        let MessageType::Text { role, .. } = &message.body else { return None };
        let speaker = match (role, &message.meta.author) {
            (Role::System, _) => return None,
            (_, Some(author)) => Speaker::Member(author.clone()),
            (Role::User, None) => Speaker::User,
            (Role::Assistant, None) => Speaker::Member("assistant".to_owned()),
        };
        let text = message.body.plain_text()?;
        Some(Said { id: message.id, copy_of: message.meta.copied_from, speaker, text })
    }

    fn same_message(&self, other: &Said) -> bool {
        let ids = |s: &Said| [Some(s.id), s.copy_of];
        ids(self).iter().flatten().any(|a| ids(other).iter().flatten().any(|b| a == b))
    }
}

/// The context of `current` (the message a member answers): the last
/// `window` messages of `before` (the conversation before it, oldest
/// first), markers stripped once; when an agent sent `current`, those
/// that repeat it (the same message, then the same speaker with the same
/// words) are left out — never for the user's messages; then the oldest go
/// until the texts fit `budget` bytes. `current` comes back stripped too.
pub fn context_for(before: &[Said], current: &Said, window: usize, budget: usize) -> (Vec<Said>, Said) {
    let current = Said { text: strip_markers(&current.text), ..current.clone() };
    let from = before.len().saturating_sub(window);
    let mut context: Vec<Said> = before[from..]
        .iter()
        .map(|s| Said { text: strip_markers(&s.text), ..s.clone() })
        .filter(|s| !s.text.is_empty())
        .collect();
    if current.speaker != Speaker::User {
        let repeats = |s: &Said| s.same_message(&current) || (s.speaker == current.speaker && s.text == current.text);
        context.retain(|s| !repeats(s));
    }
    let mut total: usize = context.iter().map(|s| s.text.len()).sum();
    let mut drop = 0;
    while total > budget && drop < context.len() {
        total -= context[drop].text.len();
        drop += 1;
    }
    context.drain(..drop);
    (context, current)
}
