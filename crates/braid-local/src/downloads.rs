//! Downloads onto the shelf: a queue kept in `downloads.json` beside the
//! models (so a restart goes on with it), two files at a time, each into
//! a `.download` file that takes the model's name only once it is whole
//! and matches the repository's SHA-256. Also the hub's endpoint, saved
//! in `hub.json` there.

use crate::hub::{self, Hub};
use crate::models;
use crate::transfer::{self, Outcome, Progress};
use braid_protocol::{Download, DownloadState, DownloadsView};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use tokio::sync::{watch, Notify};

const QUEUE: &str = "downloads.json";
const ENDPOINT: &str = "hub.json";
/// Files fetched at once; the rest wait their turn.
const AT_ONCE: usize = 2;

/// What a download's task is started with.
type Start = (Saved, Arc<Progress>, watch::Receiver<bool>, Arc<AtomicBool>);

/// A download as saved.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Saved {
    id: String,
    repo: String,
    file: String,
    name: String,
    bytes: u64,
    sha256: Option<String>,
    state: DownloadState,
    error: Option<String>,
    use_when_done: bool,
}

struct Job {
    saved: Saved,
    progress: Arc<Progress>,
    /// Set while it runs: sending `true` stops it.
    stop: Option<watch::Sender<bool>>,
    /// Its task has not ended yet (a stopped one may still be flushing):
    /// it is not started again until it has.
    alive: Arc<AtomicBool>,
}

#[derive(Serialize, Deserialize)]
struct EndpointFile {
    endpoint: String,
}

#[derive(Clone)]
pub struct Downloads {
    inner: Arc<Inner>,
}

struct Inner {
    dir: PathBuf,
    jobs: Mutex<Vec<Job>>,
    hub: Mutex<Hub>,
    wake: Notify,
    changed: OnceLock<Arc<dyn Fn() + Send + Sync>>,
}

impl Downloads {
    /// The queue saved in `dir` (what was running waits to go on).
    pub fn open(dir: PathBuf) -> Downloads {
        let saved: Vec<Saved> =
            std::fs::read(dir.join(QUEUE)).ok().and_then(|b| serde_json::from_slice(&b).ok()).unwrap_or_default();
        let jobs = saved
            .into_iter()
            .map(|mut saved| {
                if matches!(saved.state, DownloadState::Running | DownloadState::Verifying) {
                    saved.state = DownloadState::Queued;
                }
                let progress = Arc::new(Progress::default());
                progress.set(std::fs::metadata(part(&dir, &saved.name)).map_or(0, |m| m.len()));
                Job { saved, progress, stop: None, alive: Arc::default() }
            })
            .collect();
        let endpoint = saved_endpoint(&dir);
        Downloads {
            inner: Arc::new(Inner {
                jobs: Mutex::new(jobs),
                hub: Mutex::new(Hub::new(&endpoint)),
                dir,
                wake: Notify::new(),
                changed: OnceLock::new(),
            }),
        }
    }

    /// Starts the queue; `changed` is called when a model lands.
    pub fn start(&self, changed: Arc<dyn Fn() + Send + Sync>) {
        if self.inner.changed.set(changed).is_ok() {
            let inner = self.inner.clone();
            match tokio::runtime::Handle::try_current() {
                Ok(runtime) => drop(runtime.spawn(inner.run())),
                // Started outside one: the queue gets a runtime of its own.
                Err(_) => {
                    let own = tokio::runtime::Builder::new_current_thread().enable_all().build();
                    let spawned = own.map_err(|e| e.to_string()).and_then(|rt| {
                        std::thread::Builder::new()
                            .name("braid-downloads".into())
                            .spawn(move || rt.block_on(inner.run()))
                            .map_err(|e| e.to_string())
                    });
                    if let Err(e) = spawned {
                        tracing::warn!("downloads cannot run: {e}");
                    }
                }
            }
        }
    }

