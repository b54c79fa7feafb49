//! The HTTP side of every provider: one request with reqwest, the status
//! classified, the body read as SSE and decoded by the provider's dialect.
//! Dropping the stream drops the response, which closes the connection.

mod count;
mod fallback;
mod network;
pub(crate) use network::network as network_error;

use crate::sse::{SseDecoder, SseEvent};
use crate::{anthropic, gemini, http_error, openai, LlmError, LlmProvider, LlmRequest, LlmStream, ProviderEvent};
use fallback::{first_time, says_nothing, whole, Fallbacks};
use futures::stream::BoxStream;
use futures::StreamExt;
use network::network;
use std::collections::{HashSet, VecDeque};
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

pub use braid_protocol::ProviderKind;

/// An API key. Its Debug and Display never show it, so it cannot leak into
/// logs or error messages by accident.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    pub fn new(key: impl Into<String>) -> Option<ApiKey> {
        let key = key.into().trim().to_owned();
        (!key.is_empty()).then_some(ApiKey(key))
    }
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(…)")
    }
}

/// How long to wait for response headers, and for each next piece of the
/// body: a server that stalls longer is treated as a network failure.
#[derive(Debug, Clone, Copy)]
pub struct Timeouts {
    pub connect: Duration,
    pub first_byte: Duration,
    pub idle: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts {
            connect: Duration::from_secs(10),
            first_byte: Duration::from_secs(120),
            idle: Duration::from_secs(120),
        }
    }
}

#[derive(Debug, Clone)]
pub struct HttpProvider {
    kind: ProviderKind,
    name: String,
    base_url: String,
    api_key: Option<ApiKey>,
    timeouts: Timeouts,
    client: reqwest::Client,
    /// For a turn asked again after the server broke a stream: never a
    /// pooled connection, which that server may just have dropped.
    fresh: reqwest::Client,
    /// Models this server could not stream a tool turn for (llama-cpp-
    /// python): the user was told once that such turns come whole.
    whole_with_tools: Arc<Mutex<HashSet<String>>>,
    /// How this server counts tokens, once found out.
    count_endpoint: Arc<Mutex<count::Endpoint>>,
}

impl HttpProvider {
    pub fn new(
        kind: ProviderKind,
        name: &str,
        base_url: &str,
        api_key: Option<ApiKey>,
        timeouts: Timeouts,
    ) -> Result<HttpProvider, LlmError> {
        let client = reqwest::Client::builder()
            .connect_timeout(timeouts.connect)
            .build()
            .map_err(|e| LlmError::Network { provider: name.to_owned(), detail: e.to_string() })?;
        Ok(HttpProvider {
            kind,
            name: name.to_owned(),
            base_url: base_url.trim_end_matches('/').to_owned(),
            api_key,
            timeouts,
            client,
            fresh: reqwest::Client::builder()
                .connect_timeout(timeouts.connect)
                .pool_max_idle_per_host(0)
                .build()
                .map_err(|e| LlmError::Network { provider: name.to_owned(), detail: e.to_string() })?,
            whole_with_tools: Arc::default(),
            count_endpoint: Arc::new(Mutex::new(count::Endpoint::Unknown)),
        })
    }

    /// An OpenAI-compatible request with tools, asked for in one piece.
    fn build_whole(&self, request: &LlmRequest) -> reqwest::RequestBuilder {
        let b = self.fresh.post(format!("{}/chat/completions", self.base_url)).json(&openai::encode_whole(request));
        match self.api_key.as_ref().map(ApiKey::expose) {
            Some(k) => b.bearer_auth(k),
            None => b,
        }
    }

    pub fn kind(&self) -> ProviderKind {
        self.kind
    }

