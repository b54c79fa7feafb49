//! The window view is what is sent: for five conversations on the real
//! llama.cpp server — a short question, one with the tools offered, a
//! file referenced with `@`, an image read by OCR, and one after a summary
//! — the breakdown of the next request (taken while the question is
//! typed) against the `prompt_tokens` the server reports for it, within
//! 1 %; the table is printed. A file that does not fit stops the turn
//! before anything is sent, naming the file. What the model writes is its
//! own and not looked at.

use super::{provider, until, Recording, MODEL};
use braid_protocol::{ContextId, MessageType, NewMessage, StatusKind};
use braid_runtime::{Runtime, RuntimeConfig, Subscription};
use braid_testkit::harness::REAL_MODEL_LIMIT;
use std::path::Path;
use std::sync::Arc;

struct Case {
    rt: Runtime,
    ctx: ContextId,
    sub: Subscription,
    sent: Arc<Recording>,
}

async fn case(dir: &Path, name: &str, url: &str, configure: impl FnOnce(&mut RuntimeConfig)) -> Case {
    let work = dir.join(format!("window-{name}"));
    std::fs::create_dir_all(&work).unwrap();
    let sent = Arc::new(Recording { inner: provider(url, None), sent: Default::default() });
    let mut config = RuntimeConfig::new(work.join("braid.db"), work.clone());
    super::no_auto_continue(&mut config);
    config.model = MODEL.into();
    config.max_tokens = 32;
    configure(&mut config);
    let rt = Runtime::open(config, sent.clone()).unwrap().0;
    let ctx = rt.create_context(Some(name.into()), None).await.unwrap().id;
    let (_, sub) = rt.subscribe(&ctx).await.unwrap();
    Case { rt, ctx, sub, sent }
}

impl Case {
    async fn say(&mut self, text: &str) {
        self.rt.send_message(&self.ctx, NewMessage::user_text(text), false).await.unwrap();
        until(&mut self.sub, &[StatusKind::Idle, StatusKind::Failed], REAL_MODEL_LIMIT).await;
    }

    /// The view's total for `text` as typed, and the server's count of the
    /// request it then sends.
    async fn measure(&mut self, text: &str) -> (u32, u32, bool) {
        let view = self.rt.context_breakdown(&self.ctx, text.to_owned()).await.unwrap();
        self.say(text).await;
        let snap = self.rt.load_context(&self.ctx).await.unwrap();
        let answer = snap.messages.iter().rev().find(|m| m.meta.usage.is_some()).expect("an answer with its usage");
        (view.total, answer.meta.usage.unwrap().prompt_tokens, view.counted_by_server)
    }
}

pub async fn window_view_flow(dir: &Path, url: &str) {
    let mut rows: Vec<(&str, u32, u32, bool)> = Vec::new();

    let mut short = case(dir, "short", url, |_| {}).await;
    let (view, sent, server) = short.measure("Say hello in one short sentence.").await;
    rows.push(("short", view, sent, server));

    let mut tools = case(dir, "tools", url, |c| {
        c.machine.generation.tool_use = Some(braid_protocol::ToolUse::Auto);
        c.machine.tools.policy = braid_protocol::ToolApprovalPolicy::Manual;
    })
    .await;
    let (view, sent, server) = tools.measure("Which tools do you have?").await;
    rows.push(("with tools", view, sent, server));

    let mut file = case(dir, "file", url, |_| {}).await;
    let notes = "The lighthouse keeper logs the ships that pass and the weather each hour.\n".repeat(50);
    std::fs::write(dir.join("window-file/notes.md"), &notes).unwrap();
    let (view, sent, server) = file.measure("What does @notes.md say, in one line?").await;
    rows.push(("@file (3.7 KB)", view, sent, server));

    let mut image = case(dir, "image", url, |_| {}).await;
    std::fs::write(dir.join("window-image/shot.png"), braid_testkit::fixtures::text_png(&dir.join("window-image")))
        .unwrap();
    image.say("What does @shot.png say?").await;
    let (view, sent, server) = image.measure("And in one word?").await;
    rows.push(("image (OCR)", view, sent, server));

    let mut summary = case(dir, "summary", url, |_| {}).await;
    for q in ["Name a colour.", "Name a fruit.", "Name a city."] {
        summary.say(q).await;
    }
    summary.rt.compact_context(&summary.ctx, None, Default::default(), false).await.unwrap();
    until(&mut summary.sub, &[StatusKind::Idle, StatusKind::Failed], REAL_MODEL_LIMIT).await;
    let snap = summary.rt.load_context(&summary.ctx).await.unwrap();
    let summarised = snap.messages.iter().any(|m| {
        matches!(&m.body, MessageType::SystemControl { control: braid_protocol::ControlKind::Summary { .. } })
    });
    assert!(summarised, "the conversation was summarised first");
    let (view, sent, server) = summary.measure("Which of them did I ask first?").await;
    rows.push(("after a summary", view, sent, server));

    println!("conversation       view   sent by the server   difference");
    for (name, view, sent, server) in &rows {
        let diff = f64::from(*view) / f64::from((*sent).max(1)) * 100.0 - 100.0;
        println!(
            "{name:<18} {view:>5}   {sent:>5}               {diff:+.2} %{}",
            if *server { "" } else { " (estimate)" }
        );
    }
    for (name, view, sent, server) in &rows {
        assert!(*server, "{name}: the server counted the view");
        let off = (f64::from(*view) - f64::from(*sent)).abs() / f64::from((*sent).max(1));
        assert!(off <= 0.01, "{name}: the view said {view} tokens, the server read {sent}");
    }

    // A file that cannot fit beside the conversation: nothing is sent,
    // and the turn says which file and what to do.
    let mut big = case(dir, "big", url, |_| {}).await;
    std::fs::write(dir.join("window-big/big.md"), "word ".repeat(4_000)).unwrap();
    let before = big.sent.sent.lock().unwrap().len();
    big.say("Summarise @big.md").await;
    let snap = big.rt.load_context(&big.ctx).await.unwrap();
    match snap.summary.status {
        braid_protocol::ContextStatus::Failed { message, .. } => {
            assert!(message.contains("@big.md (") && message.contains("did not fit"), "{message}");
        }
        other => panic!("the turn stops before sending, not {other:?}"),
    }
    assert_eq!(big.sent.sent.lock().unwrap().len(), before, "nothing went to the model");
    assert!(snap
        .messages
        .iter()
        .any(|m| matches!(&m.body, MessageType::FileReference { path, .. } if path == "big.md")));
    for c in [short, tools, file, image, summary, big] {
        c.rt.shutdown().await;
    }
}