    pub fn hub(&self) -> Hub {
        self.inner.hub.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    pub fn view(&self) -> DownloadsView {
        self.inner.view()
    }

    /// Queues `file` of `repo` (its size and checksum as the hub lists
    /// them).
    pub async fn add(&self, repo: String, file: String, use_when_done: bool) -> Result<DownloadsView, String> {
        hub::check_repo(&repo)?;
        if !hub::is_single_gguf(&file) {
            return Err(format!("{file} is not a GGUF model in one file"));
        }
        let name = file.rsplit('/').next().unwrap_or(&file).to_owned();
        self.inner.check_free(&name)?;
        let listed = self.hub().files(&repo).await?;
        let found = listed.into_iter().find(|f| f.file == file).ok_or_else(|| format!("{repo} has no file {file}"))?;
        transfer::room_for(&part(&self.inner.dir, &name), found.bytes)?;
        // Checked again: another request may have queued it meanwhile.
        self.inner.check_free(&name)?;
        let mut jobs = self.inner.jobs();
        let saved = Saved {
            id: unique_id(&jobs, &name),
            repo,
            file,
            name,
            bytes: found.bytes,
            sha256: found.sha256,
            state: DownloadState::Queued,
            error: None,
            use_when_done,
        };
        jobs.push(Job { saved, progress: Arc::default(), stop: None, alive: Arc::default() });
        self.inner.save(&jobs);
        drop(jobs);
        self.inner.wake.notify_one();
        Ok(self.view())
    }

    pub fn pause(&self, id: &str) -> Result<DownloadsView, String> {
        self.inner.edit(id, |job| match job.saved.state {
            DownloadState::Queued | DownloadState::Running => {
                stop(job);
                job.saved.state = DownloadState::Paused;
                Ok(())
            }
            _ => Err("only a running or queued download can be paused".to_owned()),
        })
    }

    pub fn resume(&self, id: &str) -> Result<DownloadsView, String> {
        self.inner.edit(id, |job| match job.saved.state {
            DownloadState::Paused | DownloadState::Failed => {
                job.saved.state = DownloadState::Queued;
                job.saved.error = None;
                Ok(())
            }
            _ => Err("only a paused or failed download can be resumed".to_owned()),
        })?;
        self.inner.wake.notify_one();
        Ok(self.view())
    }

    /// Stops it and deletes what came; a finished one only leaves the list.
    pub fn cancel(&self, id: &str) -> Result<DownloadsView, String> {
        let mut jobs = self.inner.jobs();
        let at = jobs.iter().position(|j| j.saved.id == id).ok_or_else(|| format!("there is no download {id:?}"))?;
        let mut job = jobs.remove(at);
        stop(&mut job);
        if job.saved.state != DownloadState::Done {
            let _ = std::fs::remove_file(part(&self.inner.dir, &job.saved.name));
        }
        self.inner.save(&jobs);
        drop(jobs);
        self.inner.wake.notify_one();
        Ok(self.view())
    }

    /// A mirror or an offline registry; empty goes back to Hugging Face.
    pub fn set_endpoint(&self, endpoint: &str) -> Result<DownloadsView, String> {
        let endpoint = endpoint.trim().trim_end_matches('/');
        let path = self.inner.dir.join(ENDPOINT);
        if endpoint.is_empty() {
            let _ = std::fs::remove_file(&path);
        } else {
            let url = reqwest::Url::parse(endpoint).map_err(|e| format!("{endpoint:?} is not a web address: {e}"))?;
            if !matches!(url.scheme(), "http" | "https") {
                return Err(format!("{endpoint:?} is not an http or https address"));
            }
            std::fs::create_dir_all(&self.inner.dir).map_err(|e| format!("could not make the models folder: {e}"))?;
            let text = serde_json::to_vec_pretty(&EndpointFile { endpoint: endpoint.to_owned() }).unwrap_or_default();
            std::fs::write(&path, text).map_err(|e| format!("could not save the hub's address: {e}"))?;
        }
        *self.inner.hub.lock().unwrap_or_else(PoisonError::into_inner) = Hub::new(&saved_endpoint(&self.inner.dir));
        Ok(self.view())
    }
}

impl Inner {
    fn jobs(&self) -> MutexGuard<'_, Vec<Job>> {
        self.jobs.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn view(&self) -> DownloadsView {
        let endpoint = self.hub.lock().unwrap_or_else(PoisonError::into_inner).endpoint.clone();
        let downloads = self
            .jobs()
            .iter()
            .map(|j| {
                let s = &j.saved;
                let done = if s.state == DownloadState::Done { s.bytes } else { j.progress.done() };
                let speed = if s.state == DownloadState::Running { j.progress.speed() } else { 0 };
                Download {
                    id: s.id.clone(),
                    repo: s.repo.clone(),
                    file: s.file.clone(),
                    name: s.name.clone(),
                    bytes: s.bytes,
                    done,
                    speed,
                    eta_seconds: (speed > 0).then(|| s.bytes.saturating_sub(done) / speed),
                    state: s.state,
                    error: s.error.clone(),
                    use_when_done: s.use_when_done,
                }
            })
            .collect();
        DownloadsView { endpoint, downloads }
    }

