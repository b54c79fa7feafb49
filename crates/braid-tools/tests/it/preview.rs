//! What a pending write would change, as the approval dialog shows it: a
//! diff against the file on disk, a new file said to be one, and why an
//! edit would be refused; nothing is written.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use crate::support;
use braid_protocol::{Approval, ToolCall};
use braid_tools::preview::preview;
use serde_json::json;
use support::ws;

fn call(name: &str, args: serde_json::Value) -> ToolCall {
    ToolCall { id: "c".into(), name: name.into(), arguments: args.to_string(), approval: Approval::Pending }
}

#[test]
fn writes_and_edits_are_shown_as_diffs_and_nothing_is_written() {
    let w = ws();
    w.file("src/lib.rs", "fn a() {}\nfn b() {}\nfn c() {}\n");
    let edit = preview(
        &call("edit_file", json!({"path":"src/lib.rs","old_string":"fn b() {}","new_string":"fn bee() {}"})),
        w.root(),
    )
    .unwrap();
    assert_eq!((edit.path.as_str(), edit.new_file, edit.problem.as_deref()), ("src/lib.rs", false, None));
    assert!(edit.diff.contains("@@ -1,3 +1,3 @@\n fn a() {}\n-fn b() {}\n+fn bee() {}\n fn c() {}\n"), "{}", edit.diff);
    let new = preview(&call("write_file", json!({"path":"docs/new.md","content":"# New\n"})), w.root()).unwrap();
    assert!(new.new_file && new.diff.contains("+# New\n"), "{new:?}");
    assert_eq!(std::fs::read_to_string(w.root().join("src/lib.rs")).unwrap(), "fn a() {}\nfn b() {}\nfn c() {}\n");
    assert!(!w.root().join("docs/new.md").exists());
}

#[test]
fn an_edit_the_tool_would_refuse_says_why() {
    let w = ws();
    w.file("a.txt", "x\nx\n");
    let twice =
        preview(&call("edit_file", json!({"path":"a.txt","old_string":"x","new_string":"y"})), w.root()).unwrap();
    assert_eq!(twice.problem.as_deref(), Some("old_string occurs 2 times; the tool will refuse"));
    let missing =
        preview(&call("edit_file", json!({"path":"a.txt","old_string":"z","new_string":"y"})), w.root()).unwrap();
    assert_eq!(missing.problem.as_deref(), Some("old_string is not in the file; the tool will refuse"));
    let absent =
        preview(&call("edit_file", json!({"path":"b.txt","old_string":"z","new_string":"y"})), w.root()).unwrap();
    assert_eq!(absent.problem.as_deref(), Some("the file does not exist"));
    assert!(preview(&call("read_file", json!({"path":"a.txt"})), w.root()).is_none(), "only writes");
    assert!(
        preview(&call("write_file", json!({"path":"../out.txt","content":""})), w.root()).is_none(),
        "outside: the tool says"
    );
}
