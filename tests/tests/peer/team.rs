//! Three API members on the real model: `[NEXT:max] [NEXT:sarah]
//! [NEXT:carol] Hi` runs each in turn; each member's request carries the
//! previous member's stored answer, without markers, and its own
//! instruction as the system prompt.

use super::{provider, until, Recording, MODEL};
use braid_protocol::{AgentType, NewMessage, StatusKind, Team, TeamMember};
use braid_runtime::{Runtime, RuntimeConfig};
use braid_testkit::harness::REAL_MODEL_LIMIT;
use std::path::Path;
use std::sync::Arc;

fn member(name: &str) -> TeamMember {
    TeamMember {
        name: name.to_owned(),
        agent: AgentType::Api { model: None },
        colour: String::new(),
        instruction: format!("You are {name}. Answer in one short sentence."),
        instruction_file: None,
        window: None,
        program: None,
        isolated: false,
    }
}

pub async fn team_flow(dir: &Path, url: &str) {
    let recording = Arc::new(Recording { inner: provider(url, None), sent: Default::default() });
    let mut config = RuntimeConfig::new(dir.join("team.db"), dir.to_owned());
    super::no_auto_continue(&mut config);
    config.model = MODEL.into();
    config.max_tokens = 32;
    let rt = Runtime::open(config, recording.clone()).unwrap().0;
    let ctx = rt.create_context(None, None).await.unwrap();
    let members = vec![member("max"), member("sarah"), member("carol")];
    let team = Team { members, task: "Greet the user.".into(), window: 5, byte_budget: 768 * 1024 };
    rt.set_team(&ctx.id, Some(team)).await.unwrap();
    let (_, mut sub) = rt.subscribe(&ctx.id).await.unwrap();
    rt.send_message(&ctx.id, NewMessage::user_text("[NEXT:max] [NEXT:sarah] [NEXT:carol] Hi"), false).await.unwrap();
    until(&mut sub, &[StatusKind::Idle, StatusKind::Failed], REAL_MODEL_LIMIT).await;

    let snap = rt.load_context(&ctx.id).await.unwrap();
    let answers: Vec<(String, String)> =
        snap.messages.iter().filter_map(|m| Some((m.meta.author.clone()?, m.body.plain_text()?))).collect();
    // How the chain ended, for a failure's reader (a member's request
    // that failed ends it early).
    println!("team answers: {answers:?}; status at the end: {:?}", snap.summary.status);
    let authors: Vec<&str> = answers.iter().take(3).map(|(a, _)| a.as_str()).collect();
    assert_eq!(authors, ["max", "sarah", "carol"], "each member answered in turn");
    let sent = recording.sent.lock().unwrap().clone();
    assert!(sent.len() >= 3, "one request per member");
    let prompt = |i: usize| sent[i].messages[0].body.plain_text().unwrap();
    assert_eq!(prompt(0), "Message:\nuser: Hi", "the user's markers stripped");
    for (i, name) in ["max", "sarah", "carol"].iter().enumerate() {
        let system = sent[i].system.clone().unwrap_or_default();
        assert!(system.starts_with(&format!("You are {name}.")), "{system}");
        assert!(system.ends_with("Team task:\nGreet the user."), "{system}");
        assert!(!prompt(i).contains("[NEXT:"), "no markers reach a member: {}", prompt(i));
        assert!(sent[i].tools.is_empty(), "members are offered no tools");
    }
    for i in 1..3 {
        let (previous, said) = &answers[i - 1];
        let stripped = braid_core::team::strip_markers(said);
        let block = braid_core::untrusted::block(&format!("team member {previous}"), stripped.trim());
        let message = format!("Message:\n{previous}: {block}");
        assert!(prompt(i).ends_with(&message), "request {i} carries {previous}'s answer:\n{}", prompt(i));
    }
    rt.shutdown().await;
}
