//! Every provider against the shared mock server (axum on 127.0.0.1):
//! text and tool-call streams, usage, each error class, Retry-After, cuts,
//! garbage lines, slow first byte, and a check on every captured request
//! that each tool result follows its tool call.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::llm::{LlmResponse, StopReason, ToolCallSpec, Usage};
use braid_llm::{
    ApiKey, HttpProvider, LlmError, LlmProvider, LlmRequest, ProviderKind, ResponseAssembler, Timeouts, ToolChoice,
    ToolDefinition,
};
use braid_protocol::FailureCode;
use braid_protocol::{Approval, Message, MessageId, MessageType, Role, Timestamp, ToolCall, ToolResultStatus};
use braid_testkit::mock::{MockServer as Mock, Reply};
use braid_testkit::sse::{data as sse, named};
use futures::StreamExt;
use serde_json::{json, Value};
use std::time::Duration;

fn provider(kind: ProviderKind, base: &str, timeouts: Timeouts) -> HttpProvider {
    let base = match kind {
        ProviderKind::OpenAiCompatible | ProviderKind::Anthropic => format!("{base}/v1"),
        ProviderKind::Gemini => format!("{base}/v1beta"),
    };
    HttpProvider::new(kind, "Mock", &base, ApiKey::new("sk-test-secret"), timeouts).unwrap()
}

fn msg(id: u64, body: MessageType) -> Message {
    Message::new(MessageId(id), Timestamp(0), body)
}

/// A history with a tool round in it, so every request carries a call and
/// its result.
fn request() -> LlmRequest {
    let call = |id: &str, name: &str| ToolCall {
        id: id.into(),
        name: name.into(),
        arguments: r#"{"path":"a"}"#.into(),
        approval: Approval::Approved,
    };
    let result = |id: &str, out: &str| MessageType::ToolResult {
        request_id: id.into(),
        status: ToolResultStatus::Success,
        output: out.into(),
        error: None,
        recoverable: false,
        duration_ms: 1,
        finished_at: Timestamp(0),
    };
    LlmRequest {
        model: "test-model".into(),
        system: Some("You are terse.".into()),
        messages: vec![
            msg(1, MessageType::text(Role::User, "read a and b")),
            msg(
                2,
                MessageType::ToolRequest {
                    text: Some("Reading.".into()),
                    calls: vec![call("c1", "read_file"), call("c2", "list_directory")],
                },
            ),
            msg(3, result("c1", "contents of a")),
            msg(4, result("c2", "b/")),
            msg(5, MessageType::text(Role::Assistant, "Done.")),
            msg(6, MessageType::text(Role::User, "thanks")),
        ],
        tools: vec![ToolDefinition {
            name: "read_file".into(),
            description: "Read a file".into(),
            input_schema: json!({"type":"object"}),
        }],
        tool_choice: Some(ToolChoice::Auto),
        max_tokens: Some(64),
        temperature: None,
    }
}

async fn run(p: &HttpProvider) -> Result<LlmResponse, LlmError> {
    let mut stream = p.stream(request());
    let mut asm = ResponseAssembler::new();
    while let Some(item) = stream.next().await {
        asm.push(&item?);
        if asm.is_finished() {
            break;
        }
    }
    asm.finish(p.name())
}

// --- fixtures per provider: (text stream, two tool calls stream) ---------

