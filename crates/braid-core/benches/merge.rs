//! `cargo bench -p braid-core --bench merge`: the preview of merging a
//! branch of 1,000 messages into another of 1,000 (goal: under 10 ms,
//! docs/PERFORMANCE.md), for append (duplicates checked by content) and
//! cherry-pick (dependencies checked) with a write round every ten turns.

use braid_core::merge::plan;
use braid_core::tokens::TokenEncoding;
use braid_core::{Branch, Conversation};
use braid_protocol::{
    Approval, BranchId, MergeOptions, MergeStrategy, Message, MessageId, MessageType, Role, Timestamp, ToolCall,
    ToolResultStatus,
};
use criterion::{criterion_group, criterion_main, Criterion};

/// 1,000 messages of one branch, ids from `first`: turns of a question
/// and an answer, with a write_file round every tenth turn.
fn line(first: u64, side: &str) -> Vec<Message> {
    let mut out = Vec::new();
    let mut id = first;
    let mut push = |body: MessageType, out: &mut Vec<Message>| {
        out.push(Message::new(MessageId(id), Timestamp(id), body));
        id += 1;
    };
    let mut turn = 0;
    while out.len() < 1_000 {
        turn += 1;
        push(MessageType::text(Role::User, format!("{side} question {turn}: what does this do?")), &mut out);
        if turn % 10 == 0 {
            let call = ToolCall {
                id: format!("{side}{turn}").into(),
                name: "write_file".into(),
                arguments: format!("{{\"path\":\"src/{}.rs\",\"content\":\"{side}\"}}", turn % 7),
                approval: Approval::Approved,
            };
            push(MessageType::ToolRequest { text: None, calls: vec![call] }, &mut out);
            let result = MessageType::ToolResult {
                request_id: format!("{side}{turn}").into(),
                status: ToolResultStatus::Success,
                output: "written".into(),
                error: None,
                recoverable: false,
                duration_ms: 1,
                finished_at: Timestamp(0),
            };
            push(result, &mut out);
        }
        push(
            MessageType::text(
                Role::Assistant,
                format!("{side} answer {turn}: it reads the file and parses it line by line."),
            ),
            &mut out,
        );
    }
    out.truncate(1_000);
    out
}

fn conversation() -> Conversation {
    let (main, side) = (line(1, "main"), line(10_000, "side"));
    let branch = |id: &str, ids: Vec<MessageId>| Branch {
        id: BranchId(id.into()),
        name: id.into(),
        parent: None,
        fork_point: None,
        message_ids: ids,
        system_prompt: None,
        pipeline: None,
        model: None,
        folder: None,
        created_at: Timestamp(0),
    };
    let b =
        vec![branch("main", main.iter().map(|m| m.id).collect()), branch("b2", side.iter().map(|m| m.id).collect())];
    Conversation::from_parts(main.into_iter().chain(side).collect(), b, BranchId::main())
}

fn bench(c: &mut Criterion) {
    let conv = conversation();
    let mut o = MergeOptions::new(BranchId("b2".into()), MergeStrategy::Append);
    c.bench_function("merge: preview append, 2 x 1,000 messages", |b| {
        b.iter(|| plan(&conv, &o, TokenEncoding::O200k).map(|p| p.preview.items.len()))
    });
    let side: Vec<MessageId> = conv.branch(&BranchId("b2".into())).map(|b| b.message_ids.clone()).unwrap_or_default();
    o.strategy = MergeStrategy::CherryPick;
    o.picks = side.iter().step_by(3).copied().collect();
    c.bench_function("merge: preview cherry-pick of 334, 2 x 1,000 messages", |b| {
        b.iter(|| plan(&conv, &o, TokenEncoding::O200k).map(|p| p.preview.dependencies.len()))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
