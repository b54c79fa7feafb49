//! A real temporary workspace with the built-in tools, shared by this
//! crate's tests.

#![allow(dead_code, clippy::unwrap_used)] // each test file uses a part

use braid_core::machine::ToolOutcome;
use braid_protocol::{Approval, ToolCall, ToolResultStatus};
use braid_tools::{ToolContext, ToolRegistry};
use std::path::Path;

pub struct Ws {
    pub dir: tempfile::TempDir,
    pub ctx: ToolContext,
    pub tools: ToolRegistry,
}

pub fn ws() -> Ws {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("ws");
    std::fs::create_dir(&root).unwrap();
    let ctx = ToolContext::new(root.canonicalize().unwrap());
    Ws { dir, ctx, tools: ToolRegistry::builtin() }
}

impl Ws {
    pub fn root(&self) -> &Path {
        &self.ctx.workspace
    }
    pub fn file(&self, rel: &str, content: &str) {
        let p = self.root().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, content).unwrap();
    }
    pub async fn call(&self, name: &str, args: serde_json::Value) -> ToolOutcome {
        let call =
            ToolCall { id: "t".into(), name: name.into(), arguments: args.to_string(), approval: Approval::Approved };
        self.tools.dispatch(&call, &self.ctx).await
    }
}

pub fn ok(o: &ToolOutcome) -> &str {
    assert_eq!(o.status, ToolResultStatus::Success, "{o:?}");
    &o.output
}

pub fn err(o: &ToolOutcome) -> &str {
    assert_eq!(o.status, ToolResultStatus::Error, "{o:?}");
    o.error.as_deref().unwrap()
}
