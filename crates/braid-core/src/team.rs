//! Team chat (DESIGN.md §8): who answers next (`routing`), what each
//! member is given (`context`), how each agent type is told it
//! (`assemble`), and what a coding CLI's streamed output says (`streams`).
//! Pure: the machine decides with these, the runtime runs the members.

pub mod assemble;
pub mod context;
pub mod routing;
pub mod streams;

use braid_protocol::{Team, TEAM_TASK_LIMIT};

pub use assemble::{assemble, Assembled};
pub use context::{context_for, Said, Speaker};
pub use routing::{next_markers, strip_markers};

/// The task as kept: at most [`TEAM_TASK_LIMIT`] bytes (cut on a character
/// boundary), and the warning when it was cut.
pub fn cut_task(task: &str) -> (String, Option<String>) {
    if task.len() <= TEAM_TASK_LIMIT {
        return (task.to_owned(), None);
    }
    let mut end = TEAM_TASK_LIMIT;
    while !task.is_char_boundary(end) {
        end -= 1;
    }
    let warning =
        format!("The team task was {} bytes; it was cut to the first {} KB.", task.len(), TEAM_TASK_LIMIT / 1024);
    (task[..end].to_owned(), Some(warning))
}

/// Checks a team before it is kept: names usable in `[NEXT:name]` and
/// different from each other, at least one member. The task is cut, not
/// refused (see [`cut_task`]).
pub fn validate(team: &Team) -> Result<(), String> {
    if team.members.is_empty() {
        return Err("a team needs at least one member".to_owned());
    }
    if team.members.len() > 16 {
        return Err(format!("a team has at most 16 members, not {}", team.members.len()));
    }
    let mut seen = std::collections::HashSet::new();
    for m in &team.members {
        let ok = !m.name.is_empty()
            && m.name.len() <= 40
            && m.name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-' || c == '.');
        if !ok {
            return Err(format!(
                "member name {:?} must be 1 to 40 letters, digits, '-', '_' or '.' (it is written [NEXT:name])",
                m.name
            ));
        }
        if !seen.insert(m.name.to_lowercase()) {
            return Err(format!("two members are named {:?}", m.name));
        }
        if let braid_protocol::AgentType::Api { model: Some(model) } = &m.agent {
            if model.provider_id.trim().is_empty() || model.model.trim().is_empty() {
                return Err(format!("member {:?} needs a provider and a model", m.name));
            }
        }
    }
    Ok(())
}
