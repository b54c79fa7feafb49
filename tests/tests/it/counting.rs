//! Token counts by the model's own server (for models Braid has no
//! tokenizer for): which endpoint a server answers is found once and kept,
//! and a server with none is not asked again. The real llama-cpp-python
//! endpoint is exercised in `llm_peer.rs`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_llm::{HttpProvider, LlmProvider, ProviderKind, Timeouts};
use braid_testkit::mock::{MockServer as Mock, Reply};
use serde_json::json;

fn provider(base: &str) -> HttpProvider {
    HttpProvider::new(ProviderKind::OpenAiCompatible, "local", &format!("{base}/v1"), None, Timeouts::default())
        .unwrap()
}

fn paths(mock: &Mock) -> Vec<String> {
    mock.captured().into_iter().map(|c| c.path).collect()
}

#[tokio::test]
async fn a_llama_cpp_server_counts_at_tokenize_and_is_asked_there_from_then_on() {
    let (mock, base) = Mock::start().await;
    mock.script_counts();
    let p = provider(&base);
    mock.reply(Reply::error(404, "Not Found")); // no /extras/tokenize/count
    mock.reply(Reply::json(json!({"tokens": [1, 2, 3]})));
    mock.reply(Reply::json(json!({"tokens": [4, 5]})));
    let counts = p.count_tokens("m", vec!["three tokens".into(), "two".into()]).await;
    assert_eq!(counts, Some(vec![3, 2]));
    assert_eq!(paths(&mock), ["/extras/tokenize/count", "/tokenize", "/tokenize"]);
    assert_eq!(mock.captured()[1].body, json!({"content": "three tokens", "add_special": false}));
    mock.reply(Reply::json(json!({"tokens": [1]})));
    assert_eq!(p.count_tokens("m", vec!["one".into()]).await, Some(vec![1]));
    assert_eq!(paths(&mock).last().unwrap(), "/tokenize", "straight to the endpoint that worked");
}

#[tokio::test]
async fn a_server_that_cannot_count_is_not_asked_again() {
    let (mock, base) = Mock::start().await;
    mock.script_counts();
    let p = provider(&base);
    mock.reply(Reply::error(404, "Not Found"));
    mock.reply(Reply::error(404, "Not Found"));
    assert_eq!(p.count_tokens("m", vec!["text".into()]).await, None);
    assert_eq!(p.count_tokens("m", vec!["text".into()]).await, None);
    assert_eq!(paths(&mock), ["/extras/tokenize/count", "/tokenize"], "asked once");
    // Only OpenAI-compatible servers are asked at all.
    let anthropic = HttpProvider::new(ProviderKind::Anthropic, "a", &base, None, Timeouts::default()).unwrap();
    assert_eq!(anthropic.count_tokens("m", vec!["text".into()]).await, None);
    assert_eq!(mock.captured().len(), 2);
}
