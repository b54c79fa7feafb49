//! Issue #65's reproductions, each against the real runtime: a crafted
//! GGUF (arrays in arrays, 2.4 MB, which overflowed the stack) in a folder
//! Braid scans for other apps' models, on the hub, and on the shelf as the
//! default at start; a hub that answers HTML, an endless JSON array, 10 MB
//! of JSON, 60,000 results or headers then silence. Every case ends in a
//! clear error within its limit, and the process's peak memory stays under
//! 300 MB. A test binary of its own, so that peak is this file's alone.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_llm::secrets::Secrets;
use braid_protocol::{Command, HubModel, HubRepo, LocalModelsView};
use braid_runtime::providers::Providers;
use braid_runtime::{Runtime, RuntimeConfig};
use braid_testkit::{crafted, hostile_hub};
use serde::de::DeserializeOwned;
use std::path::Path;
use std::time::{Duration, Instant};

/// The runtime over a shelf in `dir/models` that scans `dir/home` for other
/// apps' models.
fn runtime(dir: &Path) -> Runtime {
    let roots = braid_local::discover::Roots { home: Some(dir.join("home")), ..Default::default() };
    let shelf = braid_local::Shelf::new(dir.join("models"), Vec::new()).with_roots(roots);
    let providers = Providers::in_memory(Secrets::file_only(dir)).with_local_models(std::sync::Arc::new(shelf));
    Runtime::open_with(RuntimeConfig::new(dir.join("braid.db"), dir.to_owned()), providers).unwrap().0
}

async fn run<T: DeserializeOwned>(rt: &Runtime, c: Command) -> Result<T, String> {
    rt.execute(c).await.map(|v| serde_json::from_value(v).unwrap()).map_err(|e| e.to_string())
}

/// The process's peak resident memory (`VmHWM`), in MB.
fn peak_mb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap() / 1024
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crafted_model_files_are_listed_as_unreadable_never_offered_and_never_crash() {
    let dir = tempfile::tempdir().unwrap();
    // Jan 0.5's folder: ~/jan/models/<id>/<file>.gguf.
    let jan = dir.path().join("home/jan/models/crafted");
    std::fs::create_dir_all(&jan).unwrap();
    std::fs::write(jan.join("nested.gguf"), crafted::nested()).unwrap();
    std::fs::write(jan.join("cut.gguf"), crafted::truncated()).unwrap();
    // On the shelf and named the default before Braid starts.
    let models = dir.path().join("models");
    std::fs::create_dir_all(&models).unwrap();
    std::fs::write(models.join("shelved.gguf"), crafted::nested()).unwrap();
    std::fs::write(models.join("default.txt"), "shelved.gguf").unwrap();

    let rt = runtime(dir.path());
    let view: LocalModelsView = run(&rt, Command::ListLocalModels).await.unwrap();
    let shelved = &view.models[0];
    let why = shelved.unreadable.as_deref().expect("marked");
    assert!(why.contains("nested more than 8 deep") && shelved.memory.is_none(), "{shelved:?}");
    assert_eq!(view.found.len(), 2, "{:?}", view.found);
    for f in &view.found {
        let why = f.unreadable.as_deref().unwrap_or_else(|| panic!("{f:?} is marked"));
        assert!(why.contains("nested") || why.contains("cut short"), "{why}");
        let e = run::<LocalModelsView>(&rt, Command::LinkLocalModel { path: f.path.clone() }).await.unwrap_err();
        assert!(e.contains("is not a GGUF model Braid can read"), "{e}");
        let e = run::<LocalModelsView>(&rt, Command::ImportLocalModel { path: f.path.clone() }).await.unwrap_err();
        assert!(e.contains("is not a GGUF model Braid can read"), "{e}");
    }
    let e = run::<LocalModelsView>(&rt, Command::SetDefaultLocalModel { name: "shelved.gguf".into() }).await;
    assert!(e.unwrap_err().contains("nested"));
    // Braid started and works on.
    let ctx = rt.create_context(Some("crafted".into()), None).await.unwrap();
    rt.load_context(&ctx.id).await.unwrap();
    rt.shutdown().await;
    assert!(peak_mb() < 300, "peak {} MB", peak_mb());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hostile_hub_gets_clear_errors_within_limits() {
    let dir = tempfile::tempdir().unwrap();
    let rt = runtime(dir.path());
    let url = hostile_hub::start().await;
    run::<serde_json::Value>(&rt, Command::SetHubEndpoint { endpoint: url }).await.unwrap();
    let search = |q: &str| run::<Vec<HubModel>>(&rt, Command::SearchHub { query: q.into() });

    let started = Instant::now();
    let e = search(hostile_hub::HTML).await.unwrap_err();
    assert!(e.contains("answered the search with something Braid cannot read"), "{e}");
    let e = search(hostile_hub::ENDLESS).await.unwrap_err();
    assert!(e.contains("larger than 8192 KB"), "{e}");
    let e = search(hostile_hub::BIG).await.unwrap_err();
    assert!(e.contains("larger than 8192 KB"), "{e}");
    let many = search(hostile_hub::MANY).await.unwrap();
    assert_eq!(many.len(), 30, "a search asks for 30 and shows 30");
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());

    // Headers, then nothing (a search, a file's header, side by side): an
    // error after the hub's idle limit, not a wait.
    let started = Instant::now();
    let (searched, repo) = tokio::join!(
        search(hostile_hub::SILENT),
        run::<HubRepo>(&rt, Command::HubRepo { repo: hostile_hub::SILENT_REPO.into() })
    );
    let waited = started.elapsed();
    let e = searched.unwrap_err();
    assert!(e.contains("did not answer in time"), "{e}");
    let repo = repo.unwrap();
    assert!(
        repo.note.as_deref().is_some_and(|n| n.contains("no memory estimate") && n.contains("in time")),
        "{repo:?}"
    );
    let idle = braid_local::hub::IDLE;
    assert!(waited >= idle - Duration::from_secs(1) && waited < idle * 2, "{waited:?}");

    // The crafted header on the hub: read, refused, nothing offered.
    let repo: HubRepo = run(&rt, Command::HubRepo { repo: hostile_hub::NESTED_REPO.into() }).await.unwrap();
    assert!(repo.files.is_empty(), "{repo:?}");
    let note = repo.note.unwrap();
    assert!(note.contains("cannot be used") && note.contains("nested more than 8 deep"), "{note}");
    rt.shutdown().await;
    assert!(peak_mb() < 300, "peak {} MB", peak_mb());
}
