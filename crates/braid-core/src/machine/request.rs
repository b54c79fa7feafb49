//! One LLM request from start to answer: opening it, the streamed
//! deltas, the completed answer (stored, marked when cut at the output
//! limit, or opening a tool round), and failures with their retries.

use super::step::Step;
use super::{is_request_phase, retry_delay_ms, ContextStatus, Effect, InFlight};
use crate::llm::{LlmFailure, LlmResponse, StopReason};
use braid_protocol::{
    AnswerSpeed, BraidEvent, ContentDelta, ContentFinal, FailureCode, MessageChange, MessageId, MessageKind,
    MessageLifecycle, MessageType, Notice, NoticeCode, RequestId, Role, StatusKind,
};

/// A request filling this share of the window (answer reserve included)
/// that gets no answer at all is taken as too long.
const NEAR_THE_WINDOW_PERCENT: u64 = 85;

/// How often, at most, a stream's running counts are sent to the clients.
const PROGRESS_EVERY_MS: u64 = 100;

impl Step<'_> {
    /// Opens request attempt `attempt`; during the tool loop the state stays
    /// ToolAutoLoop until the request is on its way.
    pub(super) fn start_request(&mut self, attempt: u32) {
        let id = RequestId(self.s.next_request_id);
        self.s.next_request_id += 1;
        let response_id = self.alloc_message_id();
        let force_tool = self.s.force_tool.take();
        self.s.request = Some(InFlight {
            id,
            attempt,
            response_id,
            sequence: 0,
            interrupted: false,
            force_tool,
            trimmed: false,
            continues: None,
            continued: 0,
            sent_at: None,
            first_token_at: None,
            progress_at: None,
        });
        // The runtime assembles the system prompt and the request's facts.
        if self.kind() != StatusKind::ToolAutoLoop {
            self.set_status(ContextStatus::EnhancingSystemPrompt);
        }
        let member = self.running_member().map(Box::new);
        self.run(Effect::StartLlmRequest { request_id: id, response_id, member });
    }

    /// Opens `old` again as attempt `attempt`. A retry asks what the request
    /// it repeats asked: the tool it forces, and the cut answer it
    /// continues, so a failed continuation is still joined to that answer
    /// (else its text became a second answer after the cut one, a request
    /// ending in two assistant messages, which llama.cpp's server refuses).
    pub(super) fn repeat_request(&mut self, old: InFlight, attempt: u32) {
        self.s.force_tool = old.force_tool;
        self.start_request(attempt);
        if let Some(r) = self.s.request.as_mut() {
            r.continues = old.continues;
            r.continued = old.continued;
        }
    }

    /// The request is on its way: its answer's wait is timed from here.
    pub(super) fn request_sent(&mut self) {
        let now = self.now;
        if let Some(request) = self.s.request.as_mut() {
            request.sent_at = Some(now);
        }
        self.set_status(ContextStatus::ConnectingToLlm);
    }

    /// After a summary: the same request goes out, now with the summary.
    pub(super) fn resume_request(&mut self) {
        let Some(r) = self.s.request.as_ref() else { return };
        let (request_id, response_id) = (r.id, r.response_id);
        self.set_status(ContextStatus::EnhancingSystemPrompt);
        let member = self.running_member().map(Box::new);
        self.run(Effect::StartLlmRequest { request_id, response_id, member });
    }

    pub(super) fn delta(&mut self, request_id: RequestId, text: String) {
        if !self.request_is(request_id) || !is_request_phase(self.kind()) || text.is_empty() {
            return;
        }
        let chars = text.chars().count() as u64;
        let (chunks, total) = match self.s.status {
            ContextStatus::StreamingLlmResponse { chunks, chars: so_far } => {
                self.progress_only = true;
                (chunks + 1, so_far + chars)
            }
            _ => (1, chars),
        };
        let now = self.now;
        let Some(request) = self.s.request.as_mut() else { return };
        request.sequence += 1;
        request.first_token_at.get_or_insert(now);
        // The counts go to the clients at most every PROGRESS_EVERY_MS (the
        // delta itself goes every time, with its sequence): a person sees no
        // more, and a second event per chunk was half of what a chunk cost.
        // The last counts always arrive, as the previous state of the
        // update that ends the stream.
        let tell = request.progress_at.is_none_or(|at| now.0 >= at.0 + PROGRESS_EVERY_MS);
        if tell {
            request.progress_at = Some(now);
        }
        let (message_id, sequence) = (request.response_id, request.sequence);
        let status = ContextStatus::StreamingLlmResponse { chunks, chars: total };
        if chunks == 1 {
            // The answer exists and streams: one update before its first
            // delta, which is what the user waits for.
            let created = MessageLifecycle {
                message_id,
                kind: MessageKind::Text,
                change: MessageChange::Created,
                message: None,
                withheld: false,
            };
            self.set_status_saying(status, Some(created));
        } else if tell {
            self.set_status(status);
        } else {
            self.s.status = status;
        }
        self.run(Effect::Emit(BraidEvent::ContentDelta(ContentDelta {
            context_id: self.s.context_id.clone(),
            message_id,
            sequence,
            delta: text,
            is_final: false,
        })));
    }

    pub(super) fn completed(&mut self, response: LlmResponse) {
        let Some(mut request) = self.s.request.take() else { return };
        self.learn_usage(response.usage);
        self.child_answered(response.usage);
        self.set_status(ContextStatus::ProcessingLlmResponse);
        if request.sequence > 0 {
            self.run(Effect::Emit(BraidEvent::ContentFinal(ContentFinal {
                context_id: self.s.context_id.clone(),
                message_id: request.response_id,
                sequence: request.sequence + 1,
                is_final: true,
            })));
        }
        let interrupted = request.interrupted || response.stop_reason == StopReason::Interrupted;
        if response.usage.is_none() && !interrupted {
            // Said once per answer, never papered over with an estimate.
            self.notify(Notice::new(
                NoticeCode::UsageUnreported,
                "The server reported no token usage for this answer.",
            ));
        }
        let member = self.s.route.running.clone();
        // A member's markers, read before its answer is stored.
        let next = member.as_ref().map(|_| crate::team::next_markers(&response.text));
        if !interrupted && !response.tool_calls.is_empty() && member.is_none() {
            self.open_tool_round(request.response_id, response);
            return;
        }
        if response.text.is_empty() {
            if request.sequence > 0 {
                self.discard(request.response_id);
            }
            if request.continues.is_some() && !interrupted {
                // Nothing more came: the answer stays as it was, cut.
                self.tell_cut(request.continued);
            } else if !interrupted {
                self.notify(Notice::new(NoticeCode::EmptyResponse, "The model returned an empty answer."));
            }
        } else {
            let body = MessageType::text(Role::Assistant, response.text);
            let mut message = self.counted(self.message(request.response_id, body));
            message.meta.usage = response.usage.map(Into::into);
            message.meta.speed = self.speed(&request, &message);
            // Cut at the output limit: kept, marked, and never presented
            // as a finished answer.
            message.meta.cut = response.stop_reason == StopReason::MaxTokens && !interrupted;
            // Stopped by the user: kept as far as it got, marked so.
            message.meta.stopped = interrupted;
            message.meta.author = member.clone();
            let cut = message.meta.cut;
            let stored = self.store_answer(&mut request, message);
            if cut && member.is_none() && self.may_continue(request.continued) {
                self.continue_answer(stored, request.continued + 1);
                return;
            }
            if cut {
                self.tell_cut(request.continued);
            }
        }
        if interrupted {
            self.child_failed("it was stopped by the user");
            self.notify(Notice::new(
                NoticeCode::Interrupted,
                "Stopped. The partial answer is kept; press Continue to let the model go on.",
            ));
        }
        if let Some(next) = next {
            self.member_answered(next, interrupted);
            return;
        }
        // A sub-agent's turn ends only with a submission.
        if !interrupted && !self.child_may_go_on(true) {
            return;
        }
        self.set_status(ContextStatus::Idle);
    }

    /// The answer's pace, from the request's times: the reported output
    /// tokens where the server gave them, else Braid's count.
    fn speed(&self, request: &InFlight, answer: &braid_protocol::Message) -> Option<AnswerSpeed> {
        let (sent, first) = (request.sent_at?, request.first_token_at?);
        let (output_tokens, reported) = match answer.meta.usage {
            Some(u) => (u.completion_tokens, true),
            None => (answer.meta.tokens.map_or(0, |t| t.count), false),
        };
        Some(AnswerSpeed {
            first_token_ms: first.0.saturating_sub(sent.0),
            streaming_ms: self.now.0.saturating_sub(first.0),
            output_tokens,
            reported,
        })
    }

    pub(super) fn discard(&mut self, id: MessageId) {
        self.lifecycle(id, MessageKind::Text, MessageChange::StatusChanged { status: "discarded".to_owned() });
    }

    /// The model said so, or a server gave nothing at all to a request
    /// that filled most of the window (llama.cpp servers answer an
    /// overflowing prompt with an empty stream): an estimate ran short.
    fn too_long(&self, failure: &LlmFailure, request: &super::InFlight) -> bool {
        let nothing =
            matches!(failure.code, FailureCode::EmptyResponse | FailureCode::StreamCut) && request.sequence == 0;
        let full = self.s.book.last_sent.as_ref().is_some_and(|u| {
            let sent = u64::from(u.system + u.tools + u.messages + u.reserved_output);
            sent * 100 >= u64::from(u.window) * NEAR_THE_WINDOW_PERCENT
        });
        failure.code == FailureCode::ContextLengthExceeded || (nothing && full)
    }

    pub(super) fn failed(&mut self, failure: LlmFailure) {
        let Some(request) = self.s.request.take() else { return };
        if request.sequence > 0 {
            self.discard(request.response_id);
        }
        // Too long for the model: once, send again with less of the
        // conversation (the stored messages stay as they are).
        if self.too_long(&failure, &request) && !request.trimmed {
            self.notify(Notice::new(
                NoticeCode::ContextTrimmed,
                "The model said the conversation is too long; older messages were left out and it was sent again.",
            ));
            let attempt = request.attempt;
            self.repeat_request(request, attempt);
            if let Some(r) = self.s.request.as_mut() {
                r.trimmed = true;
            }
            return;
        }
        // Refused as too long again with less of the conversation: the
        // largest message is what Braid under-counted. It stays out of
        // what is sent until the user brings it back, so the next turns
        // are not refused the same way.
        if self.too_long(&failure, &request) && request.trimmed {
            if let Some(id) = self.s.book.largest_sent.take() {
                self.s.config.left_out.insert(id);
                self.s.config.kept.remove(&id);
                self.notify(Notice::new(
                    NoticeCode::ContextTrimmed,
                    format!(
                        "The model refused the conversation as too long twice; message {id}, the largest sent, \
                         is now left out of what is sent, so the next requests fit. It stays in the history; Send \
                         again in the context view (/context) brings it back."
                    ),
                ));
            }
        }
        let max = self.s.config.max_retries;
        if failure.retryable && request.attempt <= max {
            let delay = retry_delay_ms(&self.s.config, request.attempt, request.id, failure.retry_after_ms);
            let at = self.now.plus_ms(delay);
            let attempt = request.attempt;
            let request_id = request.id;
            self.s.request = Some(InFlight { sequence: 0, first_token_at: None, progress_at: None, ..request });
            self.set_status(ContextStatus::RetryingLlmRequest { attempt, max, retry_at: at });
            self.notify(Notice::new(failure.code, failure.message));
            self.run(Effect::ScheduleRetry { request_id, at });
            return;
        }
        let message = if failure.retryable {
            format!("{} (gave up after {max} retries)", failure.message)
        } else {
            failure.message
        };
        self.set_status(ContextStatus::Failed { error_code: failure.code, message, recoverable: failure.retryable });
    }
}
