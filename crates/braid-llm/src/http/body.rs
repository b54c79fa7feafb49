//! A response body decoded: SSE events read by the provider's dialect
//! into provider events. Pure: used by the HTTP path and the benchmarks.

use crate::sse::{SseDecoder, SseEvent};
use crate::{anthropic, gemini, openai, LlmError, ProviderEvent};
use braid_protocol::ProviderKind;

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
        if self.sse.overflowed() {
            return Err(LlmError::Protocol {
                provider: self.provider.clone(),
                detail: format!(
                    "the stream sent an event longer than {} MB, more than Braid holds",
                    crate::sse::MAX_EVENT >> 20
                ),
            });
        }
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

/// A response's whole body as text, read in pieces: at most `cap` bytes
/// (a body past it is refused, not read on) and never longer than
/// [`READ_IDLE`] between two pieces. The one way Braid reads a body whole
/// from a server (`scripts/check-reads.sh`).
pub async fn capped_text(response: reqwest::Response, cap: usize) -> Result<String, String> {
    use futures::StreamExt;
    let mut body = response.bytes_stream();
    let mut bytes = Vec::new();
    loop {
        match tokio::time::timeout(READ_IDLE, body.next()).await {
            Err(_) => return Err(format!("the server sent nothing for {} s", READ_IDLE.as_secs())),
            Ok(None) => break,
            // A client's own read timeout (the hub's) says it as ours does.
            Ok(Some(Err(e))) if e.is_timeout() => {
                return Err("the server stopped sending; it did not answer in time".to_owned())
            }
            Ok(Some(Err(e))) => return Err(format!("the body could not be read: {e}")),
            Ok(Some(Ok(piece))) => {
                if bytes.len() + piece.len() > cap {
                    return Err(format!("the body is larger than {} KB, more than Braid reads", cap / 1024));
                }
                bytes.extend_from_slice(&piece);
            }
        }
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// The longest pause in a body read whole.
pub const READ_IDLE: std::time::Duration = std::time::Duration::from_secs(30);
