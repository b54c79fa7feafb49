//! Message serialisation: round trips for every variant, unknown tags kept,
//! the legacy format migrated, validation errors, edge cases.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::codec::{decode, encode, CodecError};
use braid_core::validate::{parse_role, validate, validate_user_message, Rules, ValidationError};
use braid_protocol::{
    Approval, BranchId, ContentPart, ControlKind, FileRefStatus, ImageMode, ImageSource, LineRange, Message, MessageId,
    MessageMeta, MessageType, Role, Timestamp, ToolCall, ToolResultStatus, SCHEMA_VERSION,
};

fn msg(id: u64, body: MessageType) -> Message {
    Message {
        id: MessageId(id),
        created_at: Timestamp(1_700_000_000_000 + id),
        schema_version: SCHEMA_VERSION,
        body,
        meta: MessageMeta::default(),
    }
}

fn every_variant() -> Vec<MessageType> {
    vec![
        MessageType::text(Role::User, "hello"),
        MessageType::Image {
            source: ImageSource::Base64 { media_type: "image/png".into(), data: "iVBORw0KGgo=".into() },
            mode: ImageMode::Ocr,
            vision_analysis: None,
            recognized_text: Some("Total: 42".into()),
            ocr_confidence: Some(0.875),
            language: Some("eng".into()),
            error: None,
            used: Some(ImageMode::Ocr),
            fallback: Some("the model cannot see images".into()),
        },
        MessageType::Image {
            source: ImageSource::Url { url: "https://example.com/a.png".into() },
            mode: ImageMode::Vision,
            vision_analysis: Some("a chart".into()),
            recognized_text: None,
            ocr_confidence: None,
            language: None,
            error: Some("timeout".into()),
            used: None,
            fallback: None,
        },
        MessageType::image(
            ImageSource::Stored(braid_protocol::StoredImage {
                id: "ab".repeat(32),
                media_type: "image/webp".into(),
                width: 3840,
                height: 2160,
                bytes: 123_456,
                name: Some("screen shot.webp".into()),
            }),
            ImageMode::Auto,
        ),
        MessageType::FileReference {
            path: "src/main.rs".into(),
            range: Some(LineRange { start_line: 3, end_line: 9 }),
            content: Some("fn main() {}".into()),
            status: FileRefStatus::Resolved,
            error: None,
        },
        MessageType::ToolRequest {
            text: Some("Reading.".into()),
            calls: vec![ToolCall {
                id: "c1".into(),
                name: "read_file".into(),
                arguments: r#"{"path":"a"}"#.into(),
                approval: Approval::Approved,
            }],
        },
        MessageType::ToolResult {
            request_id: "c1".into(),
            status: ToolResultStatus::Error,
            output: String::new(),
            error: Some("no such file".into()),
            recoverable: true,
            duration_ms: 12,
            finished_at: Timestamp(5),
        },
        MessageType::SystemControl {
            control: ControlKind::BranchSwitch { from: BranchId::main(), to: BranchId("b1".into()) },
        },
        MessageType::SystemControl {
            control: ControlKind::Summary { text: "so far".into(), replaces: vec![MessageId(1), MessageId(2)] },
        },
        MessageType::SystemControl {
            control: ControlKind::Recovery { interrupted_state: "StreamingLlmResponse".into(), detail: "x".into() },
        },
        MessageType::SystemControl { control: ControlKind::ModeChange { mode: "plan".into() } },
        MessageType::McpResource {
            server_name: "docs".into(),
            resource_uri: "docs://readme".into(),
            content: "# Readme".into(),
            mime_type: Some("text/markdown".into()),
            retrieved_at: Timestamp(9),
        },
    ]
}

#[test]
fn every_variant_round_trips_through_the_stored_form() {
    for (i, body) in every_variant().into_iter().enumerate() {
        let m = msg(i as u64 + 1, body);
        let json = encode(&m).unwrap();
        assert!(json.contains(&format!("\"schema_version\":{SCHEMA_VERSION}")), "{json}");
        let back = decode(&json, m.id, m.created_at).unwrap();
        assert_eq!(back, m, "round trip of {json}");
        // The wire (serde) form round-trips too.
        let wire = serde_json::to_string(&m).unwrap();
        assert_eq!(serde_json::from_str::<Message>(&wire).unwrap(), m);
    }
}

