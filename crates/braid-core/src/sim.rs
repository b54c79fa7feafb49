//! A deterministic simulator for the state machine, in the manner of
//! quinn-proto's test `Pair`: a state, a conversation the persistence
//! effects are applied to, a simulated clock, and a log of everything. No
//! runtime, no I/O. Used by the core's tests and benchmarks, and by the
//! property tests of other crates.

use crate::context::{Context, ContextMeta, Step};
use crate::conversation::Conversation;
use crate::fit::PreparedRequest;
use crate::history::{TransitionLog, TransitionRecord};
use crate::invariants::{check_conversation, check_state, check_tool_pairing, Violation};
use crate::machine::{is_tool_phase, ContextState, Effect, Event, Reply};
use braid_protocol::{
    BraidEvent, BranchId, ContextId, ContextStatus, Message, Permission, RequestId, Timestamp, ToolSandbox, ToolSource,
    ToolSpec, WireError,
};

/// The tools a simulated context has: the built-in names with their
/// permissions (the real specs live in `braid-tools`, which checks that
/// they agree).
pub const SIM_TOOLS: &[(&str, Permission)] = &[
    ("read_file", Permission::Read),
    ("list_directory", Permission::Read),
    ("glob_files", Permission::Read),
    ("write_file", Permission::Write),
    ("edit_file", Permission::Write),
    ("run_command", Permission::Execute),
];

/// [`SIM_TOOLS`] as a catalogue.
pub fn catalogue() -> Vec<ToolSpec> {
    SIM_TOOLS.iter().map(|(name, permission)| spec(name, *permission)).collect()
}

/// A tool spec with an empty schema, for tests.
pub fn spec(name: &str, permission: Permission) -> ToolSpec {
    ToolSpec {
        name: name.to_owned(),
        description: format!("the {name} tool"),
        input_schema: serde_json::json!({"type": "object"}),
        permission,
        parallel_safe: permission == Permission::Read,
        examples: Vec::new(),
        source: ToolSource::Builtin,
        // Commands run in the sandbox, as on a machine that has one.
        sandbox: if permission == Permission::Execute { ToolSandbox::Applied } else { ToolSandbox::NotUsed },
        pin: None,
    }
}

/// The simulated context is the core's own [`Context`], driven as the
/// runtime's actor drives it; `sim.state` and `sim.conversation` reach
/// into it.
pub struct Sim {
    pub ctx: Context,
    pub now: Timestamp,
    pub log: TransitionLog,
    /// Every effect, in order.
    pub effects: Vec<Effect>,
    /// Every state the context was in, in order (counters included).
    pub states: Vec<ContextStatus>,
}

impl std::ops::Deref for Sim {
    type Target = Context;
    fn deref(&self) -> &Context {
        &self.ctx
    }
}

impl std::ops::DerefMut for Sim {
    fn deref_mut(&mut self) -> &mut Context {
        &mut self.ctx
    }
}

impl Default for Sim {
    fn default() -> Sim {
        Sim::new()
    }
}

impl Sim {
    pub fn new() -> Sim {
        let now = Timestamp(1_700_000_000_000);
        let id = ContextId("ctx-sim".to_owned());
        let meta = ContextMeta {
            id: id.clone(),
            title: crate::title::DEFAULT_TITLE.to_owned(),
            working_dir: "/sim".to_owned(),
            created_at: now,
            updated_at: now,
            model: None,
            pinned: false,
        };
        let state = ContextState { catalogue: catalogue().into(), ..ContextState::new(id) };
        Sim {
            ctx: Context::new(meta, state, Conversation::new(now)),
            now,
            log: TransitionLog::new(10_000),
            effects: Vec::new(),
            states: vec![ContextStatus::Idle],
        }
    }

    pub fn advance(&mut self, ms: u64) {
        self.now = self.now.plus_ms(ms);
    }

    /// Feeds one event to the context, records everything, and checks
    /// every invariant. Returns the effects of this step.
    pub fn step(&mut self, event: Event) -> Result<Vec<Effect>, Violation> {
        let step = self.ctx.handle(event, self.now);
        self.record(step)
    }

    /// Records a step the context took (any of its operations), and
    /// checks every invariant after it.
    pub fn record(&mut self, step: Step) -> Result<Vec<Effect>, Violation> {
        let name = step.event;
        check_effect_order(&step.effects)?;
        if let Some(problem) = step.unapplied.first() {
            return Err(Violation(problem.clone()));
        }
        for e in &step.effects {
            if let Effect::Emit(BraidEvent::ContextUpdate(u)) = e {
                if u.current_state != *self.states.last().unwrap_or(&ContextStatus::Idle) {
                    self.states.push(u.current_state.clone());
                }
            }
        }
        if step.effects.iter().any(|e| matches!(e, Effect::StartLlmRequest { .. })) {
            check_tool_pairing(&self.ctx.conversation, self.ctx.conversation.active_branch())?;
        }
        self.log.push(TransitionRecord {
            at: self.now,
            event: name.into(),
            from: step.from,
            to: self.ctx.state.status.kind(),
            effects: step.effects.len(),
        });
        check_state(&self.ctx.state)?;
        check_conversation(&self.ctx.conversation)?;
        if !is_tool_phase(self.ctx.state.status.kind()) {
            check_tool_pairing(&self.ctx.conversation, self.ctx.conversation.active_branch())?;
        }
        self.effects.extend(step.effects.iter().cloned());
        Ok(step.effects)
    }

