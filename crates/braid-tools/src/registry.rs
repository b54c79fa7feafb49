//! The registry: tools by name, built at start-up, open to more (MCP).

use crate::command::RunCommand;
use crate::files::{EditFile, GlobFiles, ListDirectory, ReadFile, WriteFile};
use crate::{failure, Tool, ToolContext};
use braid_core::machine::ToolOutcome;
use braid_protocol::{ToolCall, ToolInfo};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

#[derive(Clone, Default)]
pub struct ToolRegistry {
    by_name: HashMap<&'static str, Arc<dyn Tool>>,
    /// Registration order, for stable listings and tool definitions.
    order: Vec<&'static str>,
}

impl ToolRegistry {
    /// The built-in tools.
    pub fn builtin() -> ToolRegistry {
        let mut r = ToolRegistry::default();
        r.register(Arc::new(ReadFile));
        r.register(Arc::new(ListDirectory));
        r.register(Arc::new(GlobFiles));
        r.register(Arc::new(WriteFile));
        r.register(Arc::new(EditFile));
        r.register(Arc::new(RunCommand));
        r
    }

    /// Adds a tool, replacing one of the same name.
    pub fn register(&mut self, tool: Arc<dyn Tool>) {
        let name = tool.name();
        if self.by_name.insert(name, tool).is_none() {
            self.order.push(name);
        }
    }

    pub fn get(&self, name: &str) -> Option<&Arc<dyn Tool>> {
        self.by_name.get(name)
    }

    /// Every tool in registration order.
    pub fn tools(&self) -> impl Iterator<Item = &Arc<dyn Tool>> {
        self.order.iter().filter_map(|n| self.by_name.get(n))
    }

    pub fn infos(&self) -> Vec<ToolInfo> {
        self.tools()
            .map(|t| ToolInfo {
                name: t.name().to_owned(),
                description: t.description().to_owned(),
                permission: t.permission(),
                parallel_safe: t.parallel_safe(),
            })
            .collect()
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
