//! The real model made to call `codebase_search` (the user's `/tool`)
//! on the codebase fixture: the search runs on the live index, and its
//! result goes back to the model in the next request, as stored.

use super::{provider, until, Recording, MODEL};
use braid_protocol::{MessageType, NewMessage, Role, StatusKind, ToolApprovalPolicy};
use braid_runtime::{Runtime, RuntimeConfig};
use braid_testkit::harness::REAL_MODEL_LIMIT;
use std::path::Path;
use std::sync::Arc;

pub async fn codebase_flow(dir: &Path, url: &str) {
    let work = braid_testkit::fixtures::codebase();
    let recording = Arc::new(Recording { inner: provider(url, None), sent: Default::default() });
    let mut config = RuntimeConfig::new(dir.join("codebase.db"), work.path().to_owned());
    super::no_auto_continue(&mut config);
    config.model = MODEL.into();
    config.max_tokens = 48;
    config.machine.tools.policy = ToolApprovalPolicy::AutoAll;
    // One tool round, then the model answers with the result in hand.
    config.machine.max_loop_depth = 2;
    let rt = Runtime::open(config, recording.clone()).unwrap().0;
    let ctx = rt.create_context(None, None).await.unwrap();
    let (_, mut sub) = rt.subscribe(&ctx.id).await.unwrap();
    let ask = NewMessage {
        body: MessageType::text(Role::User, "Search the code for parse_config."),
        force_tool: Some("codebase_search".into()),
        images: Vec::new(),
    };
    rt.send_message(&ctx.id, ask, false).await.unwrap();
    until(&mut sub, &[StatusKind::Idle, StatusKind::Failed], REAL_MODEL_LIMIT).await;
    let snap = rt.load_context(&ctx.id).await.unwrap();
    let call = snap.messages.iter().find_map(|m| match &m.body {
        MessageType::ToolRequest { calls, .. } => calls.first().cloned(),
        _ => None,
    });
    let call = call.expect("the model called the tool it was made to");
    assert_eq!(call.name, "codebase_search");
    let stored = snap.messages.iter().find_map(|m| match &m.body {
        MessageType::ToolResult { output, error, .. } => {
            Some(if output.is_empty() { error.clone().unwrap_or_default() } else { output.clone() })
        }
        _ => None,
    });
    let stored = stored.expect("the search's result is stored");
    println!("codebase_search {} → {}", call.arguments, stored.lines().next().unwrap_or(""));
    // Whatever the small model asked (its arguments vary from run to run),
    // the answer is the tool's: results, "No match", or why not.
    assert!(!stored.trim().is_empty());
    let sent = recording.sent.lock().unwrap().clone();
    assert!(sent.len() >= 2, "the result went back to the model");
    let back = sent[1].messages.iter().any(|m| match &m.body {
        MessageType::ToolResult { output, error, .. } => output == &stored || error.as_deref() == Some(stored.as_str()),
        _ => false,
    });
    assert!(back, "the model's next request carries the search's result as stored");
    rt.shutdown().await;
}
