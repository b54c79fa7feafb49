//! The built-in model against the real starter GGUF (SmolLM2-135M-Instruct
//! run in-process by llama.cpp): it streams an answer, stops at once when
//! the stream is dropped (Cancel), and a required tool call comes out as
//! valid JSON arguments for the tool (forced: the call is sampled under a
//! grammar built from its schema). What the model writes in words is its
//! own and differs from one CPU to another: only Braid's side is checked.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::llm::StopReason;
use braid_llm::{LlmProvider, LlmRequest, ProviderEvent, ToolChoice, ToolDefinition};
use braid_local::LocalProvider;
use braid_protocol::{LocalModelSettings, Message, MessageId, MessageType, Role, Timestamp};
use braid_testkit::harness::{scaled, REAL_MODEL_LIMIT};
use braid_testkit::local::starter_model;
use futures::StreamExt;
use std::time::Duration;

/// A wait on the model (generous: the machine may be busy).
fn limit() -> Duration {
    scaled(REAL_MODEL_LIMIT)
}

/// A stopped model's worker ends at its next token: a token takes well
/// under a second even on a busy machine.
fn stop_limit() -> Duration {
    scaled(Duration::from_secs(10))
}

/// The words of a stream's text deltas.
fn text_of(events: &[ProviderEvent]) -> String {
    events.iter().filter_map(|e| if let ProviderEvent::TextDelta(t) = e { Some(t.as_str()) } else { None }).collect()
}

fn ask(text: &str) -> LlmRequest {
    LlmRequest {
        model: "smollm2".into(),
        system: None,
        messages: vec![Message::new(MessageId(1), Timestamp(0), MessageType::text(Role::User, text))],
        tools: Vec::new(),
        tool_choice: None,
        max_tokens: Some(64),
        temperature: None,
    }
}

