//! Team members' coding CLIs as processes: where the program is, whether
//! it is signed in (asked of the CLI itself where it can say, offline), and
//! a run in the workspace with the prompt on stdin (no argument-length
//! limit) whose whole process group dies with it.

use crate::command::{spawn_shell, GroupGuard};
use braid_protocol::{AgentType, MemberCheck, TeamMember};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

/// A sign-in check that takes longer than this counts as failed.
const CHECK_TIMEOUT: Duration = Duration::from_secs(15);

/// The program and arguments a member's run starts with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentCommand {
    pub program: PathBuf,
    pub args: Vec<String>,
}

/// The command for one turn: each CLI's non-interactive streaming mode,
/// reading the prompt from stdin. Claude takes the system text apart.
pub fn command_for(member: &TeamMember, system: Option<&str>) -> Result<AgentCommand, String> {
    let program = program_of(member)?;
    let args: Vec<&str> = match member.agent {
        AgentType::ClaudeCode => {
            let mut args = vec!["-p", "--output-format", "stream-json", "--verbose"];
            if let Some(system) = system {
                args.extend(["--append-system-prompt", system]);
            }
            args
        }
        AgentType::OpenaiCodex => vec!["exec", "--json", "--skip-git-repo-check", "-"],
        // `-p ""` with stdin: Gemini puts stdin's text before the (empty)
        // prompt; `--skip-trust`: it refuses untrusted folders headless.
        AgentType::GoogleGemini => vec!["--skip-trust", "--output-format", "stream-json", "-p", ""],
        AgentType::Other { .. } => Vec::new(),
        AgentType::Api { .. } => return Err(format!("{} answers through its provider", member.name)),
    };
    Ok(AgentCommand { program, args: args.into_iter().map(str::to_owned).collect() })
}

/// The member's program: its own path or name, else the CLI's usual
/// name, found on PATH.
fn program_of(member: &TeamMember) -> Result<PathBuf, String> {
    let name = match (&member.program, member.agent.default_program()) {
        (Some(p), _) if !p.trim().is_empty() => p.trim().to_owned(),
        (_, Some(default)) => default.to_owned(),
        _ => {
            return Err(format!(
                "{} is of type {:?}, which needs the program to run (the prompt goes to its stdin)",
                member.name,
                member.agent.label()
            ))
        }
    };
    find_program(&name).ok_or_else(|| match package_of(&member.agent) {
        Some(package) => {
            format!("`{name}` is not installed (npm install -g {package}), or give the member its program")
        }
        None => format!("`{name}` was not found"),
    })
}

fn package_of(agent: &AgentType) -> Option<&'static str> {
    match agent {
        AgentType::ClaudeCode => Some("@anthropic-ai/claude-code"),
        AgentType::OpenaiCodex => Some("@openai/codex"),
        AgentType::GoogleGemini => Some("@google/gemini-cli"),
        AgentType::Api { .. } | AgentType::Other { .. } => None,
    }
}

