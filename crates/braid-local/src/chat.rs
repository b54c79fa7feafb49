//! A request as the turns a model's chat template takes, and tool calls
//! in and out. A small local model has no tool-calling protocol of its
//! own: the tools are described in the system turn, a call is a JSON
//! object `{"tool": NAME, "arguments": {…}}`, and when a call is required
//! a grammar lets the model write nothing else.

use braid_core::vision::image_as_text;
use braid_llm::render::{as_text, tool_result_text};
use braid_llm::{LlmRequest, ToolChoice, ToolDefinition};
use braid_protocol::{ContentPart, MessageType, Role};
use serde_json::Value;

/// One turn for the chat template: its role and its text.
pub type Turn = (&'static str, String);

/// The request's turns: the system turn (with the tools when they may be
/// called), then the conversation. Tool calls and results become text
/// in the form the system turn describes.
pub fn turns(request: &LlmRequest) -> Vec<Turn> {
    let mut system = request.system.clone().unwrap_or_default();
    let tools = callable(request);
    if !tools.is_empty() {
        if !system.is_empty() {
            system.push_str("\n\n");
        }
        system.push_str(&tool_section(&tools, request.tool_choice.as_ref()));
    }
    let mut out: Vec<Turn> = Vec::with_capacity(request.messages.len() + 1);
    if !system.is_empty() {
        out.push(("system", system));
    }
    for m in &request.messages {
        let turn = match &m.body {
            MessageType::Text { role, parts } => {
                let text: String = parts.iter().map(|ContentPart::Text { text }| text.as_str()).collect();
                (if *role == Role::Assistant { "assistant" } else { "user" }, text)
            }
            MessageType::Image { .. } => ("user", image_as_text(&m.body).unwrap_or_default()),
            MessageType::ToolRequest { text, calls } => {
                let calls: Vec<String> = calls
                    .iter()
                    .map(|c| {
                        let args: Value =
                            serde_json::from_str(&c.arguments).unwrap_or(Value::Object(Default::default()));
                        serde_json::json!({"tool": c.name, "arguments": args}).to_string()
                    })
                    .collect();
                let said = text.as_deref().map(|t| format!("{t}\n")).unwrap_or_default();
                ("assistant", format!("{said}{}", calls.join("\n")))
            }
            MessageType::ToolResult { output, error, .. } => {
                ("user", format!("Tool result:\n{}", tool_result_text(output, error.as_deref())))
            }
            other => match as_text(other) {
                Some(text) => ("user", text),
                None => continue,
            },
        };
        // Templates expect turns to alternate: same-role neighbours merge.
        match out.last_mut() {
            Some((role, text)) if *role == turn.0 && *role != "system" => {
                text.push_str("\n\n");
                text.push_str(&turn.1);
            }
            _ => out.push(turn),
        }
    }
    out
}

/// The tools the model may call in this request.
pub fn callable(request: &LlmRequest) -> Vec<&ToolDefinition> {
    match &request.tool_choice {
        Some(ToolChoice::None) => Vec::new(),
        Some(ToolChoice::Function(name)) => request.tools.iter().filter(|t| &t.name == name).collect(),
        _ => request.tools.iter().collect(),
    }
}

/// Whether the model must call a tool.
pub fn must_call(request: &LlmRequest) -> bool {
    matches!(request.tool_choice, Some(ToolChoice::Required | ToolChoice::Function(_))) && !callable(request).is_empty()
}

fn tool_section(tools: &[&ToolDefinition], choice: Option<&ToolChoice>) -> String {
    let mut s = String::from(
        "You can call tools. To call one, answer with only a JSON object and nothing else: \
         {\"tool\": \"<name>\", \"arguments\": {<arguments>}}. The tools:\n",
    );
    for t in tools {
        s.push_str(&format!("- {}: {} Arguments (JSON Schema): {}\n", t.name, t.description, t.input_schema));
    }
    if matches!(choice, Some(ToolChoice::Required | ToolChoice::Function(_))) {
        s.push_str("Answer now with a tool call.");
    } else {
        s.push_str("When no tool is needed, answer in plain text.");
    }
    s
}

/// A tool call the model wrote: the text is one JSON object naming one of
/// `tools`. Returns its name and its arguments as JSON text.
pub fn parse_call(text: &str, tools: &[&ToolDefinition]) -> Option<(String, String)> {
    let v: Value = serde_json::from_str(text.trim()).ok()?;
    let name = v.get("tool").or_else(|| v.get("name"))?.as_str()?;
    let tool = tools.iter().find(|t| t.name == name)?;
    let args = v.get("arguments").cloned().unwrap_or(Value::Object(Default::default()));
    args.is_object().then(|| (tool.name.clone(), args.to_string()))
}

/// A GBNF grammar that allows only a call of one of `tools`, compact, its
/// arguments shaped by the tool's JSON Schema (required properties in
/// order; enums, strings, numbers, booleans, arrays, nested objects), so
/// even a small model writes arguments the tool accepts.
pub fn call_grammar(tools: &[&ToolDefinition]) -> String {
    let mut rules = Vec::new();
    let calls: Vec<String> = tools
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let args = schema_rule(&t.input_schema, &format!("args{i}"), &mut rules);
            let head = literal(&format!("{{\"tool\":{},\"arguments\":", json_string(&t.name)));
            rules.push(format!("call{i} ::= {head} {args} \"}}\""));
            format!("call{i}")
        })
        .collect();
    let mut out = format!("root ::= {}\n", calls.join(" | "));
    for r in rules {
        out.push_str(&r);
        out.push('\n');
    }
    out.push_str(COMMON);
    out
}

