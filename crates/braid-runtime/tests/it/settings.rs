//! Providers, keys and per-conversation models through the runtime's
//! commands, with settings and keys in real files. No network: the
//! real-server half is in `llm_peer.rs`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_llm::secrets::Secrets;
use braid_protocol::{
    Command, ContextStatus, KeyChange, KeyLocation, ModelChoice, NewMessage, ProviderInput, ProviderKind, SettingsView,
    StatusKind,
};
use braid_runtime::{Providers, Runtime, RuntimeConfig};
use serde_json::Value;
use std::path::Path;

fn open(dir: &Path) -> Runtime {
    let providers = Providers::from_settings(dir.join("settings.json"), Secrets::file_only(dir)).unwrap();
    Runtime::open_with(RuntimeConfig::new(dir.join("braid.db"), dir.to_owned()), providers).unwrap().0
}

async fn run(rt: &Runtime, command: Command) -> Value {
    rt.execute(command).await.unwrap_or_else(|e| panic!("{e}"))
}

fn input(name: &str, key: KeyChange) -> ProviderInput {
    ProviderInput {
        id: None,
        kind: ProviderKind::OpenAiCompatible,
        name: name.into(),
        base_url: "http://127.0.0.1:9/v1/".into(),
        default_model: Some("gpt-4o".into()),
        key,
    }
}

async fn wait_for(rt: &Runtime, id: &braid_protocol::ContextId, kind: StatusKind) -> ContextStatus {
    braid_testkit::harness::Watch::new(rt, id).await.state(kind).await
}