    /// A model of this name is neither on the shelf nor on its way.
    fn check_free(&self, name: &str) -> Result<(), String> {
        if models::list(&self.dir, &[]).iter().any(|m| m.name == name) {
            return Err(format!("{name} is on the shelf already"));
        }
        if self.jobs().iter().any(|j| j.saved.name == name && j.saved.state != DownloadState::Done) {
            return Err(format!("{name} is in the downloads already"));
        }
        Ok(())
    }

    fn edit(&self, id: &str, change: impl FnOnce(&mut Job) -> Result<(), String>) -> Result<DownloadsView, String> {
        let mut jobs = self.jobs();
        let job = jobs.iter_mut().find(|j| j.saved.id == id).ok_or_else(|| format!("there is no download {id:?}"))?;
        change(job)?;
        self.save(&jobs);
        drop(jobs);
        Ok(self.view())
    }

    /// The queue on disk (what finished is not kept).
    fn save(&self, jobs: &[Job]) {
        let saved: Vec<&Saved> = jobs.iter().map(|j| &j.saved).filter(|s| s.state != DownloadState::Done).collect();
        let path = self.dir.join(QUEUE);
        let tmp = self.dir.join(format!("{QUEUE}.tmp"));
        let written = std::fs::create_dir_all(&self.dir)
            .and_then(|()| std::fs::write(&tmp, serde_json::to_vec_pretty(&saved).unwrap_or_default()))
            .and_then(|()| std::fs::rename(&tmp, &path));
        if let Err(e) = written {
            tracing::warn!("could not save the downloads: {e}");
        }
    }

    /// Starts queued downloads while fewer than [`AT_ONCE`] run.
    async fn run(self: Arc<Self>) {
        loop {
            let starting: Vec<Start> = {
                let mut jobs = self.jobs();
                let running = jobs.iter().filter(|j| j.alive.load(Ordering::Acquire)).count();
                let mut out = Vec::new();
                let ready = |j: &&mut Job| j.saved.state == DownloadState::Queued && !j.alive.load(Ordering::Acquire);
                for job in jobs.iter_mut().filter(ready) {
                    if running + out.len() >= AT_ONCE {
                        break;
                    }
                    let (tx, rx) = watch::channel(false);
                    job.stop = Some(tx);
                    job.alive.store(true, Ordering::Release);
                    job.saved.state = DownloadState::Running;
                    out.push((job.saved.clone(), job.progress.clone(), rx, job.alive.clone()));
                }
                if !out.is_empty() {
                    self.save(&jobs);
                }
                out
            };
            for (saved, progress, stop, alive) in starting {
                let inner = self.clone();
                tokio::spawn(async move {
                    inner.clone().one(saved, progress, stop).await;
                    alive.store(false, Ordering::Release);
                    inner.wake.notify_one();
                });
            }
            self.wake.notified().await;
        }
    }

