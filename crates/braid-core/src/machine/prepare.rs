//! Between `StartLlmRequest` and the request leaving: the runtime's facts
//! come back as `RequestPrepared`, and the machine decides what is sent
//! (fitting, summarising first, or refusing a message too long for any
//! window), what the model is told about changed files, and how stored
//! messages are counted. Also the once-per-change notices about files.

use super::settings::tool_use;
use super::step::Step;
use super::Effect;
use crate::approval::offered_tools;
use crate::fit::{self, FileChangeKind, Fit, FitSettings, PreparedRequest};
use crate::llm::{LlmFailure, ToolChoice, Usage};
use crate::prompt;
use crate::subagents;
use crate::tokens;
use crate::tool_need;
use braid_protocol::sent::join_parts;
use braid_protocol::{ContextStatus, Message, MessageType, Notice, RequestId, TokenCount, ToolSpec, ToolUse};
use braid_protocol::{FailureCode, NoticeCode, SentPart};
use std::collections::HashSet;

/// A request as fitting would send it.
pub(super) struct Planned {
    pub system: Vec<SentPart>,
    pub system_tokens: u32,
    pub tools: Vec<ToolSpec>,
    pub tools_tokens: u32,
    pub tool_choice: Option<ToolChoice>,
    /// Tools "as needed" did not offer this turn.
    pub held_back: Vec<String>,
    /// Tools left out to fit the window, in the order registered.
    pub left_out: Vec<String>,
    pub plan: Fit,
}