fn provider() -> LocalProvider {
    LocalProvider::new(starter_model(), LocalModelSettings { context: 2048, threads: 1, ..braid_local::fitted() })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn it_answers_token_by_token_and_counts_what_it_read() {
    let p = provider();
    let events: Vec<ProviderEvent> =
        tokio::time::timeout(limit(), p.stream(ask("What is the capital of France?")).map(Result::unwrap).collect())
            .await
            .unwrap();
    assert_eq!(events[0], ProviderEvent::Connected);
    let text = text_of(&events);
    let deltas = events.iter().filter(|e| matches!(e, ProviderEvent::TextDelta(_))).count();
    assert!(!text.trim().is_empty(), "an answer in words: {events:?}");
    assert!(deltas >= 2, "streamed piece by piece ({deltas}: {text:?})");
    let usage = events.iter().find_map(|e| if let ProviderEvent::Usage(u) = e { Some(*u) } else { None }).unwrap();
    assert!(usage.prompt_tokens > 5 && usage.completion_tokens as usize >= deltas, "{usage:?}");
    assert!(matches!(events.last(), Some(ProviderEvent::Finished(StopReason::EndTurn))));
    let counted = p.count_tokens("smollm2", vec!["hello world".into()]).await.unwrap();
    assert!(counted[0] >= 2 && counted[0] <= 4, "{counted:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_the_stream_stops_the_model_at_once() {
    let p = provider();
    let mut running = p.running();
    let mut long = ask("Write a long story about a lighthouse keeper.");
    long.max_tokens = Some(2000);
    let mut stream = p.stream(long);
    let mut seen = 0;
    while seen < 3 {
        if let Some(Ok(ProviderEvent::TextDelta(_))) = tokio::time::timeout(limit(), stream.next()).await.unwrap() {
            seen += 1;
        }
    }
    drop(stream);
    // The worker ends at its next token, not after 2,000 of them.
    tokio::time::timeout(stop_limit(), running.wait_for(|n| *n == 0)).await.expect("stopped").unwrap();
}

/// A long prompt is read in short chunks, so a Cancel while the model
/// reads it is seen between two of them; the next request (sharing the
/// prompt's start, so the cache is reused) reads the whole of its prompt
/// and answers to its end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancel_while_reading_a_long_prompt_leaves_the_cache_sound() {
    let p = provider();
    let mut running = p.running();
    let filler = "The lighthouse keeper counted the ships that passed the rocks each night. ".repeat(100);
    let mut stream = p.stream(ask(&format!("{filler}\nWhat is the capital of France?")));
    let first = tokio::time::timeout(limit(), stream.next()).await.unwrap();
    assert!(matches!(first, Some(Ok(ProviderEvent::Connected))), "{first:?}");
    drop(stream); // while some 1,500 prompt tokens are read
    tokio::time::timeout(limit(), running.wait_for(|n| *n == 0)).await.expect("stopped").unwrap();

    let mut request = ask(&format!("{filler}\nWhat is the capital of France? Answer in one word."));
    request.max_tokens = Some(16);
    let prompt = p.count_tokens("smollm2", vec![filler.clone()]).await.unwrap()[0];
    let events: Vec<ProviderEvent> =
        tokio::time::timeout(limit(), p.stream(request).map(Result::unwrap).collect()).await.unwrap();
    let usage = events.iter().find_map(|e| if let ProviderEvent::Usage(u) = e { Some(*u) } else { None });
    let usage = usage.unwrap_or_else(|| panic!("the usage: {events:?}"));
    assert!(
        usage.prompt_tokens > prompt,
        "the whole prompt was read ({} tokens, {prompt} of filler)",
        usage.prompt_tokens
    );
    assert!(!text_of(&events).trim().is_empty(), "{events:?}");
    let finished = matches!(events.last(), Some(ProviderEvent::Finished(StopReason::EndTurn | StopReason::MaxTokens)));
    assert!(finished, "answered to its end: {:?}", events.last());
}

/// An answer to `text`, whole.
async fn answer(p: &LocalProvider, text: &str) -> Vec<ProviderEvent> {
    tokio::time::timeout(limit(), p.stream(ask(text)).map(Result::unwrap).collect()).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_while_without_a_question_the_model_leaves_memory_and_comes_back_for_the_next() {
    let p = provider().unload_after(Duration::from_millis(500));
    assert!(!p.is_loaded(), "loaded on first use only");
    let first = answer(&p, "Hi").await;
    assert!(matches!(first.last(), Some(ProviderEvent::Finished(_))), "{first:?}");
    assert!(braid_testkit::harness::eventually(|| async { !p.is_loaded() }).await, "unloaded once idle");
    let again = answer(&p, "Hi again").await;
    assert!(matches!(again.last(), Some(ProviderEvent::Finished(_))), "loaded again and answered: {again:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_required_tool_call_has_valid_arguments() {
    let p = provider();
    let mut request = ask("Read the file notes.txt");
    request.tools = vec![ToolDefinition {
        name: "read_file".into(),
        description: "Reads a text file of the workspace.".into(),
        input_schema: serde_json::json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}),
    }];
    request.tool_choice = Some(ToolChoice::Function("read_file".into()));
    let events: Vec<ProviderEvent> =
        tokio::time::timeout(limit(), p.stream(request).map(Result::unwrap).collect()).await.unwrap();
    let (name, arguments) = events
        .iter()
        .find_map(|e| match e {
            ProviderEvent::ToolCallDelta { name, arguments, .. } => Some((name.clone().unwrap(), arguments.clone())),
            _ => None,
        })
        .unwrap_or_else(|| panic!("a tool call: {events:?}"));
    assert_eq!(name, "read_file");
    let args: serde_json::Value = serde_json::from_str(&arguments).expect("valid JSON");
    assert!(args.is_object(), "{arguments}");
    assert!(!events.iter().any(|e| matches!(e, ProviderEvent::TextDelta(_))), "a forced call is not shown as text");
    assert!(matches!(events.last(), Some(ProviderEvent::Finished(StopReason::ToolUse))));
}

/// A runtime where nothing is set up but the built-in model.
fn runtime_with_built_in(dir: &std::path::Path) -> (braid_runtime::Runtime, std::sync::Arc<LocalProvider>) {
    runtime_with(dir, provider())
}

/// A runtime where nothing is set up but `local`, the built-in model.
fn runtime_with(
    dir: &std::path::Path,
    local: LocalProvider,
) -> (braid_runtime::Runtime, std::sync::Arc<LocalProvider>) {
    use braid_runtime::{Fallback, Providers, Runtime, RuntimeConfig};
    let local = std::sync::Arc::new(local);
    let opened = braid_llm::local::OpenedModel {
        provider: local.clone(),
        model: "SmolLM2".into(),
        label: "built-in SmolLM2".into(),
        context_window: 2048,
    };
    let fallback = Fallback::built_in(opened);
    let providers = Providers::in_memory(braid_llm::secrets::Secrets::file_only(dir)).with_fallback(fallback);
    let config = RuntimeConfig::new(dir.join("braid.db"), dir.to_owned());
    (Runtime::open_with(config, providers).unwrap().0, local)
}

/// The built-in model stays out of memory while conversations are only
/// opened and read; the first character typed (`warm_up`, sent by the
/// composer) loads it, and once it has left memory the next one loads it
/// again. Memory is what is checked, not what the model would write.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_built_in_model_loads_when_someone_writes_not_when_a_conversation_opens() {
    use braid_testkit::harness::eventually;
    let dir = tempfile::tempdir().unwrap();
    let (rt, local) = runtime_with(dir.path(), provider().unload_after(Duration::from_millis(500)));
    let ctx = rt.create_context(None, None).await.unwrap().id;
    rt.load_context(&ctx).await.unwrap();
    let (_snapshot, _events) = rt.subscribe(&ctx).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!local.is_loaded(), "opening a conversation leaves the model on disk");

    rt.warm_up(&ctx).await.unwrap();
    assert!(eventually(|| async { local.is_loaded() }).await, "writing loads it");
    assert!(eventually(|| async { !local.is_loaded() }).await, "it leaves memory when idle");
    rt.warm_up(&ctx).await.unwrap();
    assert!(eventually(|| async { local.is_loaded() }).await, "the next writing loads it again");
    rt.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_nothing_set_up_the_built_in_model_answers_stops_and_calls_tools() {
    use braid_protocol::{NewMessage, StatusKind};
    use braid_testkit::harness::Watch;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "kumquat\n").unwrap();
    let (rt, local) = runtime_with_built_in(dir.path());

    // The first question is answered by the model in the process.
    let ctx = rt.create_context(None, None).await.unwrap().id;
    let mut watch = Watch::new(&rt, &ctx).await.on_real_model();
    rt.send_message(&ctx, NewMessage::user_text("What is the capital of France?"), false).await.unwrap();
    watch.until("busy", |s| s.is_busy()).await;
    watch.settled().await;
    let snap = rt.load_context(&ctx).await.unwrap();
    let answer = snap.messages.last().and_then(|m| m.body.plain_text()).unwrap_or_default();
    assert!(!answer.trim().is_empty(), "the answer is stored ({:?})", snap.summary.status);

    // Cancel mid-answer: the conversation is free at once and the model stops.
    rt.send_message(&ctx, NewMessage::user_text("Write a very long story about the sea."), false).await.unwrap();
    watch.state(StatusKind::StreamingLlmResponse).await;
    rt.cancel(&ctx).await.unwrap();
    watch.settled().await;
    let mut running = local.running();
    tokio::time::timeout(stop_limit(), running.wait_for(|n| *n == 0)).await.expect("stopped").unwrap();

    // A forced tool call comes with arguments the tool accepts, and runs.
    let mut forced = NewMessage::user_text("What is in notes.txt?");
    forced.force_tool = Some("read_file".into());
    rt.send_message(&ctx, forced, false).await.unwrap();
    watch.state(StatusKind::ExecutingTool).await;
    // Its answer to the result is not what is checked here.
    watch.state(StatusKind::ToolAutoLoop).await;
    rt.cancel(&ctx).await.unwrap();
    watch.settled().await;
    let snap = rt.load_context(&ctx).await.unwrap();
    let call = snap
        .messages
        .iter()
        .find_map(|m| match &m.body {
            MessageType::ToolRequest { calls, .. } => calls.first().cloned(),
            _ => None,
        })
        .expect("the model called the tool");
    assert_eq!(call.name, "read_file");
    let args: serde_json::Value = serde_json::from_str(&call.arguments).expect("valid JSON");
    assert!(args.get("path").and_then(|p| p.as_str()).is_some(), "{args}");
    rt.shutdown().await;
}

