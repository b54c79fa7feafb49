//! Export and import through the runtime, on real SQLite stores and image
//! stores: a conversation with two branches and an image (read by the real
//! Tesseract) goes to Braid's JSON and comes back equal in another Braid,
//! images included; importing never touches what exists; a bad file is
//! refused with its reason and stores nothing; Markdown reads as it was.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use base64::Engine as _;
use braid_llm::fake::FakeProvider;
use braid_protocol::{
    Command, ContextId, ContextSummary, ExportFormat, ExportedFile, ImageAttachment, ImageMode, ImageSource,
    MessageType, NewMessage, Role, StoredImage,
};
use braid_runtime::Runtime;
use braid_testkit::fixtures::{magick, text_png};
use braid_testkit::harness::open_in;
use braid_testkit::harness::Watch;
use serde_json::Value;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::STANDARD;

fn open(dir: &Path) -> Runtime {
    let fake = Arc::new(FakeProvider::echo(Duration::ZERO));
    open_in(dir, fake, |_| {})
}

async fn send(rt: &Runtime, id: &ContextId, message: NewMessage) {
    let mut watch = Watch::new(rt, id).await;
    rt.send_message(id, message, false).await.unwrap();
    watch.until("busy", |s| s.is_busy()).await;
    watch.settled().await;
}

async fn export(rt: &Runtime, id: &ContextId, format: ExportFormat) -> ExportedFile {
    let v = rt.execute(Command::ExportContext { context_id: id.clone(), format, with_secrets: false }).await.unwrap();
    serde_json::from_value(v).unwrap()
}

async fn import(rt: &Runtime, text: String) -> Result<ContextSummary, String> {
    match rt.execute(Command::ImportContext { text }).await {
        Ok(v) => {
            let mut all: Vec<ContextSummary> = serde_json::from_value(v).unwrap();
            assert_eq!(all.len(), 1, "one conversation in a Braid file");
            Ok(all.remove(0))
        }
        Err(e) => Err(e.message),
    }
}

/// What must come back equal: everything but where and when it was stored.
fn content(doc: &str) -> Value {
    let mut v: Value = serde_json::from_str(doc).unwrap();
    let o = v.as_object_mut().unwrap();
    o.remove("working_dir");
    o.remove("updated_at");
    v
}

