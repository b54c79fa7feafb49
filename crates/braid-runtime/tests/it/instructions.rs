//! The project's instructions file reaches the model: `AGENTS.md` (else
//! `BRAID.md`, else `CLAUDE.md`) at the conversation folder's root, read
//! for every request so an edit counts from the next one; a link that
//! leads out of the folder is not followed.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_llm::fake::FakeProvider;
use braid_protocol::{ContextId, NewMessage};
use braid_runtime::Runtime;
use braid_testkit::harness::open_in;
use braid_testkit::harness::Watch;
use std::sync::Arc;
use std::time::Duration;

async fn say(rt: &Runtime, id: &ContextId, text: &str) {
    let mut watch = Watch::new(rt, id).await;
    rt.send_message(id, NewMessage::user_text(text), false).await.unwrap();
    watch.until("busy", |s| s.is_busy()).await;
    watch.settled().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_instructions_file_at_the_folders_root_is_read_for_every_request() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir(&project).unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open_in(dir.path(), fake.clone(), |_| {});
    let id = rt.create_context(None, Some(project.display().to_string())).await.unwrap().id;
    let system = |i: usize| fake.requests()[i].system.clone().unwrap_or_default();

    say(&rt, &id, "hello").await;
    assert!(!system(0).contains("instructions"), "no file, no section: {:?}", system(0));

    std::fs::write(project.join("CLAUDE.md"), "Use British spelling.\n").unwrap();
    say(&rt, &id, "one").await;
    assert!(
        system(1).contains("The project's instructions, from CLAUDE.md in that folder:\nUse British spelling."),
        "{}",
        system(1)
    );

    // AGENTS.md comes first; an edit counts from the next request.
    std::fs::write(project.join("AGENTS.md"), "Run the tests first.\n").unwrap();
    say(&rt, &id, "two").await;
    std::fs::write(project.join("AGENTS.md"), "Run the tests first, then lint.\n").unwrap();
    say(&rt, &id, "three").await;
    assert!(
        system(2).contains("from AGENTS.md in that folder:\nRun the tests first.") && !system(2).contains("British")
    );
    assert!(system(3).contains("Run the tests first, then lint."), "{}", system(3));

    // A link out of the folder is not followed: the next file is read.
    let outside = dir.path().join("secret.md");
    std::fs::write(&outside, "the secret\n").unwrap();
    std::fs::remove_file(project.join("AGENTS.md")).unwrap();
    std::os::unix::fs::symlink(&outside, project.join("AGENTS.md")).unwrap();
    say(&rt, &id, "four").await;
    assert!(!system(4).contains("the secret") && system(4).contains("from CLAUDE.md"), "{}", system(4));

    // Too long: cut, and the model is told.
    std::fs::remove_file(project.join("AGENTS.md")).unwrap();
    std::fs::write(project.join("AGENTS.md"), "x".repeat(40 * 1024)).unwrap();
    say(&rt, &id, "five").await;
    let cut = system(5);
    assert!(
        cut.contains(&format!("{}\n[cut: the file is longer than Braid sends]", "x".repeat(64))),
        "a cut file says so"
    );
    assert!(!cut.contains(&"x".repeat(32 * 1024 + 1)), "at most 32 KB of it");
    rt.shutdown().await;
}

/// Settings → Your instructions: what the user tells every conversation
/// goes after the base prompt of every request, from the next one on,
/// in conversations already there too; main's own prompt is the
/// conversation's, so a fork made later keeps it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn standing_instructions_and_the_conversations_prompt_reach_every_request() {
    use braid_protocol::{BranchId, Command, StandingInstructions};
    let dir = tempfile::tempdir().unwrap();
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open_in(dir.path(), fake.clone(), |_| {});
    let id = rt.create_context(None, None).await.unwrap().id;
    let system = |i: usize| fake.requests()[i].system.clone().unwrap_or_default();
    say(&rt, &id, "hello").await;
    assert!(!system(0).contains("developer says"), "{}", system(0));

    let mine = StandingInstructions { about_me: "I write Rust.".into(), how_to_answer: "Be brief.".into() };
    let too_long = StandingInstructions { about_me: "x".repeat(3_001), ..mine.clone() };
    let refused = rt.execute(Command::SetStandingInstructions { instructions: too_long }).await.unwrap_err();
    assert!(refused.message.contains("3001 characters"), "{}", refused.message);
    rt.execute(Command::SetStandingInstructions { instructions: mine }).await.unwrap();
    say(&rt, &id, "one").await;
    let told = system(1);
    let base = told.find("You are the assistant in Braid").unwrap();
    let about = told.find("What the developer says about themselves:\nI write Rust.").expect(&told);
    assert!(base < about && told.contains("How the developer wants answers:\nBe brief."), "{told}");

    // The conversation's prompt, set on main with one branch, replaces the
    // base prompt; a fork made afterwards answers with it too.
    let prompt = |b: &str, p: &str| Command::SetBranchPrompt {
        context_id: id.clone(),
        branch_id: BranchId(b.into()),
        system_prompt: Some(p.into()),
    };
    rt.execute(prompt("main", "You are a pirate.")).await.unwrap();
    say(&rt, &id, "two").await;
    assert!(system(2).starts_with("You are a pirate.") && system(2).contains("I write Rust."), "{}", system(2));
    let last = rt.load_context(&id).await.unwrap().messages.last().unwrap().id;
    let fork = rt.create_branch(&id, last, "fork".into(), None).await.unwrap();
    rt.switch_branch(&id, fork).await.unwrap();
    say(&rt, &id, "three").await;
    assert!(system(3).starts_with("You are a pirate."), "{}", system(3));
}
