//! Images through the runtime against providers on 127.0.0.1 (the shared
//! mock server, one per provider kind, recording what it receives), with the real image
//! store and the real Tesseract: the pixels each provider receives, OCR for
//! a model that cannot see, fallbacks, Retry, Cancel, restart.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use base64::Engine as _;
use braid_core::vision::limits_for;
use braid_llm::secrets::Secrets;
use braid_protocol::{
    Command, ContextId, ContextSummary, ControlKind, ImageAttachment, ImageMode, ImageSource, KeyChange, Message,
    MessageType, NewMessage, ProviderInput, ProviderKind, Role, SendReceipt, StatusKind, StoredImage,
};
use braid_runtime::{Providers, Runtime, RuntimeConfig, RuntimeError};
use braid_testkit::fixtures::{magick, text_png};
use braid_testkit::harness::Watch;
use braid_testkit::mock::{MockServer, Reply};
use braid_testkit::sse;
use serde_json::Value;
use std::path::Path;
use std::time::{Duration, Instant};

const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::STANDARD;

/// The mock server, with the replies these tests need.
#[derive(Clone)]
struct Mock(MockServer);

impl Mock {
    async fn start() -> (Mock, String) {
        let (server, base) = MockServer::start().await;
        (Mock(server), base)
    }
    fn reply(&self, kind: ProviderKind, text: &str) {
        self.0.reply(Reply::ok(sse::answer(kind, text)));
    }
    fn fail(&self, status: u16, message: &str) {
        self.0.reply(Reply::error(status, message));
    }
    fn slow(&self, kind: ProviderKind, delay: Duration) {
        self.0.reply(Reply::ok(sse::answer(kind, "late")).after(delay));
    }
    fn captured(&self) -> Vec<Value> {
        self.0.captured().into_iter().map(|c| c.body).collect()
    }
}

async fn open(dir: &Path, kind: ProviderKind, base: &str, model: &str) -> Runtime {
    let providers = Providers::from_settings(dir.join("settings.json"), Secrets::file_only(dir)).unwrap();
    let rt = Runtime::open_with(RuntimeConfig::new(dir.join("braid.db"), dir.to_owned()), providers).unwrap().0;
    let base_url = sse::base_url(kind, base);
    let provider = ProviderInput {
        id: None,
        kind,
        name: "Mock".into(),
        base_url,
        default_model: Some(model.into()),
        key: KeyChange::Set { key: "sk-test-key".into() },
    };
    rt.execute(Command::SaveProvider { provider }).await.unwrap();
    rt
}

async fn store(rt: &Runtime, bytes: &[u8], name: &str) -> StoredImage {
    let v = rt
        .execute(Command::StoreImage { data: B64.encode(bytes), name: Some(name.into()) })
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    serde_json::from_value(v).unwrap()
}

fn with_image(text: &str, image: &StoredImage, mode: ImageMode) -> NewMessage {
    NewMessage {
        body: MessageType::text(Role::User, text),
        force_tool: None,
        images: vec![ImageAttachment { source: ImageSource::Stored(image.clone()), mode }],
    }
}

/// The messages once the context takes a message again (waiting on its
/// events, within the harness's limit).
async fn wait_idle(rt: &Runtime, id: &ContextId) -> Vec<Message> {
    Watch::new(rt, id).await.settled().await;
    rt.load_context(id).await.unwrap().messages
}

fn image_of(messages: &[Message]) -> &MessageType {
    &messages.iter().find(|m| matches!(m.body, MessageType::Image { .. })).expect("an image message").body
}

