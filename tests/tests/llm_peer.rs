//! End to end against a real OpenAI-compatible server: llama.cpp serving
//! SmolLM2-135M on 127.0.0.1, started with the project's `tests/llm-peer.sh`
//! (its build is cached outside the clone). One test, run in order: the
//! peer is one process with one pid file, and two scenarios need it started
//! with different API keys.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::llm::StopReason;
use braid_core::machine::Event;
use braid_core::sim::Sim;
use braid_llm::{
    ApiKey, HttpProvider, LlmProvider, LlmRequest, ProviderKind, ResponseAssembler, Timeouts, ToolChoice,
    ToolDefinition,
};
use braid_protocol::{BraidEvent, ContextStatus, MessageType, NewMessage, Role, StatusKind};
use braid_runtime::{Runtime, RuntimeConfig, Subscription};
use braid_testkit::harness::{scaled, REAL_MODEL_LIMIT};
use futures::StreamExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[path = "peer/codebase.rs"]
mod codebase;
#[path = "peer/subagents.rs"]
mod subagents;
#[path = "peer/team.rs"]
mod team;
#[path = "peer/window_view.rs"]
mod window_view;

const MODEL: &str = "smollm2-135m";

/// `BRAID_LLM_PEER_SCRIPT`, else the project's own `tests/llm-peer.sh`:
/// nothing outside the repository is read.
fn script() -> PathBuf {
    if let Some(p) = std::env::var_os("BRAID_LLM_PEER_SCRIPT") {
        return PathBuf::from(p);
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("llm-peer.sh")
}

/// This run's peer port, free when first asked (`LLM_PEER_PORT` to pick
/// one): the script keys its pidfile and log by port, so this run starts,
/// restarts and stops its own peer and never another checkout's.
fn port() -> u16 {
    static PORT: std::sync::OnceLock<u16> = std::sync::OnceLock::new();
    *PORT.get_or_init(|| match std::env::var("LLM_PEER_PORT") {
        Ok(p) => p.parse().expect("LLM_PEER_PORT is a port"),
        Err(_) => std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port(),
    })
}

fn peer(cmd: &str, api_key: Option<&str>) -> String {
    let mut c = Command::new("bash");
    c.arg(script()).arg(cmd).env("LLM_PEER_PORT", port().to_string());
    match api_key {
        Some(k) => c.env("LLM_PEER_API_KEY", k),
        None => c.env_remove("LLM_PEER_API_KEY"),
    };
    let out = c.output().unwrap_or_else(|e| panic!("cannot run {}: {e}", script().display()));
    assert!(out.status.success(), "llm-peer.sh {cmd} failed:\n{}", String::from_utf8_lossy(&out.stderr));
    if cmd == "stop" {
        wait_port_closed();
    }
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// `stop` signals the server and returns at once; a server started right
/// after could not bind while the old one still answers on the port.
fn wait_port_closed() {
    let port = port();
    let deadline = Instant::now() + scaled(Duration::from_secs(60));
    while std::net::TcpStream::connect(format!("127.0.0.1:{port}")).is_ok() {
        assert!(Instant::now() < deadline, "the old llm peer did not exit");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Stops the peer when the test ends, even on failure.
struct Peer;
impl Drop for Peer {
    fn drop(&mut self) {
        let _ = Command::new("bash").arg(script()).arg("stop").env("LLM_PEER_PORT", port().to_string()).status();
    }
}

fn server_log() -> String {
    std::fs::read_to_string(peer("log", None)).unwrap_or_default()
}

fn provider(url: &str, key: Option<&str>) -> Arc<HttpProvider> {
    Arc::new(
        HttpProvider::new(
            ProviderKind::OpenAiCompatible,
            "llama.cpp",
            url,
            key.and_then(ApiKey::new),
            Timeouts::default(),
        )
        .unwrap(),
    )
}

fn runtime(dir: &Path, p: Arc<HttpProvider>, max_tokens: u32) -> Runtime {
    let mut config = RuntimeConfig::new(dir.join("braid.db"), dir.to_owned());
    config.model = MODEL.into();
    config.max_tokens = max_tokens;
    no_auto_continue(&mut config);
    Runtime::open(config, p).unwrap().0
}

/// The flows here keep their answers short on purpose: a cut answer
/// stops (one request per turn, as each flow counts), except in
/// `cut_flow`, which is about going on.
fn no_auto_continue(config: &mut RuntimeConfig) {
    config.machine.generation.continue_cut = Some(0);
}

/// Keeps every request Braid sends, then sends it on.
struct Recording {
    inner: Arc<HttpProvider>,
    sent: std::sync::Mutex<Vec<LlmRequest>>,
}

impl LlmProvider for Recording {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn stream(&self, request: LlmRequest) -> braid_llm::LlmStream {
        self.sent.lock().unwrap().push(request.clone());
        self.inner.stream(request)
    }
    fn count_tokens(&self, model: &str, texts: Vec<String>) -> futures::future::BoxFuture<'static, Option<Vec<u32>>> {
        self.inner.count_tokens(model, texts)
    }
    fn count_request(&self, request: &LlmRequest) -> futures::future::BoxFuture<'static, Option<u32>> {
        self.inner.count_request(request)
    }
}

fn say(t: &str) -> NewMessage {
    NewMessage::user_text(t)
}

/// Every event until the context reaches one of `kinds`: the wait ends
/// with the event; `limit` (scaled by `BRAID_TEST_TIME_SCALE`) only bounds
/// a run that went wrong.
async fn until(sub: &mut Subscription, kinds: &[StatusKind], limit: Duration) -> Vec<BraidEvent> {
    let mut out = Vec::new();
    let deadline = tokio::time::Instant::now() + scaled(limit);
    loop {
        let Ok(e) = tokio::time::timeout_at(deadline, sub.recv()).await else {
            let seen: Vec<_> = out
                .iter()
                .filter_map(|e| match e {
                    BraidEvent::ContextUpdate(u) => Some(u.current_state.kind()),
                    _ => None,
                })
                .collect();
            panic!("no {kinds:?} within {:?}; states seen: {seen:?}", scaled(limit));
        };
        let e = e.unwrap().unwrap();
        let done = matches!(&e, BraidEvent::ContextUpdate(u) if u.previous_state.is_some() && kinds.contains(&u.current_state.kind()));
        out.push(e);
        if done {
            return out;
        }
    }
}

#[test]
fn against_a_real_llama_cpp_server() {
    // Detection probes this run's port too (as a user's server on a port
    // of their own is found); set before any runtime thread reads the
    // environment.
    std::env::set_var("BRAID_LOCAL_PORTS", port().to_string());
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(real_llama_cpp_flows());
}

async fn real_llama_cpp_flows() {
    let _guard = Peer;
    peer("start", None);
    let url = peer("url", None);
    let dir = tempfile::tempdir().unwrap();

    // 1. A streamed answer reaches the runtime as content_delta events and
    //    is stored, with the usage the server reported.
    let rt = runtime(dir.path(), provider(&url, None), 24);
    let ctx = rt.create_context(Some("peer".into()), None).await.unwrap();
    let (_, mut sub) = rt.subscribe(&ctx.id).await.unwrap();
    rt.send_message(&ctx.id, say("Say hello in one short sentence."), false).await.unwrap();
    let events = until(&mut sub, &[StatusKind::Idle, StatusKind::Failed], REAL_MODEL_LIMIT).await;
    let streamed: String = events
        .iter()
        .filter_map(|e| match e {
            BraidEvent::ContentDelta(d) => Some(d.delta.as_str()),
            _ => None,
        })
        .collect();
    let deltas = events.iter().filter(|e| matches!(e, BraidEvent::ContentDelta(_))).count();
    assert!(deltas >= 2, "streamed in pieces, got {deltas}");
    let snap = rt.load_context(&ctx.id).await.unwrap();
    assert_eq!(snap.summary.status, ContextStatus::Idle);
    assert_eq!(snap.messages.len(), 2);
    assert_eq!(snap.messages[1].body.plain_text().unwrap(), streamed, "the stored answer is what streamed");
    // llama.cpp's server reports usage at the end of the stream (asked for
    // with stream_options.include_usage): stored with the answer.
    let usage = snap.messages[1].meta.usage.expect("the server's usage is kept");
    assert!(usage.prompt_tokens > 10 && (1..=24).contains(&usage.completion_tokens), "{usage:?}");

    // 2. Cancel mid-stream: Idle at once, nothing partial stored, and the
    //    server sees the client go away (generation stops).
    let rt2 = runtime(dir.path(), provider(&url, None), 400);
    let ctx2 = rt2.create_context(None, None).await.unwrap();
    let (_, mut sub2) = rt2.subscribe(&ctx2.id).await.unwrap();
    // llama.cpp's server cancels the task when the client goes away.
    let disconnects_before = server_log().matches("cancel task").count();
    rt2.send_message(&ctx2.id, say("Write a very long story about a dragon and a lighthouse."), false).await.unwrap();
    let mut chunks = 0;
    while chunks < 3 {
        if let Ok(BraidEvent::ContentDelta(_)) =
            tokio::time::timeout(scaled(REAL_MODEL_LIMIT), sub2.recv()).await.unwrap().unwrap()
        {
            chunks += 1;
        }
    }
    let t0 = Instant::now();
    rt2.cancel(&ctx2.id).await.unwrap();
    let snap = rt2.load_context(&ctx2.id).await.unwrap();
    // How fast is measured in the benchmarks; here only that it does not
    // wait for the answer.
    assert!(t0.elapsed() < scaled(Duration::from_secs(5)), "cancel is immediate ({:?})", t0.elapsed());
    assert_eq!(snap.summary.status, ContextStatus::Idle);
    assert_eq!(snap.messages.len(), 1, "no partial answer stored");
    let deadline = Instant::now() + scaled(Duration::from_secs(30));
    while server_log().matches("cancel task").count() == disconnects_before {
        assert!(Instant::now() < deadline, "the server never saw the disconnect");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    rt2.shutdown().await;

    // The server's model list.
    let models =
        braid_llm::catalogue::list_models(ProviderKind::OpenAiCompatible, &url, None, "llama.cpp").await.unwrap();
    assert_eq!(models, [MODEL]);

    // 3. A forced tool call comes back as a ToolRequest.
    let p = provider(&url, None);
    let request = LlmRequest {
        model: MODEL.into(),
        system: None,
        messages: vec![braid_protocol::Message {
            id: braid_protocol::MessageId(1),
            created_at: braid_protocol::Timestamp(0),
            schema_version: braid_protocol::SCHEMA_VERSION,
            body: MessageType::text(Role::User, "What is the weather in Paris?"),
            meta: Default::default(),
        }],
        tools: vec![ToolDefinition {
            name: "get_weather".into(),
            description: "Get the current weather for a city".into(),
            input_schema: serde_json::json!({"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}),
        }],
        tool_choice: Some(ToolChoice::Function("get_weather".into())),
        max_tokens: Some(64),
        temperature: None,
    };
    let mut stream = p.stream(request);
    let mut asm = ResponseAssembler::new();
    while let Some(item) = tokio::time::timeout(scaled(REAL_MODEL_LIMIT), stream.next()).await.unwrap() {
        asm.push(&item.unwrap());
        if asm.is_finished() {
            break;
        }
    }
    let response = asm.finish("llama.cpp").unwrap();
    assert_eq!(response.tool_calls.len(), 1, "{response:?}");
    assert_eq!(response.tool_calls[0].name, "get_weather");
    let mut sim = Sim::new();
    sim.state.config.tools.policy = braid_protocol::ToolApprovalPolicy::Manual;
    let fx = sim.send(Event::UserMessage {
        body: MessageType::text(Role::User, "weather?"),
        queue_if_busy: false,
        force_tool: None,
        images: Vec::new(),
    });
    sim.pipeline_ok(&fx);
    let rid = sim.request_id();
    let stop = response.stop_reason.clone();
    sim.send(Event::LlmCompleted { request_id: rid, response });
    let bodies: Vec<MessageType> = sim.messages().iter().map(|m| m.body.clone()).collect();
    assert!(
        bodies.iter().any(|b| matches!(b, MessageType::ToolRequest { calls, .. } if calls[0].name == "get_weather")),
        "{bodies:?} (stop {stop:?})"
    );
    // Braid has no such tool: the call is refused and the model told so.
    assert!(
        bodies.iter().any(
            |b| matches!(b, MessageType::ToolResult { error: Some(e), .. } if e == "there is no tool named \"get_weather\"")
        ),
        "{bodies:?}"
    );
    assert!(matches!(stop, StopReason::ToolUse | StopReason::EndTurn));
    // The call and its result go back to the server, which accepts them
    // (llama.cpp refuses an assistant message whose content is null).
    let back: Vec<braid_protocol::Message> =
        sim.messages().into_iter().filter(|m| !matches!(m.body, MessageType::SystemControl { .. })).cloned().collect();
    assert_eq!(back.len(), 3, "{back:?}");
    let request = LlmRequest {
        model: MODEL.into(),
        system: None,
        messages: back,
        tools: Vec::new(),
        tool_choice: None,
        max_tokens: Some(16),
        temperature: None,
    };
    let mut stream = p.stream(request);
    let mut asm = ResponseAssembler::new();
    while let Some(item) = tokio::time::timeout(scaled(REAL_MODEL_LIMIT), stream.next()).await.unwrap() {
        asm.push(&item.unwrap_or_else(|e| panic!("the server refused the tool round trip: {e}")));
        if asm.is_finished() {
            break;
        }
    }
    asm.finish("llama.cpp").unwrap();

    // 3b. Tools on every turn (the conversation's choice; this model's
    //     default is only on request): a plain question goes with the
    //     tools and "auto", and the turn ends with an answer or a call.
    auto_tools_flow(dir.path(), &url).await;

    // 3b'. Made to call codebase_search on the codebase fixture, the
    //      model gets the search's result in its next request.
    codebase::codebase_flow(dir.path(), &url).await;

    // 3b''. Three team members on the model, routed by markers, each
    //       given the previous member's answer.
    team::team_flow(dir.path(), &url).await;

    // 3b'''. Made to call spawn_agents, the model's tasks run as children
    //        that submit on their grace turn; the parent reads them all.
    subagents::subagents_flow(dir.path(), &url).await;

    // 3c'. An answer cut at the output limit goes on by itself once and is
    //      stored as one answer.
    cut_flow(dir.path(), &url).await;

    // 3c. Text the estimate cannot know well is counted by the model's own
    //     tokenizer on its server, so it is fitted by the real figure.
    counting_flow(dir.path(), &url).await;

    // 4. Set up as a user does: nothing configured, the local server is
    //    detected, tested, saved; a conversation answers from it, and a
    //    restart keeps provider, title and history.
    settings_flow(dir.path(), &url).await;

    // 5. A long conversation crosses the summary threshold of the model's
    //    4,096-token window: the real model writes the summary and the
    //    conversation goes on.
    summary_flow(dir.path(), &url).await;

    // 5b. The window view is what is sent, within 1 % of the server's own
    //     count, in five conversations; a file that cannot fit is refused
    //     before anything is sent.
    window_view::window_view_flow(dir.path(), &url).await;

    // 6. A wrong API key is a clear, non-retryable error.
    peer("stop", None);
    peer("start", Some("the-right-key"));
    let rt3 = runtime(dir.path(), provider(&url, Some("a-wrong-key")), 16);
    let ctx3 = rt3.create_context(None, None).await.unwrap();
    let (_, mut sub3) = rt3.subscribe(&ctx3.id).await.unwrap();
    rt3.send_message(&ctx3.id, say("hi"), false).await.unwrap();
    let events = until(&mut sub3, &[StatusKind::Failed, StatusKind::Idle], REAL_MODEL_LIMIT).await;
    assert!(
        !events.iter().any(
            |e| matches!(e, BraidEvent::ContextUpdate(u) if u.current_state.kind() == StatusKind::RetryingLlmRequest)
        ),
        "not retried"
    );
    match rt3.load_context(&ctx3.id).await.unwrap().summary.status {
        ContextStatus::Failed { error_code, message, recoverable } => {
            assert_eq!(error_code, braid_protocol::FailureCode::Auth);
            assert!(message.starts_with("check the API key for llama.cpp"), "{message}");
            assert!(!message.contains("a-wrong-key"), "the key never shows");
            assert!(!recoverable);
        }
        other => panic!("expected Failed, got {other:?}"),
    }
    // With the right key the same server answers.
    let rt4 = runtime(dir.path(), provider(&url, Some("the-right-key")), 8);
    let ctx4 = rt4.create_context(None, None).await.unwrap();
    let (_, mut sub4) = rt4.subscribe(&ctx4.id).await.unwrap();
    rt4.send_message(&ctx4.id, say("hi"), false).await.unwrap();
    until(&mut sub4, &[StatusKind::Idle], REAL_MODEL_LIMIT).await;
}

async fn auto_tools_flow(dir: &Path, url: &str) {
    use braid_protocol::{GenerationSettings, ToolApprovalPolicy, ToolUse};
    let work = dir.join("auto-tools");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(work.join("notes.txt"), "The secret word is pineapple.\n").unwrap();
    let recording = Arc::new(Recording { inner: provider(url, None), sent: Default::default() });
    let mut config = RuntimeConfig::new(work.join("braid.db"), work.clone());
    config.model = MODEL.into();
    config.max_tokens = 48;
    no_auto_continue(&mut config);
    config.machine.tools.policy = ToolApprovalPolicy::AutoAll;
    config.machine.max_loop_depth = 1;
    let rt = Runtime::open(config, recording.clone()).unwrap().0;
    let ctx = rt.create_context(None, None).await.unwrap();
    assert_eq!(rt.peek(&ctx.id).await.unwrap().tool_use, ToolUse::AsNeeded, "this model's default");
    let auto = GenerationSettings {
        tool_use: Some(ToolUse::Auto),
        temperature: Some(0.0),
        max_output_tokens: None,
        continue_cut: None,
    };
    rt.set_generation(&ctx.id, auto).await.unwrap();
    let (_, mut sub) = rt.subscribe(&ctx.id).await.unwrap();
    rt.send_message(&ctx.id, say("Read the file notes.txt and tell me what it says."), false).await.unwrap();
    let events = until(&mut sub, &[StatusKind::Idle, StatusKind::Failed], REAL_MODEL_LIMIT).await;
    let first = recording.sent.lock().unwrap()[0].clone();
    assert!(first.tools.iter().any(|t| t.name == "read_file"), "the tools went with the question");
    assert_eq!((first.tool_choice, first.temperature), (Some(ToolChoice::Auto), Some(0.0)));
    let snap = rt.load_context(&ctx.id).await.unwrap();
    assert_eq!(snap.summary.status, ContextStatus::Idle, "the turn ends, whatever the server does with tools");
    let called = snap.messages.iter().any(|m| matches!(&m.body, MessageType::ToolRequest { .. }));
    let answered = snap
        .messages
        .iter()
        .any(|m| m.body.role() == Some(Role::Assistant) && m.body.plain_text().is_some_and(|t| !t.trim().is_empty()));
    let notes: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            BraidEvent::ContextUpdate(u) => u.metadata.notice.as_ref().map(|n| n.code.to_string()),
            _ => None,
        })
        .collect();
    // Shown for the record (cargo test --nocapture).
    println!("auto tools: called {called}, answered {answered}, notices {notes:?}");
    assert!(called || answered, "{:?}", snap.messages.iter().map(|m| m.body.kind()).collect::<Vec<_>>());
    rt.shutdown().await;
}

async fn cut_flow(dir: &Path, url: &str) {
    let work = dir.join("cut");
    std::fs::create_dir_all(&work).unwrap();
    let recording = Arc::new(Recording { inner: provider(url, None), sent: Default::default() });
    let mut config = RuntimeConfig::new(work.join("braid.db"), work.clone());
    config.model = MODEL.into();
    // Four tokens: any answer longer is cut (what the model writes does not
    // matter, only that it writes more than four tokens, twice).
    config.max_tokens = 4;
    let rt = Runtime::open(config, recording.clone()).unwrap().0;
    let ctx = rt.create_context(Some("cut".into()), None).await.unwrap();
    let (_, mut sub) = rt.subscribe(&ctx.id).await.unwrap();
    rt.send_message(&ctx.id, say("Tell me a long story about a lighthouse keeper."), false).await.unwrap();
    until(&mut sub, &[StatusKind::Idle, StatusKind::Failed], REAL_MODEL_LIMIT).await;
    let snap = rt.load_context(&ctx.id).await.unwrap();
    assert_eq!(snap.summary.status, ContextStatus::Idle);
    let sent = recording.sent.lock().unwrap().clone();
    let answers: Vec<&braid_protocol::Message> = snap
        .messages
        .iter()
        .filter(|m| matches!(m.body, braid_protocol::MessageType::Text { role: braid_protocol::Role::Assistant, .. }))
        .collect();
    let texts: Vec<Option<String>> = answers.iter().map(|m| m.body.plain_text()).collect();
    println!("cut: {} requests, answers {texts:?}", sent.len());
    assert_eq!(sent.len(), 2, "the cut answer went on once by itself");
    let partial = sent[1].messages.last().and_then(|m| m.body.plain_text()).unwrap_or_default();
    assert!(sent[1].system.as_deref().unwrap_or_default().contains("cut off at the output limit"));
    assert_eq!(answers.len(), 1, "stored as one answer");
    let text = answers[0].body.plain_text().unwrap_or_default();
    // Whether the model wrote more, and where it stopped, is its own.
    assert!(!partial.is_empty() && text.starts_with(&partial), "{text:?} joins {partial:?}");
    rt.shutdown().await;
}

async fn counting_flow(dir: &Path, url: &str) {
    let work = dir.join("counting");
    std::fs::create_dir_all(&work).unwrap();
    let text =
        "Смотритель маяка каждый вечер поднимался по лестнице, считая ступени, пока море внизу темнело. ".repeat(40);
    let p = provider(url, None);
    let model_count = p.count_tokens(MODEL, vec![text.clone()]).await.expect("llama-cpp-python counts tokens");
    let rt = runtime(&work, p, 32);
    let ctx = rt.create_context(None, None).await.unwrap();
    let (_, mut sub) = rt.subscribe(&ctx.id).await.unwrap();
    rt.send_message(&ctx.id, say(&text), false).await.unwrap();
    until(&mut sub, &[StatusKind::Idle, StatusKind::Failed], REAL_MODEL_LIMIT).await;
    let snap = rt.load_context(&ctx.id).await.unwrap();
    assert_eq!(snap.summary.status, ContextStatus::Idle);
    let usage = snap.context.unwrap();
    let o200k = braid_core::tokens::count(braid_core::tokens::TokenEncoding::O200k, &text);
    println!("counting: the model {}, o200k {o200k}, sent as {usage:?}", model_count[0]);
    assert!(!usage.estimated, "the figures are the model's own: {usage:?}");
    let n = model_count[0];
    assert!((n..n + 16).contains(&usage.messages), "{} counted for {n} of the model's tokens", usage.messages);
    rt.shutdown().await;
}

async fn settings_flow(dir: &Path, url: &str) {
    use braid_llm::secrets::Secrets;
    use braid_protocol::{Command, KeyChange, LocalServer, ModelSummary, ProviderInput, SettingsView};
    use braid_runtime::Providers;
    let data = dir.join("app");
    std::fs::create_dir_all(&data).unwrap();
    let open = || {
        let providers = Providers::from_settings(data.join("settings.json"), Secrets::file_only(&data)).unwrap();
        Runtime::open_with(RuntimeConfig::new(data.join("braid.db"), data.clone()), providers).unwrap().0
    };
    let rt = open();
    let found: Vec<LocalServer> =
        serde_json::from_value(rt.execute(Command::DetectLocalServers).await.unwrap()).unwrap();
    let local = found.iter().find(|s| s.base_url == url).unwrap_or_else(|| panic!("{url} not detected in {found:?}"));
    assert_eq!((local.name.as_str(), local.models.as_slice()), ("llama.cpp", [MODEL.to_owned()].as_slice()));
    let form = ProviderInput {
        id: None,
        kind: ProviderKind::OpenAiCompatible,
        name: "Local llama.cpp".into(),
        base_url: url.to_owned(),
        default_model: Some(MODEL.into()),
        key: KeyChange::Keep,
    };
    let models: Vec<ModelSummary> =
        serde_json::from_value(rt.execute(Command::TestProvider { provider: form.clone() }).await.unwrap()).unwrap();
    assert_eq!(models[0].id, MODEL);
    assert_eq!(models[0].context_window, 4_096, "the catalogue knows the model");
    let view: SettingsView =
        serde_json::from_value(rt.execute(Command::SaveProvider { provider: form }).await.unwrap()).unwrap();
    assert_eq!(view.default_provider.as_deref(), Some("local-llama-cpp"));
    let ctx = rt.create_context(None, None).await.unwrap();
    rt.execute(Command::RenameContext { context_id: ctx.id.clone(), title: "Greetings".into() }).await.unwrap();
    let (snap, mut sub) = rt.subscribe(&ctx.id).await.unwrap();
    assert_eq!(snap.effective_model.unwrap().model, MODEL);
    rt.send_message(&ctx.id, say("Say hi."), false).await.unwrap();
    let events = until(&mut sub, &[StatusKind::Idle, StatusKind::Failed], REAL_MODEL_LIMIT).await;
    let told: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            BraidEvent::ContextUpdate(u) => u.metadata.notice.as_ref().map(|n| format!("{}: {}", n.code, n.message)),
            _ => None,
        })
        .collect();
    assert_eq!(rt.peek(&ctx.id).await.unwrap().summary.status, ContextStatus::Idle);
    rt.shutdown().await;
    drop(rt);

    let rt = open();
    let listed = rt.list_contexts().await.unwrap();
    assert_eq!(listed[0].title, "Greetings");
    let snap = rt.load_context(&ctx.id).await.unwrap();
    assert_eq!(snap.messages.len(), 2, "question and answer survive the restart ({told:?})");
    assert!(!snap.messages[1].body.plain_text().unwrap().is_empty());
    rt.shutdown().await;
}

async fn summary_flow(dir: &Path, url: &str) {
    use braid_protocol::ControlKind;
    let data = dir.join("summary");
    std::fs::create_dir_all(&data).unwrap();
    let mut config = RuntimeConfig::new(data.join("braid.db"), data.clone());
    config.model = MODEL.into();
    config.max_tokens = 96;
    let rt = Runtime::open(config, provider(url, None)).unwrap().0;
    // Runtime::open's fallback assumes an 8,192 window; use the catalogue's
    // 4,096 for SmolLM2 through a saved provider instead.
    let form = braid_protocol::ProviderInput {
        id: None,
        kind: ProviderKind::OpenAiCompatible,
        name: "peer".into(),
        base_url: url.to_owned(),
        default_model: Some(MODEL.into()),
        key: braid_protocol::KeyChange::Keep,
    };
    rt.execute(braid_protocol::Command::SaveProvider { provider: form }).await.unwrap();
    let ctx = rt.create_context(Some("long".into()), None).await.unwrap();
    let (_, mut sub) = rt.subscribe(&ctx.id).await.unwrap();
    let paragraph = "The lighthouse keeper wrote in his log about the storm, the ships that passed, the lamp he \
                     cleaned each evening and the gulls that nested on the rocks below the tower. ";
    let mut summarized = None;
    for turn in 0..12 {
        let text = format!("Note {turn}: {}", paragraph.repeat(12));
        rt.send_message(&ctx.id, say(&text), false).await.unwrap();
        until(&mut sub, &[StatusKind::Idle, StatusKind::Failed], REAL_MODEL_LIMIT).await;
        let snap = rt.load_context(&ctx.id).await.unwrap();
        assert_eq!(snap.summary.status, ContextStatus::Idle, "turn {turn}");
        summarized = snap.messages.iter().find_map(|m| match &m.body {
            MessageType::SystemControl { control: ControlKind::Summary { text, replaces } } => {
                Some((text.clone(), replaces.len()))
            }
            _ => None,
        });
        if summarized.is_some() {
            break;
        }
    }
    let (text, replaced) = summarized.expect("the conversation crossed the threshold and was summarised");
    assert!(!text.trim().is_empty() && replaced >= 2, "{replaced} messages summarised as {text:?}");
    // It goes on after the summary.
    rt.send_message(&ctx.id, say("What was the keeper's job?"), false).await.unwrap();
    until(&mut sub, &[StatusKind::Idle, StatusKind::Failed], REAL_MODEL_LIMIT).await;
    let snap = rt.load_context(&ctx.id).await.unwrap();
    assert_eq!(snap.summary.status, ContextStatus::Idle);
    // The model answers, or (the tools are offered) calls one.
    let asked = snap.messages.iter().rposition(|m| m.body.role() == Some(Role::User)).unwrap();
    let answered = snap.messages[asked + 1..].iter().any(|m| match &m.body {
        MessageType::ToolRequest { .. } => true,
        b @ MessageType::Text { role: Role::Assistant, .. } => b.plain_text().is_some_and(|t| !t.is_empty()),
        _ => false,
    });
    assert!(answered, "{:?}", snap.messages[asked..].iter().map(|m| m.body.kind()).collect::<Vec<_>>());
    let usage = snap.context.unwrap();
    assert!(usage.system + usage.tools + usage.messages + usage.reserved_output <= 4_096, "{usage:?}");
    rt.shutdown().await;
}
