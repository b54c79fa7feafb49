//! One assembler per agent type, each knowing only its own format: what a
//! member is told, from its instructions, the team task, its context and
//! the message it answers. Empty sections are never written; text of
//! whitespace only counts as empty.

use super::context::{Said, Speaker};
use crate::untrusted;
use braid_protocol::AgentType;

/// What a member is given.
#[derive(Debug, Clone, Copy)]
pub struct MemberInput<'a> {
    pub instruction: &'a str,
    /// The text of the member's instruction file, if it has one.
    pub instruction_file: Option<&'a str>,
    pub task: &'a str,
    pub context: &'a [Said],
    pub message: &'a Said,
}

/// A member's request: a system text for agents that take it apart
/// (Claude's `--append-system-prompt`, an API model's system prompt), and
/// the prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assembled {
    pub system: Option<String>,
    pub prompt: String,
    /// Said to the log: the agent type has no assembler of its own.
    pub warning: Option<String>,
}

pub fn assemble(agent: &AgentType, input: &MemberInput<'_>) -> Assembled {
    let system = system_body(input);
    let task = input.task.trim();
    let context = context_text(input.context);
    let message = said_text(input.message);
    match agent {
        AgentType::ClaudeCode => Assembled {
            system,
            prompt: sections(&[("[TEAM_TASK]", task), ("[CONTEXT]", &context), ("[MESSAGE]", &message)]),
            warning: None,
        },
        AgentType::OpenaiCodex => Assembled {
            system: None,
            prompt: sections(&[
                ("[SYSTEM]", system.as_deref().unwrap_or("")),
                ("[TEAM_TASK]", task),
                ("[CONTEXT]", &context),
                ("[MESSAGE]", &message),
            ]),
            warning: None,
        },
        AgentType::GoogleGemini => {
            let instructions = sections(&[("", system.as_deref().unwrap_or("")), ("Team task:", task)]);
            Assembled {
                system: None,
                prompt: sections(&[
                    ("Instructions:", &instructions),
                    ("Conversation so far:", &context),
                    ("User message:", &message),
                ]),
                warning: None,
            }
        }
        AgentType::Api { .. } => Assembled {
            system: non_empty(sections(&[("", system.as_deref().unwrap_or("")), ("Team task:", task)])),
            prompt: sections(&[("Conversation so far:", &context), ("Message:", &message)]),
            warning: None,
        },
        AgentType::Other { name } => Assembled {
            system: None,
            prompt: sections(&[("", system.as_deref().unwrap_or("")), ("", task), ("", &context), ("", &message)]),
            warning: Some(format!("agent type {name:?} has no prompt format of its own; it is sent plain text")),
        },
    }
}

/// The trimmed instruction, then the instruction file's text.
fn system_body(input: &MemberInput<'_>) -> Option<String> {
    non_empty(sections(&[("", input.instruction), ("", input.instruction_file.unwrap_or(""))]))
}

fn context_text(context: &[Said]) -> String {
    let lines: Vec<String> = context.iter().map(said_text).filter(|t| !t.is_empty()).collect();
    lines.join("\n\n")
}

/// The user's words as they are; another agent's inside a block that
/// marks them as data to this one, as a tool's result is.
fn said_text(said: &Said) -> String {
    let text = said.text.trim();
    match &said.speaker {
        _ if text.is_empty() => String::new(),
        Speaker::User => format!("user: {text}"),
        Speaker::Member(name) => format!("{name}: {}", untrusted::block(&format!("team member {name}"), text)),
    }
}

/// Non-empty bodies under their headings (a heading of "" writes the
/// body alone), a blank line between.
fn sections(parts: &[(&str, &str)]) -> String {
    let written: Vec<String> = parts
        .iter()
        .filter(|(_, body)| !body.trim().is_empty())
        .map(|(head, body)| if head.is_empty() { body.trim().to_owned() } else { format!("{head}\n{}", body.trim()) })
        .collect();
    written.join("\n\n")
}

fn non_empty(text: String) -> Option<String> {
    (!text.trim().is_empty()).then_some(text)
}
