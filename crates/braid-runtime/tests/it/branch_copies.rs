//! A branch in its own copy of the workspace, through the runtime with the
//! scripted provider (the writes are forced) and the real tools: the copy
//! starts as the folder is; on the branch the tools work in the copy and
//! the folder stays as it was; main works in the folder meanwhile. The
//! branch is not deleted while its copy holds a change the folder lacks;
//! merged, its change lands in the folder three-way beside main's and the
//! copy goes. The copy outlives a restart; holding the user's own edit,
//! it is removed only when the user discards it, and stays on disk when
//! the conversation is deleted.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports
use super::merge_files::{edit, forked, open, read, write, BASE};
use braid_protocol::{BranchId, ConflictChoice, ContextId, MergeOptions, MergeStrategy, Resolution};
use braid_runtime::{Handlers, Runtime};
use std::path::Path;

async fn folder_of(rt: &Runtime, id: &ContextId, branch: &BranchId) -> Option<String> {
    let snapshot = rt.load_context(id).await.unwrap();
    snapshot.branches.into_iter().find(|b| &b.id == branch).unwrap().folder
}

#[tokio::test]
async fn a_branch_works_in_its_own_copy_and_its_merge_brings_the_files_back() {
    let (dir, fake, rt, id, idea) = forked().await;
    let refused = rt.isolate_branch(&id, BranchId::main()).await.unwrap_err().to_string();
    assert!(refused.contains("main works in the conversation's folder"), "{refused}");
    let copy = rt.isolate_branch(&id, idea.clone()).await.unwrap();
    let copy_dir = Path::new(&copy).to_owned();
    assert_eq!(read(&copy_dir, "notes.txt").unwrap(), BASE, "the copy starts as the folder is");
    assert!(!copy_dir.starts_with(dir.path()), "the copy is outside the folder (and Braid's data)");
    assert_eq!(folder_of(&rt, &id, &idea).await.as_deref(), Some(copy.as_str()));

    // On idea the tools work in its copy; the folder stays as it was.
    rt.switch_branch(&id, idea.clone()).await.unwrap();
    assert_eq!(rt.load_context(&id).await.unwrap().summary.working_dir, copy);
    let theirs = edit(&[("two", "two (idea)")]);
    write(&rt, &fake, &id, "idea's edit", "notes.txt", &theirs).await;
    assert_eq!(read(&copy_dir, "notes.txt").unwrap(), theirs);
    assert_eq!(read(dir.path(), "notes.txt").unwrap(), BASE, "the folder is untouched");

    // main works in the folder meanwhile.
    rt.switch_branch(&id, BranchId::main()).await.unwrap();
    let ours = edit(&[("nine", "NINE")]);
    write(&rt, &fake, &id, "main's edit", "notes.txt", &ours).await;
    assert_eq!(read(&copy_dir, "notes.txt").unwrap(), theirs, "and never in idea's copy");

    // Deleting idea would lose its change: refused, named.
    let refused = rt.delete_branch(id.clone(), idea.clone()).await.unwrap_err().to_string();
    assert!(refused.contains("holds changes the conversation's folder does not have: notes.txt"), "{refused}");
    assert!(copy_dir.exists());

    // Merged: both lines of work in the folder; the copy is gone.
    let mut options = MergeOptions::new(idea.clone(), MergeStrategy::Append);
    options.resolutions = vec![ConflictChoice { conflict: "file:notes.txt".into(), resolution: Resolution::KeepBoth }];
    rt.merge(&id, options).await.unwrap();
    assert_eq!(read(dir.path(), "notes.txt").unwrap(), edit(&[("two", "two (idea)"), ("nine", "NINE")]));
    assert!(!copy_dir.exists(), "everything of it is in the folder now");
    assert_eq!(folder_of(&rt, &id, &idea).await, None, "idea works in the folder again");
    rt.delete_branch(id.clone(), idea).await.unwrap();
}

#[tokio::test]
async fn a_copy_holding_the_users_edit_goes_only_when_the_user_discards_it() {
    let (dir, fake, rt, id, idea) = forked().await;
    let copy = rt.isolate_branch(&id, idea.clone()).await.unwrap();
    let refused = rt.isolate_branch(&id, idea.clone()).await.unwrap_err().to_string();
    assert!(refused.contains("works in its own copy already"), "{refused}");
    std::fs::write(Path::new(&copy).join("draft.txt"), "mine\n").unwrap();
    // The branch keeps its copy over a restart.
    drop(rt);
    let rt = open(dir.path(), fake.clone());
    assert_eq!(folder_of(&rt, &id, &idea).await.as_deref(), Some(copy.as_str()));

    let refused = rt.remove_branch_copy(&id, idea.clone(), false).await.unwrap_err().to_string();
    assert!(refused.contains("does not have: draft.txt"), "{refused}");
    assert!(Path::new(&copy).join("draft.txt").exists(), "nothing removed");
    rt.remove_branch_copy(&id, idea.clone(), true).await.unwrap();
    assert!(!Path::new(&copy).exists());
    assert_eq!(folder_of(&rt, &id, &idea).await, None);
    assert!(!dir.path().join("draft.txt").exists(), "the folder never had it");
}

#[tokio::test]
async fn deleting_the_conversation_takes_a_clean_copy_and_keeps_one_with_changes() {
    let (_dir, _fake, rt, id, idea) = forked().await;
    let clean = rt.isolate_branch(&id, idea).await.unwrap();
    let answer = rt.load_context(&id).await.unwrap().messages[1].id;
    let other = rt.create_branch(&id, answer, "other".into(), None).await.unwrap();
    let changed = rt.isolate_branch(&id, other).await.unwrap();
    std::fs::write(Path::new(&changed).join("draft.txt"), "mine\n").unwrap();
    rt.delete_context(&id).await.unwrap();
    assert!(!Path::new(&clean).exists(), "nothing of it was lost");
    assert!(Path::new(&changed).join("draft.txt").exists(), "the user's edit stays on disk");
}