    async fn one(self: Arc<Self>, saved: Saved, progress: Arc<Progress>, mut stop: watch::Receiver<bool>) {
        let hub = self.hub.lock().unwrap_or_else(PoisonError::into_inner).clone();
        let partial = part(&self.dir, &saved.name);
        let url = hub.file_url(&saved.repo, &saved.file);
        let fetched = transfer::fetch(&hub, &url, &partial, saved.bytes, &progress, &mut stop).await;
        let result = match fetched {
            Ok(Outcome::Stopped) => None,
            Ok(Outcome::Complete) => {
                self.set_state(&saved.id, DownloadState::Verifying, None);
                let (dir, s) = (self.dir.clone(), saved.clone());
                Some(tokio::task::spawn_blocking(move || shelve(&dir, &s)).await.unwrap_or_else(|e| Err(e.to_string())))
            }
            Err(e) => Some(Err(e)),
        };
        let mut jobs = self.jobs();
        let Some(job) = jobs.iter_mut().find(|j| j.saved.id == saved.id) else {
            // Cancelled while it ran: what it wrote goes, unless the same
            // file was asked for again meanwhile (its download owns it).
            if !jobs.iter().any(|j| j.saved.name == saved.name) {
                let _ = std::fs::remove_file(&partial);
            }
            return;
        };
        job.stop = None;
        let landed = matches!(result, Some(Ok(())));
        match result {
            Some(Ok(())) => job.saved.state = DownloadState::Done,
            Some(Err(e)) => {
                job.saved.state = DownloadState::Failed;
                job.saved.error = Some(e);
            }
            None => {}
        }
        self.save(&jobs);
        drop(jobs);
        if landed {
            if saved.use_when_done {
                if let Err(e) = models::set_default(&self.dir, &[], &saved.name) {
                    tracing::warn!("{e}");
                }
            }
            if let Some(changed) = self.changed.get() {
                changed();
            }
        }
    }

    fn set_state(&self, id: &str, state: DownloadState, error: Option<String>) {
        if let Some(job) = self.jobs().iter_mut().find(|j| j.saved.id == id) {
            job.saved.state = state;
            job.saved.error = error;
        }
    }
}

/// Checks the whole file and gives it its name on the shelf.
fn shelve(dir: &Path, s: &Saved) -> Result<(), String> {
    let partial = part(dir, &s.name);
    if let Some(expected) = &s.sha256 {
        let got = transfer::sha256(&partial)?;
        if !got.eq_ignore_ascii_case(expected) {
            let _ = std::fs::remove_file(&partial);
            return Err(format!(
                "the file that came does not match the repository's SHA-256 ({expected}, it came as {got}); it was deleted — download it again"
            ));
        }
    }
    if let Err(e) = models::readable(&partial) {
        let _ = std::fs::remove_file(&partial);
        return Err(e);
    }
    let target = dir.join(&s.name);
    if target.exists() {
        return Err(format!("a model named {} arrived on the shelf meanwhile", s.name));
    }
    std::fs::rename(&partial, &target).map_err(|e| format!("could not put {} on the shelf: {e}", s.name))
}

fn stop(job: &mut Job) {
    if let Some(tx) = job.stop.take() {
        let _ = tx.send(true);
    }
}

fn part(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.download"))
}

/// An id never used before, even by a download cancelled a moment ago
/// whose task is still ending.
fn unique_id(jobs: &[Job], name: &str) -> String {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let stem = format!("{}-{:x}", name.strip_suffix(".gguf").unwrap_or(name), nanos & 0xff_ffff_ffff);
    let mut id = stem.clone();
    let mut n = 2;
    while jobs.iter().any(|j| j.saved.id == id) {
        id = format!("{stem}-{n}");
        n += 1;
    }
    id
}

/// The endpoint saved, else `HF_ENDPOINT` (as Hugging Face's own tools
/// read it), else Hugging Face.
fn saved_endpoint(dir: &Path) -> String {
    let saved = std::fs::read(dir.join(ENDPOINT))
        .ok()
        .and_then(|b| serde_json::from_slice::<EndpointFile>(&b).ok())
        .map(|f| f.endpoint);
    saved
        .or_else(|| std::env::var("HF_ENDPOINT").ok().filter(|e| !e.trim().is_empty()))
        .unwrap_or_else(|| DownloadsView::DEFAULT_ENDPOINT.to_owned())
}
