//! Fitting conversations into a budget: properties over random
//! conversations, strategies and budgets, and each strategy's choices.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::optimize::{select, Budget, Selection};
use braid_protocol::{
    Approval, ContextStrategy, Message, MessageId, MessageType, Role, Timestamp, ToolCall, ToolResultStatus,
};
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Spec {
    User(u32),
    Assistant(u32),
    /// A tool request with `calls` calls, each followed by its result.
    Tools {
        calls: u8,
        tokens: u32,
    },
    FileRef(u32),
}

fn build(specs: &[Spec]) -> Vec<(Message, u32)> {
    let mut out = Vec::new();
    let mut id = 0u64;
    let mut next = |body: MessageType, tokens: u32, out: &mut Vec<(Message, u32)>| {
        id += 1;
        out.push((Message::new(MessageId(id), Timestamp(0), body), tokens));
    };
    for (i, s) in specs.iter().enumerate() {
        match s {
            Spec::User(t) => next(MessageType::text(Role::User, format!("q{i}")), *t, &mut out),
            Spec::Assistant(t) => next(MessageType::text(Role::Assistant, format!("a{i}")), *t, &mut out),
            Spec::FileRef(t) => next(
                MessageType::FileReference {
                    path: format!("f{i}"),
                    range: None,
                    content: None,
                    status: Default::default(),
                    error: None,
                },
                *t,
                &mut out,
            ),
            Spec::Tools { calls, tokens } => {
                let calls: Vec<ToolCall> = (0..*calls)
                    .map(|c| ToolCall {
                        id: format!("c{i}_{c}").into(),
                        name: "read_file".into(),
                        arguments: "{}".into(),
                        approval: Approval::Approved,
                    })
                    .collect();
                let ids: Vec<braid_protocol::CallId> = calls.iter().map(|c| c.id.clone()).collect();
                next(MessageType::ToolRequest { text: None, calls }, *tokens, &mut out);
                for c in ids {
                    let result = MessageType::ToolResult {
                        request_id: c,
                        status: ToolResultStatus::Success,
                        output: "x".into(),
                        error: None,
                        recoverable: false,
                        duration_ms: 0,
                        finished_at: Timestamp(0),
                    };
                    next(result, *tokens, &mut out);
                }
            }
        }
    }
    out
}

fn spec() -> impl Strategy<Value = Spec> {
    prop_oneof![
        3 => (1u32..400).prop_map(Spec::User),
        3 => (1u32..600).prop_map(Spec::Assistant),
        2 => (1u8..4, 1u32..300).prop_map(|(calls, tokens)| Spec::Tools { calls, tokens }),
        1 => (1u32..500).prop_map(Spec::FileRef),
    ]
}

fn strategy() -> impl Strategy<Value = ContextStrategy> {
    prop_oneof![
        (1u32..12).prop_map(|n| ContextStrategy::RecentN { n }),
        (1u32..12).prop_map(|keep_last| ContextStrategy::Intelligent { keep_last }),
        (1u32..12).prop_map(|keep_last| ContextStrategy::ImportanceScoring { keep_last }),
    ]
}

fn keep_last(s: ContextStrategy) -> u32 {
    match s {
        ContextStrategy::RecentN { n } => n,
        ContextStrategy::Intelligent { keep_last } | ContextStrategy::ImportanceScoring { keep_last } => keep_last,
    }
}