/// The image parts of a captured request body, as (media type, bytes).
fn sent_images(kind: ProviderKind, body: &Value) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let walk: Vec<&Value> = match kind {
        ProviderKind::OpenAiCompatible => body["messages"].as_array().unwrap().iter().collect(),
        ProviderKind::Anthropic => body["messages"].as_array().unwrap().iter().collect(),
        ProviderKind::Gemini => body["contents"].as_array().unwrap().iter().collect(),
    };
    for m in walk {
        let parts = match kind {
            ProviderKind::Gemini => m["parts"].as_array().cloned().unwrap_or_default(),
            _ => m["content"].as_array().cloned().unwrap_or_default(),
        };
        for p in parts {
            match kind {
                ProviderKind::OpenAiCompatible if p["type"] == "image_url" => {
                    let url = p["image_url"]["url"].as_str().unwrap();
                    let (head, data) = url.split_once(";base64,").unwrap();
                    out.push((head.trim_start_matches("data:").to_owned(), B64.decode(data).unwrap()));
                }
                ProviderKind::Anthropic if p["type"] == "image" => {
                    assert_eq!(p["source"]["type"], "base64");
                    let data = B64.decode(p["source"]["data"].as_str().unwrap()).unwrap();
                    out.push((p["source"]["media_type"].as_str().unwrap().to_owned(), data));
                }
                ProviderKind::Gemini if p.get("inline_data").is_some() => {
                    let data = B64.decode(p["inline_data"]["data"].as_str().unwrap()).unwrap();
                    out.push((p["inline_data"]["mime_type"].as_str().unwrap().to_owned(), data));
                }
                _ => {}
            }
        }
    }
    out
}

