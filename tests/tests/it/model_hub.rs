//! The model hub end to end against a stand-in hub on 127.0.0.1 serving
//! the real starter GGUF (`braid_testkit::hub`): search, a repository's
//! files with their memory read from a ranged header request, and
//! downloads that go on after 429, 503 and a cut body, check the SHA-256
//! before the model is offered, pause, resume and cancel. A restart in
//! the middle of a download (a SIGKILL) is in the browser suite
//! (`ui/e2e/models.mjs`), where the server is a process of its own.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_llm::secrets::Secrets;
use braid_protocol::NewMessage;
use braid_protocol::{Command, DownloadState, DownloadsView, HubModel, HubRepo, LocalModelsView, MemoryFit};
use braid_runtime::providers::Providers;
use braid_runtime::{Runtime, RuntimeConfig};
use braid_testkit::harness::{eventually, Watch};
use braid_testkit::hub::{digest, Fault, StandInHub, COPY, COPY_FILE, FILE, GATED, GOOD, THIRD, THIRD_FILE, WRONG_SUM};
use braid_testkit::local::starter_model;
use serde::de::DeserializeOwned;
use std::path::PathBuf;

struct Setup {
    rt: Runtime,
    hub: StandInHub,
    models: PathBuf,
    _dir: tempfile::TempDir,
}

async fn setup() -> Setup {
    let (hub, url) = StandInHub::start(&starter_model()).await;
    let dir = tempfile::tempdir().unwrap();
    let models = dir.path().join("models");
    let shelf = std::sync::Arc::new(braid_local::Shelf::new(models.clone(), Vec::new()));
    let providers = Providers::in_memory(Secrets::file_only(dir.path())).with_local_models(shelf);
    let config = RuntimeConfig::new(dir.path().join("braid.db"), dir.path().to_owned());
    let rt = Runtime::open_with(config, providers).unwrap().0;
    let s = Setup { rt, hub, models, _dir: dir };
    let view: DownloadsView = s.run(Command::SetHubEndpoint { endpoint: url.clone() }).await.unwrap();
    assert_eq!(view.endpoint, url);
    s
}

impl Setup {
    async fn run<T: DeserializeOwned>(&self, c: Command) -> Result<T, String> {
        self.rt.execute(c).await.map(|v| serde_json::from_value(v).unwrap()).map_err(|e| e.to_string())
    }

    async fn downloads(&self) -> DownloadsView {
        self.run(Command::ListDownloads).await.unwrap()
    }

    /// Waits until the download of `name` is in `state`.
    async fn until(&self, name: &str, state: DownloadState) -> braid_protocol::Download {
        let reached = eventually(|| async {
            self.downloads().await.downloads.iter().any(|d| d.name == name && d.state == state)
        })
        .await;
        let view = self.downloads().await;
        assert!(reached, "{name} never became {state:?}: {view:?}");
        view.downloads.into_iter().find(|d| d.name == name).unwrap()
    }