/// A conversation with an image on main and a second branch.
async fn conversation(rt: &Runtime, dir: &Path) -> ContextId {
    let id = rt.create_context(Some("Deploy trouble".into()), None).await.unwrap().id;
    let stored = rt.execute(Command::StoreImage { data: B64.encode(text_png(dir)), name: Some("deploy.png".into()) });
    let image: StoredImage = serde_json::from_value(stored.await.unwrap()).unwrap();
    let with_image = NewMessage {
        body: MessageType::text(Role::User, "What does the screenshot say?"),
        force_tool: None,
        images: vec![ImageAttachment { source: ImageSource::Stored(image), mode: ImageMode::Ocr }],
    };
    send(rt, &id, with_image).await;
    send(rt, &id, NewMessage::user_text("And what now?")).await;
    let first = rt.load_context(&id).await.unwrap().messages[0].id;
    let alt = rt.create_branch(&id, first, "retry plan".into(), None).await.unwrap();
    rt.switch_branch(&id, alt).await.unwrap();
    send(rt, &id, NewMessage::user_text("Plan B?")).await;
    id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_conversation_goes_out_and_comes_back_equal_in_another_braid() {
    let (here_dir, there_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let here = open(here_dir.path());
    let id = conversation(&here, here_dir.path()).await;
    let file = export(&here, &id, ExportFormat::Json).await;
    assert_eq!((file.file_name.as_str(), file.media_type.as_str()), ("Deploy-trouble.braid.json", "application/json"));
    let doc: Value = serde_json::from_str(&file.text).unwrap();
    assert_eq!(doc["branches"].as_array().unwrap().len(), 2);
    assert_eq!(doc["images"].as_array().unwrap().len(), 1, "the screenshot's bytes travel with it");
    assert!(file.text.contains("Deploy failed"), "with what OCR read");

    // Another Braid, with an empty image store: everything arrives.
    let there = open(there_dir.path());
    let imported = import(&there, file.text.clone()).await.unwrap();
    assert_eq!(imported.title, "Deploy trouble");
    let again = export(&there, &imported.id, ExportFormat::Json).await;
    assert_eq!(content(&again.text), content(&file.text), "every branch, message and image, as they were");
    let image_id = doc["images"][0]["id"].as_str().unwrap().to_owned();
    there.execute(Command::ReadImage { id: image_id }).await.expect("the image is in the new store");
    // It is a live conversation: it takes the next message.
    send(&there, &imported.id, NewMessage::user_text("Still there?")).await;
    let answer = there.load_context(&imported.id).await.unwrap().messages.last().unwrap().body.plain_text();
    assert_eq!(answer.as_deref(), Some("You said: Still there?"), "answered on the imported branch");

    // Imported beside the original: a new conversation, the old untouched.
    let beside = import(&here, file.text.clone()).await.unwrap();
    assert_ne!(beside.id, id);
    assert_eq!(here.list_contexts().await.unwrap().len(), 2);
    assert_eq!(export(&here, &id, ExportFormat::Json).await.text, file.text, "the original is as it was");
    here.shutdown().await;
    there.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_file_is_refused_with_its_reason_and_stores_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let rt = open(dir.path());
    let id = conversation(&rt, dir.path()).await;
    let good: Value = serde_json::from_str(&export(&rt, &id, ExportFormat::Json).await.text).unwrap();

    let other = magick(dir.path(), "other.png", &["-size", "40x40", "xc:red"]);
    let mut swapped = good.clone();
    swapped["images"][0]["data"] = B64.encode(other).into();
    let mut old = good.clone();
    old["version"] = 7.into();
    for (file, why) in [
        ("".to_owned(), "the file is empty"),
        ("{}".to_owned(), "not a conversation Braid knows"),
        (old.to_string(), "version 7"),
        (swapped.to_string(), "does not hold the bytes its id names"),
    ] {
        let err = import(&rt, file).await.expect_err("refused");
        assert!(err.contains(why), "{why}: {err}");
    }
    assert_eq!(rt.list_contexts().await.unwrap().len(), 1, "nothing was stored");
    rt.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn markdown_has_the_active_branch_or_all_of_them() {
    let dir = tempfile::tempdir().unwrap();
    let rt = open(dir.path());
    let id = conversation(&rt, dir.path()).await;
    let active = export(&rt, &id, ExportFormat::Markdown { all_branches: false }).await;
    assert_eq!(active.file_name, "Deploy-trouble.md");
    assert!(active.text.starts_with("# Deploy trouble\n\n_Branch retry plan_"), "{}", active.text);
    assert!(active.text.contains("**Image** deploy.png") && active.text.contains("Plan B?"));
    assert!(!active.text.contains("And what now?"), "main's later turn is on the other branch");
    let all = export(&rt, &id, ExportFormat::Markdown { all_branches: true }).await;
    let main = all.text.find("## Branch main\n").expect("main");
    let alt = all.text.find("## Branch retry plan (from main after message ").expect("the branch, from its fork");
    assert!(main < alt && all.text[alt..].contains("· active"), "{}", all.text);
    assert_eq!(all.text.matches("**User:**\n\nWhat does the screenshot say?").count(), 1, "shared messages once");
    assert!(all.text[main..alt].contains("And what now?") && all.text[alt..].contains("Plan B?"));
    rt.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn histories_from_claude_code_and_chatgpt_come_in_and_go_on() {
    let dir = tempfile::tempdir().unwrap();
    let rt = open(dir.path());
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/import");
    let read = |name: &str| std::fs::read_to_string(fixtures.join(name)).unwrap();

    let v = rt.execute(Command::ImportContext { text: read("chatgpt-conversations.json") }).await.unwrap();
    let chats: Vec<ContextSummary> = serde_json::from_value(v).unwrap();
    let titles: Vec<&str> = chats.iter().map(|c| c.title.as_str()).collect();
    assert_eq!(titles, ["Sourdough schedule", "Convert 3 cups of flour to grams"]);
    let sourdough = rt.load_context(&chats[0].id).await.unwrap();
    assert_eq!(sourdough.branches.len(), 2, "the regenerated answer is a branch");
    assert_eq!(sourdough.messages.len(), 4);

    let v = rt.execute(Command::ImportContext { text: read("claude-code-session.jsonl") }).await.unwrap();
    let session: Vec<ContextSummary> = serde_json::from_value(v).unwrap();
    assert_eq!(session[0].title, "Why does the parser test fail?");
    // Its project is not on this machine: the default folder.
    assert_eq!(session[0].working_dir, std::fs::canonicalize(dir.path()).unwrap().display().to_string());
    assert_eq!(rt.load_context(&session[0].id).await.unwrap().messages.len(), 7);
    send(&rt, &session[0].id, NewMessage::user_text("Go on from here.")).await;
    let last = rt.load_context(&session[0].id).await.unwrap().messages.last().unwrap().body.plain_text();
    assert_eq!(last.as_deref(), Some("You said: Go on from here."), "the imported session takes the next turn");
    assert_eq!(rt.list_contexts().await.unwrap().len(), 3);
    rt.shutdown().await;
}
