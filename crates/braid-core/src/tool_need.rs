//! Tools "as needed": which tools a request offers when the conversation
//! says what it needs rather than getting every definition. A small local
//! model given the whole catalogue with "What is the capital of France?"
//! reads 1,650 tokens of tool schemas for an 11-token question (and often
//! calls one); offered only the groups a message calls for, a plain
//! question goes alone and the first token comes in under a second.
//!
//! The tools come in groups (files, commands, code search, agents, each MCP
//! server). A group goes with a turn's first request when the turn's own
//! words call for it (a path, "the file", "run the tests", a server's
//! name); an `@file` reference brings the file's text and calls for none. Once the turn's calls have run, the model answers with
//! what they returned (`machine::prepare` declares the tools the history
//! holds, not callable): a small model offered its tools again calls them
//! again, round after round.

use braid_protocol::{Message, MessageType, Role, ToolSource, ToolSpec};
use std::collections::BTreeSet;

/// A set of tools offered together.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum ToolGroup {
    /// Reading, listing, finding and changing files.
    Files,
    /// Running a command in the workspace.
    Commands,
    /// The code index: search, definitions, references, overview.
    Codebase,
    /// Sub-agents and team chat.
    Agents,
    /// One MCP server's tools.
    Mcp(String),
    /// Reading an MCP result kept aside: offered with any MCP server.
    McpResults,
}

/// The group a tool belongs to.
pub fn group_of(tool: &ToolSpec) -> ToolGroup {
    match &tool.source {
        ToolSource::Mcp { server } => ToolGroup::Mcp(server.clone()),
        ToolSource::Agent => ToolGroup::Agents,
        ToolSource::Builtin => match tool.name.as_str() {
            "run_command" => ToolGroup::Commands,
            "codebase_search" | "find_definition" | "find_references" | "get_project_overview" => ToolGroup::Codebase,
            "read_mcp_result" => ToolGroup::McpResults,
            _ => ToolGroup::Files,
        },
    }
}

impl ToolGroup {
    /// Its name in settings and commands: `files`, `commands`, `codebase`,
    /// `agents`, `mcp:NAME` (the MCP results reader goes with its server).
    pub fn key(&self) -> String {
        match self {
            ToolGroup::Files => "files".to_owned(),
            ToolGroup::Commands => "commands".to_owned(),
            ToolGroup::Codebase => "codebase".to_owned(),
            ToolGroup::Agents => "agents".to_owned(),
            ToolGroup::Mcp(server) => format!("mcp:{server}"),
            ToolGroup::McpResults => "mcp-results".to_owned(),
        }
    }

    /// Its name for people.
    pub fn label(&self) -> String {
        match self {
            ToolGroup::Files => "Files".to_owned(),
            ToolGroup::Commands => "Commands".to_owned(),
            ToolGroup::Codebase => "Code search".to_owned(),
            ToolGroup::Agents => "Sub-agents and team".to_owned(),
            ToolGroup::Mcp(server) => format!("MCP: {server}"),
            ToolGroup::McpResults => "MCP results".to_owned(),
        }
    }
}

/// Whether `key` names a group ([`ToolGroup::key`]).
pub fn is_group_key(key: &str) -> bool {
    matches!(key, "files" | "commands" | "codebase" | "agents" | "mcp-results")
        || key.strip_prefix("mcp:").is_some_and(|s| !s.trim().is_empty())
}

/// Whether the user stopped offering this tool in the conversation.
pub fn dropped(tool: &ToolSpec, dropped: &BTreeSet<String>) -> bool {
    !dropped.is_empty() && dropped.contains(&group_of(tool).key())
}

/// Words that call for a group (`*`: any word starting so). Plain
/// requests ("write a poem", "find the derivative") call for none: a group
/// offered for nothing costs a small model its window and a stray call,
/// while a missed one is a word away ("the file", a path, `/tools`).
const FILES: &[&str] = &[
    "file*",
    "folder*",
    "director*",
    "dir",
    "readme",
    "repo",
    "repos",
    "repository",
    "project",
    "projects",
    "workspace",
    "path",
    "paths",
    "src",
    "config",
    "diff",
    "patch",
    "renam*",
    "delet*",
    "refactor*",
    "implement*",
    "bug",
    "bugs",
    "grep",
    "ls",
    "cat",
];
const COMMANDS: &[&str] = &[
    "run", "runs", "running", "execut*", "command*", "shell", "terminal", "bash", "build", "builds", "compil*", "test",
    "tests", "testing", "instal*", "git", "npm", "cargo", "pip", "makefile", "script", "scripts", "docker", "lint",
    "deploy*", "ls", "grep",
];
const CODEBASE: &[&str] = &[
    "function",
    "functions",
    "class",
    "classes",
    "method",
    "methods",
    "symbol*",
    "definition*",
    "defined",
    "defines",
    "reference",
    "references",
    "codebase",
    "module",
    "modules",
    "struct",
    "structs",
    "trait",
    "traits",
    "interface",
    "overview",
    "architecture",
    "search",
    "grep",
    "caller",
    "callers",
    "calls",
];
const AGENTS: &[&str] = &["agent", "agents", "subagent", "subagents", "delegate", "parallel", "team"];

