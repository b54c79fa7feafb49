//! Merges with files, as a property, through the runtime with the
//! scripted provider and real tools on a real folder: random edits on a
//! fork and on main (some in the same places), random files added by the
//! fork, a merge by a random strategy with every overlap settled as the
//! source's. The workspace after the merge is the reference three-way
//! merge (each file: the base with both sides' edits, the source's where
//! both edited one place); the undo, after a restart, gives back the
//! exact bytes the folder held before the merge.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_llm::fake::FakeProvider;
use braid_protocol::{
    BranchId, ConflictChoice, ContextId, FileChoice, FileTake, MergeOptions, MergeStrategy, NewMessage, Resolution,
    ToolApprovalPolicy,
};
use braid_runtime::Runtime;
use braid_testkit::harness::{open_in, Watch};
use braid_testkit::script::{answer, calls};
use proptest::prelude::*;
use serde_json::json;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

const FILES: usize = 3;
const LINES: usize = 24;
/// Ten lines apart: edits in different slots never touch.
const SLOTS: [usize; 3] = [1, 11, 21];

/// An edit: file, slot, and the text it puts there.
type Edits = BTreeMap<(usize, usize), u8>;

fn name(file: usize) -> String {
    format!("f{file}.txt")
}

fn base() -> Vec<String> {
    (0..LINES).map(|l| format!("line {l}\n")).collect()
}

/// The file with `edits` on it, by `who`.
fn edited(file: usize, edits: &[(&Edits, &str)]) -> String {
    let mut lines = base();
    for (edits, who) in edits {
        for ((f, slot), v) in edits.iter() {
            if *f == file {
                lines[SLOTS[*slot]] = format!("{who} {v}\n");
            }
        }
    }
    lines.concat()
}

fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".txt"))
        .map(|e| (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap()))
        .collect()
}

fn open(dir: &Path, fake: Arc<FakeProvider>) -> Runtime {
    open_in(dir, fake, |c| c.machine.tools.policy = ToolApprovalPolicy::AutoAll)
}

/// One turn whose model reads (when they exist) and writes the files.
async fn turn(rt: &Runtime, fake: &FakeProvider, id: &ContextId, dir: &Path, writes: &[(String, String)]) {
    let mut list: Vec<(String, &str, serde_json::Value)> = Vec::new();
    for (i, (path, content)) in writes.iter().enumerate() {
        if dir.join(path).exists() {
            list.push((format!("r{i}"), "read_file", json!({ "path": path })));
        }
        list.push((format!("w{i}"), "write_file", json!({ "path": path, "content": content })));
    }
    let list: Vec<(&str, &str, serde_json::Value)> = list.iter().map(|(a, b, c)| (a.as_str(), *b, c.clone())).collect();
    fake.push_reply(calls(&list));
    fake.push_reply(answer("Written."));
    rt.send_message(id, NewMessage::user_text("edit"), false).await.unwrap();
    Watch::new(rt, id).await.settled().await;
}

