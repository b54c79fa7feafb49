//! The `/context` view: the next request as fitting would build it now,
//! part by part. It runs the same planning a request does
//! ([`Step::plan_request`]) on a copy of the state, so its counts are the
//! request's own: the parts sum to what the window would hold.

use super::prepare::Planned;
use super::step::Step;
use crate::fit::{self, Fit, PreparedRequest};
use crate::tokens;
use crate::tool_need::{self, ToolGroup};
use braid_protocol::{
    BreakdownAction, BreakdownCategory as Cat, BreakdownItem, BreakdownPart, ContextBreakdown, Message, MessageId,
    MessageType, PromptPart, Role, Timestamp, ToolSpec,
};
use std::collections::{BTreeMap, HashSet};

/// Messages listed by name in the Messages part (the largest); the rest
/// are counted in its total.
const LISTED_MESSAGES: usize = 12;

mod recount;
pub use recount::recount;

/// The next request as the breakdown planned it: what would be sent, for
/// the model's server to count whole.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedRequest {
    pub system: Vec<braid_protocol::SentPart>,
    pub messages: Vec<Message>,
    pub tools: Vec<ToolSpec>,
    pub tool_choice: Option<crate::llm::ToolChoice>,
    pub max_tokens: u32,
    pub temperature: Option<f64>,
}

/// A look at the next request: its breakdown, and the request itself when
/// it would be sent as it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Looked {
    pub breakdown: ContextBreakdown,
    pub request: Option<PlannedRequest>,
}

/// The breakdown of the next request for `state`, with `draft` (the text
/// being typed, if any) as its newest message, after what it attaches
/// (`attached`: the files its `@mentions` name, read as they would be).
/// `summaries`: the summaries in force, as sent.
pub fn breakdown(
    state: &super::ContextState,
    p: PreparedRequest,
    draft: &str,
    summaries: &[MessageId],
    now: Timestamp,
) -> ContextBreakdown {
    let drafted = (!draft.trim().is_empty())
        .then(|| Message::new(MessageId(0), now, MessageType::text(Role::User, draft)))
        .into_iter()
        .collect();
    look(state, p, drafted, summaries, now).breakdown
}

/// As [`breakdown`], with the request planned (see [`Looked`]).
/// `drafted`: what is being typed, last, after the files its `@mentions`
/// attach; their ids are given here, their counts kept when made (by the
/// model's server).
pub fn look(
    state: &super::ContextState,
    mut p: PreparedRequest,
    drafted: Vec<Message>,
    summaries: &[MessageId],
    now: Timestamp,
) -> Looked {
    let mut copy = state.clone();
    let step = Step::looking(&mut copy, now);
    let mut draft_id = None;
    for (k, mut m) in drafted.into_iter().enumerate() {
        m.id = MessageId(step.s.next_message_id + k as u64);
        draft_id = Some(m.id);
        p.messages.push(step.counted_in(m, p.encoding));
    }
    let untold = step.untold(&p);
    // What the user left out, as it would otherwise go.
    let excluded: Vec<Message> =
        p.messages.iter().filter(|m| step.s.config.left_out.contains(&m.id)).cloned().collect();
    step.adjust(&mut p);
    // Planned as the request would be; past the threshold, planned again
    // as it would go without the summary, to show what fills the window.
    let first = step.plan_request(&p, &untold, true);
    let would_summarize = matches!(first.plan, Fit::Summarize(_));
    let planned = if would_summarize { step.plan_request(&p, &untold, false) } else { first };
    let request = match (&planned.plan, would_summarize) {
        (Fit::Send { keep, .. }, false) => Some(PlannedRequest {
            system: planned.system.clone(),
            messages: p.messages.iter().filter(|m| keep.contains(&m.id)).cloned().collect(),
            tools: planned.tools.clone(),
            tool_choice: planned.tool_choice.clone(),
            max_tokens: p.max_output,
            temperature: step.s.config.generation.temperature,
        }),
        _ => None,
    };
    let facts = Facts { p: &p, draft: draft_id, summaries, state: step.s, excluded: &excluded };
    Looked { breakdown: facts.describe(planned, would_summarize), request }
}

struct Facts<'a> {
    p: &'a PreparedRequest,
    draft: Option<MessageId>,
    summaries: &'a [MessageId],
    state: &'a super::ContextState,
    excluded: &'a [Message],
}