    /// Like [`Sim::record`], panicking on a broken invariant (for tests).
    pub fn took(&mut self, step: Step) -> Vec<Effect> {
        match self.record(step) {
            Ok(e) => e,
            Err(v) => panic!("{v}"),
        }
    }

    /// Like [`Sim::step`], panicking on a broken invariant (for tests).
    pub fn send(&mut self, event: Event) -> Vec<Effect> {
        match self.step(event) {
            Ok(e) => e,
            Err(v) => panic!("{v}"),
        }
    }

    /// Runs the pipeline effect of the last step as the runtime would,
    /// successfully: the message enters the pool.
    pub fn pipeline_ok(&mut self, effects: &[Effect]) -> Vec<Effect> {
        self.pipeline_with(effects, Vec::new())
    }

    /// As [`Sim::pipeline_ok`], the pipeline having resolved these
    /// attachments (file references, images) for the message: each stage
    /// the machine asks for is answered, the text naming no files.
    pub fn pipeline_with(&mut self, effects: &[Effect], attachments: Vec<braid_protocol::MessageType>) -> Vec<Effect> {
        let Some(message) = effects.iter().find_map(|e| match e {
            Effect::RunPipeline(m) => Some(m.clone()),
            _ => None,
        }) else {
            panic!("no RunPipeline effect in {effects:?}")
        };
        let fx = self.send(Event::PipelineProcessed { message, mentions_files: false });
        self.attachments_read(&fx, attachments)
    }

    /// Answers the `ReadAttachments` among `effects` with what it asked
    /// to store and `read`.
    pub fn attachments_read(&mut self, effects: &[Effect], read: Vec<braid_protocol::MessageType>) -> Vec<Effect> {
        let Some((message, mut attachments)) = effects.iter().find_map(|e| match e {
            Effect::ReadAttachments { message, attachments, .. } => Some((message.clone(), attachments.clone())),
            _ => None,
        }) else {
            panic!("no ReadAttachments effect in {effects:?}")
        };
        attachments.extend(read);
        self.send(Event::PipelineSucceeded { message, attachments })
    }

    /// The user sends `text` and the pipeline passes it: the request
    /// starts (`StartLlmRequest`). Returns the effects of that step.
    pub fn start(&mut self, text: &str) -> Vec<Effect> {
        self.start_with(text, Vec::new())
    }

    /// As [`Sim::start`], with these attachments resolved by the pipeline.
    pub fn start_with(&mut self, text: &str, attachments: Vec<braid_protocol::MessageType>) -> Vec<Effect> {
        let fx = self.send(Event::UserMessage {
            body: braid_protocol::MessageType::text(braid_protocol::Role::User, text),
            queue_if_busy: false,
            force_tool: None,
            images: Vec::new(),
        });
        self.pipeline_with(&fx, attachments)
    }

    /// The model answers the request in flight with these tool calls
    /// (id, name, JSON arguments). Returns the effects of that step.
    pub fn model_calls(&mut self, calls: &[(&str, &str, &str)]) -> Vec<Effect> {
        let request_id = self.request_id();
        let tool_calls = calls
            .iter()
            .map(|(id, name, arguments)| crate::llm::ToolCallSpec {
                id: (*id).into(),
                name: (*name).into(),
                arguments: (*arguments).into(),
            })
            .collect();
        let response = crate::llm::LlmResponse {
            text: String::new(),
            tool_calls,
            usage: None,
            stop_reason: crate::llm::StopReason::ToolUse,
        };
        self.send(Event::LlmCompleted { request_id, response })
    }

    /// The tool call `id` finished successfully with `output`.
    pub fn tool_done(&mut self, id: &str, output: &str) -> Vec<Effect> {
        self.tool_finished(id, output, None)
    }

    /// The writing tool call `id` finished, leaving content that hashes to
    /// `written`.
    pub fn tool_wrote(&mut self, id: &str, output: &str, written: u64) -> Vec<Effect> {
        self.tool_finished(id, output, Some(written))
    }

    /// The command `id` failed because the sandbox refused it (`why`).
    pub fn tool_blocked(&mut self, id: &str, why: &str) -> Vec<Effect> {
        let outcome = crate::machine::ToolOutcome {
            status: braid_protocol::ToolResultStatus::Error,
            output: "sandbox: workspace-write, network off\nexit code: 1\n".into(),
            error: Some(format!("the command exited with 1; blocked by the sandbox: {why}")),
            recoverable: true,
            duration_ms: 1,
            written: None,
            blocked: Some(Box::new(why.to_owned())),
            images: Vec::new(),
            secrets: None,
        };
        self.send(Event::ToolFinished { call_id: id.into(), outcome })
    }

