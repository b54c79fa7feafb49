//! Reading each coding CLI's streamed JSON: what is shown as it comes, the
//! answer kept, the tokens reported and the failures. The Claude lines
//! marked "real" were printed by `claude` 2.1.197 itself, signed out.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::llm::Usage;
use braid_core::team::streams::AgentStream;
use braid_protocol::{AgentType, ModelChoice};

fn read(agent: AgentType, lines: &[&str]) -> (Vec<String>, AgentStream) {
    let mut stream = AgentStream::new(&agent).expect("a CLI");
    let shown = lines.iter().filter_map(|l| stream.line(l)).collect();
    (shown, stream)
}

#[test]
fn claude_shows_each_assistant_message_and_keeps_the_result() {
    let lines = [
        r#"{"type":"system","subtype":"init","cwd":"/w","session_id":"s","tools":["Bash"],"model":"m"}"#,
        r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Looking."},{"type":"tool_use","id":"t","name":"Bash","input":{}}]}}"#,
        r#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"ok"}]}}"#,
        r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Done. [NEXT:sarah]"}]}}"#,
        r#"{"type":"result","subtype":"success","is_error":false,"result":"Done. [NEXT:sarah]","usage":{"input_tokens":120,"output_tokens":9}}"#,
    ];
    let (shown, stream) = read(AgentType::ClaudeCode, &lines);
    assert_eq!(shown, ["Looking.", "\n\nDone. [NEXT:sarah]"]);
    assert_eq!(stream.usage(), Some(Usage { prompt_tokens: 120, completion_tokens: 9 }));
    assert_eq!(stream.finish(true, "").unwrap(), "Done. [NEXT:sarah]", "the result, not the steps");
}

#[test]
fn claude_signed_out_is_a_failure_with_its_words() {
    // real
    let lines = [
        r#"{"type":"system","subtype":"init","cwd":"/tmp/clis","session_id":"9f6b","tools":["Task","Bash"],"mcp_servers":[],"model":"claude-opus-4-8[1m]","permissionMode":"default","apiKeySource":"none","claude_code_version":"2.1.197"}"#,
        r#"{"type":"assistant","message":{"id":"2b43","container":null,"model":"<synthetic>","role":"assistant","stop_reason":"stop_sequence","type":"message","usage":{"input_tokens":0,"output_tokens":0},"content":[{"type":"text","text":"Not logged in · Please run /login"}],"context_management":null},"parent_tool_use_id":null,"session_id":"7924","error":"authentication_failed"}"#,
        r#"{"type":"result","subtype":"success","is_error":true,"api_error_status":null,"duration_ms":148,"num_turns":1,"result":"Not logged in · Please run /login","stop_reason":"stop_sequence","session_id":"7924","total_cost_usd":0,"usage":{"input_tokens":0,"output_tokens":0}}"#,
    ];
    let (_, stream) = read(AgentType::ClaudeCode, &lines);
    assert_eq!(stream.finish(false, "").unwrap_err(), "Not logged in · Please run /login");
}

#[test]
fn codex_shows_agent_messages_only_and_fails_on_turn_failed() {
    let lines = [
        "WARNING: proceeding, even though we could not create PATH aliases",
        r#"{"type":"thread.started","thread_id":"t"}"#,
        r#"{"type":"turn.started"}"#,
        r#"{"type":"item.completed","item":{"id":"item_0","type":"reasoning","text":"**Planning**"}}"#,
        r#"{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"ls","aggregated_output":"a","status":"completed"}}"#,
        r#"{"type":"item.completed","item":{"id":"item_2","type":"agent_message","text":"Two files."}}"#,
        r#"{"type":"turn.completed","usage":{"input_tokens":50,"cached_input_tokens":0,"output_tokens":4}}"#,
    ];
    let (shown, stream) = read(AgentType::OpenaiCodex, &lines);
    assert_eq!(shown, ["Two files."]);
    assert_eq!(stream.usage(), Some(Usage { prompt_tokens: 50, completion_tokens: 4 }));
    assert_eq!(stream.finish(true, "").unwrap(), "Two files.");

    let failing = [
        r#"{"type":"turn.started"}"#,
        r#"{"type":"error","message":"Reconnecting... 2/5 (stream disconnected before completion)"}"#,
        r#"{"type":"turn.failed","error":{"message":"unexpected status 401 Unauthorized"}}"#,
    ];
    let (_, stream) = read(AgentType::OpenaiCodex, &failing);
    assert_eq!(stream.finish(false, "").unwrap_err(), "unexpected status 401 Unauthorized");
    let retried = [r#"{"type":"error","message":"Reconnecting... 5/5 (no network)"}"#];
    let (_, stream) = read(AgentType::OpenaiCodex, &retried);
    assert_eq!(stream.finish(false, "").unwrap_err(), "Reconnecting... 5/5 (no network)", "the last retry says why");
}

#[test]
fn gemini_streams_deltas_and_reports_errors() {
    let lines = [
        r#"{"type":"init","timestamp":"t","session_id":"s","model":"auto"}"#,
        r#"{"type":"message","timestamp":"t","role":"user","content":"hello there\n"}"#,
        r#"{"type":"message","timestamp":"t","role":"assistant","content":"Hel","delta":true}"#,
        r#"{"type":"message","timestamp":"t","role":"assistant","content":"lo!","delta":true}"#,
        r#"{"type":"result","timestamp":"t","status":"success","stats":{"total_tokens":12,"input_tokens":10,"output_tokens":2,"duration_ms":5,"tool_calls":0}}"#,
    ];
    let (shown, stream) = read(AgentType::GoogleGemini, &lines);
    assert_eq!(shown, ["Hel", "lo!"], "the user's own message is not shown");
    assert_eq!(stream.usage(), Some(Usage { prompt_tokens: 10, completion_tokens: 2 }));
    assert_eq!(stream.finish(true, "").unwrap(), "Hello!");

    let failing = [
        r#"{"type":"error","timestamp":"t","severity":"warning","message":"Loop detected"}"#,
        r#"{"type":"error","timestamp":"t","severity":"error","message":"API key not valid"}"#,
        r#"{"type":"result","timestamp":"t","status":"error","error":{"type":"Error","message":"API key not valid"}}"#,
    ];
    let (_, stream) = read(AgentType::GoogleGemini, &failing);
    assert_eq!(stream.finish(false, "").unwrap_err(), "API key not valid");
}

#[test]
fn a_run_that_says_nothing_fails_with_its_stderr() {
    let (_, stream) = read(AgentType::GoogleGemini, &[]);
    let stderr = "Please set an Auth method in your settings.json or specify GEMINI_API_KEY\n";
    assert_eq!(
        stream.finish(false, stderr).unwrap_err(),
        "Please set an Auth method in your settings.json or specify GEMINI_API_KEY"
    );
    let (_, stream) = read(AgentType::ClaudeCode, &[]);
    assert_eq!(stream.finish(true, "").unwrap_err(), "it gave no answer");
}

#[test]
fn any_other_program_answers_in_plain_text_and_api_members_have_no_reader() {
    let (shown, stream) = read(AgentType::Other { name: "aider".into() }, &["one", "two"]);
    assert_eq!(shown, ["one", "\ntwo"]);
    assert_eq!(stream.finish(true, "").unwrap(), "one\ntwo");
    let api = AgentType::Api { model: Some(ModelChoice { provider_id: "p".into(), model: "m".into() }) };
    assert!(AgentStream::new(&api).is_none());
}