/// The settings' model shelf through the runtime's commands, on the real
/// starter file: imported (linked, not copied), made the default, run with
/// other settings, and removed; the answering model follows each change.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_shelf_imports_chooses_tunes_and_removes_models_and_the_answers_follow() {
    use braid_protocol::{Command, LocalModelsView, NewMessage};
    use braid_runtime::{Providers, Runtime, RuntimeConfig};
    use braid_testkit::harness::Watch;
    let dir = tempfile::tempdir().unwrap();
    let (models, elsewhere) = (dir.path().join("models"), dir.path().join("downloads"));
    std::fs::create_dir_all(&elsewhere).unwrap();
    let mine = elsewhere.join("Tiny-Chat.Q4_1.gguf");
    std::fs::hard_link(starter_model(), &mine).or_else(|_| std::fs::copy(starter_model(), &mine).map(drop)).unwrap();
    let shelf = std::sync::Arc::new(braid_local::Shelf::new(models.clone(), Vec::new()));
    let providers = Providers::in_memory(braid_llm::secrets::Secrets::file_only(dir.path())).with_local_models(shelf);
    let config = RuntimeConfig::new(dir.path().join("braid.db"), dir.path().to_owned());
    let rt = Runtime::open_with(config, providers).unwrap().0;
    let run = |c: Command| {
        let rt = rt.clone();
        async move { rt.execute(c).await.map(|v| serde_json::from_value::<LocalModelsView>(v).unwrap()) }
    };

    // An empty shelf: nothing answers yet, and a bad file is refused.
    assert!(rt.providers().view().fallback.is_none());
    let empty = run(Command::ListLocalModels).await.unwrap();
    assert!(empty.models.is_empty());
    assert_eq!(empty.settings, braid_local::fitted());
    let notes = elsewhere.join("notes.gguf");
    std::fs::write(&notes, "not weights").unwrap();
    let e = run(Command::ImportLocalModel { path: notes.display().to_string() }).await.unwrap_err();
    assert!(e.message.contains("not a GGUF model"), "{}", e.message);

    // Imported: it is the default, and it answers.
    let view = run(Command::ImportLocalModel { path: mine.display().to_string() }).await.unwrap();
    assert_eq!(view.models.len(), 1);
    assert!(view.models[0].default && !view.models[0].bundled);
    assert_eq!(view.models[0].label, "Tiny-Chat (Q4_1)");
    assert!(view.models[0].bytes > 50_000_000, "the whole file: {}", view.models[0].bytes);
    let label = rt.providers().view().fallback.unwrap();
    assert!(label.contains("Tiny-Chat (Q4_1), a small local model"), "{label}");

    // Tuned: a window too small for the question fails clearly; a saved
    // change is what the next answer runs with.
    let bad = LocalModelSettings { context: 64, threads: 1, ..braid_local::fitted() };
    let e = run(Command::SetLocalModelSettings { settings: bad }).await.unwrap_err();
    assert!(e.message.contains("512 to 131072"), "{}", e.message);
    let tuned = LocalModelSettings { context: 2048, threads: 1, ..braid_local::fitted() };
    let view = run(Command::SetLocalModelSettings { settings: tuned }).await.unwrap();
    assert_eq!(view.settings, tuned);
    assert_eq!(rt.providers().effective(None).map(|m| m.context_window), Some(2048));
    let ctx = rt.create_context(None, None).await.unwrap();
    let mut watch = Watch::new(&rt, &ctx.id).await.on_real_model();
    rt.send_message(&ctx.id, NewMessage::user_text("What is the capital of France?"), false).await.unwrap();
    watch.until("busy", |s| s.is_busy()).await;
    watch.settled().await;
    let snap = rt.load_context(&ctx.id).await.unwrap();
    assert_eq!(snap.summary.status, braid_protocol::ContextStatus::Idle, "the imported model answered");
    assert!(snap.messages.len() >= 2, "the answer is stored: {:?}", snap.messages.last());

    // A second model made the default; removing it goes back to the first.
    let other = elsewhere.join("Other.Q4_1.gguf");
    std::fs::copy(&mine, &other).unwrap();
    run(Command::ImportLocalModel { path: other.display().to_string() }).await.unwrap();
    let view = run(Command::SetDefaultLocalModel { name: "Other.Q4_1.gguf".into() }).await.unwrap();
    assert_eq!(view.models.iter().find(|m| m.default).map(|m| m.name.as_str()), Some("Other.Q4_1.gguf"));
    assert!(rt.providers().view().fallback.unwrap().contains("Other (Q4_1)"));
    let view = run(Command::RemoveLocalModel { name: "Other.Q4_1.gguf".into() }).await.unwrap();
    assert_eq!(view.models.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(), ["Tiny-Chat.Q4_1.gguf"]);
    assert!(rt.providers().view().fallback.unwrap().contains("Tiny-Chat"));
    assert!(other.exists() && mine.exists(), "the user's own files stay");
    let e = run(Command::RemoveLocalModel { name: "Other.Q4_1.gguf".into() }).await.unwrap_err();
    assert!(e.message.contains("no model"), "{}", e.message);
    rt.shutdown().await;
}