async fn case(ours: Edits, theirs: Edits, added: Vec<bool>, strategy: MergeStrategy) -> Result<(), TestCaseError> {
    let dir = tempfile::tempdir().unwrap();
    for f in 0..FILES {
        std::fs::write(dir.path().join(name(f)), base().concat()).unwrap();
    }
    let fake = Arc::new(FakeProvider::echo(std::time::Duration::ZERO));
    let rt = open(dir.path(), fake.clone());
    let id = rt.create_context(None, None).await.unwrap().id;
    fake.push_reply(answer("Ready."));
    rt.send_message(&id, NewMessage::user_text("start"), false).await.unwrap();
    Watch::new(&rt, &id).await.settled().await;
    let fork_at = rt.load_context(&id).await.unwrap().messages[1].id;
    let idea = rt.create_branch(&id, fork_at, "idea".into(), None).await.unwrap();

    rt.switch_branch(&id, idea.clone()).await.unwrap();
    let mut writes: Vec<(String, String)> = (0..FILES)
        .filter(|f| theirs.keys().any(|(g, _)| g == f))
        .map(|f| (name(f), edited(f, &[(&theirs, "theirs")])))
        .collect();
    writes.extend(
        added.iter().enumerate().filter(|(_, a)| **a).map(|(i, _)| (format!("new{i}.txt"), format!("new {i}\n"))),
    );
    if !writes.is_empty() {
        turn(&rt, &fake, &id, dir.path(), &writes).await;
    }
    rt.switch_branch(&id, BranchId::main()).await.unwrap();
    // One folder: main writes its files over what the fork left.
    let mine: Vec<(String, String)> = (0..FILES)
        .filter(|f| ours.keys().any(|(g, _)| g == f))
        .map(|f| (name(f), edited(f, &[(&ours, "ours")])))
        .collect();
    let fast_forward = strategy == MergeStrategy::FastForward;
    if !mine.is_empty() && !fast_forward {
        turn(&rt, &fake, &id, dir.path(), &mine).await;
    }
    let before = snapshot(dir.path());

    let mut options = MergeOptions::new(idea, strategy);
    options.summary = Some("what the fork did".into());
    options.files = (0..FILES).map(|f| FileChoice { path: name(f), take: FileTake::Theirs }).collect();
    // "Both branches wrote it": both lines of work kept, the file merged.
    let asked = rt.preview_merge(&id, options.clone()).await.unwrap();
    options.resolutions = asked
        .conflicts
        .iter()
        .map(|c| ConflictChoice {
            conflict: c.id.clone(),
            resolution: if c.options.contains(&Resolution::KeepBoth) { Resolution::KeepBoth } else { c.suggested },
        })
        .collect();
    let preview = rt.preview_merge(&id, options.clone()).await.unwrap();
    if let Some(why) = preview.blocked {
        // Only when the fork made no turn: there is nothing to merge.
        prop_assert!(writes.is_empty(), "blocked: {}", why);
        prop_assert!(rt.merge(&id, options).await.is_err());
        prop_assert_eq!(snapshot(dir.path()), before);
        return Ok(());
    }
    let card = rt.merge(&id, options).await.unwrap();
    let now = snapshot(dir.path());
    for f in 0..FILES {
        // Main's edits where it made a turn; the fork's win where both edited.
        let main_wrote = !fast_forward && ours.keys().any(|(g, _)| *g == f);
        let sides: Vec<(&Edits, &str)> =
            if main_wrote { vec![(&ours, "ours"), (&theirs, "theirs")] } else { vec![(&theirs, "theirs")] };
        let want = edited(f, &sides);
        prop_assert_eq!(String::from_utf8_lossy(&now[&name(f)]), want, "{}", name(f));
    }
    for (i, a) in added.iter().enumerate() {
        prop_assert_eq!(now.contains_key(&format!("new{i}.txt")), *a && !writes.is_empty());
    }

    drop(rt);
    let rt = open(dir.path(), fake);
    rt.undo_merge(&id, card).await.unwrap();
    prop_assert_eq!(snapshot(dir.path()), before, "the undo gives back the exact bytes");
    Ok(())
}

fn edits() -> impl Strategy<Value = Edits> {
    prop::collection::btree_map((0..FILES, 0..SLOTS.len()), 0..3u8, 0..4)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    #[test]
    fn a_merge_writes_the_reference_three_way_merge_and_its_undo_the_exact_bytes(
        ours in edits(),
        theirs in edits(),
        added in prop::collection::vec(any::<bool>(), 2),
        strategy in prop::sample::select(vec![
            MergeStrategy::Append, MergeStrategy::Summary, MergeStrategy::Rebase, MergeStrategy::FastForward,
        ]),
    ) {
        let tokio = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        tokio.block_on(case(ours, theirs, added, strategy))?;
    }
}
