//! A conversation's settings, each checked before it is kept: how it is
//! fitted into the window, when tools may run, and how the model is asked
//! to answer (tools on a normal turn, temperature, longest answer).

use super::step::Step;
use super::Reply;
use braid_protocol::{
    ContextStrategy, ErrorCode, GenerationSettings, ToolApprovalPolicy, ToolUse, WireError, MAX_TEMPERATURE,
};

/// Whether tools go with a normal turn: the conversation's choice, else
/// Auto for models known to call tools well and OnRequest for the others
/// (small local models call tools for every question).
pub fn tool_use(settings: &GenerationSettings, model_calls_tools: bool) -> ToolUse {
    settings.tool_use.unwrap_or(if model_calls_tools { ToolUse::Auto } else { ToolUse::AsNeeded })
}

/// Whether a strategy and a summary threshold can be kept: at least one
/// message kept, and summaries at 50 to 100 % of the window or 0 (only
/// when asked).
pub fn check_fitting(strategy: Option<ContextStrategy>, summarize_at_percent: Option<u8>) -> Result<(), String> {
    let bad_n = match strategy {
        Some(ContextStrategy::RecentN { n }) => n == 0,
        Some(ContextStrategy::Intelligent { keep_last } | ContextStrategy::ImportanceScoring { keep_last }) => {
            keep_last == 0
        }
        None => false,
    };
    let bad_pct = summarize_at_percent.is_some_and(|p| p != 0 && !(50..=100).contains(&p));
    if bad_n || bad_pct {
        return Err(
            "keep at least 1 message, and summarise at 50 to 100 % of the window (or 0: only when asked)".into()
        );
    }
    Ok(())
}

/// Whether new conversations can start with these defaults.
pub fn check_defaults(d: &braid_protocol::ConversationDefaults) -> Result<(), String> {
    check_fitting(d.strategy, d.summarize_at_percent)?;
    check_continue_cut(d.continue_cut)
}

fn check_continue_cut(continue_cut: Option<u32>) -> Result<(), String> {
    match continue_cut {
        Some(n) if n > braid_protocol::generation::MAX_CONTINUATIONS => Err(format!(
            "a cut answer continues at most {} times by itself, not {n}",
            braid_protocol::generation::MAX_CONTINUATIONS
        )),
        _ => Ok(()),
    }
}

/// A new conversation's settings with the user's defaults applied.
pub fn apply_defaults(config: &mut super::MachineConfig, d: &braid_protocol::ConversationDefaults) {
    if let Some(s) = d.strategy {
        config.context = s;
    }
    if let Some(p) = d.summarize_at_percent {
        config.summarize_at_percent = p;
    }
    if d.continue_cut.is_some() {
        config.generation.continue_cut = d.continue_cut;
    }
    if let Some(policy) = &d.tool_policy {
        config.tools.policy = policy.clone();
    }
    if let Some(sandbox) = &d.sandbox {
        config.tools.sandbox = *sandbox;
    }
}

impl Step<'_> {
    pub(super) fn set_context_strategy(&mut self, strategy: ContextStrategy, summarize_at_percent: Option<u8>) {
        if let Err(text) = check_fitting(Some(strategy), summarize_at_percent) {
            self.reply(Err(WireError::new(ErrorCode::InvalidInput, text)));
            return;
        }
        self.s.config.context = strategy;
        if let Some(p) = summarize_at_percent {
            self.s.config.summarize_at_percent = p;
        }
        self.reply(Ok(Reply::Done));
    }

    pub(super) fn keep_in_context(&mut self, message: braid_protocol::MessageId, keep: bool) {
        if keep {
            self.s.config.kept.insert(message);
        } else {
            self.s.config.kept.remove(&message);
        }
        self.reply(Ok(Reply::Done));
    }

    /// The runtime moves the folder once this accepts: tools in flight
    /// keep the folder they started in, so only while idle.
    pub(super) fn set_workspace(&mut self, confirm_reads: bool) {
        if self.refuse_if_busy("changing the folder") {
            return;
        }
        self.s.config.tools.confirm_reads = confirm_reads;
        self.reply(Ok(Reply::Done));
    }

    /// Answers `AgentBusy` while work is in flight (true then): a change
    /// that only an idle conversation takes, `doing` in words.
    pub(super) fn refuse_if_busy(&mut self, doing: &str) -> bool {
        if !self.s.status.is_busy() {
            return false;
        }
        let what = self.s.status.describe(self.now);
        let text = format!("Braid is busy ({what}). Cancel or wait before {doing}.");
        self.reply(Err(WireError::new(ErrorCode::AgentBusy, text)));
        true
    }

    pub(super) fn set_tool_policy(&mut self, policy: ToolApprovalPolicy, always_ask: Option<Vec<String>>) {
        self.s.config.tools.policy = policy;
        if let Some(list) = always_ask {
            self.s.config.tools.always_ask = list;
        }
        self.reply(Ok(Reply::Done));
    }

    /// Replaces the generation settings whole (an empty field goes back to
    /// the model's default); takes effect from the next request.
    pub(super) fn set_generation(&mut self, settings: GenerationSettings) {
        let problem = match settings {
            GenerationSettings { temperature: Some(t), .. } if !(0.0..=MAX_TEMPERATURE).contains(&t) => {
                Some(format!("the temperature must be between 0 and {MAX_TEMPERATURE}, not {t}"))
            }
            GenerationSettings { max_output_tokens: Some(0), .. } => {
                Some("the longest answer must be at least 1 token".to_owned())
            }
            GenerationSettings { continue_cut, .. } => check_continue_cut(continue_cut).err(),
        };
        match problem {
            Some(text) => self.reply(Err(WireError::new(ErrorCode::InvalidInput, text))),
            None => {
                self.s.config.generation = settings;
                self.reply(Ok(Reply::Done));
            }
        }
    }
}
