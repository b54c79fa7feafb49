//! The payload's JSON Schema in `docs/` must match the Rust types, and
//! the wire refuses what the schema does: an unknown `type` is told the
//! supported ones, an unknown field is named.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_protocol::{Payload, SendMessageRequest};
use std::path::PathBuf;

const SCHEMA_PATH: &str = "docs/send-message.schema.json";

#[test]
fn the_committed_schema_is_up_to_date() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(SCHEMA_PATH);
    let fresh = braid_protocol::payload::schema();
    if std::env::var_os("BRAID_UPDATE_SCHEMA").is_some() {
        std::fs::write(&path, &fresh).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "{SCHEMA_PATH} is stale: run `make generate` (BRAID_UPDATE_SCHEMA=1 cargo test -p braid-protocol --test payload_schema) and commit it"
    );
}

#[test]
fn the_schema_names_every_payload_type() {
    let schema: serde_json::Value = serde_json::from_str(&braid_protocol::payload::schema()).unwrap();
    let text = schema.to_string();
    for tag in Payload::TYPES {
        assert!(text.contains(&format!("\"const\":\"{tag}\"")), "{tag} is missing from the schema");
    }
    assert!(schema["required"].as_array().unwrap().iter().any(|r| r == "payload"));
}

fn parse(json: &str) -> Result<SendMessageRequest, String> {
    serde_json::from_str(json).map_err(|e| e.to_string())
}

#[test]
fn an_unknown_type_is_refused_with_the_supported_ones() {
    let e = parse(r#"{"context_id":"c","payload":{"type":"video","url":"x"}}"#).unwrap_err();
    for tag in Payload::TYPES {
        assert!(e.contains(&format!("`{tag}`")), "{tag} is named in: {e}");
    }
    assert!(e.contains("unknown variant `video`"), "{e}");
}

#[test]
fn unknown_and_missing_fields_are_named() {
    let e = parse(r#"{"context_id":"c","payload":{"type":"text","txt":"hi"}}"#).unwrap_err();
    assert!(e.contains("txt"), "{e}");
    let e = parse(r#"{"context_id":"c","payload":{"type":"tool_result","output":"x"}}"#).unwrap_err();
    assert!(e.contains("call_id"), "{e}");
    let e = parse(r#"{"payload":{"type":"text","text":"hi"}}"#).unwrap_err();
    assert!(e.contains("context_id"), "{e}");
}

#[test]
fn every_variant_reads_from_its_json() {
    let cases = [
        r#"{"type":"text","text":"hi"}"#,
        r#"{"type":"file_reference","path":"src/a.rs","range":{"start_line":1,"end_line":3},"text":"why?"}"#,
        r#"{"type":"image","source":{"kind":"file_path","path":"shot.png"},"mode":"ocr"}"#,
        r#"{"type":"workflow","name":"review","arguments":{"file":"a.rs"}}"#,
        r#"{"type":"tool_result","call_id":"call_1","output":"42"}"#,
        r#"{"type":"mcp_resource","server":"docs","uri":"docs://readme"}"#,
    ];
    for (case, tag) in cases.iter().zip(Payload::TYPES) {
        let json = format!(r#"{{"context_id":"c","payload":{case},"client_metadata":{{"trace":"t1"}}}}"#);
        let request = parse(&json).unwrap_or_else(|e| panic!("{tag}: {e}"));
        let back = serde_json::to_value(&request.payload).unwrap();
        assert_eq!(back["type"], tag);
    }
}
