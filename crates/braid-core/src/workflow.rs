//! Workflows: named prompt templates with parameters, kept as Markdown
//! files (`.braid/workflows/<name>.md` in the workspace, or the same in
//! the app's config folder) with a small front matter:
//!
//! ```text
//! ---
//! description: Review a file for bugs
//! parameters:
//!   - name: file
//!     description: The file to review
//!   - name: focus
//!     default: correctness
//! ---
//! Review @{{file}}, looking for {{focus}} problems.
//! ```
//!
//! A parameter with no default must be given. A `{{name}}` in the body
//! that the front matter does not declare is a parameter too. Parsing and
//! filling in are here; finding the files is the runtime's.

use braid_protocol::{Workflow, WorkflowParameter};
use std::collections::BTreeMap;

/// The longest workflow file read.
pub const MAX_FILE_BYTES: usize = 64 * 1024;

/// A workflow's name: what `/name` types (letters, digits, `-` and `_`).
pub fn check_name(name: &str) -> Result<(), String> {
    let fine =
        !name.is_empty() && name.len() <= 64 && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if fine {
        Ok(())
    } else {
        Err(format!("{name:?} is not a workflow name (1 to 64 letters, digits, '-' or '_')"))
    }
}

/// Reads a workflow file; `name` is its file name without `.md`.
pub fn parse(name: &str, origin: &str, text: &str) -> Result<Workflow, String> {
    check_name(name)?;
    if text.len() > MAX_FILE_BYTES {
        return Err(format!("{name}.md is {} bytes; a workflow may have {MAX_FILE_BYTES}", text.len()));
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let (front, body) = match text.strip_prefix("---\n").or_else(|| text.strip_prefix("---\r\n")) {
        Some(rest) => {
            let end = rest
                .find("\n---\n")
                .or_else(|| rest.find("\n---\r\n"))
                .or_else(|| rest.strip_suffix("\n---").map(str::len))
                .ok_or_else(|| format!("{name}.md: the front matter has no closing ---"))?;
            let after = rest[end + 1..].trim_start_matches("---").trim_start_matches(['\r', '\n']);
            (&rest[..end], after)
        }
        None => ("", text),
    };
    let mut workflow = Workflow {
        name: name.to_owned(),
        description: String::new(),
        parameters: Vec::new(),
        body: body.trim().to_owned(),
        origin: origin.to_owned(),
    };
    read_front(front, &mut workflow).map_err(|e| format!("{name}.md: {e}"))?;
    if workflow.body.is_empty() {
        return Err(format!("{name}.md has no prompt after its front matter"));
    }
    // Placeholders the front matter does not declare are parameters too.
    for p in placeholders(&workflow.body) {
        if !workflow.parameters.iter().any(|q| q.name == p) {
            workflow.parameters.push(WorkflowParameter { name: p, description: String::new(), default: None });
        }
    }
    Ok(workflow)
}

/// `key: value` lines, and `parameters:` as a list of such maps.
fn read_front(front: &str, w: &mut Workflow) -> Result<(), String> {
    let mut in_parameters = false;
    for (i, raw) in front.lines().enumerate() {
        let line = raw.trim_end();
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let indented = line.starts_with(' ') || line.starts_with('\t');
        let item = line.trim_start();
        let (item, new_entry) = match item.strip_prefix("- ") {
            Some(rest) => (rest, true),
            None => (item, false),
        };
        let Some((key, value)) = item.split_once(':') else {
            return Err(format!("line {}: expected `key: value`", i + 2));
        };
        let (key, value) = (key.trim(), unquote(value.trim()));
        if !indented && !new_entry {
            in_parameters = key == "parameters";
            match key {
                "description" => w.description = value,
                "parameters" if value.is_empty() => {}
                "name" | "parameters" => {}
                other => return Err(format!("line {}: unknown key {other:?} (description, parameters)", i + 2)),
            }
            continue;
        }
        if !in_parameters {
            return Err(format!("line {}: an indented line outside `parameters:`", i + 2));
        }
        if new_entry {
            w.parameters.push(WorkflowParameter { name: String::new(), description: String::new(), default: None });
        }
        let Some(p) = w.parameters.last_mut() else {
            return Err(format!("line {}: a parameter starts with `- name:`", i + 2));
        };
        match key {
            "name" => {
                check_name(&value).map_err(|e| format!("line {}: parameter {e}", i + 2))?;
                p.name = value;
            }
            "description" => p.description = value,
            "default" => p.default = Some(value),
            other => {
                return Err(format!("line {}: unknown parameter key {other:?} (name, description, default)", i + 2))
            }
        }
    }
    if let Some(p) = w.parameters.iter().find(|p| p.name.is_empty()) {
        return Err(format!("a parameter has no name ({:?})", p.description));
    }
    Ok(())
}

fn unquote(v: &str) -> String {
    let quoted =
        v.len() >= 2 && ((v.starts_with('"') && v.ends_with('"')) || (v.starts_with('\'') && v.ends_with('\'')));
    if quoted {
        v[1..v.len() - 1].to_owned()
    } else {
        v.to_owned()
    }
}

/// The `{{name}}` placeholders of `body`, each once, in order.
fn placeholders(body: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut rest = body;
    while let Some(start) = rest.find("{{") {
        let Some(len) = rest[start + 2..].find("}}") else { break };
        let name = rest[start + 2..start + 2 + len].trim();
        if check_name(name).is_ok() && !out.iter().any(|n| n == name) {
            out.push(name.to_owned());
        }
        rest = &rest[start + 2 + len + 2..];
    }
    out
}

/// The prompt with every parameter filled in. An argument the workflow
/// does not take, or a parameter with neither argument nor default, is an
/// error naming it.
pub fn fill(w: &Workflow, arguments: &BTreeMap<String, String>) -> Result<String, String> {
    if let Some(unknown) = arguments.keys().find(|k| !w.parameters.iter().any(|p| &p.name == *k)) {
        let known: Vec<&str> = w.parameters.iter().map(|p| p.name.as_str()).collect();
        let known = if known.is_empty() { "none".to_owned() } else { known.join(", ") };
        return Err(format!("{} takes no parameter {unknown:?} (its parameters: {known})", w.name));
    }
    let mut values = BTreeMap::new();
    for p in &w.parameters {
        let given = arguments.get(&p.name).map(|v| v.trim()).filter(|v| !v.is_empty());
        match given.map(str::to_owned).or_else(|| p.default.clone()) {
            Some(v) => values.insert(p.name.as_str(), v),
            None => return Err(format!("{} needs a value for {}", w.name, p.name)),
        };
    }
    let mut out = String::with_capacity(w.body.len());
    let mut rest = w.body.as_str();
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let Some(len) = rest[start + 2..].find("}}") else {
            out.push_str(&rest[start..]);
            return Ok(out);
        };
        let name = rest[start + 2..start + 2 + len].trim();
        match values.get(name) {
            Some(v) => out.push_str(v),
            None => out.push_str(&rest[start..start + 2 + len + 2]),
        }
        rest = &rest[start + 2 + len + 2..];
    }
    out.push_str(rest);
    Ok(out)
}
