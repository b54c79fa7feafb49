//! An answer cut at the output limit goes on by itself, as many times as
//! the conversation allows (`GenerationSettings::continue_cut`, once by
//! default): the next request tells the model to go on from where it
//! stopped (`prompt::continuation`), and what it writes is joined to the
//! cut answer, which stays one message. Past the limit, the answer stays
//! cut and Continue is the user's.

use super::step::Step;
use super::InFlight;
use braid_protocol::{ContentPart, Message, MessageChange, MessageKind, MessageType, Notice, NoticeCode};

impl Step<'_> {
    /// Stores an answer: a new message, or the continuation of a cut one
    /// joined to it (its own draft then goes). Returns what is stored.
    pub(super) fn store_answer(&mut self, request: &mut InFlight, message: Message) -> Message {
        let Some(mut original) = request.continues.take() else {
            let stored = message.clone();
            self.append(message);
            self.lifecycle(request.response_id, MessageKind::Text, MessageChange::Completed);
            return stored;
        };
        join_text(&mut original.body, &message.body.plain_text().unwrap_or_default());
        original.meta.cut = message.meta.cut;
        original.meta.stopped = message.meta.stopped;
        original.meta.usage = match (original.meta.usage, message.meta.usage) {
            (Some(a), Some(b)) => Some(braid_protocol::TokenUsage {
                prompt_tokens: b.prompt_tokens,
                completion_tokens: a.completion_tokens + b.completion_tokens,
            }),
            (a, b) => b.or(a),
        };
        original.meta.tokens = None;
        if request.sequence > 0 {
            self.discard(request.response_id);
        }
        self.rewrite((*original).clone(), "continued".to_owned());
        *original
    }

    /// Whether a cut answer goes on by itself after `done` continuations.
    pub(super) fn may_continue(&self, done: u32) -> bool {
        done < self.s.config.generation.continuations()
    }

    /// The next request, continuing `answer`.
    pub(super) fn continue_answer(&mut self, answer: Message, done: u32) {
        self.start_request(1);
        if let Some(r) = self.s.request.as_mut() {
            r.continues = Some(Box::new(answer));
            r.continued = done;
        }
    }

    /// Continue pressed after a cut or stopped answer: as Retry, and what
    /// comes is joined to it.
    pub(super) fn continue_by_hand(&mut self, answer: Message) {
        self.reply(Ok(super::Reply::Done));
        self.s.auto_loop = super::LoopProgress::default();
        self.continue_answer(answer, 0);
    }

    pub(super) fn tell_cut(&mut self, continued: u32) {
        let text = match continued {
            0 => "The answer reached the model's output limit and was cut. Press Continue to let the model go on."
                .to_owned(),
            n => format!(
                "The answer reached the model's output limit again after {n} automatic continuation{}. Press Continue \
                 to let the model go on.",
                if n == 1 { "" } else { "s" }
            ),
        };
        self.notify(Notice::new(NoticeCode::AnswerCut, text));
    }
}

/// `more` after the text of an answer, exactly as the model wrote both.
fn join_text(body: &mut MessageType, more: &str) {
    if let MessageType::Text { parts, .. } = body {
        match parts.last_mut() {
            Some(ContentPart::Text { text }) => text.push_str(more),
            None => parts.push(ContentPart::Text { text: more.to_owned() }),
        }
    }
}
