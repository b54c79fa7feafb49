//! The state line's wording: one table in Rust, filled here and (from the
//! generated copy) in the UI. The UI's describe.test.ts checks the same
//! cases, so a drift on either side fails a test.

use braid_protocol::{ContextStatus as S, FailureCode, Timestamp};

#[test]
fn states_are_described_from_the_one_wording_table() {
    let now = Timestamp(10_000);
    let cases = [
        (S::Idle, "Idle"),
        (S::StreamingLlmResponse { chunks: 1_234, chars: 56_789 }, "Streaming (1,234 chunks, 56,789 chars)"),
        (S::RetryingLlmRequest { attempt: 2, max: 3, retry_at: Timestamp(12_001) }, "Retrying in 3 s (2/3)"),
        (
            S::AwaitingToolApproval { pending_requests: vec!["a".into()], tool_names: vec!["x".into(), "y".into()] },
            "Awaiting approval: x, y",
        ),
        (
            S::ExecutingTool { tool_name: "run_command".into(), index: 1, total: 2, attempt: 1 },
            "Executing tool 1/2: run_command",
        ),
        (
            S::Failed { error_code: FailureCode::Auth, message: "check the API key".into(), recoverable: false },
            "Failed: check the API key",
        ),
    ];
    for (status, text) in cases {
        assert_eq!(status.describe(now), text);
    }
}