#[tokio::test]
async fn with_no_provider_a_message_fails_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let rt = open(dir.path());
    let view: SettingsView = serde_json::from_value(run(&rt, Command::GetSettings).await).unwrap();
    assert!(view.providers.is_empty() && view.fallback.is_none());
    let ctx = rt.create_context(None, None).await.unwrap();
    let snap = rt.load_context(&ctx.id).await.unwrap();
    assert_eq!(snap.effective_model, None);
    rt.send_message(&ctx.id, NewMessage::user_text("hi"), false).await.unwrap();
    match wait_for(&rt, &ctx.id, StatusKind::Failed).await {
        ContextStatus::Failed { error_code, message, .. } => {
            assert_eq!(error_code, braid_protocol::FailureCode::NoProvider);
            assert!(message.contains("Open Settings"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    // The user's message is kept.
    assert_eq!(rt.load_context(&ctx.id).await.unwrap().messages.len(), 1);
}

#[tokio::test]
async fn providers_are_saved_to_disk_and_keys_never_come_back() {
    let dir = tempfile::tempdir().unwrap();
    let rt = open(dir.path());
    let secret = "sk-test-0123456789-secret";
    let saved =
        run(&rt, Command::SaveProvider { provider: input("My Local Llama!", KeyChange::Set { key: secret.into() }) })
            .await;
    assert!(!saved.to_string().contains(secret), "the key is not in the answer");
    let view: SettingsView = serde_json::from_value(saved).unwrap();
    let p = &view.providers[0];
    assert_eq!(p.id, "my-local-llama");
    assert_eq!(p.base_url, "http://127.0.0.1:9/v1", "trailing slash trimmed");
    assert_eq!(p.key, Some(KeyLocation::File));
    assert_eq!(view.default_provider.as_deref(), Some("my-local-llama"), "the first provider is the default");
    let settings_file = std::fs::read_to_string(dir.path().join("settings.json")).unwrap();
    assert!(!settings_file.contains(secret), "the key is not in the settings file");

    // A second provider with the same name gets its own id; editing with
    // Keep leaves the key alone; Clear removes it.
    let second: SettingsView = serde_json::from_value(
        run(&rt, Command::SaveProvider { provider: input("My Local Llama!", KeyChange::Keep) }).await,
    )
    .unwrap();
    assert_eq!(second.providers[1].id, "my-local-llama-2");
    assert_eq!(second.providers[1].key, None);
    let mut edit = input("Renamed", KeyChange::Keep);
    edit.id = Some("my-local-llama".into());
    let edited: SettingsView =
        serde_json::from_value(run(&rt, Command::SaveProvider { provider: edit }).await).unwrap();
    let p = edited.providers.iter().find(|p| p.id == "my-local-llama").unwrap();
    assert_eq!((p.name.as_str(), p.key), ("Renamed", Some(KeyLocation::File)));

    // Restarting finds the same settings.
    rt.shutdown().await;
    let rt = open(dir.path());
    let view: SettingsView = serde_json::from_value(run(&rt, Command::GetSettings).await).unwrap();
    assert_eq!(view.providers.len(), 2);
    assert_eq!(view.providers.iter().find(|p| p.id == "my-local-llama").unwrap().key, Some(KeyLocation::File));
    let view: SettingsView =
        serde_json::from_value(run(&rt, Command::SetDefaultProvider { provider_id: "my-local-llama-2".into() }).await)
            .unwrap();
    assert_eq!(view.default_provider.as_deref(), Some("my-local-llama-2"));
    let view: SettingsView =
        serde_json::from_value(run(&rt, Command::RemoveProvider { provider_id: "my-local-llama".into() }).await)
            .unwrap();
    assert_eq!(view.providers.len(), 1);
    assert!(!std::fs::read_to_string(dir.path().join("secrets.json")).unwrap_or_default().contains(secret));
}

#[tokio::test]
async fn bad_provider_input_is_refused_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let rt = open(dir.path());
    let mut bad_url = input("x", KeyChange::Keep);
    bad_url.base_url = "localhost:8080".into();
    let e = rt.execute(Command::SaveProvider { provider: bad_url.clone() }).await.unwrap_err();
    assert!(e.message.contains("http://"), "{}", e.message);
    let e = rt.execute(Command::TestProvider { provider: bad_url }).await.unwrap_err();
    assert!(e.message.contains("http://"), "{}", e.message);
    let e = rt.execute(Command::SaveProvider { provider: input(" ", KeyChange::Keep) }).await.unwrap_err();
    assert!(e.message.contains("name"), "{}", e.message);
    let e = rt.execute(Command::SaveProvider { provider: input("x", KeyChange::Set { key: "  ".into() }) }).await;
    assert!(e.unwrap_err().message.contains("empty"));
    // Nothing listens on port 9: the test says what failed.
    let e = rt.execute(Command::TestProvider { provider: input("Nothing", KeyChange::Keep) }).await.unwrap_err();
    let words = "could not reach Nothing: nothing answers at 127.0.0.1:9 (connection refused) — is the server running?";
    assert_eq!(e.message, words, "in plain words, not the HTTP library's");
    let view: SettingsView = serde_json::from_value(run(&rt, Command::GetSettings).await).unwrap();
    assert!(view.providers.is_empty());
    assert!(!dir.path().join("settings.json").exists());
}

#[tokio::test]
async fn rename_and_model_choice_persist_and_a_removed_provider_is_explained() {
    let dir = tempfile::tempdir().unwrap();
    let rt = open(dir.path());
    run(&rt, Command::SaveProvider { provider: input("Work", KeyChange::Keep) }).await;
    let ctx = rt.create_context(None, None).await.unwrap();
    let snap = rt.load_context(&ctx.id).await.unwrap();
    let effective = snap.effective_model.unwrap();
    assert_eq!((effective.model.as_str(), effective.context_window), ("gpt-4o", 128_000));

    let e = rt.execute(Command::RenameContext { context_id: ctx.id.clone(), title: "  ".into() }).await.unwrap_err();
    assert!(e.message.contains("title"));
    run(&rt, Command::RenameContext { context_id: ctx.id.clone(), title: " Plans for Q3 ".into() }).await;
    let choice = ModelChoice { provider_id: "nobody".into(), model: "m".into() };
    let e = rt.execute(Command::SetContextModel { context_id: ctx.id.clone(), model: Some(choice) }).await;
    assert!(e.unwrap_err().message.contains("nobody"));
    let choice = ModelChoice { provider_id: "work".into(), model: "gpt-4.1-mini".into() };
    run(&rt, Command::SetContextModel { context_id: ctx.id.clone(), model: Some(choice.clone()) }).await;

    rt.shutdown().await;
    let rt = open(dir.path());
    let listed = rt.list_contexts().await.unwrap();
    assert_eq!(listed[0].title, "Plans for Q3");
    assert_eq!(listed[0].model.as_ref(), Some(&choice));
    let snap = rt.load_context(&ctx.id).await.unwrap();
    assert_eq!(snap.effective_model.unwrap().model, "gpt-4.1-mini");

    run(&rt, Command::RemoveProvider { provider_id: "work".into() }).await;
    rt.send_message(&ctx.id, NewMessage::user_text("hi"), false).await.unwrap();
    match wait_for(&rt, &ctx.id, StatusKind::Failed).await {
        ContextStatus::Failed { message, .. } => assert!(message.contains("was removed"), "{message}"),
        other => panic!("{other:?}"),
    }
    // Back to the default (none now): the snapshot says so.
    run(&rt, Command::SetContextModel { context_id: ctx.id.clone(), model: None }).await;
    assert_eq!(rt.load_context(&ctx.id).await.unwrap().effective_model, None);
}

#[tokio::test]
async fn a_branch_answers_with_its_own_model_and_keeps_it() {
    let dir = tempfile::tempdir().unwrap();
    let rt = open(dir.path());
    run(&rt, Command::SaveProvider { provider: input("Work", KeyChange::Keep) }).await;
    let ctx = rt.create_context(None, None).await.unwrap();
    let branch = |model: Option<ModelChoice>, b: &str| Command::SetBranchModel {
        context_id: ctx.id.clone(),
        branch_id: braid_protocol::BranchId(b.into()),
        model,
    };
    let nobody = ModelChoice { provider_id: "nobody".into(), model: "m".into() };
    assert!(rt.execute(branch(Some(nobody), "main")).await.unwrap_err().message.contains("nobody"));
    assert_eq!(rt.execute(branch(None, "b9")).await.unwrap_err().code, braid_protocol::ErrorCode::NotFound);
    let mini = ModelChoice { provider_id: "work".into(), model: "gpt-4.1-mini".into() };
    run(&rt, branch(Some(mini.clone()), "main")).await;
    let snap = rt.load_context(&ctx.id).await.unwrap();
    assert_eq!(snap.effective_model.unwrap().model, "gpt-4.1-mini", "the branch in use answers with its model");
    assert_eq!(snap.branches[0].model.as_ref(), Some(&mini));
    assert_eq!(snap.summary.model, None, "the conversation's own choice is untouched");

    rt.shutdown().await;
    let rt = open(dir.path());
    let snap = rt.load_context(&ctx.id).await.unwrap();
    assert_eq!(snap.effective_model.unwrap().model, "gpt-4.1-mini", "kept across a restart");
    run(&rt, branch(None, "main")).await;
    assert_eq!(rt.load_context(&ctx.id).await.unwrap().effective_model.unwrap().model, "gpt-4o");
}

#[tokio::test]
async fn new_conversations_start_with_the_users_defaults_which_are_checked_and_kept() {
    use braid_protocol::{ContextStrategy, ConversationDefaults, Sandbox, SandboxLevel, ToolApprovalPolicy};
    let dir = tempfile::tempdir().unwrap();
    let rt = open(dir.path());
    run(&rt, Command::SaveProvider { provider: input("Work", KeyChange::Keep) }).await;
    let before = rt.create_context(None, None).await.unwrap();
    let mini = ModelChoice { provider_id: "work".into(), model: "gpt-4.1-mini".into() };
    let sandbox = Sandbox { level: SandboxLevel::ReadOnly, ..Sandbox::default() };
    let defaults = ConversationDefaults {
        strategy: Some(ContextStrategy::RecentN { n: 6 }),
        summarize_at_percent: Some(0),
        continue_cut: Some(3),
        model: Some(mini.clone()),
        tool_policy: Some(ToolApprovalPolicy::Manual),
        sandbox: Some(sandbox),
        working_dir: Some(std::fs::canonicalize(dir.path()).unwrap().join("projects").display().to_string()),
    };
    let nowhere = ConversationDefaults { working_dir: Some("/no/such/folder".into()), ..defaults.clone() };
    let refused = rt.execute(Command::SetConversationDefaults { defaults: nowhere }).await.unwrap_err().to_string();
    assert!(refused.contains("/no/such/folder is not a folder"), "{refused}");
    std::fs::create_dir(dir.path().join("projects")).unwrap();
    let bad = ConversationDefaults { summarize_at_percent: Some(30), ..defaults.clone() };
    let refused = rt.execute(Command::SetConversationDefaults { defaults: bad }).await.unwrap_err().to_string();
    assert!(refused.contains("50 to 100 %"), "{refused}");
    let too_many = ConversationDefaults { continue_cut: Some(11), ..defaults.clone() };
    assert!(rt.execute(Command::SetConversationDefaults { defaults: too_many }).await.is_err());
    let nobody = ModelChoice { provider_id: "nobody".into(), model: "m".into() };
    let unknown = ConversationDefaults { model: Some(nobody), ..defaults.clone() };
    let refused = rt.execute(Command::SetConversationDefaults { defaults: unknown }).await.unwrap_err().to_string();
    assert!(refused.contains("no provider \"nobody\""), "{refused}");
    let view: SettingsView =
        serde_json::from_value(run(&rt, Command::SetConversationDefaults { defaults: defaults.clone() }).await)
            .unwrap();
    assert_eq!(view.conversations, defaults);
    let new = rt.create_context(None, None).await.unwrap();
    let snap = rt.load_context(&new.id).await.unwrap();
    assert_eq!(
        (snap.strategy, snap.summarize_at_percent, snap.generation.continue_cut),
        (ContextStrategy::RecentN { n: 6 }, 0, Some(3))
    );
    assert_eq!(
        (snap.summary.model.as_ref(), &snap.tools.policy, &snap.tools.sandbox),
        (Some(&mini), &ToolApprovalPolicy::Manual, &sandbox),
        "the default model, approval policy and sandbox"
    );
    assert_eq!(Some(&snap.summary.working_dir), defaults.working_dir.as_ref(), "the default folder");
    let old = rt.load_context(&before.id).await.unwrap();
    assert_eq!(
        (old.summarize_at_percent, old.generation.continue_cut, old.summary.model),
        (92, None, None),
        "a conversation already there keeps its own"
    );
    drop(rt);
    // Kept in settings.json: a restart starts new conversations the same way.
    let rt = open(dir.path());
    let view: SettingsView = serde_json::from_value(run(&rt, Command::GetSettings).await).unwrap();
    assert_eq!(view.conversations, defaults);
}

/// Export → import on another machine: providers (never their keys),
/// defaults and standing instructions arrive whole; a file that cannot be
/// used is refused and changes nothing.
#[tokio::test]
async fn settings_go_to_another_machine_without_their_keys() {
    use braid_protocol::{ConversationDefaults, StandingInstructions};
    let here = tempfile::tempdir().unwrap();
    let rt = open(here.path());
    let key = KeyChange::Set { key: "sk-export-secret-0123456789".into() };
    run(&rt, Command::SaveProvider { provider: input("Work", key) }).await;
    let defaults = ConversationDefaults { summarize_at_percent: Some(80), ..ConversationDefaults::default() };
    run(&rt, Command::SetConversationDefaults { defaults: defaults.clone() }).await;
    let mine = StandingInstructions { about_me: "I write Rust.".into(), how_to_answer: String::new() };
    run(&rt, Command::SetStandingInstructions { instructions: mine.clone() }).await;
    let file: String = serde_json::from_value(run(&rt, Command::ExportSettings).await).unwrap();
    assert!(!file.contains("sk-export-secret"), "no key in the file: {file}");

    let there = tempfile::tempdir().unwrap();
    let other = open(there.path());
    let before: SettingsView = serde_json::from_value(run(&other, Command::GetSettings).await).unwrap();
    for (bad, says) in [
        ("{ not json", "not a Braid settings file"),
        (
            r#"{"providers":[{"id":"x y","kind":"open_ai_compatible","name":"X","base_url":"http://h"}]}"#,
            "provider \"x y\"",
        ),
        (r#"{"default_provider":"gone"}"#, "default provider \"gone\""),
        (r#"{"conversations":{"summarize_at_percent":20}}"#, "50 to 100 %"),
    ] {
        let e = other.execute(Command::ImportSettings { text: bad.into() }).await.unwrap_err().message;
        assert!(e.contains(says), "{bad}: {e}");
    }
    let unchanged: SettingsView = serde_json::from_value(run(&other, Command::GetSettings).await).unwrap();
    assert_eq!(unchanged, before, "a refused file changes nothing");
    let view: SettingsView = serde_json::from_value(run(&other, Command::ImportSettings { text: file }).await).unwrap();
    assert_eq!((&view.conversations, &view.instructions), (&defaults, &mine));
    assert_eq!(view.providers.len(), 1);
    assert_eq!((view.providers[0].id.as_str(), view.providers[0].key), ("work", None), "the key stays behind");
    drop(other);
    let again: SettingsView = serde_json::from_value(run(&open(there.path()), Command::GetSettings).await).unwrap();
    assert_eq!(again, view, "kept in the other machine's settings.json");
}