    fn build(&self, request: &LlmRequest) -> reqwest::RequestBuilder {
        let key = self.api_key.as_ref().map(ApiKey::expose);
        match self.kind {
            ProviderKind::OpenAiCompatible => {
                let b = self.client.post(format!("{}/chat/completions", self.base_url)).json(&openai::encode(request));
                match key {
                    Some(k) => b.bearer_auth(k),
                    None => b,
                }
            }
            ProviderKind::Anthropic => {
                let b = self
                    .client
                    .post(format!("{}/messages", self.base_url))
                    .header("anthropic-version", "2023-06-01")
                    .json(&anthropic::encode(request));
                match key {
                    Some(k) => b.header("x-api-key", k),
                    None => b,
                }
            }
            ProviderKind::Gemini => {
                let url = format!("{}/models/{}:streamGenerateContent?alt=sse", self.base_url, request.model);
                let b = self.client.post(url).json(&gemini::encode(request));
                match key {
                    Some(k) => b.header("x-goog-api-key", k),
                    None => b,
                }
            }
        }
    }
}

enum Dialect {
    OpenAi(openai::Decoder),
    Anthropic(anthropic::Decoder),
    Gemini(gemini::Decoder),
}

impl Dialect {
    fn new(kind: ProviderKind) -> Dialect {
        match kind {
            ProviderKind::OpenAiCompatible => Dialect::OpenAi(openai::Decoder::default()),
            ProviderKind::Anthropic => Dialect::Anthropic(anthropic::Decoder::default()),
            ProviderKind::Gemini => Dialect::Gemini(gemini::Decoder::default()),
        }
    }
    fn decode(&mut self, provider: &str, e: &SseEvent, out: &mut Vec<ProviderEvent>) -> Result<(), LlmError> {
        match self {
            Dialect::OpenAi(d) => d.decode(provider, e, out),
            Dialect::Anthropic(d) => d.decode(provider, e, out),
            Dialect::Gemini(d) => d.decode(provider, e, out),
        }
    }
    fn finish(&mut self, out: &mut Vec<ProviderEvent>) -> bool {
        match self {
            Dialect::OpenAi(d) => d.finish(out),
            Dialect::Anthropic(d) => d.finish(out),
            Dialect::Gemini(d) => d.finish(out),
        }
    }
}

/// Decodes a whole SSE body for one provider kind: the pure part of a
/// stream, used by the HTTP path and by the benchmarks.
pub struct BodyDecoder {
    provider: String,
    sse: SseDecoder,
    dialect: Dialect,
    events: Vec<SseEvent>,
    finished: bool,
    /// Bytes of body seen: none at all is an empty response, not a cut.
    received: usize,
    /// Events with data seen: a body of `: ping` comments alone said
    /// nothing either.
    data_events: usize,
}

impl BodyDecoder {
    pub fn new(kind: ProviderKind, provider: &str) -> BodyDecoder {
        BodyDecoder {
            provider: provider.to_owned(),
            sse: SseDecoder::new(),
            dialect: Dialect::new(kind),
            events: Vec::new(),
            finished: false,
            received: 0,
            data_events: 0,
        }
    }

    /// Feeds body bytes; provider events are appended to `out`.
    pub fn push(&mut self, bytes: &[u8], out: &mut Vec<ProviderEvent>) -> Result<(), LlmError> {
        self.received += bytes.len();
        self.sse.push(bytes, &mut self.events);
        self.drain(out)
    }

    fn drain(&mut self, out: &mut Vec<ProviderEvent>) -> Result<(), LlmError> {
        self.data_events += self.events.iter().filter(|e| !e.data.trim().is_empty()).count();
        for e in self.events.drain(..) {
            if self.finished {
                break;
            }
            let start = out.len();
            self.dialect.decode(&self.provider, &e, out)?;
            self.finished = out[start..].iter().any(|e| matches!(e, ProviderEvent::Finished(_)));
        }
        Ok(())
    }

    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Whether nothing but SSE comments (pings) has come, if anything.
    pub fn nothing_came(&self) -> bool {
        self.data_events == 0
    }

