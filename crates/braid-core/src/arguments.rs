//! A tool call's arguments against the tool's JSON Schema, before anyone
//! is asked to approve it: an object, with every required property, each
//! of the type the schema names, and no empty path. A call that fails goes
//! back to the model as an error it can fix; the user never sees it.
//! Deliberately the subset of JSON Schema the tools' generated schemas use
//! (`type`, `required`, `properties`), not a full validator.

use serde_json::Value;

/// Why `args` does not fit `schema`, in words the model can act on.
pub fn check(tool: &str, schema: &Value, args: &Value) -> Result<(), String> {
    let Some(fields) = args.as_object() else {
        return Err(format!("the arguments of {tool} must be a JSON object"));
    };
    let required = schema.get("required").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    for name in required.iter().filter_map(Value::as_str) {
        if fields.get(name).is_none_or(Value::is_null) {
            return Err(format!("{tool} needs the argument \"{name}\"; call it again with it"));
        }
    }
    let properties = schema.get("properties").and_then(Value::as_object);
    for (name, value) in fields {
        let Some(wanted) = properties.and_then(|p| p.get(name)) else { continue };
        if !value.is_null() && !fits(wanted, value) {
            let kind = wanted.get("type").map(Value::to_string).unwrap_or_default();
            return Err(format!("the argument \"{name}\" of {tool} must be of type {kind}, not {value}"));
        }
        if name == "path" && value.as_str().is_some_and(|p| p.trim().is_empty()) {
            return Err(format!("the \"path\" of {tool} is empty; give the file's path relative to the workspace"));
        }
    }
    Ok(())
}

/// `type` may be one name or a list of names (`["integer", "null"]`).
fn fits(schema: &Value, value: &Value) -> bool {
    let names: Vec<&str> = match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => return true,
    };
    names.iter().any(|t| match *t {
        "string" => value.is_string(),
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        "null" => value.is_null(),
        _ => true,
    })
}

/// The arguments with raw control characters inside their strings escaped,
/// when that alone makes them JSON; `None` when they already are JSON or
/// are broken some other way. Small models write a line break inside a
/// string as a line break (llama.cpp's grammar lets them): the call is
/// what they meant, and every reader of it (approval, preview, the tool)
/// should see it parsed, so it is repaired once, as it arrives.
pub fn repaired(raw: &str) -> Option<String> {
    if serde_json::from_str::<Value>(raw).is_ok() {
        return None;
    }
    let mut out = String::with_capacity(raw.len() + 8);
    let (mut in_string, mut escaped, mut changed) = (false, false, false);
    for c in raw.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            '\u{0}'..='\u{1f}' if in_string => {
                changed = true;
                match c {
                    '\n' => out.push_str("\\n"),
                    '\r' => out.push_str("\\r"),
                    '\t' => out.push_str("\\t"),
                    _ => out.push_str(&format!("\\u{:04x}", c as u32)),
                }
                continue;
            }
            _ => {}
        }
        out.push(c);
    }
    (changed && serde_json::from_str::<Value>(&out).is_ok()).then_some(out)
}
