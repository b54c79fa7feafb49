//! The HTTP side of every provider: one request with reqwest, the status
//! classified, the body read as SSE and decoded by the provider's dialect.
//! Dropping the stream drops the response, which closes the connection.

use crate::sse::{SseDecoder, SseEvent};
use crate::{anthropic, gemini, http_error, openai, LlmError, LlmProvider, LlmRequest, LlmStream, ProviderEvent};
use futures::stream::BoxStream;
use futures::StreamExt;
use std::collections::VecDeque;
use std::fmt;
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
        })
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
}

impl BodyDecoder {
    pub fn new(kind: ProviderKind, provider: &str) -> BodyDecoder {
        BodyDecoder {
            provider: provider.to_owned(),
            sse: SseDecoder::new(),
            dialect: Dialect::new(kind),
            events: Vec::new(),
            finished: false,
        }
    }

    /// Feeds body bytes; provider events are appended to `out`.
    pub fn push(&mut self, bytes: &[u8], out: &mut Vec<ProviderEvent>) -> Result<(), LlmError> {
        self.sse.push(bytes, &mut self.events);
        self.drain(out)
    }

    fn drain(&mut self, out: &mut Vec<ProviderEvent>) -> Result<(), LlmError> {
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

    /// The body ended: the stream is complete only if the provider's end
    /// marker came; otherwise it was cut.
    pub fn finish(&mut self, out: &mut Vec<ProviderEvent>) -> Result<(), LlmError> {
        self.sse.finish(&mut self.events);
        self.drain(out)?;
        if self.finished || self.dialect.finish(out) {
            self.finished = true;
            Ok(())
        } else {
            Err(LlmError::StreamCut { provider: self.provider.clone() })
        }
    }
}

type Body = BoxStream<'static, reqwest::Result<bytes::Bytes>>;

enum State {
    Start(Option<reqwest::RequestBuilder>),
    Body(Body, BodyDecoder),
    Done,
}

fn network(provider: &str, e: &reqwest::Error) -> LlmError {
    // reqwest's Display can include the URL; never the headers (the key).
    let detail = if e.is_timeout() {
        "timed out".to_owned()
    } else if e.is_connect() {
        format!("connection failed: {e}")
    } else {
        e.to_string()
    };
    LlmError::Network { provider: provider.to_owned(), detail }
}

impl LlmProvider for HttpProvider {
    fn name(&self) -> &str {
        &self.name
    }

    fn stream(&self, request: LlmRequest) -> LlmStream {
        let builder = self.build(&request);
        let name = self.name.clone();
        let kind = self.kind;
        let timeouts = self.timeouts;
        let init = (State::Start(Some(builder)), VecDeque::<Result<ProviderEvent, LlmError>>::new());
        futures::stream::unfold(init, move |(mut state, mut queue)| {
            let name = name.clone();
            async move {
                loop {
                    if let Some(item) = queue.pop_front() {
                        return Some((item, (state, queue)));
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
                            queue.extend(out.into_iter().map(Ok));
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
