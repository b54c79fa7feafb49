//! The sandbox `run_command` runs in, by bubblewrap (`bwrap`, which
//! WebKitGTK itself depends on, so it is there wherever Braid runs): the
//! whole file system read-only, the workspace writable (workspace-write;
//! its `.git` read-only unless allowed), a private `/tmp`, and no network
//! (a namespace of its own: not even 127.0.0.1) unless allowed. Mounts and
//! namespaces are set up before the command starts, so every process it
//! starts, to the last grandchild, is held to the same rules.
//!
//! Bubblewrap rather than Landlock: Landlock's rules only add up, so a
//! writable workspace cannot keep its `.git` read-only, and it filters TCP
//! only where a namespace cuts every protocol.

use braid_protocol::{Sandbox, SandboxLevel};
use std::path::Path;
use std::sync::OnceLock;

const BWRAP: &str = "/usr/bin/bwrap";

/// The arguments that put `program` in the sandbox, or `None` for full
/// access. `workspace` must be absolute.
pub fn wrap(sandbox: &Sandbox, workspace: &Path, program: &[&str]) -> Option<Vec<String>> {
    if sandbox.level == SandboxLevel::FullAccess {
        return None;
    }
    let ws = workspace.to_string_lossy().into_owned();
    let mut args: Vec<String> =
        ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"].map(str::to_owned).to_vec();
    // After /tmp's tmpfs: a workspace under /tmp is bound over it.
    let bind = if sandbox.level == SandboxLevel::WorkspaceWrite { "--bind" } else { "--ro-bind" };
    args.extend([bind.to_owned(), ws.clone(), ws.clone()]);
    let git = workspace.join(".git");
    if sandbox.level == SandboxLevel::WorkspaceWrite && !sandbox.git_writable && git.exists() {
        let git = git.to_string_lossy().into_owned();
        args.extend(["--ro-bind".to_owned(), git.clone(), git]);
    }
    // The host's process ids (no pid namespace: the ledger and cancel
    // kill by them) and no new session, so killing the process group
    // reaches everything the command started.
    args.extend(["--die-with-parent", "--chdir"].map(str::to_owned));
    args.push(ws);
    if !sandbox.network {
        args.push("--unshare-net".to_owned());
    }
    args.push("--".to_owned());
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
        let probe = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-net", "--", "true"];
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

/// Why a failed command was most likely stopped by the sandbox, from
/// what it wrote to stderr; `None` when nothing points at it.
pub fn blocked(sandbox: &Sandbox, stderr: &str) -> Option<String> {
    if sandbox.level == SandboxLevel::FullAccess {
        return None;
    }
    let lower = stderr.to_ascii_lowercase();
    if lower.contains("read-only file system") {
        let allowed = match sandbox.level {
            SandboxLevel::ReadOnly => "it is read-only: it may write only to /tmp",
            _ if sandbox.git_writable => "it may write only inside the workspace and /tmp",
            _ => "it may write only inside the workspace (not its .git) and /tmp",
        };
        return Some(format!("the sandbox refused a write: {allowed}"));
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
        return Some("the sandbox has no network: this conversation does not allow it".to_owned());
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
        let args = wrap(&Sandbox::default(), &dir, &["sh", "-c", "true"]).unwrap_or_default();
        let at = |a: &str| args.iter().position(|x| x == a);
        assert!(at("/tmp") < at(&ws), "the workspace is bound after /tmp's tmpfs: {args:?}");
        assert!(args.windows(3).any(|w| w == ["--bind", ws.as_str(), ws.as_str()]));
        assert!(args.iter().any(|a| a.ends_with("/.git")));
        assert!(args.contains(&"--unshare-net".to_owned()));
        assert_eq!(args[args.len() - 4..], ["--", "sh", "-c", "true"]);

        let open = Sandbox { network: true, git_writable: true, ..Sandbox::default() };
        let args = wrap(&open, &dir, &["true"]).unwrap_or_default();
        assert!(!args.contains(&"--unshare-net".to_owned()) && !args.iter().any(|a| a.ends_with("/.git")));
        let read_only = Sandbox { level: SandboxLevel::ReadOnly, ..Sandbox::default() };
        let args = wrap(&read_only, &dir, &["true"]).unwrap_or_default();
        assert!(args.windows(3).any(|w| w == ["--ro-bind", ws.as_str(), ws.as_str()]));
        assert_eq!(wrap(&Sandbox { level: SandboxLevel::FullAccess, ..Sandbox::default() }, &dir, &["true"]), None);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_refused_write_or_connection_is_named_as_the_sandbox() {
        let ws = Sandbox::default();
        let why = blocked(&ws, "touch: cannot touch '/etc/x': Read-only file system").unwrap_or_default();
        assert!(why.contains("only inside the workspace (not its .git)"), "{why}");
        let why =
            blocked(&ws, "curl: (7) Failed to connect to 127.0.0.1 port 80: Connection refused").unwrap_or_default();
        assert!(why.contains("no network"), "{why}");
        assert_eq!(blocked(&Sandbox { network: true, ..ws }, "Connection refused"), None);
        assert_eq!(blocked(&ws, "error: no such file"), None);
        assert_eq!(blocked(&Sandbox { level: SandboxLevel::FullAccess, ..ws }, "Read-only file system"), None);
    }
}
