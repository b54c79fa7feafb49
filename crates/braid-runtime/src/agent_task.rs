//! One team member's turn as a coding CLI: the process runs in the
//! workspace, its streamed JSON is read by the core's reader for its type,
//! and the context hears it as it hears an LLM request (started, deltas,
//! completed or failed). A member marked isolated runs in its own copy of
//! the workspace, merged back when its turn ends well (kept otherwise,
//! when it holds changes). Aborting the task drops the process handle, which
//! kills its whole process group; a stop signal kills it and keeps what
//! was shown.

use crate::checkpoints::{Checkpoints, Watch};
use crate::isolation::Isolation;
use crate::llm_task::LlmTask;
use crate::report::Reports;
use braid_core::llm::{LlmFailure, LlmResponse, StopReason};
use braid_core::machine::Event;
use braid_core::team::streams::AgentStream;
use braid_protocol::{FailureCode, Notice, NoticeCode, RequestId, TeamMember};
use braid_tools::agents;
use std::path::PathBuf;
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};
use tokio::sync::oneshot;

/// Kept of a run's stderr, for the reason it failed.
const STDERR_KEPT: u64 = 64 * 1024;

/// A member's run, as the machine asked for it.
pub struct AgentRun {
    pub request_id: RequestId,
    pub member: TeamMember,
    pub system: Option<String>,
    pub prompt: String,
    pub workdir: PathBuf,
    /// Where its own copy of the workspace goes, when it works in one.
    pub copy: Option<CopyPlace>,
}

/// A copy of `workdir` to make for the run (`isolation.rs`): in `dir`,
/// named `name`; merged back when the run ends well.
pub struct CopyPlace {
    pub checkpoints: Arc<Checkpoints>,
    pub dir: PathBuf,
    pub name: String,
}

/// `watch`: the workspace is checkpointed around the run (the CLI's
/// edits are the model's), and the run's end is told after that.
pub fn spawn(mut run: AgentRun, reports: Reports, watch: Option<Watch>) -> LlmTask {
    let (stop_tx, stop_rx) = oneshot::channel();
    let request_id = run.request_id;
    let handle = tokio::spawn(async move {
        if let Some(w) = &watch {
            w.before(&reports).await;
        }
        let copy = isolate(&mut run, &reports).await;
        let who = run.member.name.clone();
        let end = drive(run, &reports, stop_rx).await;
        // What came back is the run's change: merged before the look after.
        if let Some(copy) = copy {
            let back = copy.end(matches!(end, Event::LlmCompleted { .. })).await;
            let text = braid_core::subagents::copy_report(&back);
            reports.notice(Notice::new(NoticeCode::WorkspaceCopy, format!("{who}: {text}")));
        }
        if let Some(w) = &watch {
            w.after(&reports).await;
        }
        reports.event(end);
    });
    LlmTask { request_id, handle, stop: Some(stop_tx) }
}

/// The run's own copy, made now; the run goes there. Without one (it
/// could not be made) the run works in the folder, and says so.
async fn isolate(run: &mut AgentRun, reports: &Reports) -> Option<Isolation> {
    let place = run.copy.take()?;
    match Isolation::make(&place.checkpoints, &run.workdir, &place.dir, &place.name).await {
        Ok(copy) => {
            run.workdir = copy.root.clone();
            Some(copy)
        }
        Err(e) => {
            let text = format!("{}: its copy could not be made ({e}); it works in the folder", run.member.name);
            reports.notice(Notice::new(NoticeCode::WorkspaceCopy, text));
            None
        }
    }
}

/// Runs the CLI; answers with the event that ends the request.
async fn drive(run: AgentRun, reports: &Reports, mut stop: oneshot::Receiver<()>) -> Event {
    let request_id = run.request_id;
    let send = |event: Event| {
        reports.event(event);
    };
    let fail = |why: String| {
        let failure = LlmFailure::fatal(FailureCode::AgentFailed, why);
        Event::LlmFailed { request_id, failure }
    };
    let who = format!("{} ({})", run.member.name, run.member.agent.label());
    let (Some(mut stream), Ok(command)) =
        (AgentStream::new(&run.member.agent), agents::command_for(&run.member, run.system.as_deref()))
    else {
        let why = agents::command_for(&run.member, None).err().unwrap_or_else(|| "it is not a CLI".to_owned());
        return fail(format!("{who} could not run: {why}"));
    };
    send(Event::LlmRequestStarted { request_id });
    let mut child = match agents::spawn(&command, &run.workdir, run.prompt) {
        Ok(child) => child,
        Err(e) => return fail(format!("{who} could not start {}: {e}", command.program.display())),
    };
    send(Event::LlmConnected { request_id });
    let stderr = child.stderr.take();
    let errors = tokio::spawn(async move {
        let mut text = String::new();
        if let Some(err) = stderr {
            let _ = err.take(STDERR_KEPT).read_to_string(&mut text).await;
        }
        text
    });
    let Some(stdout) = child.stdout.take() else {
        return fail(format!("{who} gave no output to read"));
    };
    let mut lines = BufReader::new(stdout).lines();
    loop {
        let line = tokio::select! {
            biased;
            _ = &mut stop => {
                drop(child);
                let response = LlmResponse {
                    text: stream.shown().to_owned(),
                    stop_reason: StopReason::Interrupted,
                    ..LlmResponse::default()
                };
                return Event::LlmCompleted { request_id, response };
            }
            line = lines.next_line() => line,
        };
        match line {
            Ok(Some(line)) => {
                if let Some(text) = stream.line(&line) {
                    send(Event::LlmDelta { request_id, text });
                }
            }
            Ok(None) | Err(_) => break,
        }
    }
    let exit_ok = child.child.wait().await.is_ok_and(|s| s.success());
    let stderr = errors.await.unwrap_or_default();
    let usage = stream.usage();
    match stream.finish(exit_ok, &stderr) {
        Ok(text) => {
            let response = LlmResponse { text, usage, stop_reason: StopReason::EndTurn, ..LlmResponse::default() };
            Event::LlmCompleted { request_id, response }
        }
        Err(why) => fail(format!("{who} failed: {why}")),
    }
}
