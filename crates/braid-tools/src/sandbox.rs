//! The sandbox `run_command` runs in, by bubblewrap (`bwrap`, which
//! WebKitGTK itself depends on, so it is there wherever Braid runs): the
//! whole file system read-only with homes and secrets hidden (see
//! [`crate::confine`]), the workspace writable (workspace-write), a
//! private `/tmp`, a process namespace of its own (a fresh `/proc`: no
//! other process's environment or memory), no capabilities (root's
//! included: one could remount `/` writable), a limit on processes, and
//! no network (a namespace of its own: not even 127.0.0.1) unless
//! allowed. Mounts and namespaces are set up before the command starts,
//! so every process it starts, to the last grandchild, is held to the
//! same rules.
//!
//! Bubblewrap rather than Landlock: Landlock's rules only add up, so a
//! writable workspace cannot keep its `.git` read-only, and it filters TCP
//! only where a namespace cuts every protocol.

use crate::confine::Confinement;
use braid_protocol::{Sandbox, SandboxLevel};
use std::path::Path;
use std::sync::OnceLock;

const BWRAP: &str = "/usr/bin/bwrap";
const PRLIMIT: &str = "/usr/bin/prlimit";

/// Processes a sandboxed command may have at once (a fork bomb stops
/// here). The kernel counts them per user namespace, so this holds for
/// every user but root, whose count it never limits.
pub const MAX_PROCESSES: u32 = 1024;

/// The arguments that put `program` in the sandbox, or `None` for full
/// access. `workspace` must be absolute.
pub fn wrap(sandbox: &Sandbox, confine: &Confinement, workspace: &Path, program: &[&str]) -> Option<Vec<String>> {
    if sandbox.level == SandboxLevel::FullAccess {
        return None;
    }
    let mut args: Vec<String> =
        ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"].map(str::to_owned).to_vec();
    // After /tmp's tmpfs: a workspace under /tmp is bound over it.
    let writable = sandbox.level == SandboxLevel::WorkspaceWrite;
    args.extend(confine.mounts(workspace, writable, sandbox.git_writable));
    // Its own process ids: the host still sees them, in the process group
    // the ledger and cancel kill, and the namespace's first process takes
    // every other with it when it dies. No new session, so killing the
    // group reaches everything the command started.
    args.extend(
        ["--unshare-pid", "--unshare-ipc", "--unshare-cgroup-try", "--cap-drop", "ALL", "--die-with-parent", "--chdir"]
            .map(str::to_owned),
    );
    args.push(workspace.to_string_lossy().into_owned());
    if !sandbox.network {
        args.push("--unshare-net".to_owned());
    }
    args.push("--".to_owned());
    if Path::new(PRLIMIT).exists() {
        args.extend([PRLIMIT.to_owned(), format!("--nproc={MAX_PROCESSES}"), "--".to_owned()]);
    }
    args.extend(program.iter().map(|p| (*p).to_owned()));
    Some(args)
}

pub fn program() -> &'static str {
    BWRAP
}

/// Whether the sandbox works on this machine (bubblewrap there, and
/// allowed its namespaces), tried once: `None`, or why not.
pub fn unavailable() -> Option<&'static str> {
    static WHY: OnceLock<Option<String>> = OnceLock::new();
    WHY.get_or_init(|| {
        if !Path::new(BWRAP).exists() {
            return Some("bubblewrap (/usr/bin/bwrap) is not installed".to_owned());
        }
        let probe = [
            "--ro-bind",
            "/",
            "/",
            "--dev",
            "/dev",
            "--unshare-pid",
            "--proc",
            "/proc",
            "--tmpfs",
            "/tmp",
            "--remount-ro",
            "/tmp",
            "--cap-drop",
            "ALL",
            "--unshare-net",
            "--",
            "true",
        ];
        match std::process::Command::new(BWRAP).args(probe).output() {
            Ok(o) if o.status.success() => None,
            Ok(o) => {
                Some(format!("bubblewrap cannot make a sandbox here: {}", String::from_utf8_lossy(&o.stderr).trim()))
            }
            Err(e) => Some(format!("bubblewrap did not start: {e}")),
        }
    })
    .as_deref()
}

/// What stopped a command in the sandbox, in words.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Blocked {
    pub reason: String,
    /// It reached for a credential or Braid's own data: running it
    /// outside the sandbox would give the model the secret, so that is
    /// never offered.
    pub secret: bool,
}

