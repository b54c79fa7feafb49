//! What the model hears about a call before it runs: arguments that are
//! not JSON, or do not fit the tool's schema, go back as errors it can fix
//! (never to the user's dialog), and a user's denial goes back with the
//! reason the user gave.

use braid_core::machine::{Effect, Event};
use braid_core::sim::Sim;
use braid_protocol::{ApprovalDecision, ToolApprovalPolicy, ToolResultStatus};

#[test]
fn invalid_tool_arguments_go_back_as_an_error_result() {
    let mut sim = Sim::new();
    sim.state.config.tools.policy = ToolApprovalPolicy::AutoAll;
    sim.start("x");
    let fx = sim.model_calls(&[("", "read_file", "{not json")]);
    assert!(matches!(fx.last(), Some(Effect::StartLlmRequest { .. })), "{fx:?}");
    let results = sim.tool_results();
    assert!(results[0].0.starts_with("call_"), "a missing id is replaced by a stable one: {results:?}");
    assert!(results[0].2.contains("not valid JSON"), "{results:?}");
}

#[test]
fn a_line_break_written_raw_inside_a_string_is_repaired_once() {
    let mut sim = Sim::new();
    sim.state.config.tools.policy = ToolApprovalPolicy::AutoAll;
    sim.start("x");
    let fx = sim.model_calls(&[("c1", "read_file", "{\"path\": \"a\n\tb.txt\"}")]);
    let Some(Effect::RunTool { call, .. }) = fx.iter().find(|e| matches!(e, Effect::RunTool { .. })) else {
        panic!("the repaired call runs: {fx:?}")
    };
    assert_eq!(call.arguments, r#"{"path": "a\n\tb.txt"}"#);
    assert_eq!(serde_json::from_str::<serde_json::Value>(&call.arguments).unwrap()["path"], "a\n\tb.txt");
}

#[test]
fn only_control_characters_inside_strings_are_repaired() {
    use braid_core::arguments::repaired;
    assert_eq!(repaired(r#"{"a": 1}"#), None, "JSON is kept as it came");
    assert_eq!(repaired("{\n\"a\": \"x\"\n}"), None, "line breaks between tokens are JSON");
    assert_eq!(
        repaired("{\"a\": \"x\\\"\ny\"}").as_deref(),
        Some(r#"{"a": "x\"\ny"}"#),
        "an escaped quote does not end the string"
    );
    assert_eq!(repaired("{\"a\": \"x\u{1}\"}").as_deref(), Some(r#"{"a": "x\u0001"}"#));
    assert_eq!(repaired("{\"a\": \"x\ny"), None, "still broken after the repair");
}

#[test]
fn a_call_that_does_not_fit_its_schema_never_reaches_the_user() {
    let mut sim = Sim::new();
    sim.state.config.tools.policy = ToolApprovalPolicy::Manual;
    let schema = serde_json::json!({
        "type": "object",
        "required": ["path", "content"],
        "properties": {"path": {"type": "string"}, "content": {"type": "string"}}
    });
    let mut tools = sim.state.catalogue.to_vec();
    for t in tools.iter_mut().filter(|t| t.name == "write_file") {
        t.input_schema = schema.clone();
    }
    sim.state.catalogue = tools.into();
    sim.start("write it");
    let fx = sim.model_calls(&[
        ("w1", "write_file", r#"{"path":"","content":"x"}"#),
        ("w2", "write_file", r#"{"path":"a.txt"}"#),
        ("w3", "write_file", r#"{"path":"a.txt","content":7}"#),
    ]);
    assert!(matches!(fx.last(), Some(Effect::StartLlmRequest { .. })), "no dialog: straight back to the model {fx:?}");
    let errors: Vec<String> = sim.tool_results().into_iter().map(|r| r.2).collect();
    assert_eq!(
        errors,
        [
            "invalid arguments: the \"path\" of write_file is empty; give the file's path relative to the workspace",
            "invalid arguments: write_file needs the argument \"content\"; call it again with it",
            "invalid arguments: the argument \"content\" of write_file must be of type \"string\", not 7",
        ]
    );
}

#[test]
fn the_reason_for_a_denial_reaches_the_model() {
    let mut sim = Sim::new();
    sim.start("clean up");
    sim.model_calls(&[("x", "run_command", r#"{"command":"rm -rf build"}"#)]);
    let why = Some("  keep build/, it holds the release  ".to_owned());
    sim.send(Event::ToolDecision { call_id: "x".into(), decision: ApprovalDecision::Deny, reason: why });
    let told = "the user denied this tool call: keep build/, it holds the release";
    assert_eq!(sim.tool_results(), [("x".into(), ToolResultStatus::Error, told.into())]);
}

#[test]
fn a_tool_name_with_stray_characters_is_the_tool_it_names_or_a_name_providers_accept() {
    let mut sim = Sim::new();
    sim.state.config.tools.policy = ToolApprovalPolicy::AutoAll;
    sim.start("x");
    let fx = sim.model_calls(&[("c1", "read_file:", r#"{"path": "a.txt"}"#)]);
    let Some(Effect::RunTool { call, .. }) = fx.iter().find(|e| matches!(e, Effect::RunTool { .. })) else {
        panic!("read_file: is read_file, and runs: {fx:?}")
    };
    assert_eq!(call.name, "read_file");

    let named = |raw: &str| braid_core::machine::tool_name(raw, |n| n == "read_file");
    for raw in ["read_file", " read_file ", "\"read_file\"", "`read_file`", "functions.read_file", "read_file()"] {
        assert_eq!(named(raw), "read_file", "{raw:?}");
    }
    // No tool: kept in a form a strict API accepts, and refused as unknown.
    assert_eq!(named("open the door!"), "open_the_door_");
    assert_eq!(named("x".repeat(100).as_str()).len(), braid_protocol::MAX_TOOL_NAME);
    assert_eq!(named("mcp__srv__tool-1"), "mcp__srv__tool-1", "a valid name stays as it is");
}