fn openai_text() -> Vec<String> {
    let mut v = vec![
        ": keep-alive\n\n".to_owned(),
        "garbage without a colon\n\n".to_owned(),
        "data: not json at all\n\n".to_owned(),
    ];
    v.extend(sse(&[
        json!({"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}),
        json!({"choices":[{"index":0,"delta":{"content":"Hel"}}]}),
        json!({"choices":[{"index":0,"delta":{"content":"lo ✓"},"finish_reason":"stop"}]}),
        json!({"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":3}}),
    ]));
    v.push("data: [DONE]\r\n\r\n".to_owned());
    v
}

fn openai_tools() -> Vec<String> {
    // The server repeats id, type and name in every fragment (some do).
    let frag = |i: u32, id: &str, name: &str, args: &str| json!({"choices":[{"index":0,"delta":{"tool_calls":[{"index":i,"id":id,"type":"function","function":{"name":name,"arguments":args}}]}}]});
    let mut v = sse(&[
        frag(0, "call_a", "read_file", "{\"pa"),
        frag(0, "call_a", "read_file", "th\":\"x\"}"),
        frag(1, "call_b", "list_directory", "{}"),
        json!({"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}),
    ]);
    v.push("data: [DONE]\n\n".to_owned());
    v
}

fn anthropic_text() -> Vec<String> {
    let mut v = vec!["event: ping\ndata: {\"type\":\"ping\"}\n\n".to_owned()];
    v.extend(named(&[
        ("message_start", json!({"type":"message_start","message":{"usage":{"input_tokens":12,"output_tokens":1}}})),
        (
            "content_block_start",
            json!({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}),
        ),
        (
            "content_block_delta",
            json!({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hel"}}),
        ),
        (
            "content_block_delta",
            json!({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"lo ✓"}}),
        ),
        ("content_block_stop", json!({"type":"content_block_stop","index":0})),
        (
            "message_delta",
            json!({"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":3}}),
        ),
        ("message_stop", json!({"type":"message_stop"})),
    ]));
    v
}

fn anthropic_tools() -> Vec<String> {
    named(&[
        ("message_start", json!({"type":"message_start","message":{"usage":{"input_tokens":5}}})),
        (
            "content_block_start",
            json!({"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"call_a","name":"read_file","input":{}}}),
        ),
        (
            "content_block_delta",
            json!({"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"pa"}}),
        ),
        (
            "content_block_delta",
            json!({"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"th\":\"x\"}"}}),
        ),
        (
            "content_block_start",
            json!({"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"call_b","name":"list_directory","input":{}}}),
        ),
        (
            "content_block_delta",
            json!({"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{}"}}),
        ),
        (
            "message_delta",
            json!({"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":9}}),
        ),
        ("message_stop", json!({"type":"message_stop"})),
    ])
}

fn gemini_text() -> Vec<String> {
    sse(&[
        json!({"candidates":[{"content":{"role":"model","parts":[{"text":"Hel"}]}}]}),
        json!({"candidates":[{"content":{"role":"model","parts":[{"text":"lo ✓"}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":12,"candidatesTokenCount":3}}),
    ])
}

fn gemini_tools() -> Vec<String> {
    sse(&[json!({"candidates":[{"content":{"role":"model","parts":[
        {"functionCall":{"name":"read_file","args":{"path":"x"}}},
        {"functionCall":{"name":"list_directory","args":{}}}
    ]},"finishReason":"STOP"}]})])
}

const KINDS: [ProviderKind; 3] = [ProviderKind::OpenAiCompatible, ProviderKind::Anthropic, ProviderKind::Gemini];

fn fixtures(kind: ProviderKind) -> (Vec<String>, Vec<String>) {
    match kind {
        ProviderKind::OpenAiCompatible => (openai_text(), openai_tools()),
        ProviderKind::Anthropic => (anthropic_text(), anthropic_tools()),
        ProviderKind::Gemini => (gemini_text(), gemini_tools()),
    }
}

#[tokio::test]
async fn text_streams_with_usage_from_every_provider() {
    for kind in KINDS {
        let (mock, base) = Mock::start().await;
        mock.reply(Reply::ok(fixtures(kind).0));
        mock.reply(Reply::in_pieces(fixtures(kind).0, 7));
        let p = provider(kind, &base, Timeouts::default());
        let r = run(&p).await.unwrap_or_else(|e| panic!("{kind:?}: {e}"));
        assert_eq!(r.text, "Hello ✓", "{kind:?}");
        assert_eq!(r.stop_reason, StopReason::EndTurn, "{kind:?}");
        assert_eq!(r.usage, Some(Usage { prompt_tokens: 12, completion_tokens: 3 }), "{kind:?}");
        // The same stream cut into 7-byte pieces decodes the same.
        let again = run(&p).await.unwrap_or_else(|e| panic!("{kind:?} in pieces: {e}"));
        assert_eq!(again, r, "{kind:?}");
    }
}

#[tokio::test]
async fn tool_call_streams_assemble_several_calls() {
    for kind in KINDS {
        let (mock, base) = Mock::start().await;
        mock.reply(Reply::ok(fixtures(kind).1));
        let r = run(&provider(kind, &base, Timeouts::default())).await.unwrap_or_else(|e| panic!("{kind:?}: {e}"));
        assert_eq!(r.stop_reason, StopReason::ToolUse, "{kind:?}");
        let names: Vec<&str> = r.tool_calls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["read_file", "list_directory"], "{kind:?}: no doubled names");
        let args: Value = serde_json::from_str(&r.tool_calls[0].arguments).unwrap();
        assert_eq!(args, json!({"path": "x"}), "{kind:?}");
        assert!(r.tool_calls.iter().all(|c: &ToolCallSpec| !c.id.is_empty()), "{kind:?}");
    }
}

#[tokio::test]
async fn requests_carry_auth_and_each_tool_result_follows_its_call() {
    for kind in KINDS {
        let (mock, base) = Mock::start().await;
        mock.reply(Reply::ok(fixtures(kind).0));
        run(&provider(kind, &base, Timeouts::default())).await.unwrap();
        let c = &mock.captured()[0];
        let body = &c.body;
        match kind {
            ProviderKind::OpenAiCompatible => {
                assert_eq!(c.path, "/v1/chat/completions");
                assert_eq!(c.headers["authorization"], "Bearer sk-test-secret");
                assert_eq!(body["stream_options"]["include_usage"], true);
                assert_eq!(body["max_tokens"], 64);
                let msgs = body["messages"].as_array().unwrap();
                assert_eq!(msgs[0]["role"], "system");
                for (i, m) in msgs.iter().enumerate().filter(|(_, m)| m["role"] == "tool") {
                    let id = m["tool_call_id"].as_str().unwrap();
                    let prior = msgs[..i].iter().rev().find(|p| p["role"] != "tool").unwrap();
                    assert!(
                        prior["tool_calls"].as_array().unwrap().iter().any(|tc| tc["id"] == id),
                        "result {id} follows its call"
                    );
                }
            }
            ProviderKind::Anthropic => {
                assert_eq!(c.path, "/v1/messages");
                assert_eq!(c.headers["x-api-key"], "sk-test-secret");
                assert_eq!(body["system"], "You are terse.");
                let msgs = body["messages"].as_array().unwrap();
                let roles: Vec<&str> = msgs.iter().map(|m| m["role"].as_str().unwrap()).collect();
                assert!(roles.windows(2).all(|w| w[0] != w[1]), "roles alternate: {roles:?}");
                for (i, m) in msgs.iter().enumerate() {
                    for block in m["content"].as_array().unwrap().iter().filter(|b| b["type"] == "tool_result") {
                        let id = &block["tool_use_id"];
                        let prev = &msgs[i - 1];
                        assert!(
                            prev["content"]
                                .as_array()
                                .unwrap()
                                .iter()
                                .any(|b| b["type"] == "tool_use" && &b["id"] == id),
                            "{id} follows its call"
                        );
                    }
                }
            }
            ProviderKind::Gemini => {
                assert_eq!(c.path, "/v1beta/models/test-model:streamGenerateContent?alt=sse");
                assert_eq!(c.headers["x-goog-api-key"], "sk-test-secret");
                let contents = body["contents"].as_array().unwrap();
                for (i, m) in contents.iter().enumerate() {
                    for part in m["parts"].as_array().unwrap().iter().filter_map(|p| p.get("functionResponse")) {
                        let prev = &contents[i - 1];
                        assert!(
                            prev["parts"].as_array().unwrap().iter().any(|p| p["functionCall"]["name"] == part["name"]),
                            "response follows its call"
                        );
                    }
                }
                assert_eq!(body["systemInstruction"]["parts"][0]["text"], "You are terse.");
            }
        }
    }
}

#[tokio::test]
async fn error_statuses_classify_with_the_providers_message() {
    let bodies = [
        (
            ProviderKind::OpenAiCompatible,
            r#"{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}"#,
        ),
        (
            ProviderKind::Anthropic,
            r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#,
        ),
        (ProviderKind::Gemini, r#"{"error":{"code":401,"message":"API key not valid","status":"UNAUTHENTICATED"}}"#),
    ];
    for (kind, body) in bodies {
        let (mock, base) = Mock::start().await;
        let p = provider(kind, &base, Timeouts::default());
        let reply =
            |status: u16, body: &str| Reply { status, chunks: vec![body.as_bytes().to_vec()], ..Reply::default() };
        mock.reply(reply(401, body));
        let e = run(&p).await.unwrap_err();
        assert_eq!(e.code(), FailureCode::Auth, "{kind:?}");
        assert!(e.to_string().starts_with("check the API key for Mock: "), "{e}");
        assert!(!e.to_string().contains("sk-test-secret"), "the key never appears");
        mock.reply(Reply {
            status: 429,
            headers: vec![("retry-after", "3".into())],
            chunks: vec![b"slow down".to_vec()],
            ..Reply::default()
        });
        let f = run(&p).await.unwrap_err().to_failure();
        assert_eq!((f.code, f.retryable, f.retry_after_ms), (FailureCode::RateLimited, true, Some(3000)), "{kind:?}");
        mock.reply(reply(503, "upstream overloaded"));
        let f = run(&p).await.unwrap_err().to_failure();
        assert_eq!((f.code, f.retryable), (FailureCode::ServerError, true));
        assert!(f.message.contains("upstream overloaded"));
        mock.reply(reply(400, r#"{"error":{"message":"prompt is too long: 300000 tokens > 200000 maximum"}}"#));
        assert_eq!(run(&p).await.unwrap_err().code(), FailureCode::ContextLengthExceeded, "{kind:?}");
        mock.reply(reply(404, r#"{"detail":"model not found"}"#));
        let e = run(&p).await.unwrap_err();
        assert_eq!((e.code(), e.is_retryable()), (FailureCode::BadRequest, false));
        assert!(e.to_string().contains("model not found"));
    }
}

#[tokio::test]
async fn errors_inside_the_stream_are_classified() {
    let (mock, base) = Mock::start().await;
    mock.reply(Reply::ok(named(&[(
        "error",
        json!({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}),
    )])));
    let e = run(&provider(ProviderKind::Anthropic, &base, Timeouts::default())).await.unwrap_err();
    assert!(e.is_retryable(), "{e}");
    let (mock, base) = Mock::start().await;
    mock.reply(Reply::ok(sse(&[json!({"error":{"message":"This model's maximum context length is 4096 tokens","code":"context_length_exceeded"}})])));
    let e = run(&provider(ProviderKind::OpenAiCompatible, &base, Timeouts::default())).await.unwrap_err();
    assert_eq!(e.code(), FailureCode::ContextLengthExceeded);
}

#[tokio::test]
async fn cut_streams_are_errors_never_silent_success() {
    for kind in KINDS {
        let (mock, base) = Mock::start().await;
        let text = fixtures(kind).0;
        let keep = if kind == ProviderKind::Gemini { 1 } else { text.len() - 2 };
        // Clean end of body without the end marker.
        mock.reply(Reply::ok(text[..keep].to_vec()));
        // The connection is reset mid-stream.
        mock.reply(Reply { reset: true, ..Reply::ok(text[..keep].to_vec()) });
        let p = provider(kind, &base, Timeouts::default());
        for case in ["clean end", "reset"] {
            let e = run(&p).await.unwrap_err();
            assert_eq!(e.code(), FailureCode::StreamCut, "{kind:?} {case}: {e}");
            assert!(e.is_retryable());
        }
    }
}

#[tokio::test]
async fn a_stream_ended_without_a_finish_reason_is_cut_not_a_whole_answer() {
    // llama-cpp-python stops a running stream when another request comes:
    // `[DONE]` follows half a sentence, with no finish reason.
    let (mock, base) = Mock::start().await;
    let mut cut = sse(&[json!({"choices":[{"index":0,"delta":{"role":"assistant","content":"The capital of"}}]})]);
    cut.push("data: [DONE]\n\n".to_owned());
    mock.reply(Reply::ok(cut));
    let e = run(&provider(ProviderKind::OpenAiCompatible, &base, Timeouts::default())).await.unwrap_err();
    assert_eq!((e.code(), e.is_retryable()), (FailureCode::StreamCut, true), "asked again, never stored: {e}");
}

#[tokio::test]
async fn slow_first_byte_waits_within_the_limit_and_times_out_beyond_it() {
    let (mock, base) = Mock::start().await;
    mock.reply(Reply { delay_first: Duration::from_millis(300), ..Reply::ok(openai_text()) });
    mock.reply(Reply { delay_first: Duration::from_secs(5), ..Reply::ok(openai_text()) });
    let patient = Timeouts { first_byte: Duration::from_secs(3), ..Timeouts::default() };
    assert_eq!(run(&provider(ProviderKind::OpenAiCompatible, &base, patient)).await.unwrap().text, "Hello ✓");
    let hasty = Timeouts { first_byte: Duration::from_millis(200), ..Timeouts::default() };
    let e = run(&provider(ProviderKind::OpenAiCompatible, &base, hasty)).await.unwrap_err();
    assert_eq!((e.code(), e.is_retryable()), (FailureCode::Network, true));
}

#[tokio::test]
async fn a_closed_port_is_a_retryable_network_error() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let e = run(&provider(ProviderKind::OpenAiCompatible, &base, Timeouts::default())).await.unwrap_err();
    assert_eq!((e.code(), e.is_retryable()), (FailureCode::Network, true), "{e}");
    assert!(!format!("{e:?}").contains("sk-test-secret"));
    // In plain words, not the HTTP library's "error sending request".
    let at = base.trim_start_matches("http://");
    assert_eq!(
        e.to_string(),
        format!("could not reach Mock: nothing answers at {at} (connection refused) — is the server running?")
    );
}

#[tokio::test]
async fn an_empty_answer_to_a_turn_with_tools_is_asked_for_whole() {
    let (mock, base) = Mock::start().await;
    let p = provider(ProviderKind::OpenAiCompatible, &base, Timeouts::default());
    let whole = json!({
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null,
            "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"notes.txt\"}"}}]}}],
        "usage": {"prompt_tokens": 40, "completion_tokens": 9}
    });
    let json_reply = || Reply {
        headers: vec![("content-type", "application/json".to_owned())],
        ..Reply::ok(vec![whole.to_string()])
    };
    // llama-cpp-python: 200 with only its `: ping` comments (it works on
    // the turn for long) and then nothing, for a streamed auto-tool turn.
    mock.reply(Reply::ok(vec![": ping - 2026-11-30 05:00:00\r\n\r\n".to_owned(), ": ping\r\n\r\n".to_owned()]));
    mock.reply(json_reply());
    let mut notes = Vec::new();
    let mut asm = ResponseAssembler::new();
    let mut stream = p.stream(request());
    while let Some(item) = stream.next().await {
        let event = item.unwrap();
        if let braid_llm::ProviderEvent::Note(n) = &event {
            notes.push(n.clone());
        }
        asm.push(&event);
    }
    let r = asm.finish("Mock").unwrap();
    assert_eq!(r.tool_calls.len(), 1, "{r:?}");
    assert_eq!(r.tool_calls[0].name, "read_file");
    assert_eq!(r.stop_reason, StopReason::ToolUse);
    assert_eq!(r.usage, Some(Usage { prompt_tokens: 40, completion_tokens: 9 }));
    assert_eq!(notes.len(), 1, "the user is told once: {notes:?}");
    // The next turn of this model with tools goes whole at once (not
    // asked twice in every round); the user is not told twice. Every
    // request carried the tools with tool_choice "auto".
    mock.reply(json_reply());
    let mut stream = p.stream(request());
    while let Some(item) = stream.next().await {
        assert!(!matches!(item.unwrap(), braid_llm::ProviderEvent::Note(_)), "told once");
    }
    let sent = mock.captured();
    let streamed: Vec<bool> = sent.iter().map(|c| c.body["stream"] == true).collect();
    assert_eq!(streamed, [true, false, false], "streamed once, then remembered as whole");
    assert!(sent
        .iter()
        .all(|c| c.body["tools"][0]["function"]["name"] == "read_file" && c.body["tool_choice"] == "auto"));

    // A plain question the server answers with nothing when tools are
    // offered is asked again, streamed, without them.
    let silent =
        json!({"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": ""}}]});
    mock.reply(Reply {
        headers: vec![("content-type", "application/json".to_owned())],
        ..Reply::ok(vec![silent.to_string()])
    });
    mock.reply(Reply::ok(openai_text()));
    let mut stream = p.stream(request());
    let mut events = Vec::new();
    while let Some(item) = stream.next().await {
        events.push(item.unwrap());
    }
    let again = events.iter().any(|e| matches!(e, braid_llm::ProviderEvent::SentAgainWithoutTools));
    assert!(again, "the runtime is told (\"What the model sees\" says so): {events:?}");
    let text: String = events
        .iter()
        .filter_map(|e| match e {
            braid_llm::ProviderEvent::TextDelta(t) => Some(t.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(text, "Hello ✓");
    let last = mock.captured().pop().unwrap();
    assert_eq!((last.body["stream"].as_bool(), last.body.get("tools")), (Some(true), None), "{}", last.body);

    // Without tools, an empty 200 is its own error, not a cut stream.
    mock.reply(Reply::ok(Vec::new()));
    let bare = LlmRequest { tools: Vec::new(), tool_choice: None, ..request() };
    let mut stream = p.stream(bare);
    let mut error = None;
    while let Some(item) = stream.next().await {
        if let Err(e) = item {
            error = Some(e);
        }
    }
    let e = error.expect("an error");
    assert_eq!(e.code(), FailureCode::EmptyResponse, "{e}");
    assert!(!e.is_retryable(), "retrying the same request cannot help");
}
