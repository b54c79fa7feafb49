//! Provider settings, API keys (env > keychain > 0600 file) and the model
//! catalogue, including listing models from a server.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use axum::routing::get;
use axum::Json;
use braid_llm::catalogue::{list_models, Catalogue, ModelInfo, Tokenizer};
use braid_llm::secrets::{env_var, KeySource, Secrets};
use braid_llm::settings::{build_provider, ProviderSettings, Settings, SettingsError};
use braid_llm::{ApiKey, LlmProvider, ProviderKind};
use serde_json::json;

#[test]
fn keys_go_to_a_private_file_when_no_keychain_runs_and_env_wins() {
    let dir = tempfile::tempdir().unwrap();
    let secrets = Secrets::file_only(dir.path());
    let key = ApiKey::new("sk-live-123").unwrap();
    assert_eq!(format!("{key:?}"), "ApiKey(…)", "a key never prints");
    assert_eq!(secrets.set("openai-test", &key).unwrap(), KeySource::File);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.path().join("secrets.json")).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "only the user may read the key file");
    }
    let (got, source) = secrets.get("openai-test").unwrap().unwrap();
    assert_eq!((got.expose(), source), ("sk-live-123", KeySource::File));

    assert_eq!(env_var("local-llama"), "BRAID_LOCAL_LLAMA_API_KEY");
    // The variable name is unique to this test, so parallel tests are safe.
    std::env::set_var(env_var("openai-test"), "sk-from-env");
    let (got, source) = secrets.get("openai-test").unwrap().unwrap();
    assert_eq!((got.expose(), source), ("sk-from-env", KeySource::Env));
    std::env::remove_var(env_var("openai-test"));

    secrets.delete("openai-test").unwrap();
    assert!(secrets.get("openai-test").unwrap().is_none());

    std::fs::write(dir.path().join("secrets.json"), "{broken").unwrap();
    let err = secrets.get("x").unwrap_err().to_string();
    assert!(err.contains("secrets.json") && err.contains("not valid JSON"), "{err}");
}

#[test]
fn the_platform_store_is_used_or_falls_back_without_losing_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let secrets = Secrets::new(dir.path());
    let id = format!("probe-{}", std::process::id());
    let source = secrets.set(&id, &ApiKey::new("sk-probe").unwrap()).unwrap();
    let (got, read_from) = secrets.get(&id).unwrap().unwrap();
    assert_eq!(got.expose(), "sk-probe");
    assert_eq!(read_from, source);
    secrets.delete(&id).unwrap();
    assert!(secrets.get(&id).unwrap().is_none());
}

fn local(id: &str, url: &str) -> ProviderSettings {
    ProviderSettings {
        id: id.into(),
        kind: ProviderKind::OpenAiCompatible,
        name: "Local".into(),
        base_url: url.into(),
        default_model: Some("smollm2-135m".into()),
    }
}

