//! Which tool calls may run: pure decisions from the conversation's tool
//! settings, the tool's permission, and the loop's progress. The runtime
//! never runs a call this module did not allow or the user did not approve.

use braid_protocol::{
    AgentMode, AgentRole, Permission, SandboxLevel, ToolApprovalPolicy, ToolSandbox, ToolSettings, ToolSource, ToolSpec,
};

/// What a tool in the catalogue may do; `None` for a name it does not hold.
pub fn permission_in(catalogue: &[ToolSpec], name: &str) -> Option<Permission> {
    spec_in(catalogue, name).map(|t| t.permission)
}

/// The catalogue's entry for a tool; `None` for a name it does not hold.
pub fn spec_in<'a>(catalogue: &'a [ToolSpec], name: &str) -> Option<&'a ToolSpec> {
    catalogue.iter().find(|t| t.name == name)
}

/// The tools of the catalogue the mode and role let the model see.
pub fn offered_tools<'a>(settings: &'a ToolSettings, catalogue: &'a [ToolSpec]) -> impl Iterator<Item = &'a ToolSpec> {
    catalogue.iter().filter(|t| offered(settings, t.permission))
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    Allow,
    /// Refused; the reason goes back to the model as the call's result.
    Deny(String),
    Ask,
}

/// How far the automatic loop has gone in this turn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LoopState {
    pub depth: u32,
    pub tools_executed: u32,
}

/// Whether the mode and role let the model see and call a tool of this kind.
pub fn offered(settings: &ToolSettings, permission: Permission) -> bool {
    let read_only = settings.mode == AgentMode::Plan || settings.role == AgentRole::Planner;
    !read_only || permission == Permission::Read
}

/// The decision for one call. A tool the mode or role does not offer is
/// refused even if the model names it; the always-ask list wins over the
/// policy and over earlier "always allow" answers; a command that would run
/// in a sandbox this machine lacks is always asked.
pub fn decide(settings: &ToolSettings, name: &str, spec: Option<&ToolSpec>, progress: LoopState) -> Decision {
    let Some(spec) = spec else {
        return Decision::Deny(format!("there is no tool named {name:?}"));
    };
    let permission = spec.permission;
    if !offered(settings, permission) {
        let why = if settings.role == AgentRole::Planner {
            "the Planner role may only use read tools"
        } else {
            "Plan mode allows read tools only; ask the user to switch to Act mode to change files or run commands"
        };
        return Decision::Deny(format!("{name} is not available: {why}"));
    }
    if settings.always_ask.iter().any(|t| t == name) {
        return Decision::Ask;
    }
    // Never a silent run with the user's full rights when a sandbox was
    // asked for: without one, the user sees each command first.
    let sandboxed = settings.sandbox.level != SandboxLevel::FullAccess;
    if sandboxed && matches!(spec.sandbox, ToolSandbox::Missing { .. }) {
        return Decision::Ask;
    }
    // An "Always allow" holds for the definition it was given to: a
    // pinned tool whose definition changed since is asked again.
    let allowed_pin = settings.allowed_pins.get(name);
    if settings.always_allowed.iter().any(|t| t == name) && spec.pin.as_ref().is_none_or(|p| allowed_pin == Some(p)) {
        return Decision::Allow;
    }
    // A home folder holds keys and mail: the first read there is the
    // user's to allow, unless they chose to run everything.
    if settings.confirm_reads && permission == Permission::Read && settings.policy != ToolApprovalPolicy::AutoAll {
        return Decision::Ask;
    }
    match &settings.policy {
        ToolApprovalPolicy::WhiteList { tools } if tools.iter().any(|t| t == name) => Decision::Allow,
        ToolApprovalPolicy::WhiteList { .. } | ToolApprovalPolicy::Manual => Decision::Ask,
        ToolApprovalPolicy::LimitedAuto { max_depth, max_tools } => {
            if progress.depth < *max_depth && progress.tools_executed < *max_tools {
                Decision::Allow
            } else {
                Decision::Ask
            }
        }
        ToolApprovalPolicy::AutoAll => Decision::Allow,
        ToolApprovalPolicy::Sandboxed => {
            let confined = match (permission, &spec.source, &spec.sandbox) {
                // A server's tool runs unasked only if its read-only
                // hint is pinned with its definition.
                (Permission::Read, ToolSource::Mcp { .. }, _) => spec.pin.is_some(),
                (Permission::Read, _, _) => true,
                // The built-in file tools write only inside the workspace.
                (Permission::Write, ToolSource::Builtin, _) => settings.sandbox.level == SandboxLevel::WorkspaceWrite,
                (_, _, ToolSandbox::Applied) => sandboxed,
                _ => false,
            };
            if confined {
                Decision::Allow
            } else {
                Decision::Ask
            }
        }
    }
}

/// The instructions added to the system prompt in Plan mode.
pub const PLAN_INSTRUCTIONS: &str = "You are in Plan mode. Read and explore with the read-only tools, then \
propose a step-by-step plan. Do not change files or run commands: the user switches to Act mode to carry \
the plan out.";

/// The calls waiting for the user that would write a file, with the path
/// each names: a built-in tool the catalogue marks as writing, whose
/// arguments name a `path`. The approval dialog checks these against the
/// disk (a file the model never read, or one changed outside).
pub fn pending_file_writes(state: &crate::ContextState) -> Vec<(&braid_protocol::ToolCall, String)> {
    let calls = state.round.as_ref().map(|r| r.calls()).unwrap_or_default();
    calls
        .iter()
        .filter(|c| c.approval == braid_protocol::Approval::Pending)
        .filter(|c| {
            spec_in(&state.catalogue, &c.name)
                .is_some_and(|t| t.permission == Permission::Write && t.source == ToolSource::Builtin)
        })
        .filter_map(|c| {
            let args: serde_json::Value = serde_json::from_str(&c.arguments).ok()?;
            Some((c, args.get("path")?.as_str()?.to_owned()))
        })
        .collect()
}
