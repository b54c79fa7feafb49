//! The command surface described from the list, and the TypeScript client
//! written from that description: the UI's `Commands` interface and the
//! `CommandClient` class a transport extends with its `execute`.

use ts_rs::{Config, TS};

/// One command as the generators see it.
#[derive(Debug, Clone)]
pub struct CommandInfo {
    /// Its `type` on the wire.
    pub tag: &'static str,
    /// The runtime's handler; the UI's method is its camelCase form.
    pub handler: &'static str,
    pub docs: Vec<&'static str>,
    pub fields: Vec<FieldInfo>,
    /// The TypeScript type it is answered with (`void` for `()`).
    pub answer: String,
}

#[derive(Debug, Clone)]
pub struct FieldInfo {
    pub name: &'static str,
    pub ts: String,
}

/// Every command, in the list's order.
pub fn surface() -> Vec<CommandInfo> {
    super::describe()
}

/// The TypeScript name of a Rust type as the UI receives it; `()` is JSON
/// null on the wire and nothing to read for the caller.
pub(super) fn ts_name<T: TS>() -> String {
    let name = T::name(&Config::new().with_large_int("number"));
    if name == "null" {
        "void".to_owned()
    } else {
        name
    }
}

fn camel(snake: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in snake.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    // Not a parameter's name in strict-mode JavaScript.
    match out.as_str() {
        "arguments" => "args".to_owned(),
        "eval" => "evalText".to_owned(),
        _ => out,
    }
}

/// A field may be left out by the caller when it and every field after it
/// can be null (it then goes as null, which the backend reads as absent).
fn optional_from(fields: &[FieldInfo]) -> usize {
    fields.iter().rposition(|f| !f.ts.ends_with(" | null")).map_or(0, |i| i + 1)
}

fn signature(info: &CommandInfo) -> String {
    let from = optional_from(&info.fields);
    let params: Vec<String> = info
        .fields
        .iter()
        .enumerate()
        .map(|(i, f)| format!("{}{}: {}", camel(f.name), if i >= from { "?" } else { "" }, f.ts))
        .collect();
    format!("{}({}): Promise<{}>", camel(info.handler), params.join(", "), info.answer)
}

fn body(info: &CommandInfo) -> String {
    let from = optional_from(&info.fields);
    let mut parts = vec![format!("type: \"{}\"", info.tag)];
    for (i, f) in info.fields.iter().enumerate() {
        let value = camel(f.name);
        let value = if i >= from { format!("{value} ?? null") } else { value };
        parts.push(if value == f.name { value } else { format!("{}: {value}", f.name) });
    }
    format!("return this.execute({{ {} }});", parts.join(", "))
}

fn doc(info: &CommandInfo, indent: &str) -> String {
    if info.docs.is_empty() {
        return String::new();
    }
    let lines: Vec<String> = info.docs.iter().map(|d| format!("{indent} *{}", d.trim_end())).collect();
    format!("{indent}/**\n{}\n{indent} */\n", lines.join("\n"))
}

/// `CommandResponses`, the `Commands` interface and the `CommandClient`
/// class, for the end of `protocol.ts`.
pub fn typescript(out: &mut String) {
    let commands = surface();
    out.push_str("/** What each command is answered with (`command/list.rs`). */\n");
    out.push_str("export type CommandResponses = {\n");
    for info in &commands {
        out.push_str(&format!("  {}: {},\n", info.tag, info.answer));
    }
    out.push_str("};\n\n");
    out.push_str("/** The answer to `C`. */\n");
    out.push_str("export type ResponseTo<C extends Command> = CommandResponses[C[\"type\"]];\n\n");
    out.push_str("/** Every command as a method, as `command/list.rs` defines it. */\n");
    out.push_str("export interface Commands {\n");
    for info in &commands {
        out.push_str(&doc(info, "  "));
        out.push_str(&format!("  {};\n", signature(info)));
    }
    out.push_str("}\n\n");
    out.push_str("/** The commands over a transport's `execute` (HTTP, or the desktop window's IPC). */\n");
    out.push_str("export abstract class CommandClient implements Commands {\n");
    out.push_str("  protected abstract execute<C extends Command>(command: C): Promise<ResponseTo<C>>;\n\n");
    for info in &commands {
        out.push_str(&format!("  {} {{\n    {}\n  }}\n", signature(info), body(info)));
    }
    out.push_str("}\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_camel_case_and_never_a_strict_mode_keyword() {
        assert_eq!(camel("context_id"), "contextId");
        assert_eq!(camel("continue_loop"), "continueLoop");
        assert_eq!(camel("arguments"), "args");
    }

    #[test]
    fn only_trailing_nullable_fields_may_be_left_out() {
        let field = |name: &'static str, ts: &str| FieldInfo { name, ts: ts.to_owned() };
        let fields = [field("a", "string | null"), field("b", "string"), field("c", "number | null")];
        assert_eq!(optional_from(&fields), 2);
        let info =
            CommandInfo { tag: "x", handler: "do_x", docs: vec![], fields: fields.to_vec(), answer: "void".into() };
        assert_eq!(signature(&info), "doX(a: string | null, b: string, c?: number | null): Promise<void>");
        assert_eq!(body(&info), "return this.execute({ type: \"x\", a, b, c: c ?? null });");
        assert_eq!(optional_from(&[]), 0);
    }

    #[test]
    fn every_tag_is_a_variant_serde_knows() {
        for info in surface() {
            let error = serde_json::from_value::<crate::Command>(serde_json::json!({ "type": info.tag }))
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(!error.contains("unknown variant"), "{}: {error}", info.tag);
        }
    }
}
