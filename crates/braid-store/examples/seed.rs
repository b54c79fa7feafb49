//! `seed DB N [TITLE] [BRANCHES]`: stores a conversation of N messages
//! (alternating user and assistant, some with code blocks) in the database
//! DB, spread over BRANCHES branches (1 by default), each forked from a
//! message some way back and written in turns. The UI's performance
//! scripts open it to measure a long conversation and its history graph.
//! With a fifth argument `conflict`, main and the second branch each end
//! with a write_file round on notes.txt, with different content: a merge
//! conflict for the end-to-end tests to resolve. With `markdown` instead,
//! the last answer shows what the chat renders: a table, a task list,
//! strikethrough, a footnote, maths and highlighted code. With `leftout`,
//! the first message is an @notes.md reference, the rest questions and
//! answers: sending only the latest 20 leaves the reference out.

use braid_core::{Branch, ContextState, Conversation};
use braid_protocol::BranchId;
use braid_protocol::{ContextId, Message, MessageId, MessageType, Role, Timestamp};
use braid_store::{ContextMeta, Store};
use std::process::ExitCode;

/// Every Markdown feature the chat renders, as a model would write it.
const MARKDOWN: &str =
    "| Crate | Purpose |\n|---|---|\n| serde | ~~manual~~ derived parsing |\n| tokio | async runtime |\n\n\
- [x] parse the config\n- [ ] write the tests\n\n> Quoted advice[^1].\n\n\
Inline maths $e^{i\\pi} + 1 = 0$ and a display:\n\n$$\n\\sum_{k=1}^{n} k = \\frac{n(n+1)}{2}\n$$\n\n\
```rust\nfn main() {\n    println!(\"hello\");\n}\n```\n\n[^1]: From the docs.";

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Plain,
    Markdown,
    LeftOut,
}

fn body(i: u64, kind: Kind) -> MessageType {
    if kind == Kind::LeftOut && i == 1 {
        return MessageType::FileReference {
            path: "notes.md".into(),
            range: None,
            content: Some("The launch is on Tuesday.\n".into()),
            status: Default::default(),
            error: None,
        };
    }
    if kind == Kind::Markdown {
        return match i % 2 {
            1 => MessageType::text(Role::User, "Show me what Markdown can do."),
            _ => MessageType::text(Role::Assistant, MARKDOWN),
        };
    }
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

/// `n` messages over `branches` lines: message `i` goes to line
/// `i % branches`; a line starts as a fork of main's messages so far.
fn build(n: u64, branches: u64, now: Timestamp, kind: Kind) -> Result<Conversation, String> {
    let mut messages = Vec::new();
    let mut lines: Vec<Vec<MessageId>> = vec![Vec::new(); branches as usize];
    for i in 1..=n {
        let line = ((i - 1) % branches) as usize;
        if line > 0 && lines[line].is_empty() {
            lines[line] = lines[0].clone();
        }
        lines[line].push(MessageId(i));
        messages.push(Message::new(MessageId(i), Timestamp(now.0 + i), body(i, kind)));
    }
    let branch = |k: usize, ids: Vec<MessageId>| Branch {
        id: if k == 0 { BranchId::main() } else { BranchId(format!("b{}", k + 1)) },
        name: if k == 0 { "main".to_owned() } else { format!("idea {}", k + 1) },
        parent: (k > 0).then(BranchId::main),
        fork_point: None,
        message_ids: ids,
        system_prompt: None,
        pipeline: None,
        model: None,
        folder: None,
        created_at: Timestamp(now.0 + k as u64),
    };
    let all: Vec<Branch> = lines.into_iter().enumerate().map(|(k, ids)| branch(k, ids)).collect();
    let c = Conversation::from_parts(messages, all, BranchId::main());
    braid_core::invariants::check_conversation(&c).map_err(|v| v.to_string())?;
    Ok(c)
}

/// A write_file round on notes.txt at the end of main and of `b2`.
fn with_conflict(mut c: Conversation, n: u64, now: Timestamp) -> Result<Conversation, String> {
    use braid_protocol::{Approval, ToolCall, ToolResultStatus};
    let round = |id: u64, who: &str| {
        let call = ToolCall {
            id: format!("write-{who}").into(),
            name: "write_file".into(),
            arguments: format!("{{\"path\":\"notes.txt\",\"content\":\"{who} wrote this\"}}"),
            approval: Approval::Approved,
        };
        let result = MessageType::ToolResult {
            request_id: format!("write-{who}").into(),
            status: ToolResultStatus::Success,
            output: format!("created notes.txt ({who})"),
            error: None,
            recoverable: false,
            duration_ms: 1,
            finished_at: now,
        };
        [
            Message::new(
                MessageId(id),
                Timestamp(now.0 + id),
                MessageType::ToolRequest { text: None, calls: vec![call] },
            ),
            Message::new(MessageId(id + 1), Timestamp(now.0 + id + 1), result),
        ]
    };
    let mut branches: Vec<Branch> = c.branches().cloned().collect();
    let side = BranchId("b2".into());
    if !branches.iter().any(|b| b.id == side) {
        return Err("a conflict needs two branches".into());
    }
    let mut messages: Vec<Message> = c.pool().cloned().collect();
    for (b, first, who) in [(BranchId::main(), n + 1, "main"), (side, n + 3, "idea")] {
        let added = round(first, who);
        if let Some(branch) = branches.iter_mut().find(|x| x.id == b) {
            branch.message_ids.extend(added.iter().map(|m| m.id));
        }
        messages.extend(added);
    }
    c = Conversation::from_parts(messages, branches, BranchId::main());
    braid_core::invariants::check_conversation(&c).map_err(|v| v.to_string())?;
    Ok(c)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(db), Some(n)) = (args.first(), args.get(1).and_then(|n| n.parse::<u64>().ok())) else {
        eprintln!("usage: seed DB N [TITLE] [BRANCHES] [conflict|markdown|leftout]");
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
        pinned: false,
    };
    let mut state = ContextState::new(meta.id.clone());
    let branches = args.get(3).and_then(|b| b.parse::<u64>().ok()).unwrap_or(1).max(1);
    let conflict = args.get(4).is_some_and(|a| a == "conflict");
    let kind = match args.get(4).map(String::as_str) {
        Some("markdown") => Kind::Markdown,
        Some("leftout") => Kind::LeftOut,
        _ => Kind::Plain,
    };
    let conversation =
        match build(n, branches, now, kind).and_then(|c| if conflict { with_conflict(c, n, now) } else { Ok(c) }) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("seed: {e}");
                return ExitCode::FAILURE;
            }
        };
    state.next_message_id = n + 1 + if conflict { 4 } else { 0 };
    state.next_branch_id = branches + 1;
    let stored = Store::open(std::path::Path::new(db)).and_then(|mut s| s.create_context(&meta, &state, &conversation));
    match stored {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("seed: {e}");
            ExitCode::FAILURE
        }
    }
}
