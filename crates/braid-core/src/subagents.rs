//! Sub-agents, pure: the three tools' definitions, reading a
//! `spawn_agents` call's tasks, what a child is told, and the one result
//! the parent's model reads back, and what a child inherits (`Parent`).
//! The machine (`machine/subagents.rs`) applies these rules; the runtime
//! runs the children.

mod child;

pub use child::Parent;

use braid_protocol::{
    ChildOf, ChildOutcome, ChildReport, ChildWorkspace, IsolationKind, Permission, SubAgentView, SubTask,
    ToolResultStatus, ToolSource, ToolSpec, MAX_SUB_TASKS, SPAWN_AGENTS, SUBMIT_ERROR, SUBMIT_RESULT,
};
use serde_json::{json, Value};

/// The longest task name; longer ones are refused (they title a card).
const MAX_NAME: usize = 40;

/// The tools of the sub-agent machinery, in the order they are offered.
/// `models` are the models a task may name (`provider/model`); the field
/// is offered only when there is a choice, and then as an enum, so a model
/// sampled under a grammar cannot ask for one that does not exist.
pub fn tool_specs(models: &[String]) -> Vec<ToolSpec> {
    let mut task = json!({
        "name": {
            "type": "string",
            "minLength": 1,
            "maxLength": MAX_NAME,
            "description": "a short name for the sub-agent"
        },
        "instructions": {"type": "string", "minLength": 1, "description": "the whole task"},
        "isolated": {
            "type": "boolean",
            "description": "work in its own copy of the workspace, merged back when it submits (left out: yes when \
                            several tasks run at once, so they never write over each other)"
        }
    });
    if models.len() > 1 {
        task["model"] = json!({
            "type": "string",
            "enum": models,
            "description": "another model for this task (optional; left out: this conversation's model)"
        });
    }
    vec![
        ToolSpec {
            name: SPAWN_AGENTS.to_owned(),
            description: format!(
                "Hand independent pieces of work to sub-agents that run in parallel, each in its own conversation \
                 in this workspace with the same tools, and wait for their results. 1 to {MAX_SUB_TASKS} tasks; \
                 each task's instructions must say everything the sub-agent needs, as it sees nothing of this \
                 conversation."
            ),
            input_schema: json!({
                "type": "object",
                "properties": {
                    "tasks": {
                        "type": "array",
                        "minItems": 1,
                        "maxItems": MAX_SUB_TASKS,
                        "items": {"type": "object", "properties": task, "required": ["instructions"]}
                    }
                },
                "required": ["tasks"]
            }),
            permission: Permission::Execute,
            parallel_safe: false,
            examples: vec![],
            source: ToolSource::Agent,
            sandbox: Default::default(),
            pin: None,
        },
        submit_spec(SUBMIT_RESULT, "result", "Finish your task and hand your result to the agent that gave it. It must be the only tool call of your response."),
        submit_spec(SUBMIT_ERROR, "error", "Give up your task and say why, when you cannot finish it. It must be the only tool call of your response."),
    ]
}

fn submit_spec(name: &str, field: &str, description: &str) -> ToolSpec {
    ToolSpec {
        name: name.to_owned(),
        description: description.to_owned(),
        input_schema: json!({
            "type": "object",
            "properties": {field: {"type": "string"}},
            "required": [field]
        }),
        permission: Permission::Read,
        parallel_safe: false,
        examples: vec![],
        source: ToolSource::Agent,
        sandbox: Default::default(),
        pin: None,
    }
}

/// Whether a tool of this name is offered to a conversation: a child gets
/// the submit tools and never `spawn_agents`; any other conversation the
/// reverse.
pub fn offered_to(name: &str, child: bool) -> bool {
    match name {
        SPAWN_AGENTS => !child,
        SUBMIT_RESULT | SUBMIT_ERROR => child,
        _ => true,
    }
}

/// The tasks of a `spawn_agents` call, or why they cannot run. Unnamed
/// tasks are called "agent 1", "agent 2", … by their place; a name given
/// twice gets a number ("fixer 2").
pub fn tasks(arguments: &str) -> Result<Vec<SubTask>, String> {
    let args: Value = serde_json::from_str(arguments).map_err(|e| format!("the arguments are not JSON ({e})"))?;
    let list = args.get("tasks").and_then(Value::as_array).ok_or("\"tasks\" must be a list of tasks")?;
    if list.is_empty() || list.len() > MAX_SUB_TASKS {
        return Err(format!("give 1 to {MAX_SUB_TASKS} tasks ({} given)", list.len()));
    }
    let mut tasks: Vec<SubTask> = Vec::with_capacity(list.len());
    // Parallel lines of work each get a copy unless told otherwise.
    let isolated_default = list.len() > 1;
    for (i, item) in list.iter().enumerate() {
        let text = |key: &str| item.get(key).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty());
        let instructions = text("instructions").ok_or(format!("task {} has no instructions", i + 1))?;
        let given = text("name").map_or_else(|| format!("agent {}", i + 1), str::to_owned);
        if given.chars().count() > MAX_NAME {
            return Err(format!("task {}'s name is longer than {MAX_NAME} characters", i + 1));
        }
        // Names only label the children: two alike are told apart.
        let taken = |n: &str| tasks.iter().any(|t| t.name.eq_ignore_ascii_case(n));
        let name = (1..).map(|k| if k == 1 { given.clone() } else { format!("{given} {k}") }).find(|n| !taken(n));
        let name = name.unwrap_or(given);
        tasks.push(SubTask {
            name,
            instructions: instructions.to_owned(),
            model: text("model").map(str::to_owned),
            isolated: item.get("isolated").and_then(Value::as_bool).unwrap_or(isolated_default),
        });
    }
    Ok(tasks)
}

