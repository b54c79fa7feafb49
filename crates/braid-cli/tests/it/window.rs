//! `/context` and `/compact` in the terminal chat: the next request by
//! part, and a summary refused with the reason when there is nothing to
//! summarise (the summary itself is tested in the runtime's suite).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

#[test]
fn slash_context_shows_the_parts_and_slash_compact_says_why_not() {
    let dir = tempfile::tempdir().unwrap();
    let stderr = crate::chat_in(dir.path(), "/context\n/compact keep the numbers\n/quit");
    let total = stderr.lines().find(|l| l.contains(" tokens (") && l.contains("kept for the answer"));
    assert!(total.is_some(), "{stderr}");
    assert!(stderr.contains("base prompt") && stderr.contains("summaries start at 92 %"), "{stderr}");
    assert!(stderr.contains("[error] invalid_input: there is nothing to summarise yet"), "{stderr}");
}
