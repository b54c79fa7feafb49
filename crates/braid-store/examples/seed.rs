//! `seed DB N [TITLE]`: stores a conversation of N messages (alternating
//! user and assistant, some with code blocks) in the database DB. The UI's
//! performance script opens it to measure a long conversation.

use braid_core::{ContextState, Conversation};
use braid_protocol::{ContextId, Message, MessageId, MessageType, Role, Timestamp};
use braid_store::{ContextMeta, Store};
use std::process::ExitCode;

fn body(i: u64) -> MessageType {
    if i.is_multiple_of(2) {
        MessageType::text(
            Role::User,
            format!("Question {i}: how do I {}?", ["sort a list", "read a file", "parse JSON"][(i % 3) as usize]),
        )
    } else if i.is_multiple_of(5) {
        MessageType::text(
            Role::Assistant,
            format!("Answer {i}, with code:\n\n```rust\nfn answer_{i}() -> u64 {{\n    // {i}\n    {i}\n}}\n```\n\nThat is **all**."),
        )
    } else {
        MessageType::text(
            Role::Assistant,
            format!("Answer {i}: {}", "a plain sentence of prose, ".repeat(1 + (i % 7) as usize)),
        )
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(db), Some(n)) = (args.first(), args.get(1).and_then(|n| n.parse::<u64>().ok())) else {
        eprintln!("usage: seed DB N [TITLE]");
        return ExitCode::from(2);
    };
    let now = Timestamp(1_700_000_000_000);
    let meta = ContextMeta {
        id: ContextId(format!("seed-{n}")),
        title: args.get(2).cloned().unwrap_or_else(|| format!("{n} messages")),
        working_dir: std::env::temp_dir().display().to_string(),
        created_at: now,
        updated_at: now,
        model: None,
    };
    let mut state = ContextState::new(meta.id.clone());
    let mut conversation = Conversation::new(now);
    for i in 1..=n {
        if let Err(e) = conversation.append(Message::new(MessageId(i), Timestamp(now.0 + i), body(i))) {
            eprintln!("seed: {e}");
            return ExitCode::FAILURE;
        }
    }
    state.next_message_id = n + 1;
    let stored = Store::open(std::path::Path::new(db)).and_then(|mut s| s.create_context(&meta, &state, &conversation));
    match stored {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("seed: {e}");
            ExitCode::FAILURE
        }
    }
}