/// File name endings that make a word a path.
const EXTENSIONS: &[&str] = &[
    "rs", "py", "js", "mjs", "ts", "tsx", "jsx", "md", "txt", "json", "toml", "yaml", "yml", "c", "h", "cc", "cpp",
    "hpp", "go", "java", "kt", "rb", "php", "sh", "html", "css", "scss", "sql", "csv", "log", "lock", "xml", "ini",
    "cfg", "conf", "env", "swift", "cs", "lua", "zig", "vue", "svelte",
];

/// The groups the turn calls for: its words and the MCP resources it
/// attached (the turn is what came after the last answer). An `@file`
/// comes with its text, so it calls for no tool.
pub fn needed(messages: &[Message], catalogue: &[ToolSpec]) -> BTreeSet<ToolGroup> {
    let mut groups = BTreeSet::new();
    let turn_start = messages
        .iter()
        .rposition(|m| matches!(&m.body, MessageType::Text { role: Role::Assistant, .. }))
        .map_or(0, |i| i + 1);
    for m in &messages[turn_start..] {
        match &m.body {
            MessageType::Text { role: Role::User, .. } => {
                groups.extend(called_for(&m.body.plain_text().unwrap_or_default(), catalogue));
            }
            MessageType::McpResource { server_name, .. } => {
                groups.insert(ToolGroup::Mcp(server_name.clone()));
            }
            _ => {}
        }
    }
    if groups.iter().any(|g| matches!(g, ToolGroup::Mcp(_))) {
        groups.insert(ToolGroup::McpResults);
    }
    groups
}

/// Whether the model's calls already ran in this turn (after the last
/// message from the user).
pub fn turn_ran_tools(messages: &[Message]) -> bool {
    let from = messages
        .iter()
        .rposition(|m| matches!(&m.body, MessageType::Text { role: Role::User, .. }))
        .map_or(0, |i| i + 1);
    messages[from..].iter().any(|m| matches!(m.body, MessageType::ToolResult { .. }))
}

/// The groups a user's text calls for.
fn called_for(text: &str, catalogue: &[ToolSpec]) -> BTreeSet<ToolGroup> {
    let lower = text.to_lowercase();
    let words: Vec<&str> =
        lower.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty()).collect();
    let says = |list: &[&str]| {
        words.iter().any(|w| {
            list.iter().any(|entry| match entry.strip_suffix('*') {
                Some(stem) => w.starts_with(stem),
                None => w == entry,
            })
        })
    };
    let mut groups = BTreeSet::new();
    // An `@file` brings the file's text with the message: no tool is
    // needed to read it.
    let pathlike = lower.split_whitespace().filter(|w| !w.starts_with('@')).any(is_path);
    if pathlike || says(FILES) {
        groups.insert(ToolGroup::Files);
    }
    if says(COMMANDS) {
        groups.insert(ToolGroup::Commands);
    }
    if says(CODEBASE) {
        groups.insert(ToolGroup::Codebase);
    }
    if says(AGENTS) {
        groups.insert(ToolGroup::Agents);
    }
    for tool in catalogue {
        if let ToolSource::Mcp { server } = &tool.source {
            let server_named = words.iter().any(|w| w.eq_ignore_ascii_case(server));
            if server_named || words.contains(&tool.name.to_lowercase().as_str()) {
                groups.insert(ToolGroup::Mcp(server.clone()));
            }
        }
    }
    groups
}

/// `src/main.rs`, `./notes`, `README.md`: a word with a slash, or a name
/// with a known file ending.
fn is_path(word: &str) -> bool {
    let word = word.trim_matches(|c: char| matches!(c, '"' | '\'' | '(' | ')' | ',' | ';' | ':' | '?' | '!' | '@'));
    let word = word.trim_end_matches('.');
    if word.len() > 1 && word.contains('/') && !word.contains("://") {
        return true;
    }
    word.rsplit_once('.').is_some_and(|(stem, ext)| !stem.is_empty() && EXTENSIONS.contains(&ext))
}

