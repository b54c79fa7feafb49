//! rmcp's streamable HTTP client, watched: a response over the message
//! limit is refused by rmcp, which then closes the session and only logs
//! why. Here the refusal is also said (as [`Oversized`]), so the call it
//! answered fails with the limit rather than as a server that stopped.

use super::stdio::{Oversize, Oversized};
use futures::stream::BoxStream;
use futures::StreamExt;
use http::{HeaderName, HeaderValue};
use rmcp::model::{ClientJsonRpcMessage, JsonRpcMessage};
use rmcp::transport::streamable_http_client::{
    SseError, StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse, StreamableHttpResponseLimits,
};
use sse_stream::Sse;
use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;

#[derive(Clone)]
pub struct Watched {
    pub inner: reqwest::Client,
    pub said: Oversize,
}

type Posted = Result<StreamableHttpPostResponse, StreamableHttpError<reqwest::Error>>;

impl StreamableHttpClient for Watched {
    type Error = reqwest::Error;

    fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> impl Future<Output = Posted> + Send + '_ {
        self.inner.post_message(uri, message, session_id, auth_header, custom_headers)
    }

    fn post_message_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> impl Future<Output = Posted> + Send + '_ {
        self.inner.post_message_with_max_sse_event_size(
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
            max_sse_event_size,
        )
    }

    fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> impl Future<Output = Posted> + Send + '_ {
        let id = match &message {
            JsonRpcMessage::Request(r) => Some(r.id.to_string()),
            _ => None,
        };
        async move {
            let posted = self
                .inner
                .post_message_with_response_limits(uri, message, session_id, auth_header, custom_headers, limits)
                .await;
            match posted {
                Err(StreamableHttpError::ResponseBodyTooLarge { max_size }) => {
                    self.said.say(Oversized { id, bytes: None, limit: max_size });
                    Err(StreamableHttpError::ResponseBodyTooLarge { max_size })
                }
                // An answer streamed as events: one over the limit ends the
                // stream with an error rmcp names only in its words.
                Ok(StreamableHttpPostResponse::Sse(stream, session)) => {
                    let (said, limit) = (self.said.clone(), limits.max_sse_event_size);
                    let watched = stream.inspect(move |item| {
                        if let Err(e) = item {
                            if e.to_string().contains("exceeded the maximum size") {
                                said.say(Oversized { id: id.clone(), bytes: None, limit });
                            }
                        }
                    });
                    Ok(StreamableHttpPostResponse::Sse(watched.boxed(), session))
                }
                other => other,
            }
        }
    }

    fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> impl Future<Output = Result<(), StreamableHttpError<reqwest::Error>>> + Send + '_ {
        self.inner.delete_session(uri, session_id, auth_header, custom_headers)
    }

    fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> impl Future<Output = Result<BoxStream<'static, Result<Sse, SseError>>, StreamableHttpError<reqwest::Error>>>
           + Send
           + '_ {
        self.inner.get_stream(uri, session_id, last_event_id, auth_header, custom_headers)
    }

    fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> impl Future<Output = Result<BoxStream<'static, Result<Sse, SseError>>, StreamableHttpError<reqwest::Error>>>
           + Send
           + '_ {
        self.inner.get_stream_with_max_sse_event_size(
            uri,
            session_id,
            last_event_id,
            auth_header,
            custom_headers,
            max_sse_event_size,
        )
    }
}
