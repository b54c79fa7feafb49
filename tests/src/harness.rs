//! The runtime under test: a real SQLite file in a temporary directory and
//! a provider of the test's choosing; and waiting on a context's events
//! (its `context_update`s) instead of polling its state with sleeps.

use braid_llm::LlmProvider;
use braid_protocol::{BraidEvent, ContextId, ContextStatus, StatusKind};
use braid_runtime::{Runtime, RuntimeConfig, Subscription};
use std::sync::Arc;
use std::time::Duration;

/// How long a wait on a scripted or mock model may take before the test
/// fails with what it saw (see [`limit`]).
pub const LIMIT: Duration = Duration::from_secs(30);

/// How long a wait on a real model may take: a first answer of the 135M
/// model on a 2-core machine busy with other work took over a minute, so
/// the limit is far above it (a wait ends at the event, not the limit).
pub const REAL_MODEL_LIMIT: Duration = Duration::from_secs(600);

/// `base` times `BRAID_TEST_TIME_SCALE` (1 when unset): a slower or busier
/// machine gives every wait more time without editing a test.
pub fn scaled(base: Duration) -> Duration {
    let scale = std::env::var("BRAID_TEST_TIME_SCALE").ok().and_then(|s| s.parse::<f64>().ok());
    base.mul_f64(scale.filter(|s| s.is_finite() && *s > 0.0).unwrap_or(1.0))
}

/// [`LIMIT`], scaled.
pub fn limit() -> Duration {
    scaled(LIMIT)
}

/// A runtime whose database, images and default workspace are in `dir`
/// (opened again on the same `dir`, it is the app after a restart),
/// answering with `provider`; `configure` adjusts the configuration first.
pub fn open_in(
    dir: &std::path::Path,
    provider: Arc<dyn LlmProvider>,
    configure: impl FnOnce(&mut RuntimeConfig),
) -> Runtime {
    let mut config = RuntimeConfig::new(dir.join("braid.db"), dir.to_owned());
    configure(&mut config);
    Runtime::open(config, provider).unwrap().0
}

pub struct Harness {
    pub rt: Runtime,
    /// Holds the database, the images and the default workspace.
    pub dir: tempfile::TempDir,
}

impl Harness {
    /// A runtime on a fresh temporary directory (also the default
    /// workspace), answering with `provider`; `configure` adjusts the
    /// configuration first (policy, limits, model).
    pub fn open(provider: Arc<dyn LlmProvider>, configure: impl FnOnce(&mut RuntimeConfig)) -> Harness {
        let dir = tempfile::tempdir().unwrap();
        let rt = open_in(dir.path(), provider, configure);
        Harness { rt, dir }
    }

    /// A new conversation in the default workspace, and a watch on it
    /// from its first event.
    pub async fn context(&self) -> (ContextId, Watch) {
        let id = self.rt.create_context(None, None).await.unwrap().id;
        let watch = Watch::new(&self.rt, &id).await;
        (id, watch)
    }
}

/// Every state a context passes through from the moment of subscribing,
/// kept until a test asks for it, so even a state held for a microsecond
/// is seen.
pub struct Watch {
    sub: Subscription,
    /// The state when subscribing, then each one reported, not yet looked at.
    unseen: std::collections::VecDeque<ContextStatus>,
    /// Everything looked at, for the failure message.
    seen: Vec<StatusKind>,
    /// How long one `until` may wait.
    limit: Duration,
}

impl Watch {
    pub async fn new(rt: &Runtime, id: &ContextId) -> Watch {
        let (snapshot, sub) = rt.subscribe(id).await.unwrap();
        Watch { sub, unseen: [snapshot.summary.status].into(), seen: Vec::new(), limit: limit() }
    }

    /// The same watch waiting as long as a real model needs
    /// ([`REAL_MODEL_LIMIT`], scaled).
    pub fn on_real_model(mut self) -> Watch {
        self.limit = scaled(REAL_MODEL_LIMIT);
        self
    }

    /// The next state (in order) that satisfies `wanted`; states before it
    /// are passed over. Fails after the watch's limit naming the states seen.
    pub async fn until(&mut self, what: &str, wanted: impl Fn(&ContextStatus) -> bool) -> ContextStatus {
        let deadline = tokio::time::Instant::now() + self.limit;
        loop {
            while let Some(status) = self.unseen.pop_front() {
                self.seen.push(status.kind());
                if wanted(&status) {
                    return status;
                }
            }
            let event = tokio::time::timeout_at(deadline, self.sub.recv())
                .await
                .unwrap_or_else(|_| panic!("no {what} within {:?}; states seen: {:?}", self.limit, self.seen));
            match event {
                Some(Ok(BraidEvent::ContextUpdate(u))) => self.unseen.push_back(u.current_state),
                Some(Ok(_)) => {}
                Some(Err(missed)) => panic!("the watch missed {missed} events"),
                None => panic!("the context's events ended while waiting for {what}"),
            }
        }
    }

    /// The next state of this kind.
    pub async fn state(&mut self, kind: StatusKind) -> ContextStatus {
        self.until(&format!("{kind:?}"), |s| s.kind() == kind).await
    }

    /// The next state that takes a message again (Idle or Failed).
    pub async fn settled(&mut self) -> ContextStatus {
        self.until("Idle or Failed", |s| !s.is_busy()).await
    }
}

/// Whether process `pid` is gone (a zombie counts), looked at for up to
/// 2 s: a kill is sent as a task is dropped and the kernel reaps at once.
pub fn process_gone(pid: i64) -> bool {
    (0..200).any(|_| {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let dead = stat.is_empty() || stat.split(") ").nth(1).is_some_and(|rest| rest.starts_with('Z'));
        if !dead {
            std::thread::sleep(Duration::from_millis(10));
        }
        dead
    })
}

/// Whether `holds` comes true within [`limit`], looked at every 10 ms:
/// for what no event reports (a file an executor writes or removes).
pub async fn eventually<F: std::future::Future<Output = bool>>(holds: impl Fn() -> F) -> bool {
    let deadline = tokio::time::Instant::now() + limit();
    loop {
        if holds().await {
            return true;
        }
        if tokio::time::Instant::now() > deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// The notices of `code` a subscription brings, until it is quiet for
/// `quiet` (what arrived since it was opened, in order).
pub async fn notices(
    sub: &mut Subscription,
    code: braid_protocol::NoticeCode,
    quiet: Duration,
) -> Vec<braid_protocol::Notice> {
    let mut found = Vec::new();
    while let Ok(Some(Ok(event))) = tokio::time::timeout(quiet, sub.recv()).await {
        if let BraidEvent::ContextUpdate(u) = event {
            found.extend(u.metadata.notice.filter(|n| n.code == code));
        }
    }
    found
}
