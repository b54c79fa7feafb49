//! A merge of 200 files killed with SIGKILL part way, a little later each
//! round: after the restart the merge is all there (its card, its
//! checkpoint and every file) or not at all (no card, no file written).
//! The merge runs in a child process — this test binary again — on the
//! folder and database the parent made.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports
use braid_llm::fake::FakeProvider;
use braid_protocol::{
    BranchId, ContextId, ControlKind, MergeOptions, MergeStrategy, MessageType, NewMessage, ToolApprovalPolicy,
};
use braid_runtime::Runtime;
use braid_testkit::harness::{limit, open_in, Watch};
use braid_testkit::script::{answer, calls};
use serde_json::json;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

const CHILD: &str = "BRAID_MERGE_KILLED_CHILD";
const FILES: usize = 200;

fn open(dir: &Path, fake: Arc<FakeProvider>) -> Runtime {
    open_in(dir, fake, |c| c.machine.tools.policy = ToolApprovalPolicy::AutoAll)
}

fn merged_files(dir: &Path) -> usize {
    (0..FILES)
        .filter(|i| std::fs::read_to_string(dir.join(format!("f{i}.txt"))).unwrap() == format!("{i}\nidea\n"))
        .count()
}

/// idea appends a line to each of 200 files; main keeps them as they
/// were. Returns the context and idea.
async fn two_lines(dir: &Path) -> (ContextId, BranchId) {
    for i in 0..FILES {
        std::fs::write(dir.join(format!("f{i}.txt")), format!("{i}\n")).unwrap();
    }
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    let rt = open(dir, fake.clone());
    let id = rt.create_context(None, None).await.unwrap().id;
    fake.push_reply(answer("Ready."));
    rt.send_message(&id, NewMessage::user_text("start"), false).await.unwrap();
    Watch::new(&rt, &id).await.settled().await;
    let answer_id = rt.load_context(&id).await.unwrap().messages[1].id;
    let idea = rt.create_branch(&id, answer_id, "idea".into(), None).await.unwrap();
    rt.switch_branch(&id, idea.clone()).await.unwrap();
    let command = format!("for i in $(seq 0 {}); do echo idea >> f$i.txt; done", FILES - 1);
    fake.push_reply(calls(&[("c", "run_command", json!({ "command": command }))]));
    fake.push_reply(answer("Done."));
    rt.send_message(&id, NewMessage::user_text("append to each"), false).await.unwrap();
    Watch::new(&rt, &id).await.settled().await;
    assert_eq!(merged_files(dir), FILES, "idea's command ran");
    rt.switch_branch(&id, BranchId::main()).await.unwrap();
    // One folder: main's files put back by hand (recorded as the user's).
    for i in 0..FILES {
        std::fs::write(dir.join(format!("f{i}.txt")), format!("{i}\n")).unwrap();
    }
    (id, idea)
}

async fn child(dir: &Path) {
    let text = std::fs::read_to_string(dir.join("ids")).unwrap();
    let (id, idea) = text.split_once(' ').unwrap();
    let rt = open(dir, Arc::new(FakeProvider::echo(Duration::ZERO)));
    let options = MergeOptions::new(BranchId(idea.to_owned()), MergeStrategy::Append);
    rt.merge(&ContextId(id.to_owned()), options).await.unwrap();
}

#[tokio::test]
async fn a_merge_of_200_files_killed_part_way_is_all_or_nothing_after_a_restart() {
    if let Ok(dir) = std::env::var(CHILD) {
        return child(Path::new(&dir)).await;
    }
    let (mut whole, mut none, mut cut) = (0, 0, 0);
    for round in 0..6u64 {
        let dir = tempfile::tempdir().unwrap();
        let (id, idea) = two_lines(dir.path()).await;
        std::fs::write(dir.path().join("ids"), format!("{} {}", id.0, idea.0)).unwrap();
        let mut child = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["merge_killed::", "--quiet"])
            .env(CHILD, dir.path())
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Kill once the merge is journaled, a little later each round; a
        // child that finished first is fine too.
        let journals = dir.path().join("checkpoints/journals");
        let journaled = || std::fs::read_dir(&journals).is_ok_and(|mut d| d.next().is_some());
        let deadline = Instant::now() + limit();
        while !journaled() && child.try_wait().unwrap().is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_micros(200));
        }
        std::thread::sleep(Duration::from_micros(round * 1500));
        let _ = child.kill();
        child.wait().unwrap();
        cut += usize::from(journaled());

        let rt = open(dir.path(), Arc::new(FakeProvider::echo(Duration::ZERO)));
        let snap = rt.load_context(&id).await.unwrap();
        let card = snap
            .messages
            .iter()
            .find(|m| matches!(&m.body, MessageType::SystemControl { control: ControlKind::Merge { .. } }));
        let merged = merged_files(dir.path());
        match card {
            Some(card) => {
                assert_eq!(merged, FILES, "round {round}: the card is stored, so every file is merged");
                let recorded = rt.checkpoints_of(&id).unwrap();
                let own = recorded.iter().find(|cp| cp.message_id == card.id).expect("the card's checkpoint");
                assert_eq!(own.changes.len(), FILES);
                whole += 1;
            }
            None => {
                assert_eq!(merged, 0, "round {round}: no card, so no file written");
                none += 1;
            }
        }
    }
    eprintln!("{whole} rounds merged whole, {none} not at all; {cut} cut short with the merge journaled");
}
