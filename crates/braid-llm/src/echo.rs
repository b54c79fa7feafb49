//! The built-in echo model: answers "You said: …" word by word, at a
//! steady pace, with a deterministic token count. It is what Braid talks
//! to before any provider is set up (demos, the first run, the browser
//! tests), and it is a provider like any other — no scripting, no test
//! hooks (those are in the `fake` module, for tests only).

use crate::{LlmProvider, LlmRequest, LlmStream, ProviderEvent};
use braid_core::llm::{StopReason, Usage};
use braid_protocol::{MessageType, Role};
use futures::StreamExt;
use std::collections::VecDeque;
use std::time::Duration;

pub struct EchoProvider {
    /// The pause between words.
    delay: Duration,
}

impl EchoProvider {
    pub fn new(delay: Duration) -> EchoProvider {
        EchoProvider { delay }
    }
}

/// Tokens as the echo counts them: four characters each, rounded up.
pub fn echo_tokens(text: &str) -> u32 {
    text.chars().count().div_ceil(4) as u32
}

/// What the echo answers to a request: the last user message, repeated;
/// asked for a title, the question's first words (a stand-in model names a
/// conversation the way Braid does when a model gives no title).
pub fn echo_answer(request: &LlmRequest) -> String {
    if request.system.as_deref() == Some(braid_core::title::INSTRUCTIONS) {
        let question = request.messages.iter().find_map(|m| m.body.plain_text()).unwrap_or_default();
        let question = question.strip_prefix("User: ").unwrap_or(&question);
        return braid_core::title::from_question(question.split("\n\nAssistant: ").next().unwrap_or_default());
    }
    let last_user = request
        .messages
        .iter()
        .rev()
        .find_map(|m| match &m.body {
            MessageType::Text { role: Role::User, .. } => m.body.plain_text(),
            _ => None,
        })
        .unwrap_or_default();
    format!("You said: {last_user}")
}

impl LlmProvider for EchoProvider {
    fn name(&self) -> &str {
        "echo"
    }

    fn stream(&self, request: LlmRequest) -> LlmStream {
        let answer = echo_answer(&request);
        let prompt = request.messages.iter().filter_map(|m| m.body.plain_text()).map(|t| echo_tokens(&t)).sum();
        let usage = Usage { prompt_tokens: prompt, completion_tokens: echo_tokens(&answer) };
        let mut events: VecDeque<ProviderEvent> = VecDeque::from([ProviderEvent::Connected]);
        events.extend(answer.split_inclusive(' ').map(|w| ProviderEvent::TextDelta(w.to_owned())));
        events.push_back(ProviderEvent::Usage(usage));
        events.push_back(ProviderEvent::Finished(StopReason::EndTurn));
        let delay = self.delay;
        // Words go out on a schedule, not one pause after the other, so a
        // 1 ms pace gives 1,000 words a second though timers overshoot.
        let start = tokio::time::Instant::now();
        futures::stream::unfold((events, start, 0u32), move |(mut events, mut due, words)| async move {
            let event = events.pop_front()?;
            let words = match event {
                ProviderEvent::TextDelta(_) => {
                    if words > 0 && !delay.is_zero() {
                        due += delay;
                        tokio::time::sleep_until(due).await;
                    }
                    words + 1
                }
                _ => words,
            };
            Some((Ok(event), (events, due, words)))
        })
        .boxed()
    }
}