impl Facts<'_> {
    fn describe(&self, planned: Planned, would_summarize: bool) -> ContextBreakdown {
        let mut parts: BTreeMap<Cat, BreakdownPart> = BTreeMap::new();
        // The prompt is sent as one text: its parts are counted alone and
        // what joining them adds goes to the base prompt, so the parts sum
        // to the prompt's count.
        let mut prompt_sum = 0u32;
        for s in &planned.system {
            let cat = prompt_category(s.part);
            prompt_sum += s.tokens;
            let label = prompt_label(s.part);
            let p = part(&mut parts, cat);
            p.tokens += s.tokens;
            p.items.push(BreakdownItem { label, tokens: s.tokens, sent: true, message: None, actions: Vec::new() });
        }
        let joining = planned.system_tokens.saturating_sub(prompt_sum);
        if joining > 0 {
            part(&mut parts, Cat::BasePrompt).tokens += joining;
        }
        self.tools(&planned, part(&mut parts, Cat::Tools));
        let (keep, estimated, too_large) = match &planned.plan {
            Fit::Send { keep, usage } => (keep.iter().copied().collect::<HashSet<_>>(), usage.estimated, None),
            Fit::TooLarge(why) => (HashSet::new(), false, Some(why.clone())),
            // Planned with summarising off: never asked for.
            Fit::Summarize(_) => (HashSet::new(), false, None),
        };
        let (mut left_out, mut left_out_tokens) = (0u32, 0u32);
        let superseded = crate::resources::superseded(&self.p.messages);
        // Named are the references, images, resources and summaries, and
        // the largest messages (naming all of a long conversation's would
        // cost more than counting them).
        let mut plain: Vec<(&Message, u32, bool)> = Vec::new();
        for m in self.p.messages.iter().filter(|m| !superseded.contains(&m.id)) {
            let tokens = fit::cost(m, self.p.encoding, self.p.sees_images);
            let sent = keep.contains(&m.id);
            let cat = self.category(m);
            if sent {
                part(&mut parts, cat).tokens += tokens;
            } else {
                left_out += 1;
                left_out_tokens += tokens;
            }
            if cat == Cat::Messages {
                plain.push((m, tokens, sent));
            } else {
                let item = self.item(m, tokens, sent, cat);
                part(&mut parts, cat).items.push(item);
            }
        }
        plain.sort_by_key(|(m, tokens, _)| (std::cmp::Reverse(*tokens), m.id));
        let mut messages: Vec<BreakdownItem> =
            plain.into_iter().take(LISTED_MESSAGES).map(|(m, t, sent)| self.item(m, t, sent, Cat::Messages)).collect();
        // The user's own exclusions show where they can be undone.
        for m in self.excluded {
            let cat = self.category(m);
            let tokens = fit::cost(m, self.p.encoding, self.p.sees_images);
            let actions = vec![BreakdownAction::Include { message: m.id }];
            let label = format!("{} (left out by you)", label_of(m, cat));
            let item = BreakdownItem { label, tokens, sent: false, message: Some(m.id), actions };
            if cat == Cat::Messages {
                messages.push(item);
            } else {
                part(&mut parts, cat).items.push(item);
            }
        }
        if !messages.is_empty() {
            part(&mut parts, Cat::Messages).items = messages;
        }
        let total = parts.values().map(|p| p.tokens).sum();
        ContextBreakdown {
            model: self.p.model.clone(),
            window: self.p.window,
            reserved_output: self.p.max_output,
            total,
            parts: parts.into_values().collect(),
            left_out,
            left_out_tokens,
            summarize_at_percent: self.state.config.summarize_at_percent,
            would_summarize,
            estimated,
            too_large,
            counted_by_server: false,
        }
    }

    /// The tool definitions by group: those sent, those "as needed" held
    /// back this turn, those left out to fit, and those the user dropped.
    fn tools(&self, planned: &Planned, p: &mut BreakdownPart) {
        let enc = self.p.encoding;
        let mut groups: BTreeMap<ToolGroup, (u32, bool)> = BTreeMap::new();
        for t in &planned.tools {
            let g = groups.entry(tool_need::group_of(t)).or_insert((0, true));
            g.0 += tokens::tool_tokens(enc, t);
        }
        let not_sent = |name: &str| planned.held_back.iter().chain(&planned.left_out).any(|n| n == name);
        for t in self.state.catalogue.iter().filter(|t| not_sent(&t.name)) {
            groups.entry(tool_need::group_of(t)).or_insert((tokens::tool_tokens(enc, t), false));
        }
        let dropped: Vec<&ToolSpec> =
            self.state.catalogue.iter().filter(|t| tool_need::dropped(t, &self.state.config.dropped_tools)).collect();
        p.tokens += planned.tools_tokens;
        for (group, (tokens, sent)) in groups {
            let key = group.key();
            let actions = vec![BreakdownAction::DropTools { group: key }];
            let label = if sent { group.label() } else { format!("{} (not sent this turn)", group.label()) };
            p.items.push(BreakdownItem { label, tokens, sent, message: None, actions });
        }
        let mut shown = HashSet::new();
        for t in dropped {
            let group = tool_need::group_of(t);
            if shown.insert(group.key()) {
                let actions = vec![BreakdownAction::OfferTools { group: group.key() }];
                let label = format!("{} (dropped here)", group.label());
                p.items.push(BreakdownItem { label, tokens: 0, sent: false, message: None, actions });
            }
        }
    }

    fn category(&self, m: &Message) -> Cat {
        if Some(m.id) == self.draft {
            return Cat::Draft;
        }
        if self.summaries.contains(&m.id) {
            return Cat::Summary;
        }
        match &m.body {
            MessageType::FileReference { .. } => Cat::Files,
            MessageType::Image { .. } => Cat::Images,
            MessageType::McpResource { .. } => Cat::Resources,
            _ => Cat::Messages,
        }
    }

    fn item(&self, m: &Message, tokens: u32, sent: bool, cat: Cat) -> BreakdownItem {
        let id = m.id;
        let kept = self.state.config.kept.contains(&id);
        let mut actions = Vec::new();
        match cat {
            Cat::Draft => {}
            Cat::Summary => actions.push(BreakdownAction::UndoSummary { message: id }),
            Cat::Files | Cat::Images | Cat::Resources => {
                actions.push(if kept {
                    BreakdownAction::Unkeep { message: id }
                } else {
                    BreakdownAction::Keep { message: id }
                });
                actions.push(BreakdownAction::LeaveOut { message: id });
            }
            _ => {
                actions.push(BreakdownAction::SummarizeUpTo { message: id });
                actions.push(BreakdownAction::LeaveOut { message: id });
            }
        }
        BreakdownItem { label: label_of(m, cat), tokens, sent, message: Some(id), actions }
    }
}

