//! What a coding CLI's streamed JSON says, line by line: the text to show
//! as it comes, the answer to keep, and a failure. One reader per agent
//! type, each knowing only its own format:
//! - `claude -p --output-format stream-json --verbose`: `assistant`
//!   messages with text blocks, then a `result` (`is_error` on failure);
//! - `codex exec --json`: `item.completed` items of type `agent_message`,
//!   `turn.failed` on failure (`error` events are retries, not the end);
//! - `gemini -p --output-format stream-json`: `message` deltas of role
//!   `assistant`, `error` events, a `result` with its status.
//!
//! Lines that are not JSON (warnings some CLIs print) are passed over;
//! any other program's output is its answer as it is.

use crate::llm::Usage;
use braid_protocol::AgentType;
use serde_json::Value;

/// The reader of one run's output.
#[derive(Debug, Clone)]
pub struct AgentStream {
    format: Format,
    /// Everything shown so far.
    shown: String,
    /// The answer the CLI named as its result (Claude's `result`).
    result: Option<String>,
    error: Option<String>,
    /// The last transient error (a retry), said if the run ends without
    /// an answer.
    last_warning: Option<String>,
    /// Tokens the CLI reported (Claude's and Codex's `usage`, Gemini's
    /// `stats`).
    usage: Option<Usage>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Claude,
    Codex,
    Gemini,
    /// Any other program: its output is the answer, as it is.
    Plain,
}

impl AgentStream {
    /// `None` for agent types that are not CLIs.
    pub fn new(agent: &AgentType) -> Option<AgentStream> {
        let format = match agent {
            AgentType::ClaudeCode => Format::Claude,
            AgentType::OpenaiCodex => Format::Codex,
            AgentType::GoogleGemini => Format::Gemini,
            AgentType::Other { .. } => Format::Plain,
            AgentType::Api { .. } => return None,
        };
        Some(AgentStream { format, shown: String::new(), result: None, error: None, last_warning: None, usage: None })
    }

    /// Reads one line of output; answers the text to show now, if any.
    pub fn line(&mut self, line: &str) -> Option<String> {
        if self.format == Format::Plain {
            let delta = if self.shown.is_empty() { line.to_owned() } else { format!("\n{line}") };
            self.shown.push_str(&delta);
            return Some(delta);
        }
        let value: Value = serde_json::from_str(line.trim()).ok()?;
        let kind = value.get("type")?.as_str()?;
        let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
        match (self.format, kind) {
            (Format::Claude, "assistant") => {
                let blocks = value.pointer("/message/content")?.as_array()?;
                let said: Vec<String> = blocks
                    .iter()
                    .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
                    .filter_map(|b| text(b, "text"))
                    .collect();
                self.said(&said.join("\n\n"))
            }
            (Format::Claude, "result") => {
                self.usage = usage_at(&value, "/usage");
                let result = text(&value, "result").unwrap_or_default();
                if value.get("is_error").and_then(Value::as_bool) == Some(true) {
                    self.error = Some(if result.is_empty() { "Claude Code failed".to_owned() } else { result });
                } else {
                    self.result = Some(result);
                }
                None
            }
            (Format::Codex, "item.completed") => {
                let item = value.get("item")?;
                if item.get("type").and_then(Value::as_str) != Some("agent_message") {
                    return None;
                }
                self.said(&text(item, "text")?)
            }
            (Format::Codex, "turn.completed") => {
                self.usage = usage_at(&value, "/usage");
                None
            }
            (Format::Codex, "turn.failed") => {
                let message = value.pointer("/error/message").and_then(Value::as_str).unwrap_or("Codex failed");
                self.error = Some(message.to_owned());
                None
            }
            (Format::Codex, "error") => {
                self.last_warning = text(&value, "message");
                None
            }
            (Format::Gemini, "message") if text(&value, "role").as_deref() == Some("assistant") => {
                let delta = text(&value, "content")?;
                self.shown.push_str(&delta);
                (!delta.is_empty()).then_some(delta)
            }
            (Format::Gemini, "error") => {
                let message = text(&value, "message").unwrap_or_else(|| "Gemini failed".to_owned());
                if text(&value, "severity").as_deref() == Some("warning") {
                    self.last_warning = Some(message);
                } else {
                    self.error = Some(message);
                }
                None
            }
            (Format::Gemini, "result") => {
                self.usage = usage_at(&value, "/stats");
                if text(&value, "status").as_deref() == Some("error") && self.error.is_none() {
                    let message = value.pointer("/error/message").and_then(Value::as_str);
                    self.error = Some(message.unwrap_or("Gemini reported an error").to_owned());
                }
                None
            }
            _ => None,
        }
    }

    /// What was shown so far (kept when the user stops the run).
    pub fn shown(&self) -> &str {
        &self.shown
    }

    pub fn usage(&self) -> Option<Usage> {
        self.usage
    }

    /// A whole message: shown after what came before, a blank line apart.
    fn said(&mut self, text: &str) -> Option<String> {
        if text.is_empty() {
            return None;
        }
        let delta = if self.shown.is_empty() { text.to_owned() } else { format!("\n\n{text}") };
        self.shown.push_str(&delta);
        Some(delta)
    }

    /// The run ended (`exit_ok`: status 0): its answer, or why it failed
    /// (`stderr`'s last lines when the output said nothing).
    pub fn finish(self, exit_ok: bool, stderr: &str) -> Result<String, String> {
        if let Some(error) = self.error {
            return Err(error);
        }
        let answer = self.result.filter(|r| !r.trim().is_empty()).unwrap_or(self.shown);
        if exit_ok && !answer.trim().is_empty() {
            return Ok(answer);
        }
        let tail: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
        let tail = tail[tail.len().saturating_sub(3)..].join("\n");
        let why = match (exit_ok, self.last_warning, tail.is_empty()) {
            (_, Some(warning), _) => warning,
            (_, None, false) => tail,
            (true, None, true) => "it gave no answer".to_owned(),
            (false, None, true) => "it exited with an error and said nothing".to_owned(),
        };
        if !exit_ok && !answer.trim().is_empty() {
            return Err(format!("it stopped with an error after answering in part: {why}"));
        }
        Err(why)
    }
}

/// `input_tokens` and `output_tokens` under `at`, as all three report them.
fn usage_at(value: &Value, at: &str) -> Option<Usage> {
    let usage = value.pointer(at)?;
    let count = |key: &str| usage.get(key).and_then(Value::as_u64).and_then(|n| u32::try_from(n).ok());
    Some(Usage { prompt_tokens: count("input_tokens")?, completion_tokens: count("output_tokens")? })
}
