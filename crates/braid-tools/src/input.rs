//! The built-in tools' inputs as typed structs. Their JSON schemas are
//! generated from the structs, so what the model is told and what the
//! tool accepts cannot drift apart.

use crate::failure;
use braid_core::machine::ToolOutcome;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;

/// The arguments schema of `T`, in the subset every provider accepts (no
/// `$schema`, `title` or integer `format`: Gemini refuses them).
pub fn schema_of<T: JsonSchema>() -> Value {
    let mut schema = serde_json::to_value(schemars::schema_for!(T)).unwrap_or(Value::Null);
    strip(&mut schema);
    schema
}

fn strip(v: &mut Value) {
    match v {
        Value::Object(map) => {
            for key in ["$schema", "title", "format"] {
                map.remove(key);
            }
            map.values_mut().for_each(strip);
        }
        Value::Array(items) => items.iter_mut().for_each(strip),
        _ => {}
    }
}

/// The arguments as `T`, or an error the model can act on.
pub fn parse<T: DeserializeOwned>(args: Value) -> Result<T, ToolOutcome> {
    serde_json::from_value(args).map_err(|e| failure(format!("invalid arguments: {e}")))
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ReadFileInput {
    /// Path relative to the workspace.
    pub path: String,
    /// First line to read, from 1.
    #[schemars(range(min = 1))]
    pub start_line: Option<u32>,
    /// Last line to read (inclusive).
    #[schemars(range(min = 1))]
    pub end_line: Option<u32>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct ListDirectoryInput {
    /// Directory relative to the workspace; '.' by default.
    pub path: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct GlobFilesInput {
    /// A glob relative to the workspace, such as '**/*.rs'.
    pub pattern: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct WriteFileInput {
    /// Path relative to the workspace.
    pub path: String,
    /// The whole new content of the file.
    pub content: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct EditFileInput {
    /// Path relative to the workspace.
    pub path: String,
    /// Text that occurs exactly once in the file.
    pub old_string: String,
    /// What replaces it.
    pub new_string: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct RunCommandInput {
    /// A shell command, run with `sh -c` in the workspace.
    pub command: String,
}

/// A line number from the model: 1 or more.
pub fn line(value: Option<u32>, key: &str) -> Result<Option<usize>, ToolOutcome> {
    match value {
        None => Ok(None),
        Some(0) => Err(failure(format!("{key} must be a line number, 1 or more"))),
        Some(n) => Ok(Some(n as usize)),
    }
}