#[tokio::test]
async fn each_provider_receives_the_image_in_its_format_scaled_within_its_limits() {
    for (kind, model) in [
        (ProviderKind::OpenAiCompatible, "gpt-4o"),
        (ProviderKind::Anthropic, "claude-sonnet-4"),
        (ProviderKind::Gemini, "gemini-2.5-flash"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let (mock, base) = Mock::start().await;
        let rt = open(dir.path(), kind, &base, model).await;
        // A 4K screenshot-sized image (a gradient: not compressible to nothing).
        let big = magick(dir.path(), "4k.png", &["-size", "3840x2160", "gradient:navy-orange"]);
        let image = store(&rt, &big, "4k.png").await;
        mock.reply(kind, "A gradient from navy to orange.");
        mock.reply(kind, "It is a gradient.");
        let ctx = rt.create_context(None, None).await.unwrap();
        rt.send_message(&ctx.id, with_image("what is this?", &image, ImageMode::Auto), false).await.unwrap();
        let messages = wait_idle(&rt, &ctx.id).await;

        let captured = mock.captured();
        assert_eq!(captured.len(), 2, "{kind:?}: one look at the image, then the turn");
        let limits = limits_for(kind);
        for body in &captured {
            let images = sent_images(kind, body);
            assert_eq!(images.len(), 1, "{kind:?}: {body}");
            let (media_type, bytes) = &images[0];
            let decoded = image::load_from_memory(bytes).unwrap();
            assert_eq!(decoded.width().max(decoded.height()), limits.max_long_edge.min(3840), "{kind:?}");
            assert!((decoded.width() as f64 / decoded.height() as f64 - 16.0 / 9.0).abs() < 0.01);
            assert!(bytes.len() as u64 <= limits.max_bytes, "{kind:?}: {} bytes", bytes.len());
            assert!(media_type == "image/png" || media_type == "image/jpeg");
        }
        match image_of(&messages) {
            MessageType::Image { vision_analysis, used, recognized_text, error, .. } => {
                assert_eq!(vision_analysis.as_deref(), Some("A gradient from navy to orange."));
                assert_eq!(*used, Some(ImageMode::Vision));
                assert!(recognized_text.is_none() && error.is_none());
            }
            _ => unreachable!(),
        }
        assert!(
            messages.iter().any(|m| m.body == MessageType::text(Role::Assistant, "It is a gradient.")),
            "{kind:?}: the answer is stored"
        );
    }
}

#[tokio::test]
async fn a_model_that_cannot_see_gets_the_ocr_text_and_the_user_is_told() {
    let dir = tempfile::tempdir().unwrap();
    let (mock, base) = Mock::start().await;
    let rt = open(dir.path(), ProviderKind::OpenAiCompatible, &base, "smollm2-135m").await;
    let image = store(&rt, &text_png(dir.path()), "error.png").await;
    mock.reply(ProviderKind::OpenAiCompatible, "Free some disk space.");
    let ctx = rt.create_context(None, None).await.unwrap();
    let mut events = rt.subscribe(&ctx.id).await.unwrap().1;
    rt.send_message(&ctx.id, with_image("why did it fail?", &image, ImageMode::Auto), false).await.unwrap();
    let messages = wait_idle(&rt, &ctx.id).await;
    let MessageType::Image { recognized_text, ocr_confidence, language, used, fallback, .. } = image_of(&messages)
    else {
        unreachable!()
    };
    let text = recognized_text.as_deref().unwrap();
    assert!(text.contains("Deploy failed") && text.contains("quota exceeded"), "{text}");
    assert!(ocr_confidence.unwrap() > 80.0);
    assert_eq!(language.as_deref(), Some("eng"));
    assert_eq!(*used, Some(ImageMode::Ocr));
    assert!(fallback.as_deref().unwrap().contains("smollm2-135m cannot see images"));
    // The request: no image part, the OCR text marked as such.
    let sent = mock.captured();
    assert_eq!(sent.len(), 1);
    let body = sent[0].to_string();
    assert!(!body.contains("image_url"));
    assert!(body.contains("text recognised by OCR") && body.contains("Deploy failed"), "{body}");
    // …inside a block that marks it as the image's words, not the user's.
    assert!(body.contains("<untrusted source=\\\"text in the image"), "{body}");
    // Images come before the text they were sent with.
    let order: Vec<&str> = messages.iter().map(|m| m.body.kind().tag()).collect();
    assert_eq!(order, ["image", "text", "text"]);
    // The user was told why OCR was used.
    let mut told = false;
    while let Ok(Some(Ok(e))) = tokio::time::timeout(Duration::from_millis(100), events.recv()).await {
        told |= serde_json::to_string(&e).unwrap().contains("Read with OCR");
    }
    assert!(told, "a notice says OCR stood in for vision");
}

#[tokio::test]
async fn vision_failure_falls_back_to_ocr_in_auto_and_is_kept_with_retry_in_vision_mode() {
    let dir = tempfile::tempdir().unwrap();
    let (mock, base) = Mock::start().await;
    let kind = ProviderKind::OpenAiCompatible;
    let rt = open(dir.path(), kind, &base, "gpt-4o").await;
    let image = store(&rt, &text_png(dir.path()), "error.png").await;
    let ctx = rt.create_context(None, None).await.unwrap();

    // Auto: the look fails (400), OCR reads it; the turn goes on.
    mock.fail(400, "image format not accepted");
    mock.reply(kind, "ok");
    rt.send_message(&ctx.id, with_image("a", &image, ImageMode::Auto), false).await.unwrap();
    let messages = wait_idle(&rt, &ctx.id).await;
    let MessageType::Image { used, fallback, recognized_text, .. } = image_of(&messages) else { unreachable!() };
    assert_eq!(*used, Some(ImageMode::Ocr));
    assert!(fallback.as_deref().unwrap().contains("vision failed"), "{fallback:?}");
    assert!(recognized_text.as_deref().unwrap().contains("Deploy failed"));

    // Vision: the failure stays on the message, with the model's words; the
    // turn still happens (the model is told the image could not be read).
    mock.fail(400, "image format not accepted");
    mock.reply(kind, "I could not see it.");
    let only = NewMessage {
        body: MessageType::text(Role::User, ""),
        force_tool: None,
        images: vec![ImageAttachment { source: ImageSource::Stored(image.clone()), mode: ImageMode::Vision }],
    };
    rt.send_message(&ctx.id, only, false).await.unwrap();
    let messages = wait_idle(&rt, &ctx.id).await;
    let failed = messages.iter().rev().find(|m| matches!(m.body, MessageType::Image { .. })).unwrap().clone();
    let MessageType::Image { error, used, .. } = &failed.body else { unreachable!() };
    assert!(error.as_deref().unwrap().contains("image format not accepted"), "{error:?}");
    assert_eq!(*used, None);

    // Retry on the card: the model can look now.
    mock.reply(kind, "A terminal with an error.");
    rt.execute(Command::RetryImage { context_id: ctx.id.clone(), message_id: failed.id, mode: None }).await.unwrap();
    let messages = wait_idle(&rt, &ctx.id).await;
    let again = messages.iter().find(|m| m.id == failed.id).unwrap();
    let MessageType::Image { error, used, vision_analysis, .. } = &again.body else { unreachable!() };
    assert_eq!(error, &None);
    assert_eq!(*used, Some(ImageMode::Vision));
    assert_eq!(vision_analysis.as_deref(), Some("A terminal with an error."));
    // Retry of something that is not an image is refused clearly.
    let text_id = messages.iter().find(|m| matches!(m.body, MessageType::Text { .. })).unwrap().id;
    let err = rt
        .execute(Command::RetryImage { context_id: ctx.id.clone(), message_id: text_id, mode: None })
        .await
        .unwrap_err();
    assert!(err.message.contains("is not an image"), "{err:?}");
    // Read again as OCR: the mode sticks and the text is Tesseract's.
    let ocr = Command::RetryImage { context_id: ctx.id.clone(), message_id: failed.id, mode: Some(ImageMode::Ocr) };
    rt.execute(ocr).await.unwrap();
    let messages = wait_idle(&rt, &ctx.id).await;
    let again = messages.iter().find(|m| m.id == failed.id).unwrap();
    let MessageType::Image { mode, used, recognized_text, vision_analysis, .. } = &again.body else { unreachable!() };
    assert_eq!((*mode, *used), (ImageMode::Ocr, Some(ImageMode::Ocr)));
    assert!(recognized_text.as_deref().unwrap().contains("Deploy failed") && vision_analysis.is_none());
}

/// A message with an image whose look takes 10 s, sent in `dir`; returns
/// once the image is being read. The send is answered once the message is
/// stored or refused, so it runs on its own task.
async fn reading_a_slow_image(
    dir: &Path,
    text: &str,
) -> (Mock, Runtime, ContextSummary, tokio::task::JoinHandle<Result<SendReceipt, RuntimeError>>) {
    let (mock, base) = Mock::start().await;
    let kind = ProviderKind::OpenAiCompatible;
    let rt = open(dir, kind, &base, "gpt-4o").await;
    let image = store(&rt, &text_png(dir), "slow.png").await;
    mock.slow(kind, Duration::from_secs(10));
    let ctx = rt.create_context(None, None).await.unwrap();
    let mut watch = Watch::new(&rt, &ctx.id).await;
    let sending = {
        let (rt, id, message) = (rt.clone(), ctx.id.clone(), with_image(text, &image, ImageMode::Vision));
        tokio::spawn(async move { rt.send_message(&id, message, false).await })
    };
    watch.state(StatusKind::ReadingImages).await;
    (mock, rt, ctx, sending)
}

#[tokio::test]
async fn cancel_while_reading_stops_at_once_and_keeps_nothing_half_done() {
    let dir = tempfile::tempdir().unwrap();
    let (_mock, rt, ctx, sending) = reading_a_slow_image(dir.path(), "look").await;
    let t0 = Instant::now();
    rt.cancel(&ctx.id).await.unwrap();
    let refused = sending.await.unwrap().unwrap_err().to_wire();
    assert!(refused.message.contains("cancelled"), "the sender is told: {refused}");
    let messages = wait_idle(&rt, &ctx.id).await;
    // The look would take 10 s: Idle well before it is the cancel, not the
    // end of the request (on a busy machine too).
    assert!(t0.elapsed() < Duration::from_secs(5), "cancel took {:?}", t0.elapsed());
    assert!(messages.iter().all(|m| m.body.kind().tag() != "image"), "nothing half-read is stored");
}

#[tokio::test]
async fn a_restart_while_an_image_is_read_keeps_the_message() {
    let dir = tempfile::tempdir().unwrap();
    // A plain message's state is written once, with the message; one
    // that waits on its images is written before the wait.
    let (_mock, _rt, ctx, sending) = reading_a_slow_image(dir.path(), "look at this").await;
    // The process dies here: the next start opens the same database.
    let providers = Providers::from_settings(dir.path().join("settings.json"), Secrets::file_only(dir.path())).unwrap();
    let config = RuntimeConfig::new(dir.path().join("braid.db"), dir.path().to_owned());
    let (again, report) = Runtime::open_with(config, providers).unwrap();
    let recovered: Vec<_> = report.recovered.iter().map(|r| (&r.context, r.interrupted)).collect();
    assert_eq!(recovered, [(&ctx.id, StatusKind::ReadingImages)], "failed: {:?}", report.failed);
    let messages = again.load_context(&ctx.id).await.unwrap().messages;
    let kept = messages.iter().any(|m| {
        matches!(&m.body, MessageType::SystemControl { control: ControlKind::Recovery { detail, .. } }
            if detail.contains("- look at this (with 1 image: slow.png)"))
    });
    assert!(kept, "the unsent message is named with its image: {messages:?}");
    sending.abort();
}

#[tokio::test]
async fn bad_images_are_refused_clearly_and_stored_ones_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let (mock, base) = Mock::start().await;
    let kind = ProviderKind::OpenAiCompatible;
    let rt = open(dir.path(), kind, &base, "smollm2-135m").await;
    for (data, says) in [
        ("%%%not base64", "not valid Base64"),
        (&*B64.encode(b"just some text"), "PNG, JPEG, WebP or GIF"),
        (&*B64.encode(&text_png(dir.path())[..300]), "damaged or incomplete"),
    ] {
        let err = rt.execute(Command::StoreImage { data: data.into(), name: None }).await.unwrap_err();
        assert!(err.message.contains(says), "{err:?}");
    }
    let err = rt.execute(Command::ReadImage { id: "0".repeat(64) }).await.unwrap_err();
    assert!(err.message.contains("no stored image"), "{err:?}");
    // A message with an image that was never stored is refused before anything runs.
    let ctx = rt.create_context(None, None).await.unwrap();
    let bogus = StoredImage {
        id: "../../etc/passwd".into(),
        media_type: "image/png".into(),
        width: 1,
        height: 1,
        bytes: 1,
        name: None,
    };
    let err = rt.send_message(&ctx.id, with_image("x", &bogus, ImageMode::Auto), false).await.unwrap_err();
    assert!(err.to_string().contains("invalid id"), "{err}");

    let png = text_png(dir.path());
    let image = store(&rt, &png, "error.png").await;
    mock.reply(kind, "noted");
    rt.send_message(&ctx.id, with_image("keep this", &image, ImageMode::Ocr), false).await.unwrap();
    wait_idle(&rt, &ctx.id).await;
    rt.shutdown().await;
    drop(rt);

    let rt = open(dir.path(), kind, &base, "smollm2-135m").await;
    let messages = rt.load_context(&ctx.id).await.unwrap().messages;
    let MessageType::Image { source: ImageSource::Stored(s), recognized_text, .. } = image_of(&messages) else {
        panic!("the image message is back")
    };
    assert_eq!(s.name.as_deref(), Some("error.png"));
    assert!(recognized_text.as_deref().unwrap().contains("Deploy failed"));
    let v = rt.execute(Command::ReadImage { id: s.id.clone() }).await.unwrap();
    assert_eq!(B64.decode(v["data"].as_str().unwrap()).unwrap(), png);
    assert_eq!(v["media_type"], "image/png");
}