impl Step<'_> {
    pub(super) fn prepared(&mut self, request_id: RequestId, mut p: PreparedRequest) {
        self.s.book.encoding = p.encoding;
        if let Some(member) = self.running_member().or_else(|| self.member_for_retry(&p)) {
            self.prepared_for_member(request_id, p, member);
            return;
        }
        let untold = self.untold(&p);
        self.adjust(&mut p);
        let may_summarize = self.s.book.summarized_for != Some(request_id);
        let Planned { system, tools, tool_choice, held_back, left_out, plan, .. } =
            self.plan_request(&p, &untold, may_summarize);
        let generation = self.s.config.generation;
        if !left_out.is_empty() && !matches!(plan, Fit::TooLarge(_)) {
            self.notify(Notice::new(
                NoticeCode::ToolsLeftOut,
                format!(
                    "{} tool{} left out of this request to fit the model's window: {}",
                    left_out.len(),
                    if left_out.len() == 1 { " was" } else { "s were" },
                    left_out.join(", ")
                ),
            ));
        }
        match plan {
            Fit::Summarize(replaces) => {
                self.s.book.summarized_for = Some(request_id);
                self.set_status(ContextStatus::Summarizing);
                self.run(Effect::Summarize { request_id, replaces, instructions: None });
            }
            Fit::TooLarge(message) => self.failed(LlmFailure::fatal(FailureCode::ContextTooLarge, message)),
            Fit::Send { keep, mut usage } => {
                usage.tools_held_back = held_back;
                for c in untold {
                    self.s.book.reminded.insert(c.path, c.kind.key());
                }
                self.s.book.last_sent = Some(usage);
                // Fitted: the runtime builds the request (images scaled
                // for the provider) and reports when it starts sending.
                if self.kind() != braid_protocol::StatusKind::ToolAutoLoop {
                    self.set_status(ContextStatus::PreparingLlmRequest);
                }
                let keep: HashSet<_> = keep.into_iter().collect();
                self.s.book.largest_sent = p
                    .messages
                    .iter()
                    .filter(|m| keep.contains(&m.id))
                    .max_by_key(|m| fit::cost(m, p.encoding, p.sees_images))
                    .map(|m| m.id);
                let messages = p.messages.into_iter().filter(|m| keep.contains(&m.id)).collect();
                self.run(Effect::SendLlmRequest {
                    request_id,
                    system,
                    messages,
                    tools,
                    tool_choice,
                    max_tokens: p.max_output,
                    temperature: generation.temperature,
                });
            }
        }
    }

    /// Each change is told once, in the request that goes out.
    pub(super) fn untold(&self, p: &PreparedRequest) -> Vec<fit::FileChange> {
        p.changed_files.iter().filter(|c| self.s.book.reminded.get(&c.path) != Some(&c.kind.key())).cloned().collect()
    }

    /// The conversation's own limits on what goes: its longest answer,
    /// and the messages the user left out.
    pub(super) fn adjust(&self, p: &mut PreparedRequest) {
        if let Some(limit) = self.s.config.generation.max_output_tokens {
            p.max_output = limit.min(p.model_max_output);
        }
        let out = &self.s.config.left_out;
        if !out.is_empty() {
            p.messages.retain(|m| !out.contains(&m.id));
            p.kept.retain(|id| !out.contains(id));
            p.pinned_summary = p.pinned_summary.filter(|id| !out.contains(id));
        }
    }

    /// What the request would send: the prompt, the tools and how the
    /// conversation fits beside them. Tools offered that leave the
    /// conversation no room (a small local model's window) go one at a
    /// time, the last registered first (an MCP server's, then the codebase
    /// tools), rather than the request failing. A tool the user forced
    /// stays.
    pub(super) fn plan_request(&self, p: &PreparedRequest, untold: &[fit::FileChange], may_summarize: bool) -> Planned {
        let forced = self.s.request.as_ref().and_then(|r| r.force_tool.clone());
        let (mut tools, mut tool_choice, held_back) = self.tools_for(p, forced.clone());
        let settings = FitSettings {
            strategy: self.s.config.context,
            summarize_at_percent: self.s.config.summarize_at_percent,
            trimmed: self.s.request.as_ref().is_some_and(|r| r.trimmed),
            estimate_ratio: self.s.book.estimate_ratio,
            may_summarize,
        };
        let mut left_out = Vec::new();
        loop {
            let (system, system_tokens, tools_tokens) = self.prompt_for(p, &tools, tool_choice.as_ref(), untold);
            let plan = fit::plan(p, system_tokens, tools_tokens, settings);
            let spare = tools.iter().rposition(|t| Some(&t.name) != forced.as_ref());
            if let (Fit::TooLarge(_), Some(at), Some(ToolChoice::Auto | ToolChoice::Function(_))) =
                (&plan, spare, &tool_choice)
            {
                left_out.push(tools.remove(at).name);
                if tools.is_empty() {
                    tool_choice = None;
                }
                continue;
            }
            left_out.reverse();
            return Planned { system, system_tokens, tools, tools_tokens, tool_choice, held_back, left_out, plan };
        }
    }

    /// The system prompt's parts for these tools, its tokens (sent as one
    /// text, so counted whole), and the tools' tokens.
    fn prompt_for(
        &self,
        p: &PreparedRequest,
        tools: &[ToolSpec],
        tool_choice: Option<&ToolChoice>,
        untold: &[fit::FileChange],
    ) -> (Vec<SentPart>, u32, u32) {
        let callable: &[ToolSpec] = if tool_choice == Some(&ToolChoice::None) { &[] } else { tools };
        let sub_agent = self.child_prompt();
        let facts = prompt::PromptFacts {
            configured: p.configured_prompt.as_deref(),
            branch: p.branch_prompt.as_deref(),
            personal: p.personal.as_deref(),
            settings: &self.s.config.tools,
            workspace: p.workspace.as_ref(),
            callable,
            changes: untold,
            messages: &p.messages,
            sub_agent: sub_agent.as_deref(),
        };
        let system: Vec<SentPart> = prompt::parts(&facts)
            .into_iter()
            .map(|(part, text)| SentPart { part, tokens: tokens::count(p.encoding, &text), text })
            .collect();
        let system_tokens = if system.is_empty() {
            0
        } else {
            let joined = join_parts(system.iter().map(|s| s.text.as_str())).unwrap_or_default();
            tokens::count(p.encoding, &joined) + tokens::PER_MESSAGE
        };
        let tools_tokens = tools.iter().map(|t| tokens::tool_tokens(p.encoding, t)).sum();
        (system, system_tokens, tools_tokens)
    }

    /// The tools a request offers, how the model may use them, and the
    /// tools held back because the conversation did not call for them.
    /// Auto: every tool the mode allows, and the model decides (local
    /// servers leave the tools out of the prompt unless told "auto").
    /// AsNeeded: the groups the turn's words call for, on its first
    /// request ([`crate::tool_need`]); a sub-agent, given work to do, gets
    /// them all. OnRequest and Off: only a tool the user forced. A history
    /// holding tool calls needs their definitions with some providers, so
    /// those are declared but not callable.
    fn tools_for(
        &self,
        p: &PreparedRequest,
        forced: Option<String>,
    ) -> (Vec<ToolSpec>, Option<ToolChoice>, Vec<String>) {
        let child = self.is_child();
        let dropped = &self.s.config.dropped_tools;
        let offered = offered_tools(&self.s.config.tools, &self.s.catalogue)
            .filter(move |t| subagents::offered_to(&t.name, child) && !tool_need::dropped(t, dropped));
        // A sub-agent's grace turn: it must submit what it has, so that is
        // the one tool offered, and called.
        if self.child_grace_turn() {
            let submit: Vec<ToolSpec> = offered.filter(|t| t.name == braid_protocol::SUBMIT_RESULT).cloned().collect();
            let choice = (!submit.is_empty()).then(|| ToolChoice::Function(braid_protocol::SUBMIT_RESULT.to_owned()));
            return (submit, choice, Vec::new());
        }
        let tool_use = match tool_use(&self.s.config.generation, p.calls_tools) {
            ToolUse::AsNeeded if child => ToolUse::Auto,
            other => other,
        };
        if let Some(name) = forced {
            let tools = match tool_use {
                ToolUse::Auto => offered.cloned().collect(),
                ToolUse::AsNeeded | ToolUse::OnRequest | ToolUse::Off => {
                    offered.filter(|t| t.name == name).cloned().collect()
                }
            };
            return (tools, Some(ToolChoice::Function(name)), Vec::new());
        }
        let mut held_back = Vec::new();
        match tool_use {
            ToolUse::Auto => {
                let tools: Vec<ToolSpec> = offered.cloned().collect();
                let choice = (!tools.is_empty()).then_some(ToolChoice::Auto);
                return (tools, choice, held_back);
            }
            // After the turn's calls ran, the model answers with what they
            // returned (see `tool_need`).
            ToolUse::AsNeeded if !tool_need::turn_ran_tools(&p.messages) => {
                let (tools, held) = tool_need::select(offered, &p.messages, &self.s.catalogue);
                if !tools.is_empty() {
                    return (tools, Some(ToolChoice::Auto), held);
                }
                held_back = held;
            }
            ToolUse::AsNeeded => {}
            ToolUse::OnRequest | ToolUse::Off => {}
        }
        let used: HashSet<&str> = p
            .messages
            .iter()
            .filter_map(|m| match &m.body {
                MessageType::ToolRequest { calls, .. } => Some(calls.iter().map(|c| c.name.as_str())),
                _ => None,
            })
            .flatten()
            .collect();
        let declared: Vec<ToolSpec> =
            self.s.catalogue.iter().filter(|t| used.contains(t.name.as_str())).cloned().collect();
        let choice = (!declared.is_empty()).then_some(ToolChoice::None);
        (declared, choice, held_back)
    }

    /// For models without a public tokenizer, what the provider counted
    /// corrects Braid's estimate from the next request on.
    pub(super) fn learn_usage(&mut self, usage: Option<Usage>) {
        if self.s.book.encoding != tokens::TokenEncoding::Estimate {
            return;
        }
        if let (Some(usage), Some(sent)) = (usage, &self.s.book.last_sent) {
            self.s.book.estimate_ratio = fit::estimate_ratio(usage.prompt_tokens, sent);
        }
    }

    /// Stored messages carry their count in the encoding in use, so fitting
    /// does not tokenise the conversation again for every request.
    pub(super) fn counted(&self, message: Message) -> Message {
        self.counted_in(message, self.s.book.encoding)
    }

    pub(super) fn counted_in(&self, mut message: Message, encoding: tokens::TokenEncoding) -> Message {
        if message.meta.tokens.is_none_or(|t| t.encoding != encoding) {
            let count = tokens::message_tokens(encoding, &message.body);
            message.meta.tokens = Some(TokenCount { encoding, count });
        }
        message
    }

    pub(super) fn file_checked(&mut self, path: String, change: Option<FileChangeKind>, while_closed: bool) {
        let Some(kind) = change else {
            self.s.book.announced.remove(&path);
            return;
        };
        if self.s.book.announced.insert(path.clone(), kind.key()) == Some(kind.key()) {
            return;
        }
        let when = if while_closed { " while it was closed" } else { "" };
        let text = match kind {
            FileChangeKind::Deleted => format!("{path} was deleted outside Braid{when}."),
            FileChangeKind::Modified { .. } => {
                format!("{path} changed outside Braid{when}; the model will be told before its next request.")
            }
        };
        self.notify(Notice::new(NoticeCode::FileChanged, text));
    }
}
