//! Sub-agents in copies of the workspace, through the runtime with real
//! commands in the sandbox: parallel children that edit the same file
//! never write over each other — each works in its own copy, and what it
//! changed is merged back three-way when it submits (lines both changed
//! kept between conflict markers); the parent's turn holds what came
//! back, and a rewind takes it back byte for byte. In a git repository
//! the copy is a worktree that starts from the working changes, and is
//! gone from the repository afterwards. A child cancelled keeps a copy
//! that holds changes, and leaves none that holds nothing.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use super::subagents::{agents_until, open, spawn, spawn_result, started};
use braid_protocol::{ContextStatus, StatusKind, ToolResultStatus};
use braid_testkit::harness::{eventually, Watch};
use serde_json::json;
use std::path::{Path, PathBuf};

const NOTES: &str = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n";

fn edit(name: &str, from: &str, to: &str) -> serde_json::Value {
    json!({ "name": name, "instructions": format!("RUN sed -i 's/^{from}$/{to}/' notes.txt") })
}

/// The copies the parent's children worked in.
async fn copies(rt: &braid_runtime::Runtime, parent: &braid_protocol::ContextId) -> Vec<String> {
    rt.children(parent).await.unwrap().into_iter().filter_map(|c| c.child.workspace).collect()
}

/// Braid's data folder and the workspace, side by side (copies go beside
/// the data folder, never in it or in the workspace).
fn folders() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let base = tempfile::tempdir().unwrap();
    let (data, work) = (base.path().join("data"), base.path().join("work"));
    std::fs::create_dir_all(&data).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    (base, data, work)
}