/// The rules every grammar shares: any JSON value, bounded strings.
const COMMON: &str = r#"value ::= object | array | string | number | "true" | "false" | "null"
object ::= "{" ( string ":" value ( "," string ":" value )* )? "}"
array ::= "[" ( value ( "," value )* )? "]"
string ::= "\"" char{0,200} "\""
char ::= [^"\\\x7F\x00-\x1F] | "\\" ( ["\\/bfnrt] | "u" [0-9a-fA-F]{4} )
integer ::= "-"? ([0-9] | [1-9] [0-9]{1,15})
number ::= integer ("." [0-9]{1,15})?
boolean ::= "true" | "false"
"#;

/// The rule for a value of `schema`, named `name` when it needs its own.
fn schema_rule(schema: &Value, name: &str, rules: &mut Vec<String>) -> String {
    if let Some(options) = schema.get("enum").and_then(Value::as_array) {
        let alts: Vec<String> = options.iter().map(|o| literal(&o.to_string())).collect();
        if !alts.is_empty() {
            return format!("({})", alts.join(" | "));
        }
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("string") => "string".into(),
        Some("integer") => "integer".into(),
        Some("number") => "number".into(),
        Some("boolean") => "boolean".into(),
        Some("array") => {
            let item = schema.get("items").map_or("value".into(), |i| schema_rule(i, &format!("{name}-item"), rules));
            format!("(\"[\" ({item} (\",\" {item})*)? \"]\")")
        }
        Some("object") | None if schema.get("properties").is_some() => {
            let props = schema.get("properties").and_then(Value::as_object).cloned().unwrap_or_default();
            let required: Vec<&str> = schema
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let parts: Vec<String> = required
                .iter()
                .filter_map(|k| props.get(*k).map(|p| (k, p)))
                .enumerate()
                .map(|(i, (k, p))| {
                    let value = schema_rule(p, &format!("{name}-{i}"), rules);
                    format!("{} {value}", literal(&format!("{}:", json_string(k))))
                })
                .collect();
            rules.push(format!("{name} ::= \"{{\" {} \"}}\"", parts.join(" \",\" ")));
            name.to_owned()
        }
        Some("object") => "object".into(),
        _ => "value".into(),
    }
}

/// `text` as a JSON string literal.
fn json_string(text: &str) -> String {
    Value::String(text.to_owned()).to_string()
}

/// A GBNF literal matching `text` exactly.
fn literal(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use braid_protocol::{Message, MessageId, Timestamp};

    fn tool(name: &str) -> ToolDefinition {
        ToolDefinition {
            name: name.into(),
            description: "Reads a file.".into(),
            input_schema: serde_json::json!({"type": "object"}),
        }
    }

    fn request(bodies: Vec<MessageType>, choice: Option<ToolChoice>) -> LlmRequest {
        LlmRequest {
            model: "m".into(),
            system: Some("Be brief.".into()),
            messages: bodies
                .into_iter()
                .enumerate()
                .map(|(i, b)| Message::new(MessageId(i as u64), Timestamp(0), b))
                .collect(),
            tools: vec![tool("read_file"), tool("list_files")],
            tool_choice: choice,
            max_tokens: None,
            temperature: None,
        }
    }

    #[test]
    fn tools_are_described_and_same_role_turns_merge() {
        let r = request(
            vec![
                MessageType::text(Role::User, "hi"),
                MessageType::text(Role::User, "there"),
                MessageType::text(Role::Assistant, "yes"),
            ],
            None,
        );
        let t = turns(&r);
        assert_eq!(t.iter().map(|t| t.0).collect::<Vec<_>>(), ["system", "user", "assistant"]);
        assert!(
            t[0].1.starts_with("Be brief.\n\nYou can call tools.") && t[0].1.contains("- read_file: Reads a file.")
        );
        assert_eq!(t[1].1, "hi\n\nthere");
        let none = request(vec![MessageType::text(Role::User, "hi")], Some(ToolChoice::None));
        assert_eq!(turns(&none)[0].1, "Be brief.", "no tools when none may be called");
    }

    #[test]
    fn a_call_is_read_back_only_for_a_tool_offered() {
        let tools = [tool("read_file")];
        let offered: Vec<&ToolDefinition> = tools.iter().collect();
        assert_eq!(
            parse_call(r#" {"tool": "read_file", "arguments": {"path": "a.txt"}} "#, &offered),
            Some(("read_file".into(), r#"{"path":"a.txt"}"#.into()))
        );
        assert_eq!(parse_call(r#"{"tool": "rm", "arguments": {}}"#, &offered), None);
        assert_eq!(parse_call("The file says hello.", &offered), None);
        assert!(must_call(&request(vec![], Some(ToolChoice::Function("read_file".into())))));
        assert!(!must_call(&request(vec![], Some(ToolChoice::Auto))));
        let schema = serde_json::json!({"type": "object", "properties": {
            "path": {"type": "string"}, "mode": {"enum": ["r", "w"]}, "n": {"type": "integer"}, "x": {"type": "string"}
        }, "required": ["path", "mode", "n"]});
        let t = ToolDefinition { name: "read_file".into(), description: String::new(), input_schema: schema };
        let g = call_grammar(&[&t]);
        assert!(g.starts_with("root ::= call0\n"), "{g}");
        assert!(g.contains(r#"call0 ::= "{\"tool\":\"read_file\",\"arguments\":" args0 "}""#), "{g}");
        assert!(
            g.contains(
                r#"args0 ::= "{" "\"path\":" string "," "\"mode\":" ("\"r\"" | "\"w\"") "," "\"n\":" integer "}""#
            ),
            "{g}"
        );
    }
}
