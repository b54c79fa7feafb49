//! The registry: tools by name, built at start-up with the built-in
//! tools and open to more at run time (MCP servers, agents).

use crate::command::RunCommand;
use crate::files::{EditFile, GlobFiles, ListDirectory, ReadFile, WriteFile};
use crate::{failure, Tool, ToolContext};
use braid_core::machine::ToolOutcome;
use braid_protocol::{check_tool_name, ToolCall, ToolSource, ToolSpec};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

#[derive(Clone, Default)]
pub struct ToolRegistry {
    by_name: HashMap<String, Arc<dyn Tool>>,
    /// The order tools are listed and defined in: the built-in ones as
    /// registered, then MCP servers' by server and tool name, then the
    /// agents'. Never the order servers became ready in, which changes
    /// from run to run: the same conversation sends the same bytes after
    /// a restart (the provider's prompt cache holds).
    order: Vec<String>,
}

/// Why a tool was not registered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RegisterError {
    /// The name is not one every provider accepts.
    BadName(String),
    /// A tool of another source has this name: names never silently
    /// change meaning.
    Taken { name: String, by: ToolSource },
    /// The name differs from another tool's only by characters that look
    /// alike (`read_fiIe` beside `read_file`): a model, or a user reading
    /// an approval, could take one for the other.
    LooksLike { name: String, other: String },
}

impl std::fmt::Display for RegisterError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RegisterError::BadName(why) => f.write_str(why),
            RegisterError::Taken { name, by } => write!(f, "a tool named {name:?} is already registered ({by:?})"),
            RegisterError::LooksLike { name, other } => {
                write!(f, "the tool name {name:?} looks like the tool {other:?} and was refused")
            }
        }
    }
}

impl std::error::Error for RegisterError {}

impl ToolRegistry {
    /// The built-in tools.
    pub fn builtin() -> ToolRegistry {
        let mut r = ToolRegistry::default();
        let tools: [Arc<dyn Tool>; 6] = [
            Arc::new(ReadFile),
            Arc::new(ListDirectory),
            Arc::new(GlobFiles),
            Arc::new(WriteFile),
            Arc::new(EditFile),
            Arc::new(RunCommand),
        ];
        for tool in tools {
            if let Err(e) = r.register(tool) {
                tracing::error!("built-in tool refused: {e}");
            }
        }
        r
    }

    /// Adds a tool after checking its name. A tool of the same name and
    /// source replaces the old one (a server restarted); one of another
    /// source is refused.
    pub fn register(&mut self, tool: Arc<dyn Tool>) -> Result<(), RegisterError> {
        let name = tool.name().to_owned();
        check_tool_name(&name).map_err(RegisterError::BadName)?;
        if let Some(old) = self.by_name.get(&name) {
            if old.source() != tool.source() {
                return Err(RegisterError::Taken { name, by: old.source() });
            }
        } else {
            let shape = look(&name);
            if let Some(other) = self.order.iter().find(|o| look(o) == shape) {
                return Err(RegisterError::LooksLike { name, other: other.clone() });
            }
            self.order.push(name.clone());
        }
        self.by_name.insert(name, tool);
        let by_name = &self.by_name;
        self.order.sort_by_cached_key(|n| listing_key(by_name.get(n).map(|t| t.source()), n));
        Ok(())
    }

    /// Removes a tool (its server went away); true if it was there.
    pub fn unregister(&mut self, name: &str) -> bool {
        self.order.retain(|n| n != name);
        self.by_name.remove(name).is_some()
    }

    pub fn get(&self, name: &str) -> Option<&Arc<dyn Tool>> {
        self.by_name.get(name)
    }

    /// Every tool in registration order.
    pub fn tools(&self) -> impl Iterator<Item = &Arc<dyn Tool>> {
        self.order.iter().filter_map(|n| self.by_name.get(n))
    }

    /// The catalogue: every tool's spec, in registration order.
    pub fn specs(&self) -> Vec<ToolSpec> {
        self.tools().map(|t| t.spec()).collect()
    }

    /// Runs an approved call: finds the tool, parses the arguments, runs
    /// it, and times it. The caller has checked the approval.
    pub async fn dispatch(&self, call: &ToolCall, ctx: &ToolContext) -> ToolOutcome {
        let started = Instant::now();
        let mut outcome = match self.prepare(call) {
            Ok((tool, args)) => tool.run(args, ctx).await,
            Err(e) => e,
        };
        outcome.duration_ms = started.elapsed().as_millis() as u64;
        outcome
    }

    /// The lookup and argument parsing of a dispatch (benchmarked apart
    /// from the tool's own work).
    pub fn prepare(&self, call: &ToolCall) -> Result<(&Arc<dyn Tool>, serde_json::Value), ToolOutcome> {
        let tool = self.get(&call.name).ok_or_else(|| failure(format!("there is no tool named {:?}", call.name)))?;
        let args: serde_json::Value = if call.arguments.trim().is_empty() {
            serde_json::Value::Object(Default::default())
        } else {
            serde_json::from_str(&call.arguments)
                .map_err(|e| failure(format!("the arguments are not valid JSON ({e})")))?
        };
        if !args.is_object() {
            return Err(failure("the arguments must be a JSON object"));
        }
        Ok((tool, args))
    }
}

/// Where a tool stands in the listing (a stable sort keeps the built-in
/// tools in the order they were registered).
fn listing_key(source: Option<ToolSource>, name: &str) -> (u8, String, String) {
    match source {
        Some(ToolSource::Builtin) | None => (0, String::new(), String::new()),
        Some(ToolSource::Mcp { server }) => (1, server, name.to_owned()),
        Some(ToolSource::Agent) => (2, String::new(), name.to_owned()),
    }
}

/// A name as it looks: case, `-` or `_`, and the letters digits pass for
/// (`l`, `I`, `1`; `O`, `0`) made one.
fn look(name: &str) -> String {
    name.chars()
        .map(|c| match c.to_ascii_lowercase() {
            'i' | '1' | '|' => 'l',
            '0' => 'o',
            '-' => '_',
            '5' => 's',
            c => c,
        })
        .collect()
}
