//! What a sandboxed command may see. The file system is read-only, but
//! reading is not harmless: a command's output goes to the model, so a
//! key it can read is a key the model provider can receive. Homes (the
//! user's and everyone else's) and the session's runtime folder (its
//! D-Bus socket reaches the keyring) are hidden whole; the toolchains a
//! command needs are let back in read-only; credentials and Braid's own
//! data are hidden wherever they would otherwise show, even inside the
//! workspace. In a writable workspace its `.git`, `.braid`, `.mcp.json`
//! and `.env` stay read-only unless allowed: they change what Braid, git
//! or the next command does.

use braid_protocol::SandboxPaths;
use std::path::{Path, PathBuf};

/// Hidden whole: everybody's home, and the session's runtime folder.
const PRIVATE_ROOTS: &[&str] = &["/home", "/root", "/run/user"];

/// In a home: what commands need to find the user's tools. Read-only.
const TOOLCHAINS: &[&str] = &[
    ".cargo",
    ".rustup",
    ".pyenv",
    ".nvm",
    ".volta",
    ".bun",
    ".deno",
    ".sdkman",
    "go",
    ".local/bin",
    ".local/lib",
    ".gitconfig",
    ".config/git",
];

/// In a home: credentials, keyrings, browser profiles and Braid's own
/// folders. Hidden even where the rest is visible (a workspace that is
/// the home, or a toolchain folder that holds a token).
const SECRETS: &[&str] = &[
    ".ssh",
    ".gnupg",
    ".aws",
    ".azure",
    ".kube",
    ".docker",
    ".netrc",
    ".git-credentials",
    ".npmrc",
    ".pypirc",
    ".cargo/credentials",
    ".cargo/credentials.toml",
    ".config/gcloud",
    ".config/gh",
    ".config/hub",
    ".local/share/keyrings",
    ".password-store",
    ".mozilla",
    ".thunderbird",
    ".config/google-chrome",
    ".config/chromium",
    ".config/BraveSoftware",
    ".local/share/braid",
    ".config/braid",
    ".local/share/dev.braid.app",
    ".config/dev.braid.app",
];

/// In the workspace: read-only even when it is writable (`.git` has its
/// own switch, [`braid_protocol::Sandbox::git_writable`]).
const PROTECTED: &[&str] = &[".braid", ".mcp.json", ".env"];

/// The paths side of the sandbox, worked out once at start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confinement {
    roots: Vec<PathBuf>,
    allowed: Vec<PathBuf>,
    hidden: Vec<PathBuf>,
    protected: Vec<String>,
    /// Variables kept although named like secrets (`sandbox.env`).
    kept_env: Vec<String>,
}

impl Default for Confinement {
    /// For this process's home, with nothing of Braid's own to add.
    fn default() -> Confinement {
        let home = std::env::var_os("HOME").map(PathBuf::from);
        Confinement::new(home.as_deref(), &[], &SandboxPaths::default())
    }
}

impl Confinement {
    /// `braid` holds Braid's own folders (data, settings), hidden wherever
    /// they are; `paths` the user's additions from the settings.
    pub fn new(home: Option<&Path>, braid: &[PathBuf], paths: &SandboxPaths) -> Confinement {
        let home = home.map(real);
        let expand = |p: &str| match (p.strip_prefix("~/"), &home) {
            (Some(rest), Some(h)) => Some(h.join(rest)),
            _ if p.starts_with('/') => Some(PathBuf::from(p)),
            _ => None,
        };
        let in_home =
            |list: &[&str]| -> Vec<PathBuf> { home.iter().flat_map(|h| list.iter().map(move |p| h.join(p))).collect() };
        let mut roots: Vec<PathBuf> = PRIVATE_ROOTS.iter().map(PathBuf::from).collect();
        roots.extend(home.clone());
        let allowed = in_home(TOOLCHAINS).into_iter().chain(paths.allow.iter().filter_map(|p| expand(p)));
        let hidden = in_home(SECRETS)
            .into_iter()
            .chain(braid.iter().cloned())
            .chain(paths.hide.iter().filter_map(|p| expand(p)));
        // A bare name in `allow` (".env") lifts that name's protection.
        let lifted: Vec<&String> = paths.allow.iter().filter(|p| !p.contains('/')).collect();
        Confinement {
            roots: existing(roots),
            allowed: existing(allowed.collect()),
            hidden: existing(hidden.collect()),
            protected: PROTECTED.iter().map(|p| (*p).to_owned()).filter(|p| !lifted.contains(&p)).collect(),
            kept_env: paths.env.clone(),
        }
    }

