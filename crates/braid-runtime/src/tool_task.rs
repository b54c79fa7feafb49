//! One tool call at a time, on its own task, under the conversation's
//! timeout (or the tool's own: an MCP server's `callTimeoutMs`). Aborting the task drops the tool's future, which kills any
//! process it started with its whole group. Images a result brings are
//! read (vision or OCR) before the core hears of it.

use crate::checkpoints::Watch;
use crate::image_task::{read_result_images, Reading};
use braid_core::machine::{Event, ToolOutcome};
use braid_protocol::{CallId, ToolCall, ToolResultStatus};
use braid_tools::{ToolContext, ToolRegistry};
use std::sync::Arc;
use std::time::Duration;

/// One approved call, ready to run.
pub struct Job {
    pub tools: Arc<ToolRegistry>,
    /// With its placeholders replaced by the values.
    pub call: ToolCall,
    pub ctx: ToolContext,
    pub timeout: Duration,
    /// The secrets this conversation's calls were given, to look for in
    /// the output (`None`: none).
    pub exposure: Option<braid_core::secrets::Exposure>,
}

pub struct ToolTask {
    pub call_id: CallId,
    pub handle: tokio::task::JoinHandle<()>,
    /// Looked at again when the call is killed: what it changed until
    /// then is still the model's.
    pub watch: Option<Watch>,
}

/// `watch`: the workspace is checkpointed before the call (the user's
/// changes since the last look) and after it (the call's, whatever made
/// them: a write tool, a command, an MCP tool), before the core hears
/// the call ended.
pub fn spawn(job: Job, reading: Reading, watch: Option<Watch>) -> ToolTask {
    let Job { tools, call, ctx, timeout, exposure } = job;
    let call_id = call.id.clone();
    // A tool with a limit of its own says so itself when it passes it
    // (the MCP client names the server); this one is the backstop.
    let timeout = match tools.get(&call.name).and_then(|t| t.time_limit()) {
        Some(own) => own + Duration::from_secs(1),
        None => timeout,
    };
    let kept = watch.clone();
    let handle = tokio::spawn(async move {
        if let Some(w) = &watch {
            w.before(&reading.reports).await;
        }
        let mut outcome = match tokio::time::timeout(timeout, tools.dispatch(&call, &ctx)).await {
            Ok(outcome) => outcome,
            Err(_) => timed_out(timeout),
        };
        if let Some(w) = &watch {
            w.after(&reading.reports).await;
        }
        if !outcome.images.is_empty() {
            outcome.images = read_result_images(&reading, std::mem::take(&mut outcome.images)).await;
        }
        // The core decides what of it the model gets; the values never
        // leave this task.
        if let Some(exposure) = &exposure {
            let texts = [
                outcome.output.as_str(),
                outcome.error.as_deref().unwrap_or(""),
                outcome.blocked.as_deref().map_or("", String::as_str),
            ];
            outcome.secrets = Some(Box::new(exposure.check(&texts)));
        }
        reading.reports.event(Event::ToolFinished { call_id: call.id, outcome });
    });
    ToolTask { call_id, handle, watch: kept }
}

fn timed_out(timeout: Duration) -> ToolOutcome {
    let secs = timeout.as_secs_f64();
    ToolOutcome {
        status: ToolResultStatus::Error,
        output: String::new(),
        error: Some(format!(
            "timed out after {secs} s and was stopped (with any process it started); try a smaller step"
        )),
        recoverable: true,
        duration_ms: timeout.as_millis() as u64,
        written: None,
        blocked: None,
        images: Vec::new(),
        secrets: None,
    }
}

/// What the core hears when the user cancelled a running call.
pub fn killed() -> ToolOutcome {
    ToolOutcome {
        status: ToolResultStatus::Cancelled,
        output: String::new(),
        error: Some("cancelled by the user".to_owned()),
        recoverable: true,
        duration_ms: 0,
        written: None,
        blocked: None,
        images: Vec::new(),
        secrets: None,
    }
}
