//! Team chat in the machine: a user message routed to the members its
//! `[NEXT:name]` markers name (the first member when it names none), each
//! member's request built by `crate::team` from the conversation, its
//! answer stored under its name, and the turns its own markers queue —
//! within the limits on a chain, and steered by the user.

use super::step::Step;
use super::Effect;
use crate::fit::PreparedRequest;
use crate::llm::LlmFailure;
use crate::team::{self, assemble::MemberInput, routing, Said};
use crate::tokens;
use braid_protocol::{
    AgentType, ContextStatus, ErrorCode, FailureCode, Message, MessageType, Notice, NoticeCode, PromptPart, RequestId,
    Role, SentPart, Team, TeamAction, TeamMember, TeamRoute, WireError, MAX_AGENT_TURNS, MAX_QUEUED_TURNS,
};

impl Step<'_> {
    pub(super) fn team(&self) -> Option<&Team> {
        self.s.config.team.as_ref()
    }

    /// The member answering now, if a chain runs.
    pub(super) fn running_member(&self) -> Option<TeamMember> {
        let name = self.s.route.running.as_ref()?;
        self.team()?.members.iter().find(|m| &m.name == name).cloned()
    }

    /// A request no chain started (Retry, Continue, Answer again) in a
    /// team conversation: the member whose answer is continued, else the
    /// first its question's markers name, else the first member. It then
    /// answers as in a chain.
    pub(super) fn member_for_retry(&mut self, p: &PreparedRequest) -> Option<TeamMember> {
        let team = self.team()?;
        let last = p.messages.iter().rev().find_map(Said::of)?;
        let name = match last.speaker {
            team::Speaker::Member(name) if team.members.iter().any(|m| m.name == name) => name,
            _ => routing::resolve(team, &routing::next_markers(&last.text))
                .ok()
                .and_then(|names| names.into_iter().next())
                .or_else(|| team.members.first().map(|m| m.name.clone()))?,
        };
        self.s.route = TeamRoute { running: Some(name), queued_total: 1, ..TeamRoute::default() };
        self.running_member()
    }

    /// Checks a user message's markers before anything is stored.
    pub(super) fn check_route(&self, body: &MessageType) -> Result<(), WireError> {
        let (Some(team), Some(text)) = (self.team(), body.plain_text()) else { return Ok(()) };
        routing::resolve(team, &routing::next_markers(&text))
            .map(|_| ())
            .map_err(|e| WireError::new(ErrorCode::InvalidInput, e))
    }

    /// The user's message (`said`: its text, in a team) is stored: the
    /// model answers it, or in a team conversation the members it names
    /// do, in order.
    pub(super) fn answer_message(&mut self, said: Option<String>) {
        let Some(team) = self.team() else {
            self.start_request(1);
            return;
        };
        let text = said.unwrap_or_default();
        let mut names = routing::resolve(team, &routing::next_markers(&text)).unwrap_or_default();
        if names.is_empty() {
            names = team.members.iter().take(1).map(|m| m.name.clone()).collect();
        }
        self.s.route = TeamRoute::default();
        self.queue_turns(names);
        self.next_member();
    }

    /// Queues turns, at most [`MAX_QUEUED_TURNS`] in a chain.
    fn queue_turns(&mut self, names: Vec<String>) {
        let room = MAX_QUEUED_TURNS.saturating_sub(self.s.route.queued_total) as usize;
        if names.len() > room {
            self.notify(Notice::new(
                NoticeCode::TeamLimit,
                format!("This chain reached {MAX_QUEUED_TURNS} turns; {} more were not queued.", names.len() - room),
            ));
        }
        let taken: Vec<String> = names.into_iter().take(room).collect();
        self.s.route.queued_total += taken.len() as u32;
        self.s.route.queue.extend(taken);
    }

    /// The next queued member answers, or the turn returns to the user.
    fn next_member(&mut self) {
        self.s.route.running = None;
        if self.s.route.queue.is_empty() {
            self.s.route = TeamRoute::default();
            self.set_status(ContextStatus::Idle);
            return;
        }
        if self.s.route.agent_turns >= MAX_AGENT_TURNS {
            self.s.route.paused = true;
            let next = self.s.route.queue[0].clone();
            self.notify(Notice::new(
                NoticeCode::TeamPaused,
                format!(
                    "The team took {MAX_AGENT_TURNS} turns in a row. Resume to let {next} answer, or write to the team."
                ),
            ));
            self.set_status(ContextStatus::Idle);
            return;
        }
        let name = self.s.route.queue.remove(0);
        self.s.route.running = Some(name);
        self.start_request(1);
    }

    /// A member's answer was stored (or it gave none): the names its
    /// markers gave queue the next turns.
    pub(super) fn member_answered(&mut self, names: Vec<String>, interrupted: bool) {
        self.s.route.agent_turns += 1;
        if interrupted {
            self.s.route = TeamRoute::default();
            self.set_status(ContextStatus::Idle);
            return;
        }
        let resolved = match self.team().map(|t| routing::resolve(t, &names)) {
            Some(Ok(resolved)) => resolved,
            Some(Err(e)) => {
                let who = self.s.route.running.clone().unwrap_or_default();
                self.notify(Notice::new(NoticeCode::TeamUnknownMember, format!("{who}'s answer: {e}.")));
                Vec::new()
            }
            None => Vec::new(),
        };
        self.queue_turns(resolved);
        self.next_member();
    }

    /// The request of the running member, built from the conversation the
    /// runtime gathered: an API model's request, or a CLI's run.
    pub(super) fn prepared_for_member(&mut self, request_id: RequestId, p: PreparedRequest, member: TeamMember) {
        let Some(team) = self.team().cloned() else { return };
        let window = member.window.unwrap_or(team.window) as usize;
        // Only what the window can hold is read: the current message and
        // the `window` before it.
        let mut said: Vec<Said> = p.messages.iter().rev().filter_map(Said::of).take(window + 1).collect();
        said.reverse();
        let Some((current, before)) = said.split_last() else {
            let failure = LlmFailure::fatal(FailureCode::AgentFailed, "there is no message for the team to answer");
            self.failed(failure);
            return;
        };
        let budget = usize::try_from(team.byte_budget).unwrap_or(usize::MAX);
        let (context, current) = team::context_for(before, current, window, budget);
        let input = MemberInput {
            instruction: &member.instruction,
            instruction_file: p.member_file.as_deref(),
            task: &team.task,
            context: &context,
            message: &current,
        };
        let assembled = team::assemble(&member.agent, &input);
        self.set_status(ContextStatus::PreparingLlmRequest);
        if let AgentType::Api { .. } = member.agent {
            let system = assembled
                .system
                .map(|text| SentPart { part: PromptPart::Team, tokens: tokens::count(p.encoding, &text), text })
                .into_iter()
                .collect();
            let asked = Message::new(current.id, self.now, MessageType::text(Role::User, assembled.prompt));
            self.run(Effect::SendLlmRequest {
                request_id,
                system,
                messages: vec![asked],
                tools: Vec::new(),
                tool_choice: None,
                max_tokens: p.max_output,
                temperature: self.s.config.generation.temperature,
            });
            return;
        }
        self.run(Effect::RunAgent {
            request_id,
            member: Box::new(member),
            system: assembled.system,
            prompt: assembled.prompt,
            warning: assembled.warning,
        });
    }

    /// Sets the team (or none), while nothing runs.
    pub(super) fn set_team(&mut self, team: Option<Team>) {
        if self.s.status.is_busy() {
            let what = self.s.status.describe(self.now);
            let text = format!("Braid is busy ({what}). Change the team when it is idle.");
            self.reply(Err(WireError::new(ErrorCode::AgentBusy, text)));
            return;
        }
        let team = match team {
            Some(mut team) => {
                if let Err(e) = team::validate(&team) {
                    self.reply(Err(WireError::new(ErrorCode::InvalidInput, e)));
                    return;
                }
                let (task, warning) = team::cut_task(&team.task);
                team.task = task;
                if let Some(warning) = warning {
                    self.notify(Notice::new(NoticeCode::TeamTaskCut, warning));
                }
                Some(team)
            }
            None => None,
        };
        self.s.config.team = team;
        self.s.route = TeamRoute::default();
        self.reply(Ok(super::Reply::Done));
        self.notify_route();
    }

    /// The user steers the chain.
    pub(super) fn steer(&mut self, action: TeamAction) {
        match action {
            TeamAction::Skip { position } => {
                let at = position as usize;
                if at >= self.s.route.queue.len() {
                    let text = format!("there is no queued turn at place {}", at + 1);
                    self.reply(Err(WireError::new(ErrorCode::NotFound, text)));
                    return;
                }
                self.s.route.queue.remove(at);
                self.reply(Ok(super::Reply::Done));
                if self.s.route.paused && self.s.route.queue.is_empty() {
                    self.s.route = TeamRoute::default();
                }
                self.notify_route();
            }
            TeamAction::SkipRunning => {
                let Some(name) = self.s.route.running.clone() else {
                    self.reply(Err(WireError::new(ErrorCode::NotFound, "no member is answering")));
                    return;
                };
                self.reply(Ok(super::Reply::Done));
                self.drop_request();
                self.notify(Notice::new(NoticeCode::Cancelled, format!("{name} was skipped.")));
                self.next_member();
            }
            TeamAction::Stop => {
                if self.s.status.is_busy() {
                    self.cancel();
                } else {
                    self.reply(Ok(super::Reply::Done));
                }
                self.s.route = TeamRoute::default();
                self.notify_route();
            }
            TeamAction::Resume => {
                if !self.s.route.paused || self.s.status.is_busy() {
                    self.reply(Err(WireError::new(ErrorCode::InvalidInput, "the team has not paused")));
                    return;
                }
                self.reply(Ok(super::Reply::Done));
                self.s.route.paused = false;
                self.s.route.agent_turns = 0;
                self.next_member();
            }
        }
    }

    /// Stops the running member's request, keeping nothing of it.
    fn drop_request(&mut self) {
        let Some(r) = self.s.request.take() else { return };
        if self.kind() == braid_protocol::StatusKind::RetryingLlmRequest {
            self.run(Effect::CancelRetry { request_id: r.id });
        } else {
            self.run(Effect::AbortLlmRequest { request_id: r.id, keep_partial: false });
        }
        if r.sequence > 0 {
            self.discard(r.response_id);
        }
    }

    /// Tells subscribers the route changed when the state did not.
    fn notify_route(&mut self) {
        let effect = self.update_effect();
        self.run(effect);
    }

    pub(super) fn route_view(&self) -> Option<Box<TeamRoute>> {
        self.s.route.visible().map(Box::new)
    }
}
