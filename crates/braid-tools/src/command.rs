//! `run_command`: `sh -c` in the conversation's working directory (fixed:
//! a `cd` lasts for that call only), in its own process group so that
//! cancelling kills the command and everything it started — and so that
//! the whole group dies with Braid, even when Braid is killed outright
//! (see [`spawn_shell`]); inside the conversation's sandbox (see
//! [`crate::sandbox`]).

use crate::input::{parse, schema_of, RunCommandInput};
use crate::output::read_capped;
use crate::{failure, sandbox, Tool, ToolContext};
use braid_core::machine::ToolOutcome;
use braid_protocol::{Permission, Sandbox, SandboxLevel, ToolResultStatus, ToolSandbox};
use futures::future::BoxFuture;
use futures::FutureExt;
use serde_json::{json, Value};
use std::process::Stdio;

/// Per stream; the head and the tail are kept.
const MAX_STREAM: usize = 30 * 1024;

/// Kills the whole process group when dropped: on cancel (the future is
/// dropped), on timeout, and after a normal exit (children left running in
/// the background would outlive the call otherwise).
/// Its record in the ledger goes after the kill (the field drops last).
pub(crate) struct GroupGuard {
    pub(crate) pid: Option<rustix::process::Pid>,
    pub(crate) _record: Option<crate::ledger::Recorded>,
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        if let Some(pid) = self.pid {
            // Already gone is fine.
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        }
    }
}

/// The group leader is a small shell that runs the command and, told by
/// the kernel that Braid died (`setpriv --pdeathsig TERM`, Linux's
/// PR_SET_PDEATHSIG, which needs no unsafe code this way), kills its whole
/// process group. Where `setpriv` is missing, the program straight (cancel
/// and timeouts still kill the group; a crash does not). `program` is
/// `sh -c command`, inside the sandbox unless it has full access, or a
/// team member's CLI. Its stdin is passed on (kept on fd 3 first: an
/// asynchronous list's stdin is /dev/null before its own redirections).
pub(crate) fn spawn_shell(program: &[String]) -> tokio::process::Command {
    const LEADER: &str = r#"trap 'kill -KILL 0' TERM; exec 3<&0; "$@" <&3 3<&- & exec 3<&-; wait $!"#;
    match which_setpriv() {
        Some(setpriv) => {
            let mut c = tokio::process::Command::new(setpriv);
            c.args(["--pdeathsig", "TERM", "--", "sh", "-c", LEADER, "braid-command"]).args(program);
            c
        }
        None => {
            let mut c = tokio::process::Command::new(&program[0]);
            c.args(&program[1..]);
            c
        }
    }
}

/// `sh -c command`, in the conversation's sandbox. Where this machine has
/// none the command runs as it is: the catalogue says so
/// ([`ToolSandbox::Missing`]), and the core then asks the user for every
/// call (never a silent full-access run).
fn program(command: &str, ctx: &ToolContext) -> Vec<String> {
    let shell = ["sh", "-c", command];
    match sandbox::wrap(&ctx.sandbox, &ctx.confine, &ctx.workspace, &shell) {
        Some(args) if sandbox::unavailable().is_none() => {
            std::iter::once(sandbox::program().to_owned()).chain(args).collect()
        }
        _ => shell.map(str::to_owned).to_vec(),
    }
}

/// The sandbox a command ran in, in words (first line of its result).
fn described(s: &Sandbox) -> String {
    if let (Some(why), false) = (sandbox::unavailable(), s.level == SandboxLevel::FullAccess) {
        return format!("sandbox: none, approved by the user (this machine has none: {why})");
    }
    let level = match s.level {
        SandboxLevel::ReadOnly => "read-only",
        SandboxLevel::WorkspaceWrite if s.git_writable => "workspace-write (.git writable)",
        SandboxLevel::WorkspaceWrite => "workspace-write",
        SandboxLevel::FullAccess => return "sandbox: none (full access)".to_owned(),
    };
    format!("sandbox: {level}, network {}", if s.network { "allowed" } else { "off" })
}

pub(crate) fn which_setpriv() -> Option<&'static str> {
    ["/usr/bin/setpriv", "/bin/setpriv"].into_iter().find(|p| std::path::Path::new(p).exists())
}

