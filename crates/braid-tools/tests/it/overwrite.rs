//! No blind overwrites: a write over an existing file the agent has not
//! read, or over one changed outside Braid since it read it, is refused
//! with what to do; the user's "approve and overwrite" lets it through.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use crate::support;
use serde_json::json;
use support::{err, ok, ws};

#[tokio::test]
async fn an_existing_file_the_agent_never_read_is_not_overwritten() {
    let mut w = ws();
    w.ctx.freshness = Some(std::sync::Arc::default());
    w.file("notes.md", "the user's notes\n");
    let refused = w.call("write_file", json!({"path":"notes.md","content":"agent"})).await;
    assert!(
        err(&refused).contains("notes.md exists and you have not read it in this conversation: read it first"),
        "{refused:?}"
    );
    let refused = w.call("edit_file", json!({"path":"notes.md","old_string":"notes","new_string":"x"})).await;
    assert!(err(&refused).contains("read it first"));
    assert_eq!(std::fs::read_to_string(w.root().join("notes.md")).unwrap(), "the user's notes\n");
    // A new file needs no read, and the agent may then write it again.
    ok(&w.call("write_file", json!({"path":"new/plan.md","content":"v1\n"})).await);
    ok(&w.call("edit_file", json!({"path":"new/plan.md","old_string":"v1","new_string":"v2"})).await);
    assert_eq!(std::fs::read_to_string(w.root().join("new/plan.md")).unwrap(), "v2\n");
    // A read of part of the file is a read.
    ok(&w.call("read_file", json!({"path":"notes.md","start_line":1,"end_line":1})).await);
    ok(&w.call("edit_file", json!({"path":"notes.md","old_string":"notes","new_string":"plans"})).await);
}

#[tokio::test]
async fn the_user_may_approve_overwriting_a_file_the_agent_never_read() {
    let mut w = ws();
    w.ctx.freshness = Some(std::sync::Arc::default());
    w.file("notes.md", "v1\n");
    w.ctx.allow_overwrite = true;
    ok(&w.call("write_file", json!({"path":"notes.md","content":"agent\n"})).await);
    assert_eq!(std::fs::read_to_string(w.root().join("notes.md")).unwrap(), "agent\n");
}

#[tokio::test]
async fn a_file_deleted_and_created_again_with_the_same_size_and_time_is_changed() {
    let mut w = ws();
    w.ctx.freshness = Some(std::sync::Arc::default());
    w.file("a.txt", "AAAA\n");
    ok(&w.call("read_file", json!({"path":"a.txt"})).await);
    let path = w.root().join("a.txt");
    let mtime = std::fs::metadata(&path).unwrap().modified().unwrap();
    // `cp -p`-like: another file, the same size and mtime.
    std::fs::remove_file(&path).unwrap();
    std::fs::write(&path, "BBBB\n").unwrap();
    std::fs::File::options().write(true).open(&path).unwrap().set_modified(mtime).unwrap();
    let refused = w.call("write_file", json!({"path":"a.txt","content":"agent"})).await;
    assert!(err(&refused).contains("changed outside Braid since you last read it"), "{refused:?}");
}

#[tokio::test]
async fn a_file_changed_outside_since_the_agent_read_it_is_not_overwritten() {
    let mut w = ws();
    w.ctx.freshness = Some(std::sync::Arc::default());
    w.file("notes.md", "v1\n");
    ok(&w.call("read_file", json!({"path":"notes.md"})).await);
    // Someone edits the file in their editor.
    std::fs::write(w.root().join("notes.md"), "v1\nmine\n").unwrap();
    let refused = w.call("write_file", json!({"path":"notes.md","content":"agent"})).await;
    assert!(err(&refused).contains("changed outside Braid since you last read it (3 → 8 bytes)"), "{refused:?}");
    let refused = w.call("edit_file", json!({"path":"notes.md","old_string":"v1","new_string":"v2"})).await;
    assert!(err(&refused).contains("read it again"));
    assert_eq!(std::fs::read_to_string(w.root().join("notes.md")).unwrap(), "v1\nmine\n", "the user's edit survives");
    // After reading it again the agent may write; its own write is fresh.
    ok(&w.call("read_file", json!({"path":"notes.md"})).await);
    ok(&w.call("edit_file", json!({"path":"notes.md","old_string":"v1","new_string":"v2"})).await);
    ok(&w.call("edit_file", json!({"path":"notes.md","old_string":"mine","new_string":"ours"})).await);
    assert_eq!(std::fs::read_to_string(w.root().join("notes.md")).unwrap(), "v2\nours\n");
    // A touch without a change is not a change.
    std::fs::File::options()
        .write(true)
        .open(w.root().join("notes.md"))
        .unwrap()
        .set_modified(std::time::SystemTime::now() + std::time::Duration::from_secs(60))
        .unwrap();
    ok(&w.call("write_file", json!({"path":"notes.md","content":"v3\n"})).await);
}

#[tokio::test]
async fn the_user_may_approve_overwriting_a_file_changed_outside() {
    let mut w = ws();
    w.ctx.freshness = Some(std::sync::Arc::default());
    w.file("notes.md", "v1\n");
    ok(&w.call("read_file", json!({"path":"notes.md"})).await);
    std::fs::write(w.root().join("notes.md"), "v1 edited\n").unwrap();
    w.ctx.allow_overwrite = true;
    ok(&w.call("write_file", json!({"path":"notes.md","content":"agent\n"})).await);
    assert_eq!(std::fs::read_to_string(w.root().join("notes.md")).unwrap(), "agent\n");
}

#[tokio::test]
async fn a_write_reports_the_hash_its_freshness_record_holds() {
    let mut w = ws();
    let freshness: std::sync::Arc<std::sync::Mutex<braid_workspace::freshness::FileFreshness>> =
        std::sync::Arc::default();
    w.ctx.freshness = Some(freshness.clone());
    let path = w.root().join("a.txt");
    let recorded = || freshness.lock().unwrap().record_of(&path).map(|r| r.hash);
    let wrote = w.call("write_file", json!({"path":"a.txt","content":"one two\n"})).await;
    assert_eq!(wrote.written, recorded());
    assert_eq!(wrote.written, Some(braid_workspace::freshness::content_hash(b"one two\n")));
    let edited = w.call("edit_file", json!({"path":"a.txt","old_string":"two","new_string":"three"})).await;
    assert_eq!(edited.written, Some(braid_workspace::freshness::content_hash(b"one three\n")));
    assert_eq!(edited.written, recorded());
    let read = w.call("read_file", json!({"path":"a.txt"})).await;
    assert_eq!(read.written, None, "only writes say what they left");
    let refused = w.call("edit_file", json!({"path":"a.txt","old_string":"absent","new_string":"x"})).await;
    assert_eq!(refused.written, None);
}
