//! A conversation's title, written by its model after the first exchange:
//! when to ask, what to send, and how to read (or, failing that, make)
//! the answer. The runtime asks only while the title is the default.

use crate::conversation::Conversation;
use braid_protocol::{MessageType, Role};

/// What a new conversation is called until it gets a title.
pub const DEFAULT_TITLE: &str = "New conversation";

/// A title is at most this many characters (the list shows one line).
pub const MAX_CHARS: usize = 60;

/// The most the model may write (a title, not an answer).
pub const MAX_TOKENS: u32 = 24;

pub const INSTRUCTIONS: &str = "Write a title for the conversation below: at most six words, in the \
conversation's language, naming its subject. Reply with the title only: no quotes, no full stop, no \
preamble.";

/// The first question and its answer, once the active branch holds both
/// (as one transcript for the model); `None` before that.
pub fn input(conversation: &Conversation) -> Option<String> {
    let mut question = None;
    for m in conversation.messages(conversation.active_branch()) {
        match (&m.body, &question) {
            (MessageType::Text { role: Role::User, .. }, None) => question = m.body.plain_text(),
            (MessageType::Text { role: Role::Assistant, .. }, Some(q)) => {
                let answer = m.body.plain_text().unwrap_or_default();
                if answer.trim().is_empty() {
                    continue;
                }
                return Some(format!("User: {}\n\nAssistant: {}", clip(q, 2000), clip(&answer, 2000)));
            }
            _ => {}
        }
    }
    None
}

/// A title has at most this many words.
pub const MAX_WORDS: usize = 6;

/// The model's reply as a title: its first line, without quotes, a
/// "Title:" label or a full stop, at most [`MAX_WORDS`] words; `None` if
/// nothing is left or it is not a title (then the question's first words
/// are used).
pub fn from_reply(reply: &str) -> Option<String> {
    let line = reply.lines().map(str::trim).find(|l| !l.is_empty())?;
    let line = line.strip_prefix("Title:").or_else(|| line.strip_prefix("title:")).unwrap_or(line).trim();
    let line = line.trim_matches(|c: char| matches!(c, '"' | '\'' | '“' | '”' | '«' | '»' | '*' | '#' | '`')).trim();
    let line = line.trim_end_matches(['.', '!', ':']).trim();
    if line.is_empty() || !title_like(line) {
        return None;
    }
    let first: Vec<&str> = line.split_whitespace().take(MAX_WORDS).collect();
    Some(words(&first.join(" "), MAX_CHARS))
}

/// What a small model writes when asked for a title is often a sentence
/// of an answer ("I'm excited to continue exploring…"): a reply that
/// speaks (I, sure, here…), holds more than one sentence, or runs long
/// is not a title.
fn title_like(line: &str) -> bool {
    const SPEAKS: &[&str] = &[
        "i",
        "i'm",
        "i’m",
        "i'd",
        "i’d",
        "i'll",
        "i’ll",
        "i've",
        "i’ve",
        "sure",
        "here",
        "here's",
        "here’s",
        "hello",
        "hi",
        "hey",
        "okay",
        "ok",
        "certainly",
        "yes",
        "no",
        "thanks",
        "thank",
        "great",
        "absolutely",
        "you",
        "you're",
        "you’re",
        "we",
        "let's",
        "let’s",
        "welcome",
    ];
    let mut ws = line.split_whitespace();
    let first = ws.next().unwrap_or_default().trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’');
    let first = first.to_lowercase();
    let second = ws.next().unwrap_or_default().to_lowercase();
    let speaks = SPEAKS.contains(&first.as_str()) || (first == "as" && matches!(second.as_str(), "a" | "an"));
    let sentences = line.contains(". ") || line.contains("? ") || line.contains("! ");
    !speaks && !sentences && line.split_whitespace().count() <= MAX_WORDS + 4
}

/// A title made of the question's first words, when the model gives none.
pub fn from_question(question: &str) -> String {
    let one_line = question.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.is_empty() {
        DEFAULT_TITLE.to_owned()
    } else {
        words(&one_line, 48)
    }
}

/// The first user message of the active branch.
pub fn first_question(conversation: &Conversation) -> Option<String> {
    conversation
        .messages(conversation.active_branch())
        .find(|m| matches!(m.body, MessageType::Text { role: Role::User, .. }))
        .and_then(|m| m.body.plain_text())
}

/// At most `max` characters, cut after a whole word (with "…" if cut).
fn words(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let cut: String = text.chars().take(max).collect();
    // At the last space in the second half; a long word is cut as it is.
    let half = cut.char_indices().nth(max / 2).map_or(cut.len(), |(i, _)| i);
    let at = cut.rfind(char::is_whitespace).filter(|&i| i > half).unwrap_or(cut.len());
    format!("{}…", cut[..at].trim_end())
}

fn clip(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}