/// What a child is told in its system prompt: who it is, how it ends, and
/// on its grace turn that it must end now.
pub fn child_prompt(child: &ChildOf, grace: bool) -> String {
    let mut text = format!(
        "You are a sub-agent named {name}, working on one task for another agent. Work on it with the tools, \
         then call {SUBMIT_RESULT} with your result (the other agent reads only that), or {SUBMIT_ERROR} with \
         why you cannot finish. Either must be the only tool call of its response. You have {limit} turns.",
        name = child.name,
        limit = child.turn_limit,
    );
    if grace {
        text.push_str(&format!(
            " This is your last turn: call {SUBMIT_RESULT} now with what you have, and say what is missing."
        ));
    }
    text
}

/// Why a response's calls did not run when a submit tool came with others.
pub fn not_alone(name: &str) -> String {
    format!("{name} must be the only tool call of its response, so nothing in this response ran; call it again, alone")
}

/// The child's outcome from its submit call's arguments.
pub fn submitted(name: &str, arguments: &str) -> ChildOutcome {
    let args: Value = serde_json::from_str(arguments).unwrap_or_default();
    let field = |key: &str| args.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
    match name {
        SUBMIT_ERROR => ChildOutcome::Failed { reason: format!("it gave up: {}", field("error")) },
        _ => ChildOutcome::Submitted { result: field("result") },
    }
}

/// What became of a child's own copy of the workspace, in a sentence.
pub fn copy_report(w: &ChildWorkspace) -> String {
    let mut out = match w.kind {
        IsolationKind::GitWorktree => "It worked in a git worktree of its own",
        IsolationKind::Copy => "It worked in a copy of the workspace of its own",
    }
    .to_owned();
    if !w.merged.is_empty() {
        out.push_str(&format!(", merged back into this one: {}", w.merged.join(", ")));
    }
    if !w.conflicts.is_empty() {
        out.push_str(&format!(
            " (changed here too in the same lines, so written with both sides between conflict markers: {})",
            w.conflicts.join(", ")
        ));
    }
    if !w.kept.is_empty() {
        out.push_str(&format!(", not merged back: {} (kept in {})", w.kept.join(", "), w.folder));
    }
    if let Some(problem) = &w.problem {
        out.push_str(&format!(", {problem}"));
    }
    if w.merged.is_empty() && w.kept.is_empty() && w.problem.is_none() {
        out.push_str(", where it changed no file");
    }
    out.push('.');
    out
}

/// The one result the parent's model reads: each child's outcome, time
/// and tokens, in the order the tasks were given. An error only when no
/// child submitted.
pub fn aggregate(agents: &[SubAgentView]) -> (ToolResultStatus, String) {
    let mut out = Vec::with_capacity(agents.len());
    let mut any = false;
    for (i, a) in agents.iter().enumerate() {
        let head = format!("## {} ({} of {})", a.name, i + 1, agents.len());
        let body = match &a.report {
            Some(ChildReport { outcome, duration_ms, tokens, note, workspace }) => {
                // A child stopped before it reported (a cancel, a restart)
                // has no time or tokens to give: none are made up.
                let mut took = match (duration_ms, tokens) {
                    (0, 0) => String::new(),
                    _ => format!("{:.1} s, {tokens} tokens", *duration_ms as f64 / 1000.0),
                };
                if let Some(note) = note {
                    took.push_str(if took.is_empty() { "" } else { "; " });
                    took.push_str(note);
                }
                let took = if took.is_empty() { String::new() } else { format!(" ({took})") };
                // Where its files went, after what it said.
                let files = workspace.as_ref().map(|w| format!("\n{}", copy_report(w))).unwrap_or_default();
                match outcome {
                    ChildOutcome::Submitted { result } => {
                        any = true;
                        format!("Submitted{took}:\n{result}{files}")
                    }
                    ChildOutcome::Failed { reason } => format!("Failed{took}: {reason}{files}"),
                }
            }
            None => "Failed: it has no result".to_owned(),
        };
        out.push(format!("{head}\n{body}"));
    }
    let status = if any { ToolResultStatus::Success } else { ToolResultStatus::Error };
    (status, out.join("\n\n"))
}