    fn tool_finished(&mut self, id: &str, output: &str, written: Option<u64>) -> Vec<Effect> {
        let outcome = crate::machine::ToolOutcome {
            status: braid_protocol::ToolResultStatus::Success,
            output: output.into(),
            error: None,
            recoverable: false,
            duration_ms: 1,
            written,
            blocked: None,
            images: Vec::new(),
            secrets: None,
        };
        self.send(Event::ToolFinished { call_id: id.into(), outcome })
    }

    /// The results of the calls so far: call id, status, error (or "").
    pub fn tool_results(&self) -> Vec<(String, braid_protocol::ToolResultStatus, String)> {
        self.messages()
            .iter()
            .filter_map(|m| match &m.body {
                braid_protocol::MessageType::ToolResult { request_id, status, error, .. } => {
                    Some((request_id.to_string(), *status, error.clone().unwrap_or_default()))
                }
                _ => None,
            })
            .collect()
    }

    /// Forks the active branch after `at` through the machine, as the
    /// runtime does; `Err` carries the refusal.
    pub fn fork(&mut self, at: braid_protocol::MessageId, name: &str, switch: bool) -> Result<BranchId, WireError> {
        let source = self.conversation.active_branch().clone();
        let draft = self
            .conversation
            .fork(&source, at, name, None, self.now)
            .map_err(|e| WireError::new(braid_protocol::ErrorCode::InvalidInput, e.to_string()))?;
        let fx = self.send(Event::CreateBranch { draft: Box::new(draft), switch });
        match reply_of(&fx) {
            Some(Ok(Reply::Branch(id))) => Ok(id.clone()),
            Some(Err(e)) => Err(e.clone()),
            other => panic!("no branch reply: {other:?}"),
        }
    }

    /// Merges into the active branch through the machine, as the runtime
    /// does; `Ok` is the merge card's id, `Err` the refusal.
    pub fn merge(&mut self, options: &braid_protocol::MergeOptions) -> Result<braid_protocol::MessageId, WireError> {
        let step = self.ctx.merge(options, Vec::new(), self.now);
        let fx = self.took(step);
        match reply_of(&fx) {
            Some(Ok(Reply::Message(id))) => Ok(*id),
            Some(Err(e)) => Err(e.clone()),
            other => panic!("no merge reply: {other:?}"),
        }
    }

    /// Undoes the merge whose card is `card`, through the machine.
    pub fn undo_merge(&mut self, card: braid_protocol::MessageId) -> Result<(), WireError> {
        let step = self.ctx.undo_merge(card, Vec::new(), self.now);
        let fx = self.took(step);
        match reply_of(&fx) {
            Some(r) => r.clone().map(drop),
            None => panic!("no reply to an undo"),
        }
    }

    /// The request id of the current LLM request.
    pub fn request_id(&self) -> RequestId {
        match &self.state.request {
            Some(r) => r.id,
            None => panic!("no request in flight in {:?}", self.state.status),
        }
    }

    /// The facts the runtime would hand over for the current request: the
    /// active branch as sent, a model with this `window`, 100 tokens of
    /// output reserve, no tools, no system prompt.
    pub fn prepared(&self, window: u32) -> PreparedRequest {
        PreparedRequest {
            model: "sim-model".to_owned(),
            encoding: crate::tokens::TokenEncoding::O200k,
            window,
            max_output: 100,
            model_max_output: 100,
            sees_images: false,
            calls_tools: true,
            counted_by_model: false,
            configured_prompt: None,
            branch_prompt: None,
            personal: None,
            messages: crate::prompt::request_messages(&self.conversation),
            pinned_summary: crate::prompt::latest_summary(&self.conversation),
            kept: self.state.config.kept.iter().copied().collect(),
            changed_files: Vec::new(),
            workspace: None,
            member_file: None,
        }
    }

    /// Answers the current request's `StartLlmRequest` with `prepared`.
    pub fn prepare(&mut self, prepared: PreparedRequest) -> Vec<Effect> {
        let request_id = self.request_id();
        self.send(Event::RequestPrepared { request_id, prepared: Box::new(prepared) })
    }

    pub fn messages(&self) -> Vec<&Message> {
        self.conversation.active_messages().collect()
    }
}

/// The reply in a list of effects.
pub fn reply_of(effects: &[Effect]) -> Option<&Result<Reply, WireError>> {
    effects.iter().find_map(|e| match e {
        Effect::Reply(r) => Some(r),
        _ => None,
    })
}

/// Persistence effects must precede all others.
pub fn check_effect_order(effects: &[Effect]) -> Result<(), Violation> {
    let first_other = effects.iter().position(|e| !e.is_persistence()).unwrap_or(effects.len());
    match effects[first_other..].iter().find(|e| e.is_persistence()) {
        Some(e) => Err(Violation(format!("persistence effect {e:?} after a non-persistence effect"))),
        None => Ok(()),
    }
}