/// A path (absolute, or with a slash) as it is; a bare name on PATH.
pub fn find_program(name: &str) -> Option<PathBuf> {
    let path = Path::new(name);
    if name.contains('/') {
        return is_executable(path).then(|| path.to_path_buf());
    }
    let dirs = std::env::var_os("PATH")?;
    std::env::split_paths(&dirs).map(|d| d.join(name)).find(|p| is_executable(p))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Whether a member can answer in `workspace`: API members always can
/// here (their provider is looked up by the runtime); a CLI must be
/// installed and signed in.
pub async fn check(member: &TeamMember, workspace: &Path) -> MemberCheck {
    let name = member.name.clone();
    if let AgentType::Api { .. } = member.agent {
        return MemberCheck { name, ready: true, problem: None, program: None };
    }
    let program = match program_of(member) {
        Ok(p) => p,
        Err(problem) => {
            let problem = format!("{}: {problem}", member.name);
            return MemberCheck { name, ready: false, problem: Some(problem), program: None };
        }
    };
    let problem = signed_in(&member.agent, &program, workspace).await.err().map(|p| format!("{}: {p}", member.name));
    MemberCheck { name, ready: problem.is_none(), problem, program: Some(program.display().to_string()) }
}

/// Asks the CLI (`claude auth status`, `codex login status`; Gemini has
/// no such command, so what it reads is: its environment variables, the
/// `.gemini/.env` files it loads from the workspace and the home folder,
/// and the sign-in its settings chose).
async fn signed_in(agent: &AgentType, program: &Path, workspace: &Path) -> Result<(), String> {
    let env = |k: &str| std::env::var_os(k).is_some_and(|v| !v.is_empty());
    match agent {
        // It answers JSON (`"loggedIn": false`): its exit status says.
        AgentType::ClaudeCode => status(program, &["auth", "status"])
            .await
            .map_err(|_| "Claude Code is not signed in: run `claude` and /login, or set ANTHROPIC_API_KEY".to_owned()),
        AgentType::OpenaiCodex if env("CODEX_API_KEY") => Ok(()),
        AgentType::OpenaiCodex => status(program, &["login", "status"])
            .await
            .map_err(|why| format!("Codex is not signed in ({why}): run `codex login`, or set CODEX_API_KEY")),
        AgentType::GoogleGemini => {
            if GEMINI_KEYS.iter().any(|k| env(k)) || gemini_signed_in(workspace) {
                Ok(())
            } else {
                Err("Gemini CLI is not signed in: run `gemini` once to choose how to sign in, or set GEMINI_API_KEY"
                    .to_owned())
            }
        }
        AgentType::Other { .. } | AgentType::Api { .. } => Ok(()),
    }
}

const GEMINI_KEYS: [&str; 4] =
    ["GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_GENAI_USE_GCA"];

fn gemini_signed_in(workspace: &Path) -> bool {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let dirs: Vec<PathBuf> =
        std::iter::once(workspace.join(".gemini")).chain(home.map(|h| h.join(".gemini"))).collect();
    dirs.iter().any(|dir| {
        let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap_or_default();
        let dotenv = read(".env");
        let key_set = dotenv.lines().any(|l| {
            let l = l.trim_start().trim_start_matches("export ");
            GEMINI_KEYS
                .iter()
                .any(|k| l.strip_prefix(k).and_then(|r| r.strip_prefix('=')).is_some_and(|v| !v.trim().is_empty()))
        });
        let settings = read("settings.json");
        key_set
            || settings.contains("selectedType")
            || settings.contains("selectedAuthType")
            || dir.join("oauth_creds.json").exists()
    })
}

/// Runs a status command: its exit status says, its output tells why not.
async fn status(program: &Path, args: &[&str]) -> Result<(), String> {
    let run = tokio::process::Command::new(program).args(args).stdin(Stdio::null()).kill_on_drop(true).output();
    match tokio::time::timeout(CHECK_TIMEOUT, run).await {
        Err(_) => Err(format!("`{}` took over {} s", args.join(" "), CHECK_TIMEOUT.as_secs())),
        Ok(Err(e)) => Err(format!("could not run it: {e}")),
        Ok(Ok(out)) if out.status.success() => Ok(()),
        Ok(Ok(out)) => {
            let said = String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
            let line = said.lines().map(str::trim).rfind(|l| !l.is_empty() && !l.starts_with("WARNING")).unwrap_or("");
            Err(if line.is_empty() { "it says not".to_owned() } else { line.chars().take(200).collect() })
        }
    }
}

/// A running member: its output, and its process group, killed when this
/// is dropped (a cancel drops the task holding it).
pub struct AgentChild {
    pub child: tokio::process::Child,
    pub stdout: Option<tokio::process::ChildStdout>,
    pub stderr: Option<tokio::process::ChildStderr>,
    _group: GroupGuard,
}

/// Starts the run in `workdir`, the prompt written to its stdin.
pub fn spawn(command: &AgentCommand, workdir: &Path, prompt: String) -> std::io::Result<AgentChild> {
    use tokio::io::AsyncWriteExt;
    let argv: Vec<String> =
        std::iter::once(command.program.display().to_string()).chain(command.args.iter().cloned()).collect();
    let mut child = spawn_shell(&argv)
        // The CLI signs in with its own keys from the environment; the
        // headless server's token is not for it.
        .env_remove("BRAID_SERVER_TOKEN")
        .current_dir(workdir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true)
        .spawn()?;
    let pid = child.id().and_then(|id| rustix::process::Pid::from_raw(id as i32));
    let group = GroupGuard { pid, _record: None };
    let (stdout, stderr) = (child.stdout.take(), child.stderr.take());
    if let Some(mut stdin) = child.stdin.take() {
        // Written beside the run: a long prompt fills the pipe before the
        // CLI starts reading.
        tokio::spawn(async move {
            let _ = stdin.write_all(prompt.as_bytes()).await;
            let _ = stdin.shutdown().await;
        });
    }
    Ok(AgentChild { child, stdout, stderr, _group: group })
}