/// Why a failed command was most likely stopped by the sandbox, from
/// what it wrote to stderr; `None` when nothing points at it.
pub fn blocked(sandbox: &Sandbox, confine: &Confinement, workspace: &Path, stderr: &str) -> Option<Blocked> {
    let why = |reason: String| Some(Blocked { reason, secret: false });
    if sandbox.level == SandboxLevel::FullAccess {
        return None;
    }
    let lower = stderr.to_ascii_lowercase();
    if lower.contains("read-only file system") {
        let allowed = match sandbox.level {
            SandboxLevel::ReadOnly => "it is read-only: it may write only to /tmp",
            _ if sandbox.git_writable => {
                "it may write only inside the workspace (not its .braid, .mcp.json or .env) and /tmp"
            }
            _ => "it may write only inside the workspace (not its .git, .braid, .mcp.json or .env) and /tmp",
        };
        return why(format!("the sandbox refused a write: {allowed}"));
    }
    // Whatever the error's wording ("No such file", "Directory
    // nonexistent", "Permission denied"), a path the sandbox hides is why.
    let hidden = stderr
        .split(|c: char| c.is_whitespace() || matches!(c, '\'' | '"' | '`' | ':' | ',' | '(' | ')'))
        .filter(|w| w.starts_with('/'))
        .find(|w| confine.hides(workspace, Path::new(w)));
    if let Some(path) = hidden {
        if let Some(reason) = confine.refuses(workspace, Path::new(path)) {
            return Some(Blocked { reason, secret: true });
        }
        return why(format!(
            "the sandbox hides {path}: outside the workspace, home folders, credentials and Braid's own data \
             are hidden from commands (settings.json's sandbox.allow lets a path in)"
        ));
    }
    let network = [
        "network is unreachable",
        "connection refused",
        "couldn't connect to server",
        "could not resolve",
        "temporary failure in name resolution",
        "name or service not known",
    ];
    if !sandbox.network && network.iter().any(|n| lower.contains(n)) {
        return why("the sandbox has no network: this conversation does not allow it".to_owned());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_arguments_bind_the_workspace_over_tmp_keep_git_and_cut_the_network() {
        let dir = std::env::temp_dir().join(format!("braid-sandbox-args-{}", std::process::id()));
        std::fs::create_dir_all(dir.join(".git")).ok();
        let ws = dir.to_string_lossy().into_owned();
        let c = Confinement::default();
        let args = wrap(&Sandbox::default(), &c, &dir, &["sh", "-c", "true"]).unwrap_or_default();
        let at = |a: &str| args.iter().position(|x| x == a);
        assert!(at("/tmp") < at(&ws), "the workspace is bound after /tmp's tmpfs: {args:?}");
        assert!(args.windows(3).any(|w| w == ["--bind", ws.as_str(), ws.as_str()]));
        assert!(args.iter().any(|a| a.ends_with("/.git")));
        assert!(args.contains(&"--unshare-net".to_owned()));
        assert_eq!(args[args.len() - 3..], ["sh", "-c", "true"]);
        assert!(args.windows(2).any(|w| w == ["--cap-drop", "ALL"]) && args.contains(&"--unshare-pid".to_owned()));

        let open = Sandbox { network: true, git_writable: true, ..Sandbox::default() };
        let args = wrap(&open, &c, &dir, &["true"]).unwrap_or_default();
        assert!(!args.contains(&"--unshare-net".to_owned()) && !args.iter().any(|a| a.ends_with("/.git")));
        let read_only = Sandbox { level: SandboxLevel::ReadOnly, ..Sandbox::default() };
        let args = wrap(&read_only, &c, &dir, &["true"]).unwrap_or_default();
        assert!(args.windows(3).any(|w| w == ["--ro-bind", ws.as_str(), ws.as_str()]));
        assert_eq!(wrap(&Sandbox { level: SandboxLevel::FullAccess, ..Sandbox::default() }, &c, &dir, &["true"]), None);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_refused_write_or_connection_is_named_as_the_sandbox() {
        let ws = Sandbox::default();
        let (c, w) = (Confinement::default(), Path::new("/w"));
        let blocked = |s: &Sandbox, e: &str| blocked(s, &c, w, e).map(|b| b.reason);
        let why = blocked(&ws, "touch: cannot touch '/etc/x': Read-only file system").unwrap_or_default();
        assert!(why.contains("only inside the workspace (not its .git, .braid"), "{why}");
        let why =
            blocked(&ws, "curl: (7) Failed to connect to 127.0.0.1 port 80: Connection refused").unwrap_or_default();
        assert!(why.contains("no network"), "{why}");
        assert_eq!(blocked(&Sandbox { network: true, ..ws }, "Connection refused"), None);
        assert_eq!(blocked(&ws, "error: no such file"), None);
        let why = blocked(&ws, "cat: /root/.ssh/id_rsa: No such file or directory").unwrap_or_default();
        assert!(why.starts_with("the sandbox hides /root/.ssh/id_rsa"), "{why}");
        assert_eq!(blocked(&ws, "cat: /w/notes.txt: No such file or directory"), None, "the workspace is seen");
        assert_eq!(blocked(&Sandbox { level: SandboxLevel::FullAccess, ..ws }, "Read-only file system"), None);
    }

    #[test]
    fn a_command_stopped_at_a_credential_is_not_offered_to_leave_the_sandbox() {
        let home = std::env::temp_dir().join(format!("braid-sandbox-home-{}", std::process::id()));
        std::fs::create_dir_all(home.join(".ssh")).ok();
        let c = Confinement::new(Some(&home), &[], &braid_protocol::SandboxPaths::default());
        let key = home.join(".ssh/id_rsa").display().to_string();
        let b = blocked(&Sandbox::default(), &c, &home, &format!("cat: {key}: No such file or directory"));
        let b = b.unwrap_or_default();
        assert!(b.secret && b.reason.starts_with("the sandbox hides"), "{b:?}");
        let other = blocked(&Sandbox::default(), &c, &home, "cat: /home/bob/notes: No such file or directory");
        assert!(other.is_some_and(|b| !b.secret), "another's home may be let in for one command");
        std::fs::remove_dir_all(&home).ok();
    }
}