    fn part(&self, name: &str) -> PathBuf {
        self.models.join(format!("{name}.download"))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_hub_is_searched_and_a_repositorys_files_come_with_their_memory_before_download() {
    let s = setup().await;
    let found: Vec<HubModel> = s.run(Command::SearchHub { query: "smollm2".into() }).await.unwrap();
    let repos: Vec<&str> = found.iter().map(|m| m.repo.as_str()).collect();
    assert_eq!(repos, [GOOD, COPY, THIRD]);
    assert_eq!((found[0].downloads, found[0].licence.as_deref(), found[0].gated), (1234, Some("apache-2.0"), false));

    let repo: HubRepo = s.run(Command::HubRepo { repo: GOOD.into() }).await.unwrap();
    // The README and the vision projector are not models to run.
    assert_eq!(repo.files.len(), 1, "{repo:?}");
    let file = &repo.files[0];
    assert_eq!((file.file.as_str(), file.quant.as_deref(), file.bytes), (FILE, Some("Q4_1"), s.hub.size));
    assert_eq!(file.sha256.as_deref(), Some(s.hub.sha256.as_str()));
    // The estimate read from the first megabytes over the network is the
    // one the same file gives on disk.
    let memory = file.memory.expect("a memory estimate");
    let on_disk = braid_local::gguf::memory(&starter_model(), 4096, braid_local::gguf::available_memory()).unwrap();
    assert_eq!(memory.bytes, on_disk.bytes);
    assert_eq!(memory.fit, MemoryFit::Fits);
    let fetches = s.hub.fetches();
    assert_eq!(fetches.len(), 1, "one ranged request for the header: {fetches:?}");
    assert_eq!((fetches[0].from, fetches[0].status), (0, 206));

    let e = s.run::<HubRepo>(Command::HubRepo { repo: "nobody/nothing".into() }).await.unwrap_err();
    assert!(e.contains("the hub does not have model nobody/nothing"), "{e}");
    let e = s.run::<HubRepo>(Command::HubRepo { repo: "../etc".into() }).await.unwrap_err();
    assert!(e.contains("not a hub repository"), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_download_goes_on_after_429_503_and_a_cut_body_and_lands_checked_as_the_default() {
    let s = setup().await;
    s.hub.fault(Fault::Status(429));
    s.hub.fault(Fault::Status(503));
    s.hub.fault(Fault::CutAfter(10 << 20));
    let view: DownloadsView =
        s.run(Command::DownloadModel { repo: GOOD.into(), file: FILE.into(), use_when_done: true }).await.unwrap();
    assert_eq!(view.downloads[0].bytes, s.hub.size);
    let done = s.until(FILE, DownloadState::Done).await;
    assert_eq!(done.done, s.hub.size);

    let fetches: Vec<(u16, u64)> = s.hub.fetches().iter().map(|f| (f.status, f.from)).collect();
    assert_eq!(fetches[..3], [(429, 0), (503, 0), (206, 0)], "{fetches:?}");
    // Went on from what had come when the body was cut (the cut's last
    // chunk may be lost on the way).
    assert_eq!(fetches.len(), 4, "{fetches:?}");
    assert!(fetches[3].0 == 206 && fetches[3].1 > 8 << 20 && fetches[3].1 <= 10 << 20, "{fetches:?}");
    let shelf: LocalModelsView = s.run(Command::ListLocalModels).await.unwrap();
    let model = shelf.models.iter().find(|m| m.name == FILE).expect("on the shelf");
    assert!(model.default, "asked to be used when done: {shelf:?}");
    assert_eq!(digest(&s.models.join(FILE)).1, s.hub.sha256);
    assert!(!s.part(FILE).exists());

    // On the shelf already: not fetched twice.
    let e =
        s.run::<DownloadsView>(Command::DownloadModel { repo: GOOD.into(), file: FILE.into(), use_when_done: false });
    assert!(e.await.unwrap_err().contains("on the shelf already"));
    // A finished download leaves the list on Cancel; the model stays.
    let id = done.id;
    let view: DownloadsView = s.run(Command::CancelDownload { id }).await.unwrap();
    assert!(view.downloads.is_empty());
    assert!(s.models.join(FILE).exists());

    // The model that came is the one that answers now (the process must
    // not end while it loads, either: llama.cpp would fault at exit).
    let ctx = s.rt.create_context(None, None).await.unwrap().id;
    let mut watch = Watch::new(&s.rt, &ctx).await.on_real_model();
    s.rt.send_message(&ctx, NewMessage::user_text("Say hi."), false).await.unwrap();
    watch.until("busy", |st| st.is_busy()).await;
    watch.settled().await;
    let sent: Option<braid_protocol::SentRequest> =
        s.run(Command::GetSentRequest { context_id: ctx.clone() }).await.unwrap();
    assert_eq!(sent.unwrap().model, FILE);
    let snap = s.rt.load_context(&ctx).await.unwrap();
    assert_eq!(snap.messages.last().unwrap().body.role(), Some(braid_protocol::Role::Assistant), "answered");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_checksum_a_gated_model_and_a_hub_that_is_not_there_are_said_in_words() {
    let s = setup().await;
    s.run::<DownloadsView>(Command::DownloadModel { repo: WRONG_SUM.into(), file: FILE.into(), use_when_done: false })
        .await
        .unwrap();
    let failed = s.until(FILE, DownloadState::Failed).await;
    let e = failed.error.unwrap();
    assert!(e.contains("does not match the repository's SHA-256") && e.contains("deleted"), "{e}");
    assert!(!s.part(FILE).exists() && !s.models.join(FILE).exists(), "nothing unchecked stays");
    s.run::<DownloadsView>(Command::CancelDownload { id: failed.id }).await.unwrap();

    s.run::<DownloadsView>(Command::DownloadModel { repo: GATED.into(), file: FILE.into(), use_when_done: false })
        .await
        .unwrap();
    let gated = s.until(FILE, DownloadState::Failed).await;
    assert!(gated.error.as_deref().unwrap().contains("gated"), "{gated:?}");

    let e = s.run::<DownloadsView>(Command::DownloadModel {
        repo: GOOD.into(),
        file: "x.gguf".into(),
        use_when_done: false,
    });
    assert!(e.await.unwrap_err().contains("has no file x.gguf"));

    // Nothing listens on port 9; a bad address is refused and the hub
    // stays as it was; empty goes back to Hugging Face.
    s.run::<DownloadsView>(Command::SetHubEndpoint { endpoint: "http://127.0.0.1:9".into() }).await.unwrap();
    let e = s.run::<Vec<HubModel>>(Command::SearchHub { query: "x".into() }).await.unwrap_err();
    assert!(e.contains("nothing answers at 127.0.0.1:9"), "{e}");
    let e = s.run::<DownloadsView>(Command::SetHubEndpoint { endpoint: "ftp://mirror".into() }).await.unwrap_err();
    assert!(e.contains("not an http or https address"), "{e}");
    let view: DownloadsView = s.run(Command::SetHubEndpoint { endpoint: " ".into() }).await.unwrap();
    assert_eq!(view.endpoint, DownloadsView::DEFAULT_ENDPOINT);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pause_keeps_what_came_resume_goes_on_from_there_and_cancel_deletes_it() {
    let s = setup().await;
    s.hub.set_rate(8 << 20);
    s.run::<DownloadsView>(Command::DownloadModel { repo: COPY.into(), file: COPY_FILE.into(), use_when_done: false })
        .await
        .unwrap();
    s.until(COPY_FILE, DownloadState::Running).await;
    assert!(eventually(|| async { s.downloads().await.downloads[0].done > 4 << 20 }).await);
    let running = s.downloads().await.downloads.remove(0);
    assert!(running.speed > 0 && running.eta_seconds.is_some(), "speed and time left: {running:?}");

    let id = running.id;
    let view: DownloadsView = s.run(Command::PauseDownload { id: id.clone() }).await.unwrap();
    assert_eq!(view.downloads[0].state, DownloadState::Paused);
    let kept = std::fs::metadata(s.part(COPY_FILE)).unwrap().len();
    assert!(kept > 4 << 20, "what came stays: {kept}");
    assert!(!s.models.join(COPY_FILE).exists(), "a part is not offered");

    s.run::<DownloadsView>(Command::ResumeDownload { id: id.clone() }).await.unwrap();
    assert!(eventually(|| async { s.hub.fetches().len() == 2 }).await);
    let from = s.hub.fetches()[1].from;
    assert!(from >= kept - (1 << 20) && from > 0, "resumed from {from}, {kept} were kept");

    let view: DownloadsView = s.run(Command::CancelDownload { id }).await.unwrap();
    assert!(view.downloads.is_empty());
    assert!(eventually(|| async { !s.part(COPY_FILE).exists() }).await, "cancel deletes what came");
    let e = s.run::<DownloadsView>(Command::ResumeDownload { id: "gone".into() }).await.unwrap_err();
    assert!(e.contains("there is no download"), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_download_at_once_and_a_third_waits_its_turn() {
    let s = setup().await;
    s.hub.set_rate(4 << 20);
    for (repo, file) in [(GOOD, FILE), (COPY, COPY_FILE), (THIRD, THIRD_FILE)] {
        let add = Command::DownloadModel { repo: repo.into(), file: file.into(), use_when_done: false };
        s.run::<DownloadsView>(add).await.unwrap();
    }
    s.until(FILE, DownloadState::Running).await;
    s.until(COPY_FILE, DownloadState::Running).await;
    let third = s.downloads().await.downloads.into_iter().find(|d| d.name == THIRD_FILE).unwrap();
    assert_eq!(third.state, DownloadState::Queued);
    // One leaves: the third starts.
    let first = s.downloads().await.downloads.remove(0);
    s.run::<DownloadsView>(Command::CancelDownload { id: first.id }).await.unwrap();
    s.until(THIRD_FILE, DownloadState::Running).await;
    for d in s.downloads().await.downloads {
        s.run::<DownloadsView>(Command::CancelDownload { id: d.id }).await.unwrap();
    }
}

/// A hub that sends headers and then nothing, once mid-body and once
/// from the first byte of the retry: each is a retry after the hub's
/// idle limit (`braid_local::hub::IDLE`), never a download that says
/// "running" for ever; the model lands checked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_download_that_stalls_is_tried_again_after_the_idle_limit() {
    let s = setup().await;
    s.hub.fault(Fault::StallAfter(4 << 20));
    s.hub.fault(Fault::StallAfter(0));
    let started = std::time::Instant::now();
    s.run::<DownloadsView>(Command::DownloadModel { repo: GOOD.into(), file: FILE.into(), use_when_done: false })
        .await
        .unwrap();
    let idle = braid_local::hub::IDLE;
    let done = loop {
        let view = s.downloads().await;
        let d = view.downloads.into_iter().find(|d| d.name == FILE).unwrap();
        match d.state {
            DownloadState::Done => break d,
            DownloadState::Failed => panic!("a stall is tried again, not an end: {d:?}"),
            _ => assert!(started.elapsed() < idle * 6, "still waiting after {:?}: {d:?}", started.elapsed()),
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    };
    let took = started.elapsed();
    assert_eq!(done.done, s.hub.size);
    let fetches: Vec<(u16, u64)> = s.hub.fetches().iter().map(|f| (f.status, f.from)).collect();
    assert_eq!(fetches.len(), 3, "{fetches:?}");
    assert!(fetches[1].1 > 0 && fetches[1].1 <= 4 << 20 && fetches[2].1 == fetches[1].1, "{fetches:?}");
    assert!(took >= idle * 2 && took < idle * 4, "two idle limits, then the rest: {took:?}");
    assert_eq!(digest(&s.models.join(FILE)).1, s.hub.sha256);
}
