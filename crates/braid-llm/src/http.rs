//! The HTTP side of every provider: one request with reqwest, the status
//! classified, the body read as SSE and decoded by the provider's dialect.
//! Dropping the stream drops the response, which closes the connection.

mod body;
mod count;
mod fallback;
mod forced;
mod network;
pub(crate) use network::network as network_error;

use crate::{anthropic, gemini, http_error, openai, LlmError, LlmProvider, LlmRequest, LlmStream, ProviderEvent};
pub use body::{capped_text, BodyDecoder, READ_IDLE};
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
    /// Whether it is llama.cpp's own server, once found out (`forced.rs`).
    llama_cpp: Arc<tokio::sync::OnceCell<bool>>,
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
            llama_cpp: Arc::default(),
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

    /// `extra`: fields added to an OpenAI-compatible body (a forced call's
    /// schema, `forced.rs`).
    fn build(
        &self,
        request: &LlmRequest,
        extra: Option<&serde_json::Map<String, serde_json::Value>>,
    ) -> reqwest::RequestBuilder {
        let key = self.api_key.as_ref().map(ApiKey::expose);
        match self.kind {
            ProviderKind::OpenAiCompatible => {
                let mut body = openai::encode(request);
                if let (Some(extra), Some(fields)) = (extra, body.as_object_mut()) {
                    fields.extend(extra.clone());
                }
                let b = self.client.post(format!("{}/chat/completions", self.base_url)).json(&body);
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

    fn count_request(&self, request: &LlmRequest) -> futures::future::BoxFuture<'static, Option<u32>> {
        if self.kind != ProviderKind::OpenAiCompatible {
            return Box::pin(async { None });
        }
        let (this, body) = (self.clone(), openai::encode(request));
        Box::pin(async move { this.count_whole(body).await })
    }

    fn stream(&self, request: LlmRequest) -> LlmStream {
        match forced::tool(&request) {
            Some(tool) if self.kind == ProviderKind::OpenAiCompatible => forced::stream(self.clone(), request, tool),
            _ => self.stream_http(request, None),
        }
    }
}

impl HttpProvider {
    /// The request over HTTP, its body read as the provider's SSE; `extra`
    /// fields go into an OpenAI-compatible body.
    fn stream_http(&self, request: LlmRequest, extra: Option<serde_json::Map<String, serde_json::Value>>) -> LlmStream {
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
            State::Start(Some(self.build(&request, extra.as_ref())))
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
                                    let body = body::capped_text(response, 1 << 20).await.unwrap_or_default();
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