    /// The body ended: the stream is complete only if the provider's end
    /// marker came; otherwise it was cut.
    pub fn finish(&mut self, out: &mut Vec<ProviderEvent>) -> Result<(), LlmError> {
        self.sse.finish(&mut self.events);
        self.drain(out)?;
        if self.finished || self.dialect.finish(out) {
            self.finished = true;
            Ok(())
        } else if self.received == 0 || self.data_events == 0 {
            Err(LlmError::EmptyResponse { provider: self.provider.clone() })
        } else {
            Err(LlmError::StreamCut { provider: self.provider.clone() })
        }
    }
}

type Body = BoxStream<'static, reqwest::Result<bytes::Bytes>>;

enum State {
    Start(Option<reqwest::RequestBuilder>),
    Body(Body, BodyDecoder),
    /// The request asked for whole (no stream).
    Whole(Option<reqwest::RequestBuilder>),
    Done,
}

impl LlmProvider for HttpProvider {
    fn name(&self) -> &str {
        &self.name
    }

    fn count_tokens(&self, model: &str, texts: Vec<String>) -> futures::future::BoxFuture<'static, Option<Vec<u32>>> {
        if self.kind != ProviderKind::OpenAiCompatible {
            return Box::pin(async { None });
        }
        let (this, model) = (self.clone(), model.to_owned());
        Box::pin(async move { this.count_texts(&model, &texts).await })
    }

    fn stream(&self, request: LlmRequest) -> LlmStream {
        let name = self.name.clone();
        let kind = self.kind;
        let timeouts = self.timeouts;
        // A turn with tools that such a server cannot stream (its model
        // picked a tool) is asked for again whole; once that happened for
        // this model, its turns with tools go whole at once (asking twice
        // in every round cost more than the stream gave).
        let with_tools = kind == ProviderKind::OpenAiCompatible && !request.tools.is_empty();
        let goes_whole =
            with_tools && self.whole_with_tools.lock().unwrap_or_else(PoisonError::into_inner).contains(&request.model);
        let first = if goes_whole {
            State::Whole(Some(self.build_whole(&request)))
        } else {
            State::Start(Some(self.build(&request)))
        };
        let fallback = Fallbacks {
            whole: with_tools.then(|| self.build_whole(&request)),
            // Such a server may answer a plain question with nothing when
            // tools are offered; then the turn is asked again, streamed,
            // without them.
            plain: with_tools
                .then(|| {
                    let plain = LlmRequest { tools: Vec::new(), tool_choice: None, ..request.clone() };
                    self.fresh.post(format!("{}/chat/completions", self.base_url)).json(&openai::encode(&plain))
                })
                .map(|b| match self.api_key.as_ref().map(ApiKey::expose) {
                    Some(k) => b.bearer_auth(k),
                    None => b,
                }),
            said: false,
        };
        let remember = (self.whole_with_tools.clone(), request.model.clone());
        let init = (first, VecDeque::<Result<ProviderEvent, LlmError>>::new(), fallback);
        futures::stream::unfold(init, move |(mut state, mut queue, mut fallback)| {
            let name = name.clone();
            let remember = remember.clone();
            async move {
                loop {
                    if let Some(item) = queue.pop_front() {
                        return Some((item, (state, queue, fallback)));
                    }
                    state = match state {
                        State::Done => return None,
                        State::Start(builder) => {
                            let builder = builder?;
                            match tokio::time::timeout(timeouts.first_byte, builder.send()).await {
                                Err(_) => {
                                    let e = LlmError::Network {
                                        provider: name.clone(),
                                        detail: "no response within the time limit".into(),
                                    };
                                    queue.push_back(Err(e));
                                    State::Done
                                }
                                // The server dropped the connection without
                                // answering: with tools, ask for the turn
                                // whole, as for an empty stream (a server that
                                // is down fails that too, and is reported).
                                Ok(Err(e)) if !e.is_timeout() && fallback.whole.is_some() => {
                                    tracing::info!(provider = %name, error = %e, "no answer to a turn with tools: asking for it whole");
                                    queue.extend(first_time(&remember, &name).map(|n| Ok(ProviderEvent::Note(n))));
                                    State::Whole(fallback.whole.take())
                                }
                                Ok(Err(e)) => {
                                    queue.push_back(Err(network(&name, &e)));
                                    State::Done
                                }
                                Ok(Ok(response)) if !response.status().is_success() => {
                                    let status = response.status().as_u16();
                                    let retry_after = response
                                        .headers()
                                        .get(reqwest::header::RETRY_AFTER)
                                        .and_then(|v| v.to_str().ok())
                                        .map(str::to_owned);
                                    let body = response.text().await.unwrap_or_default();
                                    queue.push_back(Err(http_error::classify(
                                        &name,
                                        status,
                                        retry_after.as_deref(),
                                        &body,
                                    )));
                                    State::Done
                                }
                                Ok(Ok(response)) => {
                                    queue.push_back(Ok(ProviderEvent::Connected));
                                    State::Body(response.bytes_stream().boxed(), BodyDecoder::new(kind, &name))
                                }
                            }
                        }
                        State::Whole(builder) => {
                            let builder = builder?;
                            match whole(&name, builder, timeouts).await {
                                Ok(events) if says_nothing(&events) && fallback.plain.is_some() => {
                                    tracing::info!(provider = %name, "empty whole answer with tools: asking again without them");
                                    queue.push_back(Ok(ProviderEvent::SentAgainWithoutTools));
                                    state = State::Start(fallback.plain.take());
                                    continue;
                                }
                                Ok(events) => {
                                    queue.push_back(Ok(ProviderEvent::Connected));
                                    queue.extend(events.into_iter().map(Ok));
                                }
                                Err(e) => queue.push_back(Err(e)),
                            }
                            State::Done
                        }
                        State::Body(mut body, mut decoder) => {
                            let mut out = Vec::new();
                            let next = match tokio::time::timeout(timeouts.idle, body.next()).await {
                                Err(_) => Err(LlmError::Network {
                                    provider: name.clone(),
                                    detail: "the stream stalled".into(),
                                }),
                                Ok(Some(Ok(bytes))) => decoder.push(&bytes, &mut out),
                                Ok(Some(Err(e))) => Err(if e.is_timeout() {
                                    network(&name, &e)
                                } else {
                                    LlmError::StreamCut { provider: name.clone() }
                                }),
                                Ok(None) => decoder.finish(&mut out),
                            };
                            let ended = next.is_err() || decoder.is_finished();
                            fallback.said |= !says_nothing(&out);
                            // Finished with nothing said while tools were
                            // offered: ask again without them.
                            if decoder.is_finished() && !fallback.said && fallback.plain.is_some() {
                                out.retain(|e| !matches!(e, ProviderEvent::Finished(_) | ProviderEvent::Usage(_)));
                                queue.extend(out.into_iter().map(Ok));
                                tracing::info!(provider = %name, "empty answer with tools: asking again without them");
                                queue.push_back(Ok(ProviderEvent::SentAgainWithoutTools));
                                state = State::Start(fallback.plain.take());
                                continue;
                            }
                            queue.extend(out.into_iter().map(Ok));
                            // llama-cpp-python fails a streamed turn with tools
                            // when the model picks a tool: an empty 200, or a
                            // reset before any byte.
                            let refused = next.is_err() && decoder.nothing_came() && fallback.whole.is_some();
                            // (Taken only then: the first chunk of a stream
                            // of pings must leave it for the end.)
                            if let Some(builder) = fallback.whole.take_if(|_| refused) {
                                tracing::info!(provider = %name, "empty stream with tools: asking for the turn whole");
                                queue.extend(first_time(&remember, &name).map(|n| Ok(ProviderEvent::Note(n))));
                                state = State::Whole(Some(builder));
                                continue;
                            }
                            if let Err(e) = next {
                                queue.push_back(Err(e));
                            }
                            if ended {
                                State::Done
                            } else {
                                State::Body(body, decoder)
                            }
                        }
                    };
                }
            }
        })
        .boxed()
    }
}