/// A model Ollama downloaded, laid out as Ollama keeps it (a manifest
/// naming a blob), found, run in place (a link, no copy) and answering;
/// removed from the shelf, its file stays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_apps_model_is_found_run_in_place_and_its_file_stays() {
    use braid_protocol::{Command, LocalModelsView, NewMessage};
    use braid_runtime::{Providers, Runtime, RuntimeConfig};
    use braid_testkit::harness::Watch;
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let ollama = home.join(".ollama/models");
    let digest = "sha256:3f9a0c7de2b1e4a8c6d5f7b9e0a1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9";
    let blob = ollama.join(format!("blobs/{}", digest.replace(':', "-")));
    std::fs::create_dir_all(blob.parent().unwrap()).unwrap();
    std::fs::hard_link(starter_model(), &blob).or_else(|_| std::fs::copy(starter_model(), &blob).map(drop)).unwrap();
    let manifest = serde_json::json!({"schemaVersion": 2, "layers": [
        {"mediaType": "application/vnd.ollama.image.model", "digest": digest, "size": 1},
        {"mediaType": "application/vnd.ollama.image.license", "digest": "sha256:00", "size": 1},
    ]});
    let tag = ollama.join("manifests/registry.ollama.ai/library/smollm2/135m");
    std::fs::create_dir_all(tag.parent().unwrap()).unwrap();
    std::fs::write(&tag, manifest.to_string()).unwrap();
    let roots = braid_local::discover::Roots { home: Some(home), ..Default::default() };
    let shelf = braid_local::Shelf::new(dir.path().join("models"), Vec::new()).with_roots(roots);
    let providers = Providers::in_memory(braid_llm::secrets::Secrets::file_only(dir.path()))
        .with_local_models(std::sync::Arc::new(shelf));
    let rt = Runtime::open_with(RuntimeConfig::new(dir.path().join("braid.db"), dir.path().to_owned()), providers)
        .unwrap()
        .0;
    let run = |c: Command| {
        let rt = rt.clone();
        async move { rt.execute(c).await.map(|v| serde_json::from_value::<LocalModelsView>(v).unwrap()) }
    };

    let view = run(Command::ListLocalModels).await.unwrap();
    assert!(view.models.is_empty());
    let found = &view.found;
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        (found[0].app.as_str(), found[0].name.as_str(), found[0].on_shelf),
        ("Ollama", "smollm2-135m.gguf", false)
    );
    assert!(found[0].memory.is_some_and(|m| m.bytes > 100 << 20), "an estimate before loading: {:?}", found[0].memory);

    let view = run(Command::LinkLocalModel { path: found[0].path.clone() }).await.unwrap();
    let linked = &view.models[0];
    assert!(linked.default && linked.linked && !linked.bundled, "{linked:?}");
    assert!(view.found[0].on_shelf);
    let on_shelf = dir.path().join("models/smollm2-135m.gguf");
    assert!(std::fs::symlink_metadata(&on_shelf).unwrap().file_type().is_symlink(), "linked, not copied");
    let e = run(Command::LinkLocalModel { path: found[0].path.clone() }).await.unwrap_err();
    assert!(e.message.contains("already on the shelf"), "{}", e.message);

    let ctx = rt.create_context(Some("found".into()), None).await.unwrap();
    let mut watch = Watch::new(&rt, &ctx.id).await.on_real_model();
    rt.send_message(&ctx.id, NewMessage::user_text("What is the capital of France?"), false).await.unwrap();
    watch.until("busy", |s| s.is_busy()).await;
    watch.settled().await;
    let snap = rt.load_context(&ctx.id).await.unwrap();
    assert_eq!(snap.summary.status, braid_protocol::ContextStatus::Idle, "Ollama's model answered");
    let sent = rt.execute(Command::GetSentRequest { context_id: ctx.id.clone() }).await.unwrap();
    assert_eq!(sent["tools"], serde_json::json!([]), "a plain question goes without tools");
    assert!(!sent["tools_held_back"].as_array().unwrap().is_empty(), "and says what was held back");

    let view = run(Command::RemoveLocalModel { name: "smollm2-135m.gguf".into() }).await.unwrap();
    assert!(view.models.is_empty() && !view.found[0].on_shelf);
    assert!(blob.is_file(), "Ollama's file stays");
    rt.shutdown().await;
}