/// Ids of the results whose call is not in `keep`, and of calls whose
/// results are not all in `keep`.
fn split_pairs(all: &[(Message, u32)], keep: &[MessageId]) -> Vec<MessageId> {
    let kept = |id: MessageId| keep.contains(&id);
    let mut bad = Vec::new();
    for (m, _) in all {
        if let MessageType::ToolRequest { calls, .. } = &m.body {
            for c in calls {
                let result = all.iter().find(
                    |(r, _)| matches!(&r.body, MessageType::ToolResult { request_id, .. } if *request_id == c.id),
                );
                if let Some((r, _)) = result {
                    if kept(m.id) != kept(r.id) {
                        bad.push(r.id);
                    }
                }
            }
        }
    }
    bad
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    #[test]
    fn within_budget_keeping_the_tail_and_tool_pairs(specs in proptest::collection::vec(spec(), 1..40), strat in strategy(), extra in 0u32..5_000) {
        let all = build(&specs);
        let before: Vec<Message> = all.iter().map(|(m, _)| m.clone()).collect();
        let refs: Vec<(&Message, u32)> = all.iter().map(|(m, t)| (m, *t)).collect();
        // A budget that holds the last N messages (whole units), plus extra.
        let n = keep_last(strat) as usize;
        let mut tail_tokens = 0;
        let mut counted = 0;
        let mut i = all.len();
        while i > 0 && counted < n {
            i -= 1;
            tail_tokens += all[i].1;
            counted += 1;
        }
        // Extend to the start of a tool unit so the tail is whole.
        while i > 0 && matches!(all[i].0.body, MessageType::ToolResult { .. }) {
            i -= 1;
            tail_tokens += all[i].1;
        }
        // And to its question, for an answer.
        if i > 0 && is(&all[i].0, Role::Assistant) && is(&all[i - 1].0, Role::User) {
            i -= 1;
            tail_tokens += all[i].1;
        }
        let available = tail_tokens + extra;
        let Selection { keep, dropped, tokens } = select(&refs, strat, available).unwrap();
        // Never over the budget, and the sum is what was kept.
        prop_assert!(tokens <= available);
        let sum: u32 = all.iter().filter(|(m, _)| keep.contains(&m.id)).map(|(_, t)| *t).sum();
        prop_assert_eq!(sum, tokens);
        // The last N messages are there, from the first that may open a
        // request (an answer or a tool round before it is left out).
        let opens = all[i..].iter().position(|(m, _)| opens_turn(m)).map_or(all.len(), |p| i + p);
        for (m, _) in &all[opens..] {
            prop_assert!(keep.contains(&m.id), "message {} of the tail was dropped", m.id);
        }
        // A request never starts with the assistant when it can start with
        // a question, and an answer is never sent without its question.
        let first = all.iter().find(|(m, _)| keep.contains(&m.id)).map(|(m, _)| m);
        if keep.iter().any(|k| all.iter().any(|(m, _)| m.id == *k && opens_turn(m))) {
            prop_assert!(first.is_some_and(opens_turn), "the request starts with {:?}", first.map(|m| m.id));
        }
        for w in all.windows(2) {
            if is(&w[0].0, Role::User) && is(&w[1].0, Role::Assistant) {
                prop_assert_eq!(keep.contains(&w[0].0.id), keep.contains(&w[1].0.id), "question and answer split");
            }
        }
        // Never a result without its call, or a call without its results.
        prop_assert!(split_pairs(&all, &keep).is_empty());
        // In order, every message either kept or dropped, once.
        let mut sorted = keep.clone();
        sorted.sort();
        prop_assert_eq!(&sorted, &keep);
        prop_assert_eq!(keep.len() + dropped.len(), all.len());
        // Nothing stored was touched.
        prop_assert_eq!(before, all.iter().map(|(m, _)| m.clone()).collect::<Vec<_>>());
    }
}

fn is(m: &Message, role: Role) -> bool {
    matches!(&m.body, MessageType::Text { role: r, .. } if *r == role)
}

fn opens_turn(m: &Message) -> bool {
    !is(m, Role::Assistant) && !matches!(m.body, MessageType::ToolRequest { .. } | MessageType::ToolResult { .. })
}

fn ids(sel: &Selection) -> Vec<u64> {
    sel.keep.iter().map(|i| i.0).collect()
}