/// The tools of `offered` that the conversation calls for, and the names
/// of those held back.
pub fn select<'a>(
    offered: impl Iterator<Item = &'a ToolSpec>,
    messages: &[Message],
    catalogue: &[ToolSpec],
) -> (Vec<ToolSpec>, Vec<String>) {
    let groups = needed(messages, catalogue);
    let (kept, held): (Vec<&ToolSpec>, Vec<&ToolSpec>) = offered.partition(|t| groups.contains(&group_of(t)));
    (kept.into_iter().cloned().collect(), held.into_iter().map(|t| t.name.clone()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use braid_protocol::Permission;

    fn tool(name: &str, source: ToolSource) -> ToolSpec {
        ToolSpec {
            name: name.into(),
            description: String::new(),
            input_schema: serde_json::json!({"type": "object"}),
            permission: Permission::Read,
            parallel_safe: true,
            examples: Vec::new(),
            source,
            sandbox: Default::default(),
            pin: None,
        }
    }

    fn catalogue() -> Vec<ToolSpec> {
        let mcp = || ToolSource::Mcp { server: "weather".into() };
        vec![
            tool("read_file", ToolSource::Builtin),
            tool("write_file", ToolSource::Builtin),
            tool("run_command", ToolSource::Builtin),
            tool("codebase_search", ToolSource::Builtin),
            tool("read_mcp_result", ToolSource::Builtin),
            tool("spawn_agents", ToolSource::Agent),
            tool("forecast", mcp()),
        ]
    }

    fn groups(text: &str) -> Vec<ToolGroup> {
        called_for(text, &catalogue()).into_iter().collect()
    }

    #[test]
    fn a_plain_question_calls_for_no_tools() {
        for q in [
            "What is the capital of France?",
            "Say hello",
            "Explain recursion in two sentences.",
            "3.14 * 2?",
            "Write a poem about cats and find a rhyme for classic",
        ] {
            assert_eq!(groups(q), vec![], "{q}");
        }
    }

    #[test]
    fn words_and_paths_call_for_their_groups() {
        use ToolGroup::*;
        assert_eq!(groups("What does src/lib.rs do?"), vec![Files]);
        assert_eq!(groups("Summarise README.md."), vec![Files]);
        assert_eq!(groups("Run the tests"), vec![Commands]);
        assert_eq!(groups("Where is the function parse defined?"), vec![Codebase]);
        assert_eq!(groups("Read the file notes.txt and tell me what it says."), vec![Files]);
        assert_eq!(groups("Split this among three sub-agents"), vec![Agents]);
        assert_eq!(groups("Ask weather for Paris"), vec![Mcp("weather".into())]);
        assert_eq!(groups("call forecast for Paris"), vec![Mcp("weather".into())]);
        assert_eq!(groups("see https://example.org"), vec![], "a URL is not a path");
    }

    fn message(body: MessageType) -> Message {
        Message::new(braid_protocol::MessageId(1), braid_protocol::Timestamp(0), body)
    }

    #[test]
    fn only_the_turns_words_count_and_an_attached_file_needs_no_tool() {
        let say = |t: &str| message(MessageType::text(Role::User, t));
        let answer = message(MessageType::text(Role::Assistant, "ok"));
        let call = message(MessageType::ToolRequest {
            text: None,
            calls: vec![braid_protocol::ToolCall {
                id: braid_protocol::CallId("c1".into()),
                name: "forecast".into(),
                arguments: "{}".into(),
                approval: Default::default(),
            }],
        });
        let result = message(MessageType::ToolResult {
            request_id: braid_protocol::CallId("c1".into()),
            status: braid_protocol::ToolResultStatus::Success,
            output: "sunny".into(),
            error: None,
            recoverable: false,
            duration_ms: 1,
            finished_at: braid_protocol::Timestamp(0),
        });
        let mut history = vec![say("Ask weather for Paris"), call, result];
        assert!(turn_ran_tools(&history), "the model answers with what the call returned");
        history.extend([answer.clone(), say("Thanks! And the capital of France?")]);
        assert!(!turn_ran_tools(&history));
        assert!(needed(&history, &catalogue()).is_empty(), "the earlier turn's words no longer count");
        let reference = message(MessageType::FileReference {
            path: "notes.txt".into(),
            range: None,
            content: None,
            status: Default::default(),
            error: None,
        });
        let (kept, held) = select(
            catalogue().iter(),
            &[answer, say("In one word: what fruit does @notes.txt name?"), reference],
            &catalogue(),
        );
        assert!(kept.is_empty(), "{kept:?}");
        assert_eq!(held.len(), 7);
        assert_eq!(
            groups("Compare @notes.txt with src/lib.rs"),
            vec![ToolGroup::Files],
            "a path without @ still counts"
        );
    }
}