#[test]
fn unknown_tag_loads_as_unknown_and_is_written_back_verbatim() {
    let json = r#"{"schema_version":1,"id":4,"created_at":10,"body":{"type":"hologram","beam":{"r":1},"text":"hi"}}"#;
    let m = decode(json, MessageId(4), Timestamp(10)).unwrap();
    match &m.body {
        MessageType::Unknown { raw } => assert_eq!(raw["beam"]["r"], 1),
        other => panic!("expected Unknown, got {other:?}"),
    }
    let again: serde_json::Value = serde_json::from_str(&encode(&m).unwrap()).unwrap();
    let original: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(again, original, "nothing of the unknown message is lost");
}

#[test]
fn legacy_messages_migrate_without_loss() {
    let legacy = r#"{"role":"assistant","content":"Let me check.","tool_calls":[{"id":"call_1","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"a.txt\"}"}}]}"#;
    let m = decode(legacy, MessageId(7), Timestamp(3)).unwrap();
    assert_eq!(m.id, MessageId(7));
    assert_eq!(m.schema_version, SCHEMA_VERSION);
    assert_eq!(
        m.body,
        MessageType::ToolRequest {
            text: Some("Let me check.".into()),
            calls: vec![ToolCall {
                id: "call_1".into(),
                name: "read_file".into(),
                arguments: r#"{"path":"a.txt"}"#.into(),
                approval: Approval::Pending
            }]
        }
    );
    let plain = decode(r#"{"role":"user","content":"hi","tool_calls":null}"#, MessageId(1), Timestamp(1)).unwrap();
    assert_eq!(plain.body, MessageType::text(Role::User, "hi"));
    let tool =
        decode(r#"{"role":"tool","tool_call_id":"call_1","content":"file text"}"#, MessageId(2), Timestamp(1)).unwrap();
    assert!(
        matches!(tool.body, MessageType::ToolResult { ref request_id, ref output, .. } if request_id == "call_1" && output == "file text")
    );
    assert!(matches!(
        decode(r#"{"role":"robot","content":"x"}"#, MessageId(1), Timestamp(1)),
        Err(CodecError::Legacy(_))
    ));
}

#[test]
fn missing_fields_get_defaults() {
    let json = r#"{"schema_version":1,"id":1,"created_at":1,"body":{"type":"file_reference","path":"a.rs"}}"#;
    let m = decode(json, MessageId(1), Timestamp(1)).unwrap();
    assert_eq!(
        m.body,
        MessageType::FileReference {
            path: "a.rs".into(),
            range: None,
            content: None,
            status: FileRefStatus::Unresolved,
            error: None
        }
    );
    let json =
        r#"{"schema_version":1,"id":2,"created_at":1,"body":{"type":"tool_request","calls":[{"id":"x","name":"y"}]}}"#;
    let m = decode(json, MessageId(2), Timestamp(1)).unwrap();
    assert!(
        matches!(&m.body, MessageType::ToolRequest { calls, .. } if calls[0].arguments == "{}" && calls[0].approval == Approval::Pending)
    );
}

#[test]
fn a_message_from_a_newer_braid_loads_as_unknown_and_is_written_back_unchanged() {
    let json = r#"{"schema_version":2,"id":42,"created_at":7,"body":{"type":"text","role":"user","parts":[{"type":"text","text":"hi"}],"mood":"new"}}"#;
    let m = decode(json, MessageId(42), Timestamp(7)).unwrap();
    assert_eq!(m.schema_version, 2);
    assert!(matches!(&m.body, MessageType::Unknown { raw } if raw["mood"] == "new"), "{:?}", m.body);
    let again: serde_json::Value = serde_json::from_str(&encode(&m).unwrap()).unwrap();
    let before: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(again, before, "written back as it was read");
}

#[test]
fn corrupted_json_is_an_error_not_a_guess() {
    assert!(matches!(decode("{\"schema_version\":1,\"body\":{", MessageId(1), Timestamp(1)), Err(CodecError::Json(_))));
    assert!(matches!(decode("[1,2]", MessageId(1), Timestamp(1)), Err(CodecError::NotAnObject)));
    let bad_known = r#"{"schema_version":1,"body":{"type":"text","role":"robot"}}"#;
    assert!(matches!(decode(bad_known, MessageId(1), Timestamp(1)), Err(CodecError::Json(_))));
}

#[test]
fn validation_says_exactly_what_is_wrong() {
    let empty = MessageType::Text { role: Role::User, parts: vec![ContentPart::Text { text: "  \n".into() }] };
    assert_eq!(validate_user_message(&empty), Err(ValidationError::EmptyText));
    assert_eq!(validate(&empty, Rules { allow_empty_text: true }), Ok(()));
    assert_eq!(
        validate_user_message(&MessageType::Text { role: Role::User, parts: vec![] }),
        Err(ValidationError::EmptyText)
    );
    assert_eq!(
        validate_user_message(&MessageType::text(Role::System, "x")),
        Err(ValidationError::BadRole("system".into()))
    );
    assert_eq!(parse_role("robot"), Err(ValidationError::BadRole("robot".into())));
    let call = |id: &str, name: &str, args: &str| MessageType::ToolRequest {
        text: None,
        calls: vec![ToolCall { id: id.into(), name: name.into(), arguments: args.into(), approval: Approval::Pending }],
    };
    assert_eq!(validate(&call("", "x", "{}"), Rules::default()), Err(ValidationError::EmptyToolId));
    assert_eq!(validate(&call("a", " ", "{}"), Rules::default()), Err(ValidationError::EmptyToolName("a".into())));
    assert!(matches!(
        validate(&call("a", "x", "{oops"), Rules::default()),
        Err(ValidationError::InvalidArguments { .. })
    ));
    let file = |path: &str, range: Option<LineRange>| MessageType::FileReference {
        path: path.into(),
        range,
        content: None,
        status: FileRefStatus::Unresolved,
        error: None,
    };
    assert_eq!(
        validate_user_message(&file("../etc/passwd", None)),
        Err(ValidationError::PathTraversal("../etc/passwd".into()))
    );
    assert_eq!(
        validate_user_message(&file("src/../../x", None)),
        Err(ValidationError::PathTraversal("src/../../x".into()))
    );
    assert!(matches!(
        validate_user_message(&file("a.rs", Some(LineRange { start_line: 9, end_line: 3 }))),
        Err(ValidationError::InvalidRange { start: 9, end: 3, .. })
    ));
    assert!(matches!(
        validate_user_message(&file("a.rs", Some(LineRange { start_line: 0, end_line: 3 }))),
        Err(ValidationError::InvalidRange { .. })
    ));
    assert_eq!(validate_user_message(&file("a.rs", Some(LineRange { start_line: 3, end_line: 3 }))), Ok(()));
    let err =
        validate_user_message(&file("a.rs", Some(LineRange { start_line: 9, end_line: 3 }))).unwrap_err().to_string();
    assert_eq!(err, "line range 9-3 is invalid: end_line is before start_line");
}

#[test]
fn edge_cases_long_text_many_references_unicode() {
    let long = "é".repeat(12_000);
    let m = msg(1, MessageType::text(Role::User, long.clone()));
    assert_eq!(validate_user_message(&m.body), Ok(()));
    let back = decode(&encode(&m).unwrap(), m.id, m.created_at).unwrap();
    assert_eq!(back.body.plain_text().unwrap().chars().count(), 12_000);

    let too_long = MessageType::text(Role::User, "x".repeat(5 * 1024 * 1024));
    assert!(matches!(validate_user_message(&too_long), Err(ValidationError::TooLong(_))));

    let mut sim = braid_core::sim::Sim::new();
    for i in 0..25 {
        let body = MessageType::FileReference {
            path: format!("src/file_{i}.rs"),
            range: Some(LineRange { start_line: 1, end_line: 10 + i }),
            content: None,
            status: FileRefStatus::Unresolved,
            error: None,
        };
        let fx = sim.send(braid_core::Event::UserMessage {
            body,
            queue_if_busy: true,
            force_tool: None,
            images: Vec::new(),
        });
        if i == 0 {
            sim.pipeline_ok(&fx);
        }
    }
    assert_eq!(sim.state.queue.len(), 24, "25 references: one in flight, 24 visibly queued");
}

#[test]
fn an_answer_whose_only_fact_is_its_speed_keeps_it_when_stored() {
    let mut m = msg(7, MessageType::text(Role::Assistant, "quick"));
    m.meta.speed = Some(braid_protocol::AnswerSpeed {
        first_token_ms: 300,
        streaming_ms: 900,
        output_tokens: 41,
        reported: false,
    });
    let back = decode(&encode(&m).unwrap(), m.id, m.created_at).unwrap();
    assert_eq!(back.meta.speed, m.meta.speed);
}