#[test]
fn settings_round_trip_validate_and_never_overwrite_a_bad_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    assert_eq!(Settings::load(&path).unwrap(), Settings::default());
    let mut s = Settings::default();
    s.upsert_provider(local("local", "http://127.0.0.1:8089/v1")).unwrap();
    assert_eq!(s.default_provider.as_deref(), Some("local"));
    assert!(matches!(s.upsert_provider(local("bad id!", "http://x.example")), Err(SettingsError::Invalid(_))));
    let e = s.upsert_provider(local("other", "ftp://nope")).unwrap_err().to_string();
    assert!(e.contains("http://"), "{e}");
    s.save(&path).unwrap();
    assert_eq!(Settings::load(&path).unwrap(), s);

    std::fs::write(&path, "{ not json").unwrap();
    let e = Settings::load(&path).unwrap_err().to_string();
    assert!(e.contains("settings.json") && e.contains("left as it is"), "{e}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "{ not json", "the bad file is kept for the user");

    let secrets = Secrets::file_only(dir.path());
    secrets.set("local", &ApiKey::new("k").unwrap()).unwrap();
    let provider = build_provider(s.provider("local").unwrap(), &secrets).unwrap();
    assert_eq!(provider.name(), "Local");
    s.remove_provider("local", &secrets).unwrap();
    assert!(secrets.get("local").unwrap().is_none(), "removing a provider removes its key");
    assert!(matches!(s.remove_provider("local", &secrets), Err(SettingsError::NoSuchProvider(_))));
}

#[test]
fn catalogue_finds_models_by_id_prefix_and_user_entries_win() {
    let user = ModelInfo {
        id: "gpt-4o".into(),
        provider: ProviderKind::OpenAiCompatible,
        context_window: 64_000,
        max_output_tokens: 1_000,
        vision: true,
        tools: true,
        tokenizer: Tokenizer::O200k,
    };
    let c = Catalogue::new(&[user]);
    assert_eq!(c.lookup("gpt-4o").unwrap().context_window, 64_000, "the user's entry wins");
    assert_eq!(c.lookup("gpt-4o-mini-2024-07-18").unwrap().id, "gpt-4o-mini", "longest prefix");
    assert_eq!(c.lookup("openai/gpt-3.5-turbo").unwrap().tokenizer, Tokenizer::Cl100k);
    assert!(c.lookup("claude-sonnet-4-20250514").unwrap().vision);
    assert!(c.lookup("mystery-model").is_none());
    let d = c.or_default("mystery-model", ProviderKind::Gemini);
    assert_eq!((d.context_window, d.vision), (8_192, false));
}

#[tokio::test]
async fn models_are_listed_from_each_kind_of_server() {
    let app = axum::Router::new()
        .route(
            "/openai/v1/models",
            get(|| async { Json(json!({"object":"list","data":[{"id":"gpt-4o"},{"id":"gpt-4o-mini"}]})) }),
        )
        .route(
            "/ollama/api/tags",
            get(|| async { Json(json!({"models":[{"name":"llama3.1:8b"},{"name":"qwen2.5-coder:7b"}]})) }),
        )
        .route("/gemini/v1beta/models", get(|| async { Json(json!({"models":[{"name":"models/gemini-2.0-flash"}]})) }))
        .route(
            "/anthropic/v1/models",
            get(|| async { Json(json!({"data":[{"id":"claude-sonnet-4-20250514","type":"model"}]})) }),
        )
        .route(
            "/locked/v1/models",
            get(|| async { (axum::http::StatusCode::UNAUTHORIZED, Json(json!({"error":{"message":"bad key"}}))) }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });

    let openai = list_models(ProviderKind::OpenAiCompatible, &format!("{base}/openai/v1"), None, "x").await.unwrap();
    assert_eq!(openai, ["gpt-4o", "gpt-4o-mini"]);
    let ollama =
        list_models(ProviderKind::OpenAiCompatible, &format!("{base}/ollama/v1"), None, "Ollama").await.unwrap();
    assert_eq!(ollama, ["llama3.1:8b", "qwen2.5-coder:7b"], "Ollama tags when /v1/models is missing");
    let gemini = list_models(ProviderKind::Gemini, &format!("{base}/gemini/v1beta"), None, "x").await.unwrap();
    assert_eq!(gemini, ["gemini-2.0-flash"]);
    let anthropic = list_models(ProviderKind::Anthropic, &format!("{base}/anthropic/v1"), None, "x").await.unwrap();
    assert_eq!(anthropic, ["claude-sonnet-4-20250514"]);
    let dir = tempfile::tempdir().unwrap();
    let secrets = Secrets::file_only(dir.path());
    let (p, info) =
        braid_llm::settings::adhoc(ProviderKind::OpenAiCompatible, &format!("{base}/openai/v1"), None, &secrets)
            .await
            .unwrap();
    assert_eq!(
        (info.id.as_str(), info.context_window, p.name().is_empty()),
        ("gpt-4o", 128_000, false),
        "first listed model, with its catalogue entry"
    );
    let (_, named) =
        braid_llm::settings::adhoc(ProviderKind::OpenAiCompatible, "http://127.0.0.1:9", Some("mystery"), &secrets)
            .await
            .unwrap();
    assert_eq!(named.context_window, 8_192, "a named model needs no listing; unknown ones get the safe default");
    let key = ApiKey::new("sk-nope").unwrap();
    let e = list_models(ProviderKind::OpenAiCompatible, &format!("{base}/locked/v1"), Some(&key), "Locked")
        .await
        .unwrap_err();
    assert_eq!(e.to_string(), "check the API key for Locked: bad key");
}