fn entries(dir: &Path) -> usize {
    std::fs::read_dir(dir).map(|d| d.count()).unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parallel_children_editing_one_file_lose_no_write() {
    let (_base, data, work) = folders();
    std::fs::write(work.join("notes.txt"), NOTES).unwrap();
    let rt = open(&data, |c| {
        c.default_working_dir = work.clone();
        c.sub_agents.concurrency = 3;
    });
    let parent = rt.create_context(None, None).await.unwrap().id;
    let mut watch = Watch::new(&rt, &parent).await;
    let tasks =
        json!([edit("early", "two", "two by A"), edit("late", "nine", "nine by B"), edit("rival", "two", "two by C"),]);
    rt.send_message(&parent, spawn(tasks), false).await.unwrap();
    watch.state(StatusKind::AwaitingSubAgents).await;
    assert_eq!(watch.settled().await, ContextStatus::Idle);

    // Every child's line is there; the two that changed the same line
    // are both kept, between markers.
    let notes = std::fs::read_to_string(work.join("notes.txt")).unwrap();
    let (status, output) = spawn_result(&rt.load_context(&parent).await.unwrap());
    for line in ["two by A", "nine by B", "two by C", "<<<<<<<", ">>>>>>>"] {
        assert!(notes.contains(line), "{line:?} in:\n{notes}\n{output}");
    }
    assert_eq!(status, ToolResultStatus::Success);
    let said = |what: &str| output.matches(what).count();
    assert_eq!(said("It worked in a copy of the workspace of its own, merged back into this one: notes.txt"), 3);
    assert_eq!(
        said("written with both sides between conflict markers: notes.txt"),
        1,
        "the second of early and rival to come back meets the first: {output}"
    );
    let folders = copies(&rt, &parent).await;
    assert_eq!(folders.len(), 3, "each child worked in its own copy");
    // Each child keeps what came back of its copy, for the parent's card.
    let returned = || async {
        let children = rt.children(&parent).await.unwrap();
        children.into_iter().filter_map(|c| c.returned).collect::<Vec<_>>()
    };
    assert!(eventually(|| async { returned().await.len() == 3 }).await, "each child keeps its copy's return");
    let returned = returned().await;
    assert!(returned.iter().all(|r| r.merged == ["notes.txt"] && r.kept.is_empty()), "{returned:?}");
    assert_eq!(returned.iter().filter(|r| r.conflicts == ["notes.txt"]).count(), 1, "{returned:?}");
    for folder in &folders {
        assert!(!Path::new(folder).starts_with(&data), "a copy is never in Braid's data folder");
        assert!(!Path::new(folder).exists(), "merged back whole, the copy is removed: {folder}");
    }

    // What came back is the parent turn's change: reviewed and rewound.
    let turns = rt.changed_turns(&parent).await.unwrap();
    assert_eq!(turns.len(), 1, "{turns:?}");
    let review = rt.turn_changes(&parent, turns[0].question).await.unwrap();
    assert_eq!(review.files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(), ["notes.txt"]);
    rt.rewind_files(&parent, turns[0].question, Vec::new()).await.unwrap();
    assert_eq!(std::fs::read_to_string(work.join("notes.txt")).unwrap(), NOTES, "back byte for byte");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_git_repository_the_copy_is_a_worktree_of_the_working_changes() {
    let (base, data, work) = folders();
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git").arg("-C").arg(&work).args(args).output().unwrap();
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    git(&["init", "-q"]);
    std::fs::write(work.join("notes.txt"), NOTES).unwrap();
    git(&["add", "."]);
    git(&["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "first"]);
    // Not committed: the copy starts from it all the same.
    std::fs::write(work.join("notes.txt"), NOTES.replace("five", "five, uncommitted")).unwrap();
    std::fs::write(work.join("draft.txt"), "untracked\n").unwrap();
    let rt = open(&data, |c| c.default_working_dir = work.clone());
    let parent = rt.create_context(None, None).await.unwrap().id;
    let mut watch = Watch::new(&rt, &parent).await;
    let task = json!({
        "name": "worker",
        "instructions": "RUN cat draft.txt && sed -i 's/^five, uncommitted$/five, done/' notes.txt",
        "isolated": true,
    });
    rt.send_message(&parent, spawn(json!([task])), false).await.unwrap();
    watch.state(StatusKind::AwaitingSubAgents).await;
    assert_eq!(watch.settled().await, ContextStatus::Idle);

    let (_, output) = spawn_result(&rt.load_context(&parent).await.unwrap());
    assert!(output.contains("stdout:\nuntracked"), "the untracked file was there: {output}");
    assert!(
        output.contains("It worked in a git worktree of its own, merged back into this one: notes.txt"),
        "{output}"
    );
    let notes = std::fs::read_to_string(work.join("notes.txt")).unwrap();
    assert_eq!(notes, NOTES.replace("five", "five, done"), "the child's edit, on the working change");
    assert_eq!(git(&["worktree", "list"]).lines().count(), 1, "the worktree is gone from the repository");
    assert_eq!(entries(&base.path().join("data-copies")), 0, "and from the disk");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_child_keeps_a_copy_with_changes_and_leaves_none_without() {
    let (_base, data, work) = folders();
    let rt = open(&data, |c| c.default_working_dir = work.clone());
    let parent = rt.create_context(None, None).await.unwrap().id;
    let tasks = json!([
        { "name": "writer", "instructions": "RUN echo made > made.txt; exec sleep 30" },
        { "name": "sleeper", "instructions": "RUN exec sleep 30" },
    ]);
    rt.send_message(&parent, spawn(tasks), false).await.unwrap();
    let view = agents_until(&rt, &parent, |v| started(v).len() == 2).await;
    for child in started(&view) {
        Watch::new(&rt, &child).await.state(StatusKind::ExecutingTool).await;
    }
    let folders = copies(&rt, &parent).await;
    let children = rt.children(&parent).await.unwrap();
    let folder_of = |name: &str| {
        let child = children.iter().find(|c| c.child.name == name).unwrap();
        std::path::PathBuf::from(child.child.workspace.clone().unwrap())
    };
    let (writer, sleeper) = (folder_of("writer"), folder_of("sleeper"));
    assert_eq!(folders.len(), 2);
    // Its content, not just the file: the shell creates it before echo writes.
    let made = || std::fs::read_to_string(writer.join("made.txt")).unwrap_or_default();
    assert!(eventually(|| async { made() == "made\n" }).await, "the writer wrote in its copy");

    let mut watch = Watch::new(&rt, &parent).await;
    rt.cancel(&parent).await.unwrap();
    assert_eq!(watch.settled().await, ContextStatus::Idle);
    assert!(eventually(|| async { !sleeper.exists() }).await, "a copy that holds nothing is removed");
    assert_eq!(made(), "made\n", "the writer's is kept");
    assert!(!work.join("made.txt").exists(), "and nothing of it came back");
}
