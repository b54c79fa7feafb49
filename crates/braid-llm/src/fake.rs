//! A scriptable fake provider (Zed's `FakeLanguageModel` in spirit). Three
//! ways to drive it, combinable:
//! - [`FakeProvider::push_reply`] queues a scripted reply (steps with delays);
//! - [`FakeProvider::manual`] hands each request to the test, which pushes
//!   chunks, tool calls, errors, stalls and the end one at a time;
//! - otherwise it answers as the built-in echo model does.
//!
//! Token counts are deterministic: a token is four characters, rounded up.
//! A scripted reply can also stall, cut the stream, or fail with any
//! classified HTTP error ([`FakeStep::Fail`] with an [`LlmError`]).

use crate::{LlmError, LlmProvider, LlmRequest, LlmStream, ProviderEvent};
use braid_core::llm::{StopReason, Usage};
use futures::channel::mpsc as chan;
use futures::StreamExt;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;
use tokio::sync::mpsc;

/// One scripted step.
#[derive(Debug, Clone, PartialEq)]
pub enum FakeStep {
    Connect,
    Text(String),
    ToolCall {
        id: String,
        name: String,
        arguments: String,
    },
    Usage(Usage),
    Delay(Duration),
    Fail(LlmError),
    Finish(StopReason),
    /// Never produce anything again (a hung server).
    Stall,
    /// End the stream here, without its end marker (a dropped connection).
    Cut,
}

/// A request handed to a test in manual mode. Dropping it without
/// [`FakeRequest::finish`] cuts the stream.
pub struct FakeRequest {
    pub request: LlmRequest,
    tx: chan::UnboundedSender<Result<ProviderEvent, LlmError>>,
}

impl FakeRequest {
    fn send(&self, item: Result<ProviderEvent, LlmError>) {
        // The runtime may have dropped the stream (cancel): that is fine.
        let _ = self.tx.unbounded_send(item);
    }
    pub fn connect(&self) {
        self.send(Ok(ProviderEvent::Connected));
    }
    pub fn text(&self, text: &str) {
        self.send(Ok(ProviderEvent::TextDelta(text.to_owned())));
    }
    pub fn tool_call(&self, index: u32, id: &str, name: &str, arguments: &str) {
        self.send(Ok(ProviderEvent::ToolCallDelta {
            index,
            id: Some(id.to_owned()),
            name: Some(name.to_owned()),
            arguments: arguments.to_owned(),
        }));
    }
    pub fn usage(&self, prompt_tokens: u32, completion_tokens: u32) {
        self.send(Ok(ProviderEvent::Usage(Usage { prompt_tokens, completion_tokens })));
    }
    pub fn fail(&self, error: LlmError) {
        self.send(Err(error));
        self.tx.close_channel();
    }
    pub fn finish(&self, reason: StopReason) {
        self.send(Ok(ProviderEvent::Finished(reason)));
        self.tx.close_channel();
    }
    /// True once the consumer dropped the stream (the connection closed).
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }
}

/// Receives the requests of a manual fake.
pub struct FakeController {
    rx: mpsc::UnboundedReceiver<FakeRequest>,
}

impl FakeController {
    pub async fn next_request(&mut self) -> Option<FakeRequest> {
        self.rx.recv().await
    }
}

#[derive(Default)]
struct Inner {
    replies: VecDeque<Vec<FakeStep>>,
    requests: Vec<LlmRequest>,
}

/// Decides a reply from the request itself (several conversations at
/// once, where a queue's order would be a race); `None`: not this one.
pub type Responder = dyn Fn(&LlmRequest) -> Option<Vec<FakeStep>> + Send + Sync;

pub struct FakeProvider {
    inner: Arc<Mutex<Inner>>,
    manual: Option<mpsc::UnboundedSender<FakeRequest>>,
    echo_delay: Duration,
    respond: Option<Arc<Responder>>,
}

impl FakeProvider {
    /// Echoes the last user message, one word per `delay`.
    pub fn echo(delay: Duration) -> FakeProvider {
        FakeProvider { inner: Arc::default(), manual: None, echo_delay: delay, respond: None }
    }

    /// Answers each request as `respond` decides (the echo when it says
    /// `None`), after any queued reply.
    pub fn answering(respond: impl Fn(&LlmRequest) -> Option<Vec<FakeStep>> + Send + Sync + 'static) -> FakeProvider {
        FakeProvider { respond: Some(Arc::new(respond)), ..FakeProvider::echo(Duration::ZERO) }
    }

    /// Hands every request without a scripted reply to the test.
    pub fn manual() -> (FakeProvider, FakeController) {
        let (tx, rx) = mpsc::unbounded_channel();
        let fake = FakeProvider { manual: Some(tx), ..FakeProvider::echo(Duration::ZERO) };
        (fake, FakeController { rx })
    }

    /// Queues the reply to the next request.
    pub fn push_reply(&self, steps: Vec<FakeStep>) {
        self.lock().replies.push_back(steps);
    }

    /// Every request received so far.
    pub fn requests(&self) -> Vec<LlmRequest> {
        self.lock().requests.clone()
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Tokens as the fake counts them (as the echo does).
pub use crate::echo::echo_tokens as fake_tokens;

fn scripted(steps: Vec<FakeStep>) -> LlmStream {
    // State: the steps left, the index the next tool call gets, and when
    // the last pause ended. Pauses run on a schedule, not one after the
    // other, so a 1 ms pace gives 1,000 chunks/s though a timer overshoots.
    let start = tokio::time::Instant::now();
    futures::stream::unfold((VecDeque::from(steps), 0u32, start), |(mut steps, mut tool_index, mut due)| async move {
        loop {
            let item = match steps.pop_front()? {
                FakeStep::Connect => Ok(ProviderEvent::Connected),
                FakeStep::Text(t) => Ok(ProviderEvent::TextDelta(t)),
                FakeStep::ToolCall { id, name, arguments } => {
                    tool_index += 1;
                    Ok(ProviderEvent::ToolCallDelta {
                        index: tool_index - 1,
                        id: Some(id),
                        name: Some(name),
                        arguments,
                    })
                }
                FakeStep::Usage(u) => Ok(ProviderEvent::Usage(u)),
                FakeStep::Delay(d) => {
                    due += d;
                    tokio::time::sleep_until(due).await;
                    continue;
                }
                FakeStep::Fail(e) => {
                    steps.clear();
                    Err(e)
                }
                FakeStep::Finish(r) => Ok(ProviderEvent::Finished(r)),
                FakeStep::Stall => futures::future::pending().await,
                FakeStep::Cut => return None,
            };
            return Some((item, (steps, tool_index, due)));
        }
    })
    .boxed()
}

impl LlmProvider for FakeProvider {
    fn name(&self) -> &str {
        "fake"
    }

    fn stream(&self, request: LlmRequest) -> LlmStream {
        let scripted_reply = {
            let mut inner = self.lock();
            inner.requests.push(request.clone());
            inner.replies.pop_front()
        };
        if let Some(steps) = scripted_reply.or_else(|| self.respond.as_ref().and_then(|r| r(&request))) {
            return scripted(steps);
        }
        if let Some(manual) = &self.manual {
            let (tx, rx) = chan::unbounded();
            let _ = manual.send(FakeRequest { request, tx });
            return rx.boxed();
        }
        crate::echo::EchoProvider::new(self.echo_delay).stream(request)
    }
}
