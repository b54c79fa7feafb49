//! The tools the model can call: a [`Tool`] trait (name, description, JSON
//! schema, permission, examples, source), a [`ToolRegistry`] indexed by
//! name that more tools join at run time, and the built-in tools, whose
//! inputs are typed structs with generated schemas ([`input`]). Every path a tool touches is confined to the
//! conversation's workspace ([`paths`]). Whether a call may run is decided
//! in `braid-core` (`approval`), never here.

pub mod agents;
mod command;
mod confine;
mod files;
pub mod input;
pub mod ledger;
pub mod mcp;
mod output;
pub mod preview;
mod registry;
pub mod sandbox;

pub use braid_workspace::paths;
pub use confine::Confinement;
pub use registry::{RegisterError, ToolRegistry};

use braid_core::machine::ToolOutcome;
use braid_protocol::{Permission, ToolResultStatus, ToolSandbox, ToolSource, ToolSpec};
use braid_workspace::freshness::{FileFreshness, Freshness};
use futures::future::BoxFuture;
use serde_json::Value;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

/// Where a call runs.
#[derive(Debug, Clone)]
pub struct ToolContext {
    /// The conversation's workspace; every path stays inside it.
    pub workspace: PathBuf,
    /// The conversation's record of what the agent read and wrote: reads
    /// are recorded, and a file changed outside Braid since the agent read
    /// it is not overwritten.
    pub freshness: Option<Arc<Mutex<FileFreshness>>>,
    /// The user approved writing over a file changed outside Braid.
    pub allow_overwrite: bool,
    /// Where `run_command` records the process groups it starts, so a
    /// group that outlives Braid is stopped at the next start.
    pub ledger: Option<ledger::ProcessLedger>,
    /// What `run_command` may touch.
    pub sandbox: braid_protocol::Sandbox,
    /// What a sandboxed command may see (the same for every conversation).
    pub confine: Arc<Confinement>,
}

impl ToolContext {
    pub fn new(workspace: PathBuf) -> ToolContext {
        ToolContext {
            workspace,
            freshness: None,
            allow_overwrite: false,
            ledger: None,
            sandbox: Default::default(),
            confine: Default::default(),
        }
    }

    pub(crate) fn record_read(&self, path: &std::path::Path) {
        if let Some(f) = &self.freshness {
            f.lock().unwrap_or_else(PoisonError::into_inner).record_read(path, std::time::SystemTime::now());
        }
    }

    pub(crate) fn record_edit(&self, path: &std::path::Path) {
        if let Some(f) = &self.freshness {
            f.lock().unwrap_or_else(PoisonError::into_inner).record_edit(path, std::time::SystemTime::now());
        }
    }

    /// Refuses to write over an existing file the agent has not read in
    /// this conversation, or one that changed outside Braid since the agent
    /// last read or wrote it; a new file needs no read. The user's
    /// "approve and overwrite" lets both through.
    pub(crate) fn check_unchanged(&self, path: &std::path::Path) -> Result<(), ToolOutcome> {
        let Some(f) = self.freshness.as_ref().filter(|_| !self.allow_overwrite) else { return Ok(()) };
        let f = f.lock().unwrap_or_else(PoisonError::into_inner);
        let p = paths::shown(&self.workspace, path);
        if !f.seen(path) {
            return match path.exists() {
                true => Err(failure(format!(
                    "{p} exists and you have not read it in this conversation: read it first (read_file), then make \
                     your change (or the user may approve overwriting it)"
                ))),
                false => Ok(()),
            };
        }
        match f.check(path) {
            Freshness::ModifiedExternally { size_before, size_now, .. } => Err(failure(format!(
                "{p} changed outside Braid since you last read it ({size_before} → {size_now} bytes); read it again, \
                 then make your change (or the user may approve overwriting it)"
            ))),
            _ => Ok(()),
        }
    }
}

pub trait Tool: Send + Sync {
    /// Checked when registered: at most 64 bytes of `[A-Za-z0-9_-]`.
    fn name(&self) -> &str;
    fn description(&self) -> &str;
    /// JSON Schema of the arguments object.
    fn input_schema(&self) -> Value;
    fn permission(&self) -> Permission;
    /// Reads may run beside other calls; anything that changes state not.
    fn parallel_safe(&self) -> bool {
        self.permission() == Permission::Read
    }
    /// Example argument objects; they reach the model in the system prompt.
    fn examples(&self) -> Vec<Value>;
    fn source(&self) -> ToolSource {
        ToolSource::Builtin
    }
    /// A time limit of the tool's own (an MCP server's `callTimeoutMs`),
    /// which governs its calls instead of the conversation's.
    fn time_limit(&self) -> Option<std::time::Duration> {
        None
    }
    /// Whether the tool's processes run in the command sandbox.
    fn sandbox(&self) -> ToolSandbox {
        ToolSandbox::NotUsed
    }
    /// The tool as the catalogue holds it.
    fn spec(&self) -> ToolSpec {
        ToolSpec {
            name: self.name().to_owned(),
            description: self.description().to_owned(),
            input_schema: self.input_schema(),
            permission: self.permission(),
            parallel_safe: self.parallel_safe(),
            examples: self.examples(),
            source: self.source(),
            sandbox: self.sandbox(),
            pin: None,
        }
    }
    /// Runs the call. Dropping the future stops the work (and kills any
    /// process the tool started, with its children).
    fn run<'a>(&'a self, args: Value, ctx: &'a ToolContext) -> BoxFuture<'a, ToolOutcome>;
}

/// A successful result.
pub fn success(output: String) -> ToolOutcome {
    ToolOutcome::success(output)
}

/// A failed call; the message goes to the model, so it says what to do.
pub fn failure(error: impl Into<String>) -> ToolOutcome {
    ToolOutcome {
        status: ToolResultStatus::Error,
        output: String::new(),
        error: Some(error.into()),
        recoverable: true,
        duration_ms: 0,
        written: None,
        blocked: None,
        images: Vec::new(),
        secrets: None,
    }
}