    /// The variables of Braid's own environment a command must not
    /// inherit: those named like secrets (`GITHUB_TOKEN`, `AWS_SECRET_…`)
    /// that the user did not keep. A command needing one gets it from the
    /// model's placeholder, revealed at execution, or from the settings.
    pub fn withheld_env(&self) -> Vec<std::ffi::OsString> {
        std::env::vars_os()
            .map(|(name, _)| name)
            .filter(|n| {
                n.to_str().is_none_or(|n| braid_core::secrets::secret_name(n) && !self.kept_env.iter().any(|k| k == n))
            })
            .collect()
    }

    /// Why the file tools and `@file` refuse `path` (absolute, real) in
    /// `workspace`: it is a credential or Braid's own data, which commands
    /// never see either (the workspace being the home folder or above
    /// does not open them). In the sandbox's words; `None` otherwise.
    pub fn refuses(&self, workspace: &Path, path: &Path) -> Option<String> {
        let hidden = self.hidden.iter().any(|h| path.starts_with(h) && !workspace.starts_with(h));
        hidden.then(|| {
            format!(
                "the sandbox hides {}: credentials and Braid's own data are kept from commands and from the model \
                 (settings.json's sandbox.allow lets a path in)",
                path.display()
            )
        })
    }

    /// Whether a command cannot see `path` (absolute) in `workspace`.
    pub fn hides(&self, workspace: &Path, path: &Path) -> bool {
        if self.refuses(workspace, path).is_some() {
            return true;
        }
        let under_root = self.roots.iter().any(|r| path.starts_with(r));
        under_root && !path.starts_with(workspace) && !self.allowed.iter().any(|a| path.starts_with(a))
    }

    /// The bubblewrap mounts over a read-only `/` and a private `/tmp`.
    pub(crate) fn mounts(&self, workspace: &Path, writable: bool, git_writable: bool) -> Vec<String> {
        let ws = real(workspace);
        let mut args = Vec::new();
        let mut arg = |words: &[&str], path: &Path| {
            args.extend(words.iter().map(|w| (*w).to_owned()));
            args.push(path.to_string_lossy().into_owned());
        };
        for root in &self.roots {
            arg(&["--tmpfs"], root);
        }
        for allowed in self.allowed.iter().filter(|a| !a.starts_with(&ws)) {
            arg(&["--ro-bind", &allowed.to_string_lossy()], allowed);
        }
        let bind = if writable { "--bind" } else { "--ro-bind" };
        arg(&[bind, &ws.to_string_lossy()], &ws);
        if writable {
            let git = (!git_writable).then_some(".git");
            for name in git.into_iter().chain(self.protected.iter().map(String::as_str)) {
                let p = ws.join(name);
                if p.exists() {
                    arg(&["--ro-bind", &p.to_string_lossy()], &p);
                }
            }
        }
        let shown = |p: &Path| {
            p.starts_with(&ws)
                || self.allowed.iter().any(|a| p.starts_with(a))
                || !self.roots.iter().any(|r| p.starts_with(r))
        };
        let mut emptied = Vec::new();
        // A hidden folder the workspace is in stays: the user chose to
        // work there (tests keep Braid's data beside their workspace).
        for hidden in self.hidden.iter().filter(|h| shown(h) && !ws.starts_with(h)) {
            if hidden.is_dir() {
                arg(&["--tmpfs"], hidden);
                emptied.push(hidden);
            } else {
                arg(&["--ro-bind", "/dev/null"], hidden);
            }
        }
        // Read-only once the mount points in them exist. A root the
        // workspace is in, or covers, is the workspace's own mount.
        for root in self.roots.iter().filter(|r| !ws.starts_with(r) && !r.starts_with(&ws)) {
            arg(&["--remount-ro"], root);
        }
        for dir in emptied {
            arg(&["--remount-ro"], dir);
        }
        args
    }
}

fn real(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_owned())
}

/// Canonical, existing, once each, parents before children (a mount over
/// a parent would otherwise cover one made under it).
fn existing(paths: Vec<PathBuf>) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = paths.iter().filter(|p| p.exists()).map(|p| real(p)).collect();
    out.sort_by_key(|p| p.components().count());
    let mut seen = std::collections::HashSet::new();
    out.retain(|p| seen.insert(p.clone()));
    out
}