#[test]
fn recent_n_sends_only_the_last_messages() {
    let all = build(&[Spec::User(10), Spec::Assistant(10), Spec::User(10), Spec::Assistant(10), Spec::User(10)]);
    let refs: Vec<(&Message, u32)> = all.iter().map(|(m, t)| (m, *t)).collect();
    assert_eq!(ids(&select(&refs, ContextStrategy::RecentN { n: 3 }, 1_000).unwrap()), [3, 4, 5]);
    assert_eq!(
        ids(&select(&refs, ContextStrategy::RecentN { n: 3 }, 25).unwrap()),
        [5],
        "the budget wins, newest kept; answer 4 does not go without its question 3"
    );
}

#[test]
fn a_long_question_that_no_longer_fits_takes_its_answer_with_it() {
    // 1 a long question, 2 its answer, 3 a new question.
    let all = build(&[Spec::User(3_000), Spec::Assistant(200), Spec::User(100)]);
    let refs: Vec<(&Message, u32)> = all.iter().map(|(m, t)| (m, *t)).collect();
    for strategy in [ContextStrategy::Intelligent { keep_last: 1 }, ContextStrategy::ImportanceScoring { keep_last: 1 }]
    {
        let sel = select(&refs, strategy, 1_000).unwrap();
        assert_eq!(ids(&sel), [3], "{strategy:?}: never an answer to a question the model does not see");
    }
    // A tool round before the first question that fits is left out too.
    let all = build(&[Spec::User(3_000), Spec::Tools { calls: 1, tokens: 50 }, Spec::Assistant(50), Spec::User(100)]);
    let refs: Vec<(&Message, u32)> = all.iter().map(|(m, t)| (m, *t)).collect();
    let sel = select(&refs, ContextStrategy::Intelligent { keep_last: 4 }, 1_000).unwrap();
    assert_eq!(ids(&sel), [5], "the request starts with a question");
}

#[test]
fn intelligent_drops_older_tool_results_before_older_text() {
    // 1 user, 2 tool request + 3 result, 4 assistant, 5 file ref, 6 user, 7 assistant, 8 user (tail = 2)
    let all = build(&[
        Spec::User(100),
        Spec::Tools { calls: 1, tokens: 100 },
        Spec::Assistant(100),
        Spec::FileRef(100),
        Spec::User(100),
        Spec::Assistant(50),
        Spec::User(50),
    ]);
    let refs: Vec<(&Message, u32)> = all.iter().map(|(m, t)| (m, *t)).collect();
    let sel = select(&refs, ContextStrategy::Intelligent { keep_last: 2 }, 450).unwrap();
    // Tail 7+8 (100), then the file reference (100), then user text 6 (100),
    // then user 1 (100); the assistant 4 does not fit, the tools go first.
    assert_eq!(ids(&sel), [1, 5, 6, 7, 8]);
    assert!(sel.dropped.contains(&MessageId(2)) && sel.dropped.contains(&MessageId(3)), "the tool pair went together");
}

#[test]
fn importance_scoring_prefers_recent_small_and_referenced_messages() {
    let all = build(&[Spec::Assistant(400), Spec::User(40), Spec::Assistant(40), Spec::User(20)]);
    let refs: Vec<(&Message, u32)> = all.iter().map(|(m, t)| (m, *t)).collect();
    let sel = select(&refs, ContextStrategy::ImportanceScoring { keep_last: 1 }, 120).unwrap();
    assert_eq!(ids(&sel), [2, 3, 4], "the big old answer is the one left out");
}

#[test]
fn a_newest_message_larger_than_the_window_is_an_error() {
    let all = build(&[Spec::User(10), Spec::User(5_000)]);
    let refs: Vec<(&Message, u32)> = all.iter().map(|(m, t)| (m, *t)).collect();
    let e = select(&refs, ContextStrategy::default(), 4_000).unwrap_err();
    assert_eq!((e.needed, e.available), (5_000, 4_000));
    let b = Budget { window: 4_096, reserved_output: 1_024, system: 100, tools: 400 };
    assert_eq!(b.for_messages(), 2_572);
}