pub struct RunCommand;
impl Tool for RunCommand {
    fn name(&self) -> &str {
        "run_command"
    }
    fn description(&self) -> &str {
        "Run a shell command (sh -c) in the workspace directory and return its exit code, stdout and stderr. Each call starts in the workspace: cd does not carry over. Long output is cut in the middle."
    }
    fn input_schema(&self) -> Value {
        schema_of::<RunCommandInput>()
    }
    fn permission(&self) -> Permission {
        Permission::Execute
    }
    fn examples(&self) -> Vec<Value> {
        vec![json!({"command":"cargo test -q"}), json!({"command":"git status --short"})]
    }
    fn sandbox(&self) -> ToolSandbox {
        match sandbox::unavailable() {
            None => ToolSandbox::Applied,
            Some(why) => ToolSandbox::Missing { why: why.to_owned() },
        }
    }
    fn run<'a>(&'a self, args: Value, ctx: &'a ToolContext) -> BoxFuture<'a, ToolOutcome> {
        async move {
            let command = match parse::<RunCommandInput>(args) {
                Ok(c) if !c.command.trim().is_empty() => c.command,
                Ok(_) => return failure("the command is empty"),
                Err(e) => return e,
            };
            let program = program(&command, ctx);
            let mut shell = spawn_shell(&program);
            // Keys in Braid's environment stay with Braid, and the
            // headless server's token would let a command call Braid
            // itself (approve its own calls): never passed on.
            for name in ctx.confine.withheld_env() {
                shell.env_remove(name);
            }
            let spawned = shell
                .env_remove("BRAID_SERVER_TOKEN")
                .current_dir(&ctx.workspace)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .process_group(0)
                .kill_on_drop(true)
                .spawn();
            let mut child = match spawned {
                Ok(c) => c,
                Err(e) => return failure(format!("could not start sh: {e}")),
            };
            let pid = child.id().and_then(|id| rustix::process::Pid::from_raw(id as i32));
            let recorded = pid.zip(ctx.ledger.as_ref()).map(|(p, l)| l.record(p.as_raw_nonzero().get()));
            let _group = GroupGuard { pid, _record: recorded };
            let (mut out, mut err) = (child.stdout.take(), child.stderr.take());
            // Read to the end (the command is not blocked on a full pipe)
            // keeping only what goes back to the model.
            let read_out = async {
                match out.as_mut() {
                    Some(s) => read_capped(s, MAX_STREAM).await,
                    None => String::new(),
                }
            };
            let read_err = async {
                match err.as_mut() {
                    Some(s) => read_capped(s, MAX_STREAM).await,
                    None => String::new(),
                }
            };
            let (status, stdout, stderr) = tokio::join!(child.wait(), read_out, read_err);
            let code = match status {
                Ok(s) => s.code(),
                Err(e) => return failure(format!("waiting for the command failed: {e}")),
            };
            let exit = code.map_or_else(|| "killed by a signal".to_owned(), |c| c.to_string());
            let mut output = format!("{}\nexit code: {exit}\n", described(&ctx.sandbox));
            if !stdout.is_empty() {
                output.push_str(&format!("stdout:\n{stdout}\n"));
            }
            if !stderr.is_empty() {
                output.push_str(&format!("stderr:\n{stderr}\n"));
            }
            let ok = code == Some(0);
            let sandboxed = sandbox::unavailable().is_none();
            let blocked = if ok || !sandboxed {
                None
            } else {
                sandbox::blocked(&ctx.sandbox, &ctx.confine, &ctx.workspace, &stderr)
            };
            let error = match &blocked {
                Some(b) if b.secret => format!(
                    "the command exited with {exit}; blocked by the sandbox: {} — it is not run outside the \
                     sandbox, which would hand the secret to the model",
                    b.reason
                ),
                Some(b) => format!("the command exited with {exit}; blocked by the sandbox: {}", b.reason),
                None => format!("the command exited with {exit}"),
            };
            ToolOutcome {
                status: if ok { ToolResultStatus::Success } else { ToolResultStatus::Error },
                error: (!ok).then_some(error),
                output,
                recoverable: true,
                duration_ms: 0,
                written: None,
                // Only what leaving the sandbox would help is offered.
                blocked: blocked.filter(|b| !b.secret).map(|b| Box::new(b.reason)),
                images: Vec::new(),
                secrets: None,
            }
        }
        .boxed()
    }
}