#[tokio::test]
async fn deleting_a_conversation_deletes_the_images_only_it_used() {
    let dir = tempfile::tempdir().unwrap();
    let (mock, base) = Mock::start().await;
    let kind = ProviderKind::OpenAiCompatible;
    let rt = open(dir.path(), kind, &base, "smollm2-135m").await;
    let shared = store(&rt, &text_png(dir.path()), "shared.png").await;
    let only = store(&rt, &magick(dir.path(), "only.png", &["-size", "64x64", "xc:red"]), "only.png").await;
    let (a, b) = (rt.create_context(None, None).await.unwrap(), rt.create_context(None, None).await.unwrap());
    for (ctx, image) in [(&a, &shared), (&a, &only), (&b, &shared)] {
        mock.reply(kind, "ok");
        rt.send_message(&ctx.id, with_image("see", image, ImageMode::Ocr), false).await.unwrap();
        wait_idle(&rt, &ctx.id).await;
    }
    rt.delete_context(&a.id).await.unwrap();
    let gone = rt.execute(Command::ReadImage { id: only.id.clone() }).await.unwrap_err();
    assert!(gone.message.contains("no stored image"), "{gone:?}");
    rt.execute(Command::ReadImage { id: shared.id.clone() }).await.expect("still used by the other conversation");
    rt.delete_context(&b.id).await.unwrap();
    assert!(
        rt.execute(Command::ReadImage { id: shared.id }).await.is_err(),
        "gone with the last conversation using it"
    );
}

