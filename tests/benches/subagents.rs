//! What a sub-agent costs beyond its own turn. A fake model answers at
//! once; real SQLite on a temporary folder; a fresh parent each run;
//! medians.
//! - The overhead of one child, from the events as they arrive: from the
//!   parent waiting (`AwaitingSubAgents`) to the child's first event (its
//!   conversation created and stored, its task sent), plus from the
//!   child's end (Idle after `submit_result`) to the parent going on (its
//!   end heard, the report aggregated into the call's result).
//! - Cancel reaching the children: from the parent's cancel to its two
//!   children Idle and their commands (`sleep 30`) gone.
//! - Whole parent turns for scale: with a plain `read_file`, with one
//!   child, with ten at once.
//!
//!   cargo bench -p braid-testkit --bench subagents

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a benchmark reports

use braid_llm::fake::FakeProvider;
use braid_protocol::{BraidEvent, NewMessage, StatusKind, ToolApprovalPolicy};
use braid_runtime::{Runtime, RuntimeConfig};
use braid_testkit::children::respond;
use braid_testkit::harness::Watch;
use serde_json::json;
use std::sync::Arc;
use std::time::Instant;

const RUNS: usize = 15;

async fn turn(rt: &Runtime, text: &str) -> f64 {
    let parent = rt.create_context(None, None).await.unwrap().id;
    let mut watch = Watch::new(rt, &parent).await;
    let start = Instant::now();
    rt.send_message(&parent, NewMessage::user_text(text), false).await.unwrap();
    watch.state(StatusKind::ProcessingUserMessage).await;
    watch.state(StatusKind::Idle).await;
    start.elapsed().as_secs_f64() * 1000.0
}

/// Start and collect of one child, in ms (see the top of the file).
async fn overhead(rt: &Runtime) -> f64 {
    let parent = rt.create_context(None, None).await.unwrap().id;
    let mut all = rt.subscribe_all();
    rt.send_message(&parent, NewMessage::user_text(&spawn(1)), false).await.unwrap();
    let (mut waiting, mut started, mut ended) = (None, None, None);
    loop {
        let BraidEvent::ContextUpdate(u) = all.recv().await.unwrap() else { continue };
        let now = Instant::now();
        let kind = u.current_state.kind();
        if u.context_id == parent {
            if kind == StatusKind::AwaitingSubAgents {
                waiting.get_or_insert(now);
            } else if let (Some(w), Some(s), Some(e)) = (waiting, started, ended) {
                let start: std::time::Duration = s - w;
                return (start + (now - e)).as_secs_f64() * 1000.0;
            }
        } else if waiting.is_some() {
            started.get_or_insert(now);
            if kind == StatusKind::Idle && u.previous_state.is_some() {
                ended = Some(now);
            }
        }
    }
}

/// From the parent's cancel to its two children Idle and their commands'
/// processes gone (each was running `sleep 30`), in ms.
async fn cancel_reach(rt: &Runtime, dir: &std::path::Path, run: usize) -> f64 {
    let parent = rt.create_context(None, None).await.unwrap().id;
    let mut all = rt.subscribe_all();
    let files = [format!("pid-{run}-1"), format!("pid-{run}-2")];
    let tasks: Vec<_> = files
        .iter()
        .map(|f| json!({ "name": f, "instructions": format!("RUN echo $$ > {f}; exec sleep 30") }))
        .collect();
    let text = format!("SPAWN {}", json!({ "tasks": tasks }));
    rt.send_message(&parent, NewMessage::user_text(&text), false).await.unwrap();
    let mut running = std::collections::HashSet::new();
    while running.len() < 2 {
        let BraidEvent::ContextUpdate(u) = all.recv().await.unwrap() else { continue };
        if u.context_id != parent && u.current_state.kind() == StatusKind::ExecutingTool {
            running.insert(u.context_id);
        }
    }
    // Each command writes its pid first thing.
    let pids: Vec<String> = files
        .iter()
        .map(|f| loop {
            match std::fs::read_to_string(dir.join(f)) {
                Ok(text) if text.ends_with('\n') => break text.trim().to_owned(),
                _ => std::thread::yield_now(),
            }
        })
        .collect();
    let start = Instant::now();
    rt.cancel(&parent).await.unwrap();
    let mut idle = std::collections::HashSet::new();
    while idle.len() < 2 {
        let BraidEvent::ContextUpdate(u) = all.recv().await.unwrap() else { continue };
        if running.contains(&u.context_id) && u.current_state.kind() == StatusKind::Idle {
            idle.insert(u.context_id);
        }
    }
    let gone = |pid: &String| {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        stat.is_empty() || stat.split(") ").nth(1).is_some_and(|rest| rest.starts_with('Z'))
    };
    while !pids.iter().all(gone) {
        std::thread::yield_now();
    }
    start.elapsed().as_secs_f64() * 1000.0
}

fn spawn(n: usize) -> String {
    let tasks: Vec<_> = (0..n).map(|i| json!({ "name": format!("c{i}"), "instructions": "SUBMIT ok" })).collect();
    format!("SPAWN {}", json!({ "tasks": tasks }))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "a").unwrap();
    let mut config = RuntimeConfig::new(dir.path().join("braid.db"), dir.path().to_owned());
    config.machine.tools.policy = ToolApprovalPolicy::AutoAll;
    config.sub_agents.concurrency = 10;
    let tokio = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    tokio.block_on(async {
        let rt = Runtime::open(config, Arc::new(FakeProvider::answering(respond))).unwrap().0;
        turn(&rt, "READ a.txt").await; // warm-up: the store, the tools
        let (mut plain, mut one, mut ten, mut over, mut cancel) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for run in 0..RUNS {
            over.push(overhead(&rt).await);
            cancel.push(cancel_reach(&rt, dir.path(), run).await);
            plain.push(turn(&rt, "READ a.txt").await);
            one.push(turn(&rt, &spawn(1)).await);
            ten.push(turn(&rt, &spawn(10)).await);
        }
        let (plain, one, ten, over) = (median(plain), median(one), median(ten), median(over));
        println!("one child started and collected (its own turn excluded): {over:.2} ms");
        println!("parent cancelled -> two children Idle, their commands gone: {:.2} ms", median(cancel));
        println!("parent turn with read_file:            {plain:.2} ms");
        println!("parent turn with 1 child:              {one:.2} ms  ({:.2} ms for the child)", one - plain);
        println!("parent turn with 10 children (10 at once): {ten:.2} ms  ({:.2} ms per child)", (ten - plain) / 10.0);
        rt.shutdown().await;
    });
}