/// Which part of the breakdown a part of the system prompt counts in.
fn prompt_category(part: PromptPart) -> Cat {
    match part {
        PromptPart::Instructions => Cat::Instructions,
        PromptPart::Team | PromptPart::SubAgent => Cat::Team,
        PromptPart::Tools | PromptPart::ToolExamples => Cat::Tools,
        _ => Cat::BasePrompt,
    }
}

fn part(parts: &mut BTreeMap<Cat, BreakdownPart>, c: Cat) -> &mut BreakdownPart {
    parts.entry(c).or_insert(BreakdownPart { category: c, tokens: 0, items: Vec::new() })
}

fn prompt_label(part: PromptPart) -> String {
    match part {
        PromptPart::Base => "Base prompt",
        PromptPart::BranchOverride => "Conversation or branch prompt",
        PromptPart::Personal => "Your instructions",
        PromptPart::Untrusted => "Rule for outside text",
        PromptPart::Role => "Role",
        PromptPart::Mode => "Plan mode",
        PromptPart::Workspace => "Workspace",
        PromptPart::Instructions => "Project instructions",
        PromptPart::Tools => "Tool list",
        PromptPart::ToolExamples => "Tool examples",
        PromptPart::FileChanges => "Changed files",
        PromptPart::Continuation => "Continue note",
        PromptPart::Team => "Team",
        PromptPart::SubAgent => "Sub-agent task",
    }
    .to_owned()
}

fn image_name(source: &braid_protocol::ImageSource) -> String {
    use braid_protocol::{ImageSource, StoredImage};
    match source {
        ImageSource::FilePath { path } => path.clone(),
        ImageSource::Url { url } => url.clone(),
        ImageSource::Stored(StoredImage { name: Some(name), .. }) => name.clone(),
        _ => "(pasted)".to_owned(),
    }
}

/// A line naming a message: its kind and its first words.
fn label_of(m: &Message, cat: Cat) -> String {
    let short = |text: &str| {
        let line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let cut: String = line.chars().take(60).collect();
        if cut.len() < line.len() {
            format!("{cut}…")
        } else {
            cut
        }
    };
    match (&m.body, cat) {
        (_, Cat::Draft) => "What you are typing".to_owned(),
        (_, Cat::Summary) => "Summary of earlier messages".to_owned(),
        (MessageType::FileReference { path, .. }, _) => format!("@{path}"),
        (MessageType::Image { source, .. }, _) => format!("Image {}", image_name(source)),
        (MessageType::McpResource { server_name, resource_uri, .. }, _) => format!("{server_name}: {resource_uri}"),
        (MessageType::Text { role: Role::User, .. }, _) => {
            format!("You: {}", short(&m.body.plain_text().unwrap_or_default()))
        }
        (MessageType::Text { .. }, _) => format!("Answer: {}", short(&m.body.plain_text().unwrap_or_default())),
        (MessageType::ToolRequest { calls, .. }, _) => {
            format!("Calls {}", calls.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(", "))
        }
        (MessageType::ToolResult { output, error, .. }, _) => {
            format!("Result: {}", short(error.as_deref().unwrap_or(output)))
        }
        _ => format!("message {}", m.id),
    }
}