const MIB: f64 = 1024.0 * 1024.0;

fn within(what: &str, estimate: u64, reported_mib: f64) {
    let got = estimate as f64 / MIB;
    let off = (got - reported_mib).abs() / reported_mib;
    // Shown for the record (cargo test -- --nocapture).
    println!("{what}: estimated {got:.2} MiB, llama.cpp {reported_mib:.2} MiB");
    assert!(
        off <= 0.10,
        "{what}: estimated {got:.2} MiB, llama.cpp reports {reported_mib:.2} MiB ({:.1} % off)",
        off * 100.0
    );
}

/// What llama.cpp (llama-cpp-python 0.3.36, the test peer) printed when
/// loading the starter with n_batch 512 on the CPU: model buffer 92.10
/// MiB; at 2,048 tokens KV 45.00 and compute 99.38 MiB; at 8,192 KV 180.00
/// and compute 166.38 MiB (the command is in docs/PERFORMANCE.md).
#[test]
fn the_memory_estimate_is_within_a_tenth_of_what_llama_cpp_reports() {
    use braid_local::gguf::Shape;
    let shape = Shape::read(&starter_model()).unwrap();
    assert_eq!(
        (shape.architecture.as_str(), shape.layers, shape.embedding, shape.heads, shape.kv_heads, shape.vocab),
        ("llama", 30, 576, 9, 3, 49_152)
    );
    assert_eq!((shape.key_length, shape.trained_context), (64, 8192));
    let small = shape.estimate(2048);
    within("weights", small.weights, 92.10);
    within("KV cache at 2,048", small.kv_cache, 45.00);
    within("compute at 2,048", small.compute, 99.38);
    within("all at 2,048", small.total(), 92.10 + 45.00 + 99.38);
    let large = shape.estimate(8192);
    within("KV cache at 8,192", large.kv_cache, 180.00);
    within("compute at 8,192", large.compute, 166.38);
    within("all at 8,192", large.total(), 92.10 + 180.00 + 166.38);
}