#[tokio::test]
async fn images_never_sent_are_swept_after_a_day_and_used_ones_kept() {
    let dir = tempfile::tempdir().unwrap();
    let (mock, base) = Mock::start().await;
    let kind = ProviderKind::OpenAiCompatible;
    let rt = open(dir.path(), kind, &base, "smollm2-135m").await;
    let used = store(&rt, &text_png(dir.path()), "used.png").await;
    let unsent = store(&rt, &magick(dir.path(), "unsent.png", &["-size", "32x32", "xc:blue"]), "unsent.png").await;
    let fresh = store(&rt, &magick(dir.path(), "fresh.png", &["-size", "32x32", "xc:green"]), "fresh.png").await;
    let ctx = rt.create_context(None, None).await.unwrap();
    mock.reply(kind, "ok");
    rt.send_message(&ctx.id, with_image("see", &used, ImageMode::Ocr), false).await.unwrap();
    wait_idle(&rt, &ctx.id).await;
    rt.shutdown().await;
    drop(rt);
    // Two days pass for two of them.
    let old = std::time::SystemTime::now() - Duration::from_secs(2 * 24 * 3600);
    for id in [&used.id, &unsent.id] {
        std::fs::File::options()
            .write(true)
            .open(dir.path().join("images").join(id))
            .unwrap()
            .set_modified(old)
            .unwrap();
    }
    let rt = open(dir.path(), kind, &base, "smollm2-135m").await;
    let t0 = Instant::now();
    while dir.path().join("images").join(&unsent.id).exists() {
        assert!(t0.elapsed() < Duration::from_secs(5), "the unsent image was not swept");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    rt.execute(Command::ReadImage { id: used.id }).await.expect("an image a message uses is kept, however old");
    rt.execute(Command::ReadImage { id: fresh.id }).await.expect("an image attached today is kept");
}

#[tokio::test]
async fn an_image_mentioned_with_at_is_attached_stored_and_read() {
    let dir = tempfile::tempdir().unwrap();
    let (mock, base) = Mock::start().await;
    let kind = ProviderKind::OpenAiCompatible;
    let rt = open(dir.path(), kind, &base, "smollm2-135m").await;
    std::fs::create_dir(dir.path().join("docs")).unwrap();
    let original = text_png(dir.path());
    std::fs::write(dir.path().join("docs/diagram.png"), &original).unwrap();
    let ctx = rt.create_context(None, None).await.unwrap();
    let say = NewMessage::user_text;
    mock.reply(kind, "It failed on quota.");
    rt.send_message(&ctx.id, say("what does @docs/diagram.png say?"), false).await.unwrap();
    let messages = wait_idle(&rt, &ctx.id).await;
    let MessageType::Image { source: ImageSource::Stored(s), recognized_text, used, .. } = image_of(&messages) else {
        panic!("the mentioned image is attached and stored: {messages:?}")
    };
    assert_eq!(s.name.as_deref(), Some("diagram.png"));
    assert_eq!(*used, Some(ImageMode::Ocr));
    assert!(recognized_text.as_deref().unwrap().contains("Deploy failed"));
    assert!(mock.captured()[0].to_string().contains("Deploy failed"), "the model got its text");
    // Changing the file afterwards does not change what was sent.
    std::fs::write(dir.path().join("docs/diagram.png"), b"overwritten").unwrap();
    let v = rt.execute(Command::ReadImage { id: s.id.clone() }).await.unwrap();
    assert!(B64.decode(v["data"].as_str().unwrap()).unwrap() == original, "the bytes stored are those sent");
    // A missing image, one outside the workspace, or a file named like an
    // image that holds something else stops the message with the reason.
    std::fs::write(dir.path().join("fake.png"), "just some text, not pixels\n").unwrap();
    std::fs::write(dir.path().join("empty.jpg"), b"").unwrap();
    for (text, says) in [
        ("see @nope.png", "no such file"),
        ("see @../outside.png", "outside"),
        ("see @fake.png", "fake.png is not an image"),
        ("see @empty.jpg", "empty.jpg is not an image"),
    ] {
        let told = rt.send_message(&ctx.id, say(text), false).await.unwrap_err().to_wire().message;
        assert!(
            told.starts_with("The message was not added") && told.contains(says),
            "{text}: refused with the reason: {told}"
        );
        let snap = rt.load_context(&ctx.id).await.unwrap();
        assert_eq!(snap.messages.len(), messages.len(), "{text}: nothing is added");
    }
}
